// A/B of two builds of toolgate, for a mechanism that claims to pay for itself:
//
//   node bench/ab.mjs <rev-a> <rev-b> [patch] [label]
//     e.g. node bench/ab.mjs HEAD~1 HEAD
//          node bench/ab.mjs HEAD HEAD bench/ab/no-kept-texts.patch    (HEAD against HEAD without it)
//
// Builds the engine and the MCP entry (web target, wasm-opt as the package does) of each git
// revision into a directory under the system temp dir (Cargo's target dir target/ab/ is shared, so
// only toolgate itself is compiled again); `patch`, a file `git apply` reads, is applied to b's
// source first. It prints each build's .wasm size (raw and gzipped), loads both builds into this
// process, and times the bench's terminal and MCP workloads in alternating rounds: each line is the
// median of the per-round time ratios b / a (below 1: b is faster). Last, the first decision in a
// fresh process (load the module, build a small policy, decide one call), a and b alternating.
//
// A build is kept by what it is made of (the revision's src/, Cargo.toml and Cargo.lock, and the
// patch), so a revision that changed nothing else reuses it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { makeCalls, makeCommands, makeList, makeRules, policySpec } from './workloads.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const [revA, revB] = args;
const patch = args[2]?.endsWith('.patch') ? resolve(args[2]) : undefined;
const label = args[patch ? 3 : 2] ?? `${revA} → ${revB}${patch ? ` + ${args[2]}` : ''}`;
if (!revA || !revB || (patch && !existsSync(patch))) {
  console.error('usage: node bench/ab.mjs <rev-a> <rev-b> [patch applied to b] [label]');
  process.exit(2);
}
const WASM_OPT_FLAGS = ['-O3', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals'];
const MODULES = [['engine', 'engine'], ['mcp', 'mcp']];

/** The engine and MCP web builds of `rev` (with `patch` applied), initialised: `{ name, dir, engine, mcp }`. */
async function build(side, rev, patch) {
  const git = (...a) => execFileSync('git', ['-C', root, ...a], { maxBuffer: 1 << 30 });
  const commit = git('rev-parse', '--short', rev).toString().trim();
  const key = createHash('sha256').update(git('ls-tree', '-r', commit, '--', 'src', 'Cargo.toml', 'Cargo.lock'))
    .update(patch ? readFileSync(patch) : '').digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `toolgate-ab-${key}`);
  const name = patch ? `${commit} + ${patch.slice(root.length + 1)}` : commit;
  const built = { name, dir };
  for (const [module, features] of MODULES) {
    const out = join(dir, 'out', module);
    if (!existsSync(join(out, 'toolgate.js'))) {
      const src = join(dir, 'src');
      rmSync(src, { recursive: true, force: true });
      mkdirSync(src, { recursive: true });
      execFileSync('tar', ['-x', '-C', src], { input: git('archive', '--format=tar', commit) });
      if (patch) execFileSync('git', ['apply', patch], { cwd: src, stdio: 'inherit' });
      console.error(`building ${module} of ${name}…`);
      execFileSync('wasm-pack', ['--quiet', 'build', '--mode', 'no-install', '--release', '--target', 'web', '--out-dir', out,
        '--out-name', 'toolgate', '--no-pack', '--', '--no-default-features', '--features', features],
      { cwd: src, stdio: ['ignore', process.stderr, process.stderr], env: { ...process.env, CARGO_TARGET_DIR: join(root, 'target', 'ab') } });
      const wasm = join(out, 'toolgate_bg.wasm');
      execFileSync(join(root, 'node_modules', '.bin', 'wasm-opt'), [...WASM_OPT_FLAGS, wasm, '-o', wasm], { stdio: 'inherit' });
    }
    // Each side loads its own copy, so that a run of a build against itself has two instances
    // with their own glue (the glue's snippets keep state per module).
    const copy = join(dir, `side-${side}`, module);
    rmSync(copy, { recursive: true, force: true });
    cpSync(out, copy, { recursive: true });
    const glue = await import(pathToFileURL(join(copy, 'toolgate.js')).href);
    glue.initSync({ module: readFileSync(join(out, 'toolgate_bg.wasm')) });
    built[module] = glue;
  }
  return built;
}

const a = await build('a', revA);
const b = await build('b', revB, patch);
console.log(`A/B: ${label}\n  a = ${a.name}\n  b = ${b.name}\n`);

/** `.wasm` bytes, raw and gzipped (level 9), of a build's module. */
function size(x, module) {
  const bytes = readFileSync(join(x.dir, 'out', module, 'toolgate_bg.wasm'));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const signed = (n) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toLocaleString('en')} B`;
console.log('  .wasm after wasm-opt          a raw / gzip         b raw / gzip        b − a raw / gzip');
for (const [module] of MODULES) {
  const [sa, sb] = [size(a, module), size(b, module)];
  console.log(`  ${module.padEnd(28)}  ${kb(sa.raw).padStart(9)} / ${kb(sa.gzip).padStart(8)}   ${kb(sb.raw).padStart(9)} / ${kb(sb.gzip).padStart(8)}   ${signed(sb.raw - sa.raw)} / ${signed(sb.gzip - sa.gzip)}`);
}
const ROUNDS = 101;
console.log(`\n  warm: CPU times b / a, median of ${ROUNDS} alternating rounds of about 2 ms a side, and the middle half of the`);
console.log('  rounds\' ratios (below 1.000: b is faster; a row whose middle half holds 1.000 is within the noise)');

let sink = 0;
/**
 * CPU ns per input of `fn` over `inputs`, `reps` times: the process's CPU time (user and system),
 * not the clock's, since other builds on this machine's two cores take the CPU from it at any
 * moment, for many milliseconds.
 */
function round(fn, inputs, reps) {
  const t0 = process.cpuUsage();
  for (let r = 0; r < reps; r++) for (let i = 0; i < inputs.length; i++) sink += fn(inputs[i]) ? 1 : 0;
  const { user, system } = process.cpuUsage(t0);
  return ((user + system) * 1000) / (reps * inputs.length);
}
const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((p, r) => p - r)[Math.floor(q * (xs.length - 1))];
/** The median of the per-round ratios b / a, after a warm-up of each side. */
function compare(fa, fb, inputs) {
  const end = performance.now() + 600;
  while (performance.now() < end) { round(fa, inputs, 1); round(fb, inputs, 1); }
  let reps = 1;
  while (round(fa, inputs, reps) * reps * inputs.length < 2e6) reps *= 2;
  const ratios = [];
  let nsA = [];
  for (let k = 0; k < ROUNDS; k++) {
    const [x, y] = k % 2 ? [round(fb, inputs, reps), round(fa, inputs, reps)].reverse() : [round(fa, inputs, reps), round(fb, inputs, reps)];
    ratios.push(y / x);
    nsA.push(x);
  }
  return { ratio: median(ratios), low: quantile(ratios, 0.25), high: quantile(ratios, 0.75), ns: median(nsA) };
}

const rows = [];
for (const n of [14, 104, 1004]) {
  const rules = makeRules(n - 4), commands = makeCommands(n - 4);
  const pa = new a.engine.Policy(policySpec(rules)), pb = new b.engine.Policy(policySpec(rules));
  const d = compare((c) => pa.decide('terminal', c).outcome, (c) => pb.decide('terminal', c).outcome, commands);
  const o = compare((c) => pa.outcome('terminal', c), (c) => pb.outcome('terminal', c), commands);
  rows.push([`terminal decide (explained), ${n} rules`, d], [`terminal outcome, ${n} rules`, o]);
}
{
  const spec = policySpec(makeRules(1000));
  const made = (engine) => (s) => { const p = new engine.Policy(s); p.free(); return true; };
  rows.push(['terminal new Policy, 1004 rules', compare(made(a.engine), made(b.engine), [spec])]);
}
for (const n of [10, 10000]) {
  const list = makeList(n), calls = makeCalls(list), settings = { mcpAllowedTools: list, mcpToolsProtection: false };
  const pa = new a.mcp.McpPolicy(settings), pb = new b.mcp.McpPolicy(settings);
  rows.push([`MCP decide (explained), ${n} entries`, compare(([s, t]) => pa.decide(s, t, 'yolo').needApproval, ([s, t]) => pb.decide(s, t, 'yolo').needApproval, calls)]);
  rows.push([`MCP isAllowlisted, ${n} entries`, compare(([s, t]) => pa.isAllowlisted(s, t), ([s, t]) => pb.isAllowlisted(s, t), calls)]);
}
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, { ratio, low, high, ns }] of rows) {
  console.log(`  ${name.padEnd(width)}  a ${ns.toFixed(0).padStart(7)} ns   b / a ${ratio.toFixed(3)}  (${low.toFixed(3)}–${high.toFixed(3)})`);
}

// The first decision in a fresh process: import the glue, compile and instantiate the .wasm,
// build a two-rule policy (MCP: a two-entry allowlist), decide one call. Node's own start-up is
// left out. The same calls as bench/cold/engine.cjs and mcp.cjs, on these web builds. Timed in
// the process's CPU time (all its threads: V8 compiles wasm on helper threads), as the warm rows.
const COLD = `
const start = process.cpuUsage();
const [, module, dir] = process.argv;
const glue = await import((await import('node:url')).pathToFileURL(dir + '/toolgate.js').href);
glue.initSync({ module: (await import('node:fs')).readFileSync(dir + '/toolgate_bg.wasm') });
const outcome = module === 'engine'
  ? new glue.Policy({ layers: [{ name: 'user', kind: 'user', tools: { terminal: {
      alwaysAllow: [{ pattern: '^git\\\\s+status\\\\b' }], alwaysDeny: [{ pattern: '\\\\brm\\\\s+-rf\\\\b' }] } } }] })
      .decide('terminal', 'git status && ls').outcome
  : new glue.McpPolicy({ mcpAllowedTools: ['github:*', 'docs:search'], mcpToolsProtection: false })
      .decide('github', 'create_issue', 'yolo').needApproval;
const { user, system } = process.cpuUsage(start);
process.stdout.write(JSON.stringify({ total: (user + system) / 1000, outcome }));
`;
/** One fresh process's first decision with build `x`'s `module`: `{ total }` in CPU ms. */
function fresh(x, module) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', COLD, module, join(x.dir, 'out', module)], { encoding: 'utf8' });
  return JSON.parse(out);
}
const COLD_ROUNDS = 21;
console.log(`\n  first decision in a fresh process (load + policy + one decide), CPU time, median of ${COLD_ROUNDS} alternating`);
console.log('  rounds (and the middle half of the rounds\' ratios)');
for (const [module] of MODULES) {
  fresh(a, module), fresh(b, module); // the files into the page cache, untimed
  const [ta, tb, ratios] = [[], [], []];
  for (let k = 0; k < COLD_ROUNDS; k++) {
    const [x, y] = k % 2 ? [fresh(b, module), fresh(a, module)].reverse() : [fresh(a, module), fresh(b, module)];
    ta.push(x.total), tb.push(y.total), ratios.push(y.total / x.total);
  }
  const [low, high] = [quantile(ratios, 0.25), quantile(ratios, 0.75)];
  console.log(`  ${module.padEnd(width)}  a ${median(ta).toFixed(1).padStart(5)} ms, b ${median(tb).toFixed(1).padStart(5)} ms   b / a ${median(ratios).toFixed(3)}  (${low.toFixed(3)}–${high.toFixed(3)})`);
}
if (sink < 0) console.log(sink);
