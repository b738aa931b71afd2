// What an agent's hook costs per decided call, end to end, as the agent runs it: a fresh process
// fed the hook's JSON on stdin, timed until it exits. Sides, in alternating rounds:
// - `node -e 0`: Node's own empty start, the floor under any Node hook;
// - `toolgate hook claude-code --policy …`: the Node command hook (the engine build alone);
// - the one-line curl command hook forwarding to a running `toolgate serve`;
// - destructive_command_guard (DCG), a native Rust hook, when `DCG_BIN` names its binary.
// And the decision over HTTP itself, without a process start: `POST /hooks/claude-code` on a
// kept-alive connection, p50 and p99.
//
// `node bench/hooks.mjs` runs it alone; `npm run bench` runs it with the rest.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

const POLICY = {
  presets: ['dangerousCommands'],
  layers: [
    { name: 'managed', kind: 'managed', tools: { terminal: { alwaysDeny: [{ pattern: '^curl\\b' }] } } },
    { name: 'user', kind: 'user', tools: { terminal: { alwaysAllow: [{ prefix: 'git status' }, { prefix: 'ls' }], alwaysConfirm: [{ prefix: 'git push' }] } } },
  ],
};

const INPUT = JSON.stringify({
  session_id: 'bench', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', permission_mode: 'default', hook_event_name: 'PreToolUse',
  tool_name: 'Bash', tool_input: { command: 'git status && ls -la', description: 'look' }, tool_use_id: 'toolu_bench',
});

/** Wall time of one process fed `INPUT`, in ms; checks that it answered. */
function timed(command, args, check) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, { input: INPUT, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (check && !check(r)) throw new Error(`bench: ${command} ${args.join(' ')} answered ${r.status}: ${r.stdout}${r.stderr}`);
  return ms;
}

/** Starts `toolgate serve` over `policyFile`; resolves with its URL and the child. */
function startServe(bin, policyFile, stateDir) {
  const child = spawn(process.execPath, [bin, 'serve', '--policy', policyFile, '--state-dir', stateDir], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TOOLGATE_TOKEN: 'bench-token' } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`toolgate serve exited ${code}`)));
  });
}

/** POSTs the hook input `n` times on one kept-alive connection; the latencies in ms. */
async function httpLatencies(url, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(url);
  const post = () => new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request({ hostname, port, path: '/hooks/claude-code', method: 'POST', agent, headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        if (!body.includes('"allow"')) reject(new Error(`bench: toolgate serve answered ${body}`));
        resolve(Number(process.hrtime.bigint() - t0) / 1e6);
      });
    });
    req.on('error', reject);
    req.end(INPUT);
  });
  for (let i = 0; i < 50; i++) await post();
  const out = [];
  for (let i = 0; i < n; i++) out.push(await post());
  agent.destroy();
  return out;
}

/**
 * `rounds` alternating rounds of each side; returns `{ samples, http: { p50, p99 }, dcg }`, samples
 * in ms per call.
 */
export async function measureHooks(pkg, rounds = 15) {
  const require = createRequire(import.meta.url);
  const bin = join(pkg, 'cli', 'toolgate.js');
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-hooks-'));
  const policyFile = join(dir, 'policy.json');
  writeFileSync(policyFile, JSON.stringify(POLICY));
  const { curlCommand } = require(join(pkg, 'cli', 'serve.js'));
  const stateDir = join(dir, 'state');
  const { url, child } = await startServe(bin, policyFile, stateDir);
  const allowed = (r) => r.status === 0 && r.stdout.includes('"allow"');
  const dcg = process.env.DCG_BIN && existsSync(process.env.DCG_BIN) ? process.env.DCG_BIN : null;
  const sides = {
    'node -e 0': () => timed(process.execPath, ['-e', '0'], (r) => r.status === 0),
    'toolgate hook (Node command)': () => timed(process.execPath, [bin, 'hook', 'claude-code', '--policy', policyFile], allowed),
    'curl → toolgate serve': () => timed('sh', ['-c', curlCommand('claude-code', { stateDir, url })], allowed),
    ...(dcg ? { 'destructive_command_guard': () => timed(dcg, [], (r) => r.status === 0) } : {}),
  };
  try {
    const names = Object.keys(sides);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (const name of names) sides[name](); // the files into the page cache, untimed
    for (let k = 0; k < rounds; k++) for (const name of k % 2 ? [...names].reverse() : names) samples[name].push(sides[name]());
    const latencies = await httpLatencies(url, 1000);
    return { samples, http: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) }, dcg: Boolean(dcg) };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The figures as the bench prints them; `target(label, value, unit, cmp, goal)` prints a goal line. */
export function reportHooks(result, { printTable, target }) {
  const { samples } = result;
  const perRound = (a, b) => median(samples[a].map((x, k) => x / samples[b][k]));
  printTable(Object.entries(samples).map(([side, xs]) => ({ 'hook, one decided call (fresh process, stdin to exit)': side, 'median ms': median(xs).toFixed(1), 'p90 ms': quantile(xs, 0.9).toFixed(1) })));
  console.log(`\nthe decision over HTTP (toolgate serve, POST /hooks/claude-code, one kept-alive connection): p50 ${result.http.p50.toFixed(2)} ms, p99 ${result.http.p99.toFixed(2)} ms\n`);
  target('toolgate hook (Node) vs node -e 0, time ratio per round', perRound('toolgate hook (Node command)', 'node -e 0'), 'x', '<=', 1.5);
  target('decision over HTTP, p50', result.http.p50, ' ms', '<=', 2);
  target('curl → toolgate serve vs node -e 0, time ratio per round', perRound('curl → toolgate serve', 'node -e 0'), 'x', '<=', 1);
  if (result.dcg) target('curl → toolgate serve vs destructive_command_guard, time ratio per round', perRound('curl → toolgate serve', 'destructive_command_guard'), 'x', '<=', 1);
  else console.log('destructive_command_guard: not measured (set DCG_BIN to its binary; docs/benchmark.md says how it was built)');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', 'pkg');
  const fmt = (x) => String(x);
  const printTable = (rows) => {
    const headers = Object.keys(rows[0]);
    console.log(headers.join(' | '));
    for (const r of rows) console.log(headers.map((h) => fmt(r[h])).join(' | '));
  };
  const target = (label, value, unit, cmp, goal) => {
    const ok = cmp === '>=' ? value >= goal : value <= goal;
    console.log(`${label}: ${value.toFixed(2)}${unit}   target ${cmp} ${goal}${unit}   ${ok ? 'met' : 'MISSED'}`);
  };
  reportHooks(await measureHooks(pkg, Number(process.env.BENCH_ROUNDS ?? 15)), { printTable, target });
}
