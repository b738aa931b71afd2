// What every real-agent test shares: the packed toolgate, one policy, the scripted commands and
// what toolgate must do with each (checked on the files they would create), a real agent run to its
// end, and `toolgate serve` started and stopped as a user would.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from '../js/install-package.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const require = installPackage();
/** The packed package's command line. */
export const bin = join(dirname(require.resolve('toolgate/package.json')), 'cli', 'toolgate.js');

/** A scratch directory with the policy every tier decides with: `{ dir, policyFile }`. */
export function scratch(name) {
  const dir = mkdtempSync(join(tmpdir(), `toolgate-${name}-`));
  const policyFile = join(dir, 'policy.json');
  writeFileSync(policyFile, JSON.stringify({
    layers: [
      { name: 'managed', kind: 'managed', tools: { terminal: { alwaysDeny: [{ prefix: 'cp' }] } } },
      { name: 'user', kind: 'user', tools: { terminal: { alwaysAllow: [{ prefix: 'touch' }], alwaysConfirm: [{ prefix: 'mkdir' }] } } },
    ],
    defaultMode: 'confirm',
  }, null, 2));
  return { dir, policyFile };
}

/** A work directory under `dir` and the scripted commands for it: what each would create, and whether toolgate lets it run. */
export function script(dir, name) {
  const work = join(dir, name);
  mkdirSync(work, { recursive: true });
  return {
    work,
    steps: [
      { command: `touch ${work}/allowed`, creates: `${work}/allowed`, runs: true },
      { command: `cp /etc/hostname ${work}/denied`, creates: `${work}/denied`, runs: false, says: /layer "managed", terminal alwaysDeny\[0\] \(prefix\) cp/ },
      { command: `touch ${work}/before && cp /etc/hostname ${work}/denied-too`, creates: `${work}/before`, runs: false },
      { command: `mkdir ${work}/asked`, creates: `${work}/asked`, runs: false, says: /toolgate asks about this call: .*layer "user", terminal alwaysConfirm\[0\]/ },
      { command: `touch ${work}/allowed-again`, creates: `${work}/allowed-again`, runs: true },
    ],
  };
}

/** Runs an agent to its end: `{ code, stdout, stderr }`; killed after `timeoutMs`. */
export function runAgent(command, args, { cwd, env, timeoutMs = 120_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? signal : code, stdout, stderr });
    });
  });
}

/**
 * What toolgate must have done with each scripted command, checked on the files and on the tool
 * results the model got back (`results`: the result text by command).
 */
export function checkRun(steps, run, results) {
  assert.equal(run.code, 0, `the agent exited ${run.code}: ${run.stderr.slice(-3000)}`);
  for (const step of steps) {
    assert.equal(existsSync(step.creates), step.runs, `${step.command}: ${step.runs ? 'should have run' : 'must not have run'}`);
    const result = results.get(step.command);
    assert.ok(result !== undefined, `${step.command}: the model got no tool result`);
    if (step.says) assert.match(result, step.says);
  }
}

/** Starts `toolgate serve` as a user would; resolves with `{ url, stop }` (`stop` resolves with its exit code). */
export async function startServe(args, env = {}) {
  const server = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  server.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`toolgate serve exited ${code}: ${stderr}`)));
  });
  const stop = () => {
    const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    return exited;
  };
  return { url, stop };
}
