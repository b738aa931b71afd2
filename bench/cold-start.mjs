// What a user waits for in a fresh process: the first decision (load the module, build a policy,
// decide one call), for toolgate's engine, its MCP entry and the tree-sitter-bash peer, each in
// its own `node` process, the sides alternating round by round (bench/cold/).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** One fresh process running `script` with `arg`: its JSON of phase times (ms). */
function fresh(script, arg) {
  const out = execFileSync(process.execPath, [join(here, 'cold', script), ...(arg ? [arg] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out);
}

/**
 * `rounds` rounds of every side, in alternating order. Returns per-side samples, each
 * `{ load, build, decide, total }` (or `{ read, compile, total }` for the compile-only floors).
 */
export function measureColdStart(pkg, rounds = 15) {
  const sides = {
    engine: () => fresh('engine.cjs', join(pkg, 'engine', 'node', 'toolgate_engine.js')),
    peer: () => fresh('peer.mjs'),
    mcp: () => fresh('mcp.cjs', join(pkg, 'node', 'toolgate.js')),
    'compile engine .wasm': () => fresh('compile.cjs', join(pkg, 'engine', 'web', 'toolgate_engine_bg.wasm')),
    'compile MCP .wasm': () => fresh('compile.cjs', join(pkg, 'web', 'toolgate_bg.wasm')),
  };
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (const name of names) sides[name](); // the files into the page cache, untimed
  for (let k = 0; k < rounds; k++) {
    const order = k % 2 ? [...names].reverse() : names;
    for (const name of order) samples[name].push(sides[name]());
  }
  return samples;
}
