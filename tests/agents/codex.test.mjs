// The real Codex CLI (the pinned devDependency, its musl binary) running `codex exec` against a
// stand-in for the Responses API that scripts the model's shell calls, with Codex's own approvals
// off and no sandbox (`approval_policy = "never"`, `danger-full-access`), so toolgate's PreToolUse
// hook is all that stands between the model and the shell. Codex takes only a hook's deny: an
// allow is an empty answer, and a call toolgate would ask about is refused, never run unasked.
// Through the command hook and through `toolgate serve` behind the one-line curl hook; the rollout
// Codex writes goes through `toolgate replay`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startResponsesStandIn } from './openai-standin.mjs';
import { bin, checkRun, root, runAgent, scratch, script, startServe } from './harness.mjs';

const codex = join(root, 'node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
const version = JSON.parse(readFileSync(join(root, 'node_modules', '@openai', 'codex', 'package.json'), 'utf8')).version;
const { dir, policyFile } = scratch('codex');
const { curlCommand } = createRequire(import.meta.url)(join(bin, '..', 'serve.js'));

/** Every file under `at`. */
const walk = (at) => (existsSync(at) ? readdirSync(at).flatMap((n) => (statSync(join(at, n)).isDirectory() ? walk(join(at, n)) : [join(at, n)])) : []);

/** Runs `codex exec` in `work` with toolgate's hook `command`, against a stand-in scripting `steps`. */
async function runCodex(work, steps, command) {
  assert.ok(existsSync(codex), `Codex's binary is missing at ${codex}: run npm ci`);
  const codexHome = `${work}-codex`;
  mkdirSync(codexHome, { recursive: true });
  const standIn = await startResponsesStandIn(steps.map((s) => s.command));
  try {
    writeFileSync(join(codexHome, 'config.toml'), [
      'model = "gpt-5"', 'model_provider = "standin"', 'approval_policy = "never"', 'sandbox_mode = "danger-full-access"', '',
      '[model_providers.standin]', 'name = "standin"', `base_url = "${standIn.url}/v1"`, 'wire_api = "responses"', 'env_key = "STANDIN_KEY"', '',
      // No matcher: Codex reads it as a regular expression, and `*` is not one.
      '[[hooks.PreToolUse]]', '[[hooks.PreToolUse.hooks]]', 'type = "command"', `command = ${JSON.stringify(command)}`, '',
    ].join('\n'));
    const run = await runAgent(codex, ['exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', 'Run the commands.'], {
      cwd: work, env: { PATH: process.env.PATH, HOME: work, CODEX_HOME: codexHome, STANDIN_KEY: 'standin' },
    });
    return { run, results: standIn.results, rollouts: walk(join(codexHome, 'sessions')).filter((f) => f.endsWith('.jsonl')) };
  } finally {
    await standIn.close();
  }
}

test(`Codex ${version} with toolgate's command hook: denied commands never run, allowed ones run, asks are refused`, async () => {
  const { work, steps } = script(dir, 'command');
  const { run, results, rollouts } = await runCodex(work, steps, `"${process.execPath}" "${bin}" hook codex --policy "${policyFile}"`);
  checkRun(steps, run, results);
  assert.match(results.get(steps[3].command), /a Codex hook cannot ask a person, so toolgate refuses it/);

  assert.equal(rollouts.length, 1, rollouts.join(', '));
  const replay = spawnSync(process.execPath, [bin, 'replay', policyFile, rollouts[0], '--json'], { encoding: 'utf8' });
  assert.equal(replay.status, 0, `${replay.stdout}${replay.stderr}`);
  assert.equal(JSON.parse(replay.stdout).report.calls, steps.length);
  const looser = join(dir, 'looser.json');
  writeFileSync(looser, JSON.stringify({ layers: [{ name: 'user', tools: { terminal: { alwaysAllow: [{ prefix: 'touch' }, { prefix: 'cp' }] } } }] }));
  const loose = spawnSync(process.execPath, [bin, 'replay', looser, rollouts[0]], { encoding: 'utf8' });
  assert.equal(loose.status, 6, loose.stdout + loose.stderr);
});

test(`Codex ${version} through toolgate serve behind the one-line curl hook: the same answers`, async () => {
  const { work, steps } = script(dir, 'serve');
  const stateDir = join(dir, 'state');
  const server = await startServe(['--policy', policyFile, '--state-dir', stateDir]);
  try {
    const { run, results } = await runCodex(work, steps, curlCommand('codex', { stateDir, url: server.url }));
    checkRun(steps, run, results);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
