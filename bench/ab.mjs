// A/B of two builds of toolgate, for a mechanism that claims to pay for itself:
//
//   node bench/ab.mjs <rev-a> <rev-b> [label]      e.g. node bench/ab.mjs HEAD~1 HEAD
//
// Builds the engine and the MCP entry (web target, wasm-opt as the package does) of each git
// revision into a directory under the system temp dir (Cargo's target dir target/ab/ is shared, so
// only toolgate itself is compiled again), loads both into this process, and
// times the bench's terminal and MCP workloads in alternating rounds: each line is the median of
// the per-round time ratios b / a (below 1: b is faster).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeCalls, makeCommands, makeList, makeRules, policySpec } from './workloads.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [revA, revB, label = `${revA} → ${revB}`] = process.argv.slice(2);
if (!revA || !revB) {
  console.error('usage: node bench/ab.mjs <rev-a> <rev-b> [label]');
  process.exit(2);
}
const WASM_OPT_FLAGS = ['-O3', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals'];

/** The engine and MCP web builds of `rev`, initialised: `{ engine, mcp }`. */
async function build(rev) {
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', rev], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `toolgate-ab-${commit}`);
  const built = {};
  for (const [name, features] of [['engine', 'engine'], ['mcp', 'mcp']]) {
    const out = join(dir, 'out', name);
    if (!existsSync(join(out, 'toolgate.js'))) {
      rmSync(join(dir, 'src'), { recursive: true, force: true });
      mkdirSync(join(dir, 'src'), { recursive: true });
      execFileSync('tar', ['-x', '-C', join(dir, 'src')], { input: execFileSync('git', ['-C', root, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 }) });
      console.error(`building ${name} at ${commit}…`);
      execFileSync('wasm-pack', ['--quiet', 'build', '--mode', 'no-install', '--release', '--target', 'web', '--out-dir', out,
        '--out-name', 'toolgate', '--no-pack', '--', '--no-default-features', '--features', features],
      { cwd: join(dir, 'src'), stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, CARGO_TARGET_DIR: join(root, 'target', 'ab') } });
      const wasm = join(out, 'toolgate_bg.wasm');
      execFileSync(join(root, 'node_modules', '.bin', 'wasm-opt'), [...WASM_OPT_FLAGS, wasm, '-o', wasm], { stdio: 'inherit' });
    }
    const glue = await import(pathToFileURL(join(out, 'toolgate.js')).href);
    glue.initSync({ module: readFileSync(join(out, 'toolgate_bg.wasm')) });
    built[name] = glue;
  }
  return { commit, ...built };
}

const a = await build(revA);
const b = await build(revB);
console.log(`A/B: ${label}\n  a = ${a.commit}, b = ${b.commit}; times b / a, median of 15 alternating rounds (below 1.00: b is faster)\n`);

let sink = 0;
/** ns per input of `fn` over `inputs`, `reps` times. */
function round(fn, inputs, reps) {
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < reps; r++) for (let i = 0; i < inputs.length; i++) sink += fn(inputs[i]) ? 1 : 0;
  return Number(process.hrtime.bigint() - t0) / (reps * inputs.length);
}
/** The median of the per-round ratios b / a, after a warm-up of each side. */
function compare(fa, fb, inputs) {
  const end = performance.now() + 600;
  while (performance.now() < end) { round(fa, inputs, 1); round(fb, inputs, 1); }
  let reps = 1;
  while (round(fa, inputs, reps) * reps * inputs.length < 20e6) reps *= 2;
  const ratios = [];
  let nsA = [];
  for (let k = 0; k < 15; k++) {
    const [x, y] = k % 2 ? [round(fb, inputs, reps), round(fa, inputs, reps)].reverse() : [round(fa, inputs, reps), round(fb, inputs, reps)];
    ratios.push(y / x);
    nsA.push(x);
  }
  const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
  return { ratio: median(ratios), ns: median(nsA) };
}

const rows = [];
for (const n of [14, 104, 1004]) {
  const rules = makeRules(n - 4), commands = makeCommands(n - 4);
  const pa = new a.engine.Policy(policySpec(rules)), pb = new b.engine.Policy(policySpec(rules));
  const d = compare((c) => pa.decide('terminal', c).outcome, (c) => pb.decide('terminal', c).outcome, commands);
  const o = compare((c) => pa.outcome('terminal', c), (c) => pb.outcome('terminal', c), commands);
  rows.push([`terminal decide (explained), ${n} rules`, d], [`terminal outcome, ${n} rules`, o]);
}
for (const n of [10, 10000]) {
  const list = makeList(n), calls = makeCalls(list), settings = { mcpAllowedTools: list, mcpToolsProtection: false };
  const pa = new a.mcp.McpPolicy(settings), pb = new b.mcp.McpPolicy(settings);
  rows.push([`MCP decide (explained), ${n} entries`, compare(([s, t]) => pa.decide(s, t, 'yolo').needApproval, ([s, t]) => pb.decide(s, t, 'yolo').needApproval, calls)]);
  rows.push([`MCP isAllowlisted, ${n} entries`, compare(([s, t]) => pa.isAllowlisted(s, t), ([s, t]) => pb.isAllowlisted(s, t), calls)]);
}
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, { ratio, ns }] of rows) console.log(`  ${name.padEnd(width)}  a ${ns.toFixed(0).padStart(6)} ns   b / a ${ratio.toFixed(3)}`);
const sizes = (x) => ['engine', 'mcp'].map((m) => `${m} ${(readFileSync(join(tmpdir(), `toolgate-ab-${x.commit}`, 'out', m, 'toolgate_bg.wasm')).length / 1000).toFixed(1)} KB`).join(', ');
console.log(`\n  .wasm: a ${sizes(a)}; b ${sizes(b)}`);
if (sink < 0) console.log(sink);
