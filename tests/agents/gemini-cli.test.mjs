// The real Gemini CLI (the pinned devDependency) in headless mode (`-p`, `--yolo`: it approves
// every tool itself) against a stand-in for the Gemini API that scripts the model's shell calls, so
// toolgate's BeforeTool hook is all that stands between the model and the shell. Headless Gemini CLI
// waits for ever on a hook's question, so the hook runs `--unattended`: a call toolgate would ask
// about is refused. Through the command hook and through `toolgate serve` behind the curl hook.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startGeminiStandIn } from './gemini-standin.mjs';
import { bin, checkRun, root, runAgent, scratch, script, startServe } from './harness.mjs';

const gemini = join(root, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
const version = JSON.parse(readFileSync(join(root, 'node_modules', '@google', 'gemini-cli', 'package.json'), 'utf8')).version;
const { dir, policyFile } = scratch('gemini-cli');
const { curlCommand } = createRequire(import.meta.url)(join(bin, '..', 'serve.js'));

/** Runs Gemini CLI headless in `work` with toolgate's hook `command`, against a stand-in scripting `steps`. */
async function runGemini(work, steps, command) {
  assert.ok(existsSync(gemini), `Gemini CLI is missing at ${gemini}: run npm ci`);
  const home = `${work}-home`;
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' } },
    hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command, name: 'toolgate' }] }] },
  }));
  const standIn = await startGeminiStandIn(steps.map((s) => s.command));
  try {
    const run = await runAgent(process.execPath, [gemini, '-p', 'Run the commands.', '--yolo'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: home, GEMINI_API_KEY: 'standin', GOOGLE_GEMINI_BASE_URL: standIn.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    return { run, results: standIn.results };
  } finally {
    await standIn.close();
  }
}

test(`Gemini CLI ${version} with toolgate's command hook: denied commands never run, allowed ones run, asks are refused unattended`, async () => {
  const { work, steps } = script(dir, 'command');
  const { run, results } = await runGemini(work, steps, `"${process.execPath}" "${bin}" hook gemini-cli --policy "${policyFile}" --unattended`);
  checkRun(steps, run, results);
  assert.match(results.get(steps[1].command), /Tool execution blocked: toolgate refused this call/);
  assert.match(results.get(steps[3].command), /nobody is there to answer, so toolgate refuses it/);
});

test(`Gemini CLI ${version} through toolgate serve behind the one-line curl hook: the same answers`, async () => {
  const { work, steps } = script(dir, 'serve');
  const stateDir = join(dir, 'state');
  const server = await startServe(['--policy', policyFile, '--state-dir', stateDir, '--unattended']);
  try {
    const { run, results } = await runGemini(work, steps, curlCommand('gemini-cli', { stateDir, url: server.url }));
    checkRun(steps, run, results);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
