// The real Claude Code CLI (the pinned devDependency, its native binary) in print mode against a
// stand-in for the Anthropic Messages API that scripts the model's Bash calls. Claude Code's own
// rules allow Bash (`--allowedTools Bash`), so toolgate's hook is all that stands between the
// model and the shell: a command the policy denies never runs (the file it would create is not
// there), an allowed one runs, one that asks does not run in print mode — through the command hook
// and through `toolgate serve` over Claude Code's `type: "http"` hook. The transcript Claude Code
// writes then goes through `toolgate replay` and `toolgate learn`.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from '../js/install-package.mjs';
import { startAnthropicStandIn } from './anthropic-standin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const claude = join(root, 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude');
const version = JSON.parse(readFileSync(join(root, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json'), 'utf8')).version;

const require = installPackage();
const bin = join(dirname(require.resolve('toolgate/package.json')), 'cli', 'toolgate.js');

const dir = mkdtempSync(join(tmpdir(), 'toolgate-claude-code-'));
const policyFile = join(dir, 'policy.json');
writeFileSync(policyFile, JSON.stringify({
  layers: [
    { name: 'managed', kind: 'managed', tools: { terminal: { alwaysDeny: [{ prefix: 'cp' }] } } },
    { name: 'user', kind: 'user', tools: { terminal: { alwaysAllow: [{ prefix: 'touch' }], alwaysConfirm: [{ prefix: 'mkdir' }] } } },
  ],
  defaultMode: 'confirm',
}, null, 2));

/** The scripted commands for a work directory: what each would create, and what toolgate must do. */
const script = (work) => [
  { command: `touch ${work}/allowed`, creates: `${work}/allowed`, runs: true },
  { command: `cp /etc/hostname ${work}/denied`, creates: `${work}/denied`, runs: false, says: /layer "managed", terminal alwaysDeny\[0\] \(prefix\) cp/ },
  { command: `touch ${work}/before && cp /etc/hostname ${work}/denied-too`, creates: `${work}/before`, runs: false },
  { command: `mkdir ${work}/asked`, creates: `${work}/asked`, runs: false, says: /toolgate asks about this call: .*layer "user", terminal alwaysConfirm\[0\]/ },
  { command: `touch ${work}/allowed-again`, creates: `${work}/allowed-again`, runs: true },
];

/** Runs Claude Code in print mode with `settings` against a stand-in scripting `steps`; resolves with what happened. */
async function runClaude(name, steps, settings, env = {}) {
  const home = join(dir, `${name}-home`);
  const work = dirname(steps[0].creates);
  mkdirSync(home, { recursive: true });
  const standIn = await startAnthropicStandIn(steps.map((s) => s.command));
  try {
    const args = ['-p', 'Run the commands.', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', '--settings', JSON.stringify(settings)];
    const run = await new Promise((resolve, reject) => {
      const child = spawn(claude, args, {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: 'sk-ant-standin',
          DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', ...env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    const projects = join(home, '.claude', 'projects');
    const transcripts = existsSync(projects) ? readdirSync(projects).flatMap((p) => readdirSync(join(projects, p)).filter((f) => f.endsWith('.jsonl')).map((f) => join(projects, p, f))) : [];
    return { ...run, results: standIn.results, transcripts };
  } finally {
    await standIn.close();
  }
}

/** What toolgate must have done with each scripted command, checked on the files and the model's tool results. */
function checkRun(steps, run) {
  assert.equal(run.code, 0, `claude exited ${run.code}: ${run.stderr.slice(-2000)}`);
  for (const step of steps) {
    assert.equal(existsSync(step.creates), step.runs, `${step.command}: ${step.runs ? 'should have run' : 'must not have run'}`);
    const result = run.results.get(step.command);
    assert.ok(result, `${step.command}: the model got no tool result`);
    if (!step.runs) assert.equal(result.isError, true, `${step.command}: ${result.text}`);
    if (step.says) assert.match(result.text, step.says);
  }
}

before(() => {
  assert.ok(existsSync(claude), `Claude Code's native binary is missing at ${claude}: run npm ci`);
});

test(`Claude Code ${version} with toolgate's command hook: denied commands never run, allowed ones run, asks do not run in print mode`, async () => {
  const work = join(dir, 'command-work');
  mkdirSync(work, { recursive: true });
  const steps = script(work);
  const hook = `"${process.execPath}" "${bin}" hook claude-code --policy "${policyFile}"`;
  const run = await runClaude('command', steps, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } });
  checkRun(steps, run);

  // The transcript Claude Code wrote, replayed and learned from.
  assert.equal(run.transcripts.length, 1, run.transcripts.join(', '));
  const [transcript] = run.transcripts;
  const replay = spawnSync(process.execPath, [bin, 'replay', policyFile, transcript, '--json'], { encoding: 'utf8' });
  assert.equal(replay.status, 0, `the policy in force allows no call that was refused: ${replay.stdout}${replay.stderr}`);
  assert.equal(JSON.parse(replay.stdout).report.calls, steps.length);
  // Without the managed denial, the calls toolgate refused would have run: replay says so (exit 6).
  const looser = join(dir, 'looser.json');
  writeFileSync(looser, JSON.stringify({ layers: [{ name: 'user', tools: { terminal: { alwaysAllow: [{ prefix: 'touch' }, { prefix: 'cp' }] } } }] }));
  const loose = spawnSync(process.execPath, [bin, 'replay', looser, transcript], { encoding: 'utf8' });
  assert.equal(loose.status, 6, loose.stdout + loose.stderr);
  assert.match(loose.stdout, /would have allowed 2 calls that were refused/);

  const learn = spawnSync(process.execPath, [bin, 'learn', transcript, '--policy', policyFile, '--min-calls', '1', '--json'], { encoding: 'utf8' });
  assert.equal(learn.status, 0, learn.stderr);
  const learned = JSON.parse(learn.stdout);
  assert.ok(learned.ok);
  for (const proposal of learned.report.proposals) assert.doesNotMatch(JSON.stringify(proposal.rule), /cp|mkdir/, 'nothing refused or unanswered is learned');
});

test(`Claude Code ${version} with its HTTP hook pointed at toolgate serve: the same answers; the session log reads back`, async () => {
  const work = join(dir, 'http-work');
  mkdirSync(work, { recursive: true });
  const steps = script(work);
  const token = 'claude-code-e2e-token';
  const log = join(dir, 'serve-log.jsonl');
  const server = spawn(process.execPath, [bin, 'serve', '--policy', policyFile, '--state-dir', join(dir, 'state'), '--log', log], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TOOLGATE_TOKEN: token },
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      server.on('exit', (code) => reject(new Error(`toolgate serve exited ${code}`)));
    });
    const hook = { type: 'http', url: `${url}/hooks/claude-code`, headers: { Authorization: 'Bearer $TOOLGATE_TOKEN' }, allowedEnvVars: ['TOOLGATE_TOKEN'], timeout: 30 };
    const run = await runClaude('http', steps, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }, { TOOLGATE_TOKEN: token });
    checkRun(steps, run);
  } finally {
    const exited = new Promise((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    assert.equal(await exited, 0, 'toolgate serve shuts down cleanly');
  }
  const replay = spawnSync(process.execPath, [bin, 'replay', policyFile, log, '--json'], { encoding: 'utf8' });
  assert.equal(replay.status, 0, replay.stderr);
  const report = JSON.parse(replay.stdout);
  assert.deepEqual(report.unread, []);
  assert.ok(report.report.calls >= steps.length, `${report.report.calls} calls in the server's log`);
});

test('Claude Code with a hook whose policy does not load: nothing runs', async () => {
  const work = join(dir, 'broken-work');
  mkdirSync(work, { recursive: true });
  const steps = script(work).map((s) => ({ ...s, runs: false, says: /toolgate refused this call: the policy .* cannot be read/ }));
  const hook = `"${process.execPath}" "${bin}" hook claude-code --policy "${join(dir, 'no-such-policy.json')}"`;
  checkRun(steps, await runClaude('broken', steps, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } }));
});

