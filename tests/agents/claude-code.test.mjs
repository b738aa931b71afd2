// The real Claude Code CLI (the pinned devDependency, its native binary) in print mode against a
// stand-in for the Anthropic Messages API that scripts the model's Bash calls. Claude Code's own
// rules allow Bash (`--allowedTools Bash`), so toolgate's hook is all that stands between the
// model and the shell: a command the policy denies never runs (the file it would create is not
// there), an allowed one runs, one that asks does not run in print mode — through the command hook
// and through `toolgate serve` over Claude Code's `type: "http"` hook. The transcript Claude Code
// writes then goes through `toolgate replay` and `toolgate learn`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicStandIn } from './anthropic-standin.mjs';
import { bin, checkRun, root, runAgent, scratch, script, startServe } from './harness.mjs';

const claude = join(root, 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude');
const version = JSON.parse(readFileSync(join(root, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json'), 'utf8')).version;
const { dir, policyFile } = scratch('claude-code');

/** Runs Claude Code in print mode in `work` with `settings`, against a stand-in scripting `steps`. */
async function runClaude(work, steps, settings, env = {}) {
  assert.ok(existsSync(claude), `Claude Code's native binary is missing at ${claude}: run npm ci`);
  const home = `${work}-home`;
  mkdirSync(home, { recursive: true });
  const standIn = await startAnthropicStandIn(steps.map((s) => s.command));
  try {
    const run = await runAgent(claude, ['-p', 'Run the commands.', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', '--settings', JSON.stringify(settings)], {
      cwd: work,
      env: {
        PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: 'sk-ant-standin',
        DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', ...env,
      },
    });
    const projects = join(home, '.claude', 'projects');
    const transcripts = existsSync(projects)
      ? readdirSync(projects).flatMap((p) => readdirSync(join(projects, p)).filter((f) => f.endsWith('.jsonl')).map((f) => join(projects, p, f)))
      : [];
    const results = new Map([...standIn.results].map(([command, r]) => [command, r.isError ? r.text : `ran: ${r.text}`]));
    return { run, results, transcripts };
  } finally {
    await standIn.close();
  }
}

const commandHook = (policy) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `"${process.execPath}" "${bin}" hook claude-code --policy "${policy}"` }] }] },
});

test(`Claude Code ${version} with toolgate's command hook: denied commands never run, allowed ones run, asks do not run in print mode`, async () => {
  const { work, steps } = script(dir, 'command');
  const { run, results, transcripts } = await runClaude(work, steps, commandHook(policyFile));
  checkRun(steps, run, results);

  // The transcript Claude Code wrote, replayed and learned from.
  assert.equal(transcripts.length, 1, transcripts.join(', '));
  const [transcript] = transcripts;
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
  const { work, steps } = script(dir, 'http');
  const token = 'claude-code-e2e-token';
  const log = join(dir, 'serve-log.jsonl');
  const server = await startServe(['--policy', policyFile, '--state-dir', join(dir, 'state'), '--log', log], { TOOLGATE_TOKEN: token });
  try {
    const hook = { type: 'http', url: `${server.url}/hooks/claude-code`, headers: { Authorization: 'Bearer $TOOLGATE_TOKEN' }, allowedEnvVars: ['TOOLGATE_TOKEN'], timeout: 30 };
    const { run, results } = await runClaude(work, steps, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }, { TOOLGATE_TOKEN: token });
    checkRun(steps, run, results);
  } finally {
    assert.equal(await server.stop(), 0, 'toolgate serve shuts down cleanly');
  }
  const replay = spawnSync(process.execPath, [bin, 'replay', policyFile, log, '--json'], { encoding: 'utf8' });
  assert.equal(replay.status, 0, replay.stderr);
  const report = JSON.parse(replay.stdout);
  assert.deepEqual(report.unread, []);
  assert.ok(report.report.calls >= steps.length, `${report.report.calls} calls in the server's log`);
});

test(`Claude Code ${version} with a hook whose policy does not load: nothing runs`, async () => {
  const { work, steps } = script(dir, 'broken');
  const refused = steps.map((s) => ({ ...s, runs: false, says: /toolgate refused this call: the policy .* cannot be read/ }));
  const { run, results } = await runClaude(work, refused, commandHook(join(dir, 'no-such-policy.json')));
  checkRun(refused, run, results);
});
