// npm run bench: ns per decision for toolgate's compiled allowlist and the seed's plain-JS
// `some(f4c)` loop, side by side in one run, plus the gzipped size of each .wasm.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as seed from './seed-baseline.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolgate = createRequire(import.meta.url)(join(root, 'pkg', 'node', 'toolgate.js'));
const engine = createRequire(import.meta.url)(join(root, 'pkg', 'engine', 'node', 'toolgate_engine.js'));

/** A realistic list: mostly exact entries, some server wildcards, a few tool wildcards. */
function makeList(n) {
  const list = [];
  for (let i = 0; i < n; i++) {
    if (i % 10 === 3) list.push(`server${i}:*`);
    else if (i % 25 === 7) list.push(`*:shared_tool${i}`);
    else list.push(`server${i}:tool_${i}`);
  }
  return list;
}

/** 64 calls: half allowed by entries spread over the list, half allowed by none (a full scan for the loop). */
function makeCalls(list) {
  const calls = [];
  for (let k = 0; k < 32; k++) {
    const [server, tool] = list[Math.floor((k + 0.5) * list.length / 32) % list.length].split(':');
    calls.push([server === '*' ? `any${k}` : server, tool === '*' ? `some_tool${k}` : tool]);
    calls.push([`unknown${k}`, `missing_tool${k}`]);
  }
  return calls;
}

/** Median ns per call over several timed rounds, after a warm-up. */
function measure(fn, calls) {
  const per = 64;
  let sink = 0;
  const round = (reps) => {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) for (let i = 0; i < per; i++) sink += fn(calls[i][0], calls[i][1]) ? 1 : 0;
    return Number(process.hrtime.bigint() - t0) / (reps * per);
  };
  let reps = 1;
  while (round(reps) * reps * per < 20e6) reps *= 2; // ~20 ms per round
  const samples = Array.from({ length: 9 }, () => round(reps)).sort((a, b) => a - b);
  if (sink < 0) console.log(sink);
  return samples[4];
}

const sizes = [10, 100, 1000, 10000];
const rows = [];
for (const n of sizes) {
  const list = makeList(n);
  const calls = makeCalls(list);
  const policy = new toolgate.McpPolicy({ mcpAllowedTools: list, mcpToolsProtection: false });
  // Both sides must agree before either is timed.
  for (const [s, t] of calls) {
    if (policy.isAllowlisted(s, t) !== seed.isAllowlisted(list, s, t)) throw new Error(`disagree on ${s}:${t} at ${n}`);
  }
  rows.push({
    entries: n,
    'plain JS some(f4c) ns': measure((s, t) => seed.isAllowlisted(list, s, t), calls),
    'toolgate isAllowlisted ns': measure((s, t) => policy.isAllowlisted(s, t), calls),
    'toolgate needsApproval ns': measure((s, t) => !policy.needsApproval(s, t, 'yolo'), calls),
    'toolgate decide (explained) ns': measure((s, t) => !policy.decide(s, t, 'yolo').needApproval, calls),
  });
  policy.free();
}

const fmt = (x) => (typeof x === 'number' && !Number.isInteger(x) ? x.toFixed(0) : String(x));
console.log(`\nMCP allowlist decisions, ns per call (median of 9 rounds; node ${process.version})\n`);
const headers = Object.keys(rows[0]);
console.log(headers.join(' | '));
console.log(headers.map(() => '---').join(' | '));
for (const r of rows) console.log(headers.map((h) => fmt(r[h])).join(' | '));

const at = (n) => rows.find((r) => r.entries === n);
const speedup = at(10)['plain JS some(f4c) ns'] / at(10)['toolgate isAllowlisted ns'];
const flat = at(10000)['toolgate isAllowlisted ns'] / at(10)['toolgate isAllowlisted ns'];
console.log(`\nspeed-up at 10 entries (isAllowlisted vs some(f4c)): ${speedup.toFixed(1)}x   target >= 5x   ${speedup >= 5 ? 'met' : 'MISSED'}`);
console.log(`10,000-entry / 10-entry time (isAllowlisted): ${flat.toFixed(2)}   target <= 1.5   ${flat <= 1.5 ? 'met' : 'MISSED'}`);

// ---- terminal decisions: sub-command analysis vs a RegExp loop over the whole string ----

/** N rules as users accumulate them (mostly via "Always allow `cmd`"), plus Zed-style unanchored denies. */
function makeRules(n) {
  const spec = { alwaysAllow: [], alwaysConfirm: [], alwaysDeny: [] };
  for (let i = 0; i < n; i++) {
    if (i % 3 === 0) spec.alwaysAllow.push({ pattern: `^cmd${i}\\b` });
    else if (i % 3 === 1) spec.alwaysConfirm.push({ pattern: `^cmd${i}\\s+(push|publish)\\b` });
    else spec.alwaysDeny.push({ pattern: `^cmd${i}\\s+(nuke|wipe)\\b` });
  }
  spec.alwaysDeny.push(...['mkfs\\.', '/etc/shadow', '> /dev/sd', 'dd\\s+if=/dev/'].map((pattern) => ({ pattern })));
  return spec;
}

function makeCommands(n) {
  const pick = (k) => `cmd${(k * 7919) % n}`;
  const commands = [];
  for (let k = 0; k < 32; k++) {
    const shapes = [
      `${pick(k)} build --release`,
      `${pick(k)} status && ${pick(k + 1)} log --oneline -n 5`,
      `${pick(k)} test | ${pick(k + 2)} -c 'a; b' > /dev/null`,
      `unknown${k} --flag value`,
    ];
    commands.push(shapes[k % shapes.length]);
  }
  return commands;
}

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

function measureOne(fn, inputs) {
  let sink = 0;
  const round = (reps) => {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) for (let i = 0; i < inputs.length; i++) sink += fn(inputs[i]).length;
    return Number(process.hrtime.bigint() - t0) / (reps * inputs.length);
  };
  let reps = 1;
  while (round(reps) * reps * inputs.length < 20e6) reps *= 2;
  const samples = Array.from({ length: 9 }, () => round(reps)).sort((a, b) => a - b);
  if (sink < 0) console.log(sink);
  return samples[4];
}

const terminalRows = [];
for (const n of [10, 100, 1000]) {
  const rules = makeRules(n);
  const commands = makeCommands(n);
  const policy = new engine.Policy({ layers: [{ name: 'user', tools: { terminal: rules } }] });
  const loop = regexLoop(rules);
  terminalRows.push({
    rules: n + 4,
    'plain JS RegExp loop ns': measureOne(loop, commands),
    'toolgate outcome ns': measureOne((c) => policy.outcome('terminal', c), commands),
    'toolgate decide (explained) ns': measureOne((c) => policy.decide('terminal', c).outcome, commands),
  });
  policy.free();
}
console.log(`\nTerminal decisions with sub-command analysis, ns per command (median of 9 rounds)\n`);
const theaders = Object.keys(terminalRows[0]);
console.log(theaders.join(' | '));
console.log(theaders.map(() => '---').join(' | '));
for (const r of terminalRows) console.log(theaders.map((h) => fmt(r[h])).join(' | '));
const big = terminalRows[terminalRows.length - 1], small = terminalRows[0];
const tSpeed = big['plain JS RegExp loop ns'] / big['toolgate outcome ns'];
const tFlat = big['toolgate outcome ns'] / small['toolgate outcome ns'];
console.log(`\nspeed-up at ${big.rules} rules (outcome vs RegExp loop): ${tSpeed.toFixed(1)}x   target >= 10x   ${tSpeed >= 10 ? 'met' : 'MISSED'}`);
console.log(`${big.rules}-rule / ${small.rules}-rule time (outcome): ${tFlat.toFixed(2)}   target <= 3   ${tFlat <= 3 ? 'met' : 'MISSED'}`);

console.log('\n.wasm size (gzip -9)');
for (const [file, target] of [['node/toolgate_bg.wasm', 100000], ['web/toolgate_bg.wasm', 100000],
  ['engine/node/toolgate_engine_bg.wasm', null], ['engine/web/toolgate_engine_bg.wasm', null]]) {
  const bytes = readFileSync(join(root, 'pkg', file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  const verdict = target === null ? 'no target yet (see README)' : `target <= 100 KB   ${gz <= target ? 'met' : 'MISSED'}`;
  console.log(`pkg/${file}: ${(bytes.length / 1024).toFixed(1)} KiB raw, ${(gz / 1000).toFixed(1)} KB gzipped   ${verdict}`);
}
