// npm run bench: first what users feel — the first decision in a fresh process (toolgate's engine
// and MCP entry, and the tree-sitter-bash peer, one process per side in alternating rounds), an
// agent's hook per decided call (bench/hooks.mjs), the settings page opening in Chromium, the package's weight — each against its goal; then toolgate
// side by side, in one Node process, with its baselines — the seed's plain-JS code, the
// tree-sitter-bash + RegExp decision VS Code and Gemini CLI ship, and the previous release of
// toolgate (regression guards; BENCH_PREVIOUS=0 skips building it) — as ns per decision, policy
// build time, and gzipped .wasm sizes. What it prints is also written, as Markdown, to
// docs/benchmark-results.md when the run completes (see "the results file" below).
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { format } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as seed from './seed-baseline.mjs';
import { loadPeer } from './tree-sitter-peer.mjs';
import { buildPreviousRelease, PREVIOUS_RELEASE } from './previous-release.mjs';
import { runNativeBench } from './native-core.mjs';
import { makeCalls, makeCommands, makeList, makeRules, policySpec } from './workloads.mjs';
import { measureColdStart } from './cold-start.mjs';
import { measurePageOpen } from './page-open.mjs';
import { measureHooks, reportHooks } from './hooks.mjs';
import { execFileSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// ---- the results file ----
// Everything the run prints to stdout (its own lines, printTable's tables, target's goal lines, and
// what bench/hooks.mjs prints) is kept as Markdown and written, once the run completes, to
// docs/benchmark-results.md: one run's figures, with its date, commit and machine, which
// docs/benchmark.md reads. BENCH_RESULTS=<file> writes it elsewhere; BENCH_RESULTS=0 writes none.
// A run that fails part-way writes nothing: the file always holds one whole run.
const resultsFile = process.env.BENCH_RESULTS === '0' ? null : process.env.BENCH_RESULTS || join(root, 'docs', 'benchmark-results.md');
const runStarted = new Date();
const startLoad = loadavg()[0];
/** The run's output as Markdown blocks: `{ text }`, `{ table: { headers, rows } }` or `{ goals: [[label, value, goal, verdict]] }`. */
const blocks = [];
const print = console.log.bind(console);
/** True while printTable or target prints what it has already recorded in its own form. */
let recording = false;
console.log = (...args) => {
  print(...args);
  if (!recording) recordText(format(...args));
};
/** Printed lines as Markdown: `== title ==` a heading, any other line a paragraph of its own. */
function recordText(text) {
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const heading = line.match(/^== (.+) ==$/);
    blocks.push({ text: heading ? `## ${heading[1]}` : line });
  }
}
/** Prints with console.log without recording the lines again. */
function printRecorded(fn) {
  recording = true;
  try {
    fn();
  } finally {
    recording = false;
  }
}
const cell = (value) => String(value).replaceAll('|', '\\|');
function resultsMarkdown(machine) {
  let commit = 'unknown commit';
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    commit = `\`${git('rev-parse', '--short', 'HEAD')}\`${git('status', '--porcelain', '--untracked-files=no') ? ' with uncommitted changes' : ''}`;
  } catch { /* not a git checkout */ }
  const reading = relative(dirname(resultsFile), join(root, 'docs', 'benchmark.md')).split('\\').join('/');
  const minutes = ((Date.now() - runStarted.getTime()) / 60000).toFixed(0);
  const out = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` (\`bench/run.mjs\`) when a run completes: do not edit, run it again. What each figure measures and how to read it: [benchmark.md](${reading}).`,
    '',
    `- run: ${runStarted.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${minutes} min, at ${commit}`,
    `- machine: ${machine}; load average ${startLoad.toFixed(1)} when the run started`,
  ];
  for (const block of blocks) {
    out.push('');
    if (block.text) out.push(block.text);
    else if (block.table) {
      const { headers, rows } = block.table;
      out.push(`| ${headers.map(cell).join(' | ')} |`, `|${headers.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`);
      for (const row of rows) out.push(`| ${row.map(cell).join(' | ')} |`);
    } else {
      out.push('| goal | this run | target | verdict |', '| --- | ---: | --- | --- |');
      for (const [label, value, goal, ok] of block.goals) out.push(`| ${cell(label)} | ${cell(value)} | ${cell(goal)} | ${ok ? 'met' : '**missed**'} |`);
    }
  }
  return out.join('\n') + '\n';
}

// Everything from pkg/ is read now: the previous release takes minutes to build, and someone may
// rebuild pkg/ meanwhile.
const toolgate = require(join(root, 'pkg', 'node', 'toolgate.js'));
const engine = require(join(root, 'pkg', 'engine', 'node', 'toolgate_engine.js'));
// One file per module, shared by its Node and web glue.
const WASM_FILES = [
  ['web/toolgate_bg.wasm', 100_000], ['engine/web/toolgate_engine_bg.wasm', 150_000],
  // No target: the engine plus lint, import/export and the settings validator.
  ['tools/web/toolgate_tools_bg.wasm', null],
  // The settings page's own: its file (its modules, the glue of its two modules and the .wasm of
  // its link to the host), and what validates and saves a draft.
  ['settings-page/settings-page.js', null], ['settings-page/validator/toolgate_validator_bg.wasm', 250_000],
];
const readSizes = (pkg) => new Map(WASM_FILES.map(([file]) => {
  try {
    const bytes = readFileSync(join(pkg, file));
    return [file, { raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length }];
  } catch {
    return [file, null];
  }
}));
const sizes = readSizes(join(root, 'pkg'));

// ---- the machine ----
const cpuModel = (() => {
  try {
    const m = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) return m[1].trim();
  } catch { /* not Linux */ }
  return cpus()[0]?.model ?? 'unknown CPU';
})();
const machine = `${cpuModel}, ${availableParallelism()} cores, Node ${process.version} (${process.platform}-${process.arch})`;
print(`machine: ${machine}`); // the results file names it in its heading

const peer = await loadPeer();
console.log(`peer baseline: web-tree-sitter ${peer.versions['web-tree-sitter']} + tree-sitter-bash ${peer.versions['tree-sitter-bash']}`);

let previous = null;
if (process.env.BENCH_PREVIOUS === '0') {
  console.log(`previous release: skipped (BENCH_PREVIOUS=0)`);
} else {
  console.error(`building the previous release (${PREVIOUS_RELEASE}) for the regression columns…`);
  try {
    previous = buildPreviousRelease(root, PREVIOUS_RELEASE);
    console.log(`previous release: toolgate at ${PREVIOUS_RELEASE}, built in ${previous.seconds.toFixed(0)} s into ${previous.pkg}`);
  } catch (error) {
    console.log(`previous release: build of ${PREVIOUS_RELEASE} FAILED, its columns are left out (${String(error.message ?? error).split('\n')[0]})`);
  }
}
const prevSizes = previous ? readSizes(previous.pkg) : null;

// ---- helpers ----
const fmt = (x) => (x === undefined || x === null ? '—' : typeof x === 'number' && !Number.isInteger(x) ? x.toFixed(0) : String(x));
function printTable(rows) {
  const headers = Object.keys(rows[0]);
  const cells = rows.map((r) => headers.map((h) => fmt(r[h])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (values) => values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ');
  blocks.push({ table: { headers, rows: cells } });
  printRecorded(() => {
    console.log(line(headers));
    console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
    for (const c of cells) console.log(line(c));
  });
}
/** One target line: `label: value   target …   met|MISSED`. */
function target(label, value, unit, cmp, goal) {
  const ok = cmp === '>=' ? value >= goal : value <= goal;
  const digits = unit === 'x' && value < 10 ? 2 : 1;
  const last = blocks[blocks.length - 1];
  const row = [label, `${value.toFixed(digits)}${unit}`, `${cmp === '>=' ? '≥' : '≤'} ${goal}${unit}`, ok];
  if (last?.goals) last.goals.push(row);
  else blocks.push({ goals: [row] });
  printRecorded(() => console.log(`${label}: ${value.toFixed(digits)}${unit}   target ${cmp} ${goal}${unit}   ${ok ? 'met' : 'MISSED'}`));
  return ok;
}
/** Regression check against the previous release: current time / previous time, at most 1.10. */
function regression(label, timeRatio) {
  target(`${label} vs previous release (${PREVIOUS_RELEASE}), time ratio`, timeRatio, 'x', '<=', 1.1);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Calls fn over the inputs for `ms` milliseconds, untimed. */
function warmUp(fn, inputs, ms) {
  let sink = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) for (let i = 0; i < inputs.length; i++) sink += fn(inputs[i]) ? 1 : 0;
  return sink;
}

/**
 * Times each named function over 9 rounds of ~20 ms, after calibration. The rounds are
 * interleaved (a round of each side, then the next; every other round in reverse order), and
 * `ratio(a, b)` is the median of the 9 per-round ratios: two sides timed within the same round
 * (a tenth of a second), whose ratio holds when the machine's speed drifts between rounds (a
 * ratio of medians does not: it showed a 1.36x "regression" that alternating rounds of the same
 * two builds put at 0.88x). `medians` is ns per call of each. fn(input) → truthy/string.
 */
function measureAll(fns, inputs) {
  let sink = 0;
  const round = (fn, reps) => {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) for (let i = 0; i < inputs.length; i++) sink += fn(inputs[i]) ? 1 : 0;
    return Number(process.hrtime.bigint() - t0) / (reps * inputs.length);
  };
  const entries = Object.entries(fns).filter(([, fn]) => fn);
  for (const [, fn] of entries) sink += warmUp(fn, inputs, 300);
  const reps = entries.map(([, fn]) => {
    let n = 1;
    while (round(fn, n) * n * inputs.length < 20e6) n *= 2;
    return n;
  });
  const samples = entries.map(() => []);
  for (let k = 0; k < 9; k++) for (const j of roundOrder(k, entries.length)) samples[j].push(round(entries[j][1], reps[j]));
  if (sink < 0) console.log(sink);
  return pairedSamples(Object.fromEntries(entries.map(([name], j) => [name, samples[j]])));
}

/** The order of the sides in round k: as given, and every other round reversed. */
function roundOrder(k, sides) {
  const order = [...Array(sides).keys()];
  return k % 2 ? order.reverse() : order;
}

/** Medians of samples taken in the same rounds, and `ratio(a, b)`: the median of a's / b's per round. */
function pairedSamples(byName) {
  const sides = (a, b) => {
    if (!byName[a] || !byName[b]) throw new Error(`bench: no samples named ${byName[a] ? b : a}`);
    return [byName[a], byName[b]];
  };
  return {
    medians: Object.fromEntries(Object.entries(byName).map(([name, xs]) => [name, median(xs)])),
    ratio: (a, b) => {
      const [xs, ys] = sides(a, b);
      return median(xs.map((x, k) => x / ys[k]));
    },
  };
}

// ---- what users feel: the first decision in a fresh process, the settings page opening, the package's weight ----
{
  const rounds = 15;
  const cold = measureColdStart(join(root, 'pkg'), rounds);
  const phases = (side) => Object.fromEntries(['load', 'build', 'decide', 'total', 'read', 'compile']
    .filter((f) => cold[side][0][f] !== undefined).map((f) => [`${f} ms`, median(cold[side].map((x) => x[f])).toFixed(1)]));
  console.log(`\n== First decision in a fresh Node process (${rounds} alternating rounds of one process per side; Node's own start-up left out) ==\n`);
  printTable([
    { side: 'toolgate/engine: load, build a two-rule policy, decide one line', ...phases('engine') },
    { side: 'web-tree-sitter + tree-sitter-bash, the same job', ...phases('peer') },
    { side: 'toolgate (MCP entry): load, new McpPolicy, decide one call', ...phases('mcp') },
  ]);
  console.log(`\nthe floor under them: read and compile the .wasm, nothing else — engine ${phases('compile engine .wasm')['total ms']} ms, MCP ${phases('compile MCP .wasm')['total ms']} ms`);
  const agree = cold.engine.every((x) => x.outcome === 'confirm') && cold.peer.every((x) => x.outcome === 'confirm');
  console.log(`both sides decide 'git status && ls' alike (confirm: ls has no rule): ${agree ? 'yes' : 'NO'}\n`);
  const perRound = (a, b) => median(cold[a].map((x, k) => x.total / cold[b][k].total));
  target('fresh process, engine first decision', median(cold.engine.map((x) => x.total)), ' ms', '<=', 10);
  target('fresh process, engine vs tree-sitter peer (peer time / toolgate time, per round)', perRound('peer', 'engine'), 'x', '>=', 4);
  target('fresh process, MCP entry first decision', median(cold.mcp.map((x) => x.total)), ' ms', '<=', 5);

  // An agent's pre-tool hook: per decided call, end to end, as the agent runs it.
  const hooks = await measureHooks(join(root, 'pkg'), rounds);
  console.log(`\n== An agent's pre-tool hook, one decided call end to end (${rounds} alternating rounds; Claude Code's input, 'git status && ls -la' allowed) ==\n`);
  reportHooks(hooks, { printTable, target });

  // The default page, an embedder's minimal one (rules and "Try a call") and the full page with the
  // agent's session: the stored settings visible, their validation shown, and the bytes.
  const pages = [['', ''], [', minimal', '?page=minimal'], [', with the session', '?session=1']];
  const opened = await measurePageOpen(9, pages.map(([, query]) => query));
  for (const [i, [name]] of pages.entries()) {
    const page = opened[i];
    const of = (key) => median(page.map((p) => p[key]));
    if (!name) console.log(`\n== Settings page (npm start's stand-in host, its host half in a worker; headless Chromium ${opened.browser}, no cache; the three pages in alternating rounds, median of ${page.length}) ==\n`);
    console.log(`page${name || ', default'}: settings visible ${of('visible').toFixed(0)} ms, validated ${of('ready').toFixed(0)} ms; transferred ${(of('bytes') / 1000).toFixed(0)} KB (gzip), ${(of('bytesBeforeVisible') / 1000).toFixed(0)} KB of it before visible, ${(of('decoded') / 1000).toFixed(0)} KB decoded`);
    target(`settings page${name}: stored settings visible`, of('visible'), ' ms', '<=', 150);
    target(`settings page${name}: validation shown`, of('ready'), ' ms', '<=', 400);
    target(`settings page${name}: transferred`, of('bytes') / 1000, ' KB', '<=', 800);
    target(`settings page${name}: transferred before visible`, of('bytesBeforeVisible') / 1000, ' KB', '<=', 300);
  }

  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: join(root, 'pkg'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0];
  console.log(`\n== The package (npm pack of pkg/) ==\n\n${packed.entryCount} files, ${(packed.size / 1e6).toFixed(2)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(2)} MB unpacked\n`);
  target('npm pack, packed', packed.size / 1e6, ' MB', '<=', 1.5);

  // A bench cannot run a fresh machine; scripts/test.sh records each passing run's time here.
  try {
    const last = JSON.parse(readFileSync(join(root, '.cache', 'last-npm-test.json'), 'utf8'));
    console.log(`\n== npm test (the last passing run on this machine, ${last.finished}; its set-up, which installs what a machine lacks, took ${last.setupSeconds} s) ==\n`);
    target('npm test, the whole run (goal for a fresh machine; CI runs one)', last.seconds / 60, ' min', '<=', 25);
  } catch {
    console.log('\nnpm test: no passing run recorded on this machine yet (.cache/last-npm-test.json)');
  }
}

// ---- warm-up ----
// V8 first runs a .wasm module with its baseline compiler and optimises hot functions in the
// background; for tree-sitter's parser that takes most of a second on this machine, and timing
// before it would flatter toolgate. So every module runs its calls for a while before anything is
// timed (measureAll then warms each function again briefly).
{
  const WARM_MS = 1500;
  const rules = makeRules(10), commands = makeCommands(10);
  const list = makeList(10), calls = makeCalls(list);
  const settings = { mcpAllowedTools: list, mcpToolsProtection: false };
  const sides = [['tree-sitter peer', { peer }], ['toolgate', { mcp: toolgate, engine }]];
  if (previous) sides.push(['previous release', { mcp: previous.mcp, engine: previous.engine }]);
  const started = performance.now();
  for (const [, side] of sides) {
    if (side.peer) warmUp(side.peer.decider(rules), commands, WARM_MS);
    if (side.engine) {
      const p = new side.engine.Policy(policySpec(rules));
      warmUp((c) => p.outcome('terminal', c) + p.decide('terminal', c).outcome, commands, WARM_MS);
      p.free();
    }
    if (side.mcp) {
      const p = new side.mcp.McpPolicy(settings);
      warmUp(([s, t]) => p.isAllowlisted(s, t) + p.needsApproval(s, t, 'yolo') + p.decide(s, t, 'yolo').needApproval, calls, WARM_MS);
      p.free();
    }
  }
  console.log(`warm-up: ${((performance.now() - started) / 1000).toFixed(1)} s (${sides.map(([name]) => name).join(', ')}) before any timing`);
}

// ---- MCP allowlist decisions ----

const mcpRows = [];
// The policies at the smallest and largest size, kept for the flatness ratios below.
const mcpKept = new Map();
// Each size's samples, for ratios of sides timed in the same rounds.
const mcpTimed = new Map();
for (const n of [10, 100, 1000, 10000]) {
  const list = makeList(n);
  const calls = makeCalls(list);
  const settings = { mcpAllowedTools: list, mcpToolsProtection: false };
  const policy = new toolgate.McpPolicy(settings);
  const prev = previous ? new previous.mcp.McpPolicy(settings) : null;
  // Every side must agree before any is timed.
  for (const [s, t] of calls) {
    const expected = seed.isAllowlisted(list, s, t);
    if (policy.isAllowlisted(s, t) !== expected) throw new Error(`isAllowlisted disagrees with some(f4c) on ${s}:${t} at ${n}`);
    if (policy.decide(s, t, 'yolo').needApproval === expected) throw new Error(`decide disagrees with some(f4c) on ${s}:${t} at ${n}`);
    if (prev && prev.isAllowlisted(s, t) !== expected) throw new Error(`the previous release disagrees with some(f4c) on ${s}:${t} at ${n}`);
  }
  const timed = measureAll({
    'plain JS some(f4c) ns': ([s, t]) => seed.isAllowlisted(list, s, t),
    'isAllowlisted ns': ([s, t]) => policy.isAllowlisted(s, t),
    'needsApproval ns': ([s, t]) => !policy.needsApproval(s, t, 'yolo'),
    'decide (explained) ns': ([s, t]) => !policy.decide(s, t, 'yolo').needApproval,
    'prev isAllowlisted ns': prev && (([s, t]) => prev.isAllowlisted(s, t)),
    'prev decide ns': prev && (([s, t]) => !prev.decide(s, t, 'yolo').needApproval),
  }, calls);
  prev?.free();
  mcpRows.push({ entries: n, ...timed.medians });
  mcpTimed.set(n, timed);
  if (n === 10 || n === 10000) mcpKept.set(n, { policy, calls });
  else policy.free();
}
// How flat the time is in the list's length: both sizes in the same interleaved rounds, since
// rows timed minutes apart on a busy machine differ by more than the list length makes them.
const [fewest, most] = [mcpKept.get(10), mcpKept.get(10000)];
const callIndexes = fewest.calls.map((_, i) => i);
const flat = measureAll({
  'isAllowlisted 10': (i) => fewest.policy.isAllowlisted(...fewest.calls[i]),
  'isAllowlisted 10000': (i) => most.policy.isAllowlisted(...most.calls[i]),
  'decide 10': (i) => !fewest.policy.decide(...fewest.calls[i], 'yolo').needApproval,
  'decide 10000': (i) => !most.policy.decide(...most.calls[i], 'yolo').needApproval,
}, callIndexes);
fewest.policy.free();
most.policy.free();

console.log(`\n== MCP allowlist decisions, ns per call (64 calls, median of 9 rounds) ==\n`);
printTable(mcpRows);
console.log('');
const at = (n) => mcpRows.find((r) => r.entries === n);
const ten = mcpTimed.get(10);
target('speed-up at 10 entries, isAllowlisted vs some(f4c)', ten.ratio('plain JS some(f4c) ns', 'isAllowlisted ns'), 'x', '>=', 5);
target('speed-up at 10 entries, decide (explained) vs some(f4c)', ten.ratio('plain JS some(f4c) ns', 'decide (explained) ns'), 'x', '>=', 5);
target('10,000-entry / 10-entry time, isAllowlisted (timed in the same rounds)', flat.ratio('isAllowlisted 10000', 'isAllowlisted 10'), 'x', '<=', 1.5);
target('10,000-entry / 10-entry time, decide (explained) (timed in the same rounds)', flat.ratio('decide 10000', 'decide 10'), 'x', '<=', 1.5);
if (previous) {
  regression('isAllowlisted at 10 entries', ten.ratio('isAllowlisted ns', 'prev isAllowlisted ns'));
  regression('decide at 10 entries', ten.ratio('decide (explained) ns', 'prev decide ns'));
}

// ---- terminal decisions ----

/** The seed's decide_permission (002) in plain JS: deny, confirm, allow, default, over the whole string. */
function regexLoop(rules) {
  const compile = (list) => list.map((r) => new RegExp(r.pattern, r.caseSensitive ? '' : 'i'));
  const deny = compile(rules.alwaysDeny), confirm = compile(rules.alwaysConfirm), allow = compile(rules.alwaysAllow);
  return (command) => {
    if (deny.some((r) => r.test(command))) return 'deny';
    if (confirm.some((r) => r.test(command))) return 'confirm';
    if (allow.some((r) => r.test(command))) return 'allow';
    return 'confirm';
  };
}

/**
 * Compares two deciders on every command; returns how many differ and the first example.
 * `a` and `b` name the sides in the example.
 */
function compareOutcomes(commands, a, fa, b, fb) {
  const differing = [];
  for (const c of commands) {
    const x = fa(c), y = fb(c);
    if (x !== y) differing.push(`${JSON.stringify(c)}: ${a} ${x}, ${b} ${y}`);
  }
  return { count: differing.length, example: differing[0] };
}

const terminalRows = [];
// Each rule count's samples, for ratios of sides timed in the same rounds.
const terminalTimed = new Map();
const agreement = [];
for (const n of [10, 100, 1000]) {
  const rules = makeRules(n);
  const commands = makeCommands(n);
  const policy = new engine.Policy(policySpec(rules));
  const prev = previous ? new previous.engine.Policy(policySpec(rules)) : null;
  const loop = regexLoop(rules);
  const peerDecide = peer.decider(rules);
  const outcome = (c) => policy.outcome('terminal', c);
  const decide = (c) => policy.decide('terminal', c).outcome;
  // toolgate's two paths must agree exactly; the peer and the previous release may differ
  // legitimately (the peer reads the line differently), which is counted and shown.
  for (const c of commands) {
    if (outcome(c) !== decide(c)) throw new Error(`outcome and decide disagree on ${JSON.stringify(c)} at ${n} rules`);
  }
  agreement.push({ rules: n + 4, with: 'tree-sitter peer', ...compareOutcomes(commands, 'toolgate', outcome, 'peer', peerDecide) });
  if (prev) agreement.push({ rules: n + 4, with: `previous release`, ...compareOutcomes(commands, 'toolgate', outcome, 'previous', (c) => prev.outcome('terminal', c)) });
  const timed = measureAll({
    'seed RegExp loop ns': loop,
    'tree-sitter peer ns': peerDecide,
    'outcome ns': outcome,
    'decide (explained) ns': decide,
    'prev outcome ns': prev && ((c) => prev.outcome('terminal', c)),
    'prev decide ns': prev && ((c) => prev.decide('terminal', c).outcome),
  }, commands);
  prev?.free();
  const peerRatio = timed.ratio('tree-sitter peer ns', 'decide (explained) ns');
  terminalRows.push({ rules: n + 4, ...timed.medians, 'peer / decide': `${peerRatio.toFixed(1)}x` });
  terminalTimed.set(n + 4, timed);
  policy.free();
}

console.log(`\n== Terminal decisions, ns per command line (32 lines of 1–3 sub-commands, median of 9 rounds) ==\n`);
printTable(terminalRows);
console.log('\noutcomes compared with toolgate before timing (32 lines each):');
for (const a of agreement) {
  console.log(`  ${String(a.rules).padStart(5)} rules, ${a.with}: ${a.count === 0 ? 'all agree' : `${a.count} differ, e.g. ${a.example}`}`);
}
console.log('');
for (const [rules, timed] of terminalTimed) {
  target(`speed-up at ${rules} rules, decide (explained) vs tree-sitter peer`, timed.ratio('tree-sitter peer ns', 'decide (explained) ns'), 'x', '>=', 10);
}
const big = terminalRows[terminalRows.length - 1], small = terminalRows[0];
target(`speed-up at ${big.rules} rules, outcome vs seed RegExp loop`, terminalTimed.get(big.rules).ratio('seed RegExp loop ns', 'outcome ns'), 'x', '>=', 10);
// Rows timed apart: a ratio of medians, with room for the machine's drift between them.
target(`${big.rules}-rule / ${small.rules}-rule time, outcome`, big['outcome ns'] / small['outcome ns'], 'x', '<=', 3);
if (previous) {
  for (const [rules, timed] of terminalTimed) {
    regression(`outcome at ${rules} rules`, timed.ratio('outcome ns', 'prev outcome ns'));
    regression(`decide at ${rules} rules`, timed.ratio('decide (explained) ns', 'prev decide ns'));
  }
}

// ---- policy build time ----

/**
 * Ms of `new Policy(spec)` over 21 builds after 3 warm-ups (each freed, untimed), for each named
 * Policy class, the builds interleaved like measureAll's rounds: medians and paired ratios.
 */
function buildMs(classes, spec) {
  const once = (Policy) => {
    const t0 = process.hrtime.bigint();
    const p = new Policy(spec);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    p.free();
    return ms;
  };
  const entries = Object.entries(classes).filter(([, Policy]) => Policy);
  for (let i = 0; i < 3; i++) for (const [, Policy] of entries) once(Policy);
  const samples = entries.map(() => []);
  for (let k = 0; k < 21; k++) for (const j of roundOrder(k, entries.length)) samples[j].push(once(entries[j][1]));
  return pairedSamples(Object.fromEntries(entries.map(([name], j) => [name, samples[j]])));
}
const buildSpec = policySpec(makeRules(996)); // 996 generated + 4 unanchored denies = 1,000 rules
const ruleCount = Object.values(buildSpec.layers[0].tools.terminal).reduce((sum, list) => sum + list.length, 0);
const builds = buildMs({
  'new Policy(spec) ms': engine.Policy,
  'prev new Policy(spec) ms': previous?.engine.Policy,
}, buildSpec);
const buildRow = { rules: ruleCount, ...Object.fromEntries(Object.entries(builds.medians).map(([name, ms]) => [name, ms.toFixed(2)])) };
console.log(`\n== Policy build time in Node, ${ruleCount} terminal rules (median of 21 builds) ==\n`);
printTable([buildRow]);
console.log('');
target(`build time at ${ruleCount} rules`, Number(buildRow['new Policy(spec) ms']), ' ms', '<=', 5);
if (previous) regression(`build time at ${ruleCount} rules`, builds.ratio('new Policy(spec) ms', 'prev new Policy(spec) ms'));

// ---- hostile input at the budgets (src/limits.rs) ----

/** Median ms of one call over 7 runs after one warm-up. */
function medianMs(fn) {
  fn();
  const samples = [];
  for (let k = 0; k < 7; k++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}
{
  const LIMIT = 64 * 1024;
  const fill = (unit) => unit.repeat(Math.floor(LIMIT / unit.length)).slice(0, LIMIT);
  const policy = new engine.Policy(policySpec(makeRules(1000)));
  // `sh -c "x $(sh -c "x $(…)")"`: each payload must not follow its caller's substitutions again
  // (that doubled the work per level: fuzzing finding 11).
  const nestedPayloads = (levels, inner) => Array.from({ length: levels }).reduce((l) => `sh -c "x $(${l})"`, inner);
  // `sh -c 'sh -c …'`: every level's payload is read again, until the read budget (256 KiB) runs out.
  const quotedPayloads = (levels, inner) => Array.from({ length: levels }).reduce((l) => `sh -c '${l.replaceAll("'", "'\\''")}'`, inner);
  const shapes = [
    ['one long word', fill('a')],
    ['32,768 sub-commands `a;`', fill('a;')],
    ['pipes and chains `cmd1 x | cmd2 && `', fill('cmd1 x | cmd2 && ')],
    ['nested substitutions `$(echo `', fill('$(echo ')],
    ['quotes and escapes `"a\\ b" \'c\' `', fill('"a\\ b" \'c\' ')],
    ['payloads nested 12 deep `sh -c "x $(…)"`, repeated', fill(nestedPayloads(12, 'echo hi') + '; ')],
    ['payloads read again to the read budget `sh -c \'sh -c …\'`', quotedPayloads(7, 'echo a;'.repeat(6000))],
    ['one byte over the budget', fill('a;') + 'a'],
  ];
  const rows = shapes.map(([shape, line]) => {
    const d = policy.decide('terminal', line);
    return { 'input (64 KiB)': shape, 'decide ms': medianMs(() => policy.decide('terminal', line)).toFixed(1), outcome: d.outcome, reason: d.reason };
  });
  policy.free();
  // The largest settings text read: 4 MiB of rules.
  const rules = [];
  for (let i = 0, bytes = 0; bytes < 4 * 1024 * 1024 - 4096; i++) {
    const rule = { pattern: `^tool${i}\\s+(run|test)\\b` };
    rules.push(rule);
    bytes += JSON.stringify(rule).length + 1;
  }
  const bigSpec = { layers: [{ name: 'user', tools: { terminal: { alwaysAllow: rules } } }] };
  const buildBig = medianMs(() => new engine.Policy(bigSpec).free());
  const big = new engine.Policy(bigSpec);
  const bigDecide = medianMs(() => big.decide('terminal', 'tool123 run && tool99999 x | cat'));
  big.free();
  console.log(`\n== Hostile input at the budgets (64 KiB per input, 4 MiB per settings text; 1,000 rules) ==\n`);
  printTable(rows);
  console.log(`\nlargest settings text: ${rules.length.toLocaleString('en-US')} rules in ${(JSON.stringify(bigSpec).length / 1048576).toFixed(2)} MiB: build ${buildBig.toFixed(0)} ms, then decide ${(bigDecide * 1000).toFixed(0)} µs`);
}

// ---- sizes ----
console.log(`\n== .wasm size (gzip -9; KB = 1,000 bytes), read from pkg/ when the bench started ==\n`);
const kb = (bytes) => (bytes / 1000).toFixed(1);
printTable(WASM_FILES.map(([file, limit]) => {
  const s = sizes.get(file), p = prevSizes?.get(file);
  const row = { file: `pkg/${file}`, 'raw KB': s ? kb(s.raw) : 'missing', 'gzipped KB': s ? kb(s.gz) : 'missing' };
  if (prevSizes) row['prev gzipped KB'] = p ? kb(p.gz) : 'missing';
  row.target = limit ? `<= ${limit / 1000} KB` : '';
  row.verdict = !limit ? '' : s && s.gz <= limit ? 'met' : 'MISSED';
  return row;
}));

// ---- the core natively (cargo bench --bench core), next to this run's wasm figures ----
// The native targets. Run last, when nothing in this process is being timed;
// BENCH_NATIVE=0 skips it.
if (process.env.BENCH_NATIVE === '0') {
  console.log('\nnative core: skipped (BENCH_NATIVE=0)');
} else {
  let native = null;
  try {
    native = runNativeBench(root);
  } catch (error) {
    console.log(`\nnative core: cargo bench FAILED, its figures are left out (${String(error.message ?? error).split('\n')[0]})`);
  }
  if (native) printNative(native);
}

function printNative({ estimates, seconds }) {
  console.log(`\n== The core natively (cargo bench --bench core: criterion estimates, ${seconds.toFixed(0)} s with its build) next to wasm from Node (this run) ==\n`);
  const terminal = (rules) => terminalRows.find((r) => r.rules === rules + 4);
  const rows = [
    ['shell analysis, 1–3 sub-commands', 'shell/analyze (1-3 sub-commands)', null],
    ...[10, 100, 1000].flatMap((n) => [
      [`terminal decide (explained), ${n + 4} rules`, `terminal/decide/${n}`, terminal(n)?.['decide (explained) ns']],
      [`terminal outcome, ${n + 4} rules`, `terminal/outcome/${n}`, terminal(n)?.['outcome ns']],
    ]),
    ['MCP decide (explained), 10 entries', 'mcp (10 entries)/decide', at(10)['decide (explained) ns']],
    ['MCP needsApproval, 10 entries', 'mcp (10 entries)/needs_approval', at(10)['needsApproval ns']],
  ].map(([what, id, wasm]) => {
    const ns = estimates.get(id);
    return { measure: what, 'native ns': ns ?? 'missing', 'wasm ns': wasm ?? '', 'wasm / native': ns && wasm ? `${(wasm / ns).toFixed(1)}x` : '' };
  });
  printTable(rows);
  const build = estimates.get('terminal/build 1000 rules');
  console.log(`\npolicy build, 1,004 rules: native ${build ? (build / 1e6).toFixed(2) : 'missing'} ms`);
  console.log('');
  const analysis = estimates.get('shell/analyze (1-3 sub-commands)');
  const decide = estimates.get('terminal/decide/1000');
  if (analysis === undefined || decide === undefined) console.log('native targets: MISSED (a benchmark is missing from the report)');
  else {
    target('native shell analysis of a 1–3 sub-command line', analysis, ' ns', '<=', 500);
    target('native terminal decide (explained) at 1,004 rules', decide, ' ns', '<=', 1000);
  }
}

// ---- the results file (see the top) ----
if (resultsFile) {
  writeFileSync(resultsFile, resultsMarkdown(machine));
  print(`\nresults written to ${resultsFile.startsWith(root) ? relative(root, resultsFile) : resultsFile}`);
}
