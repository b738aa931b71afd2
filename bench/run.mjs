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

console.log('\n.wasm size');
for (const build of ['node', 'web']) {
  const bytes = readFileSync(join(root, 'pkg', build, 'toolgate_bg.wasm'));
  const gz = gzipSync(bytes, { level: 9 }).length;
  console.log(`pkg/${build}/toolgate_bg.wasm: ${(bytes.length / 1024).toFixed(1)} KiB raw, ${(gz / 1000).toFixed(1)} KB gzipped   target <= 100 KB   ${gz <= 100000 ? 'met' : 'MISSED'}`);
}
