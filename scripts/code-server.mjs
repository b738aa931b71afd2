// Starts code-server (a real VS Code 1.100 workbench, with a Node extension host and real webviews)
// with toolgate's example extension installed, in a fresh temporary profile. Used by the VS Code
// test tier (tests/vscode/) and by `npm run vscode` (scripts/vscode.mjs). Facts it relies on:
// ../shared/vscode-e2e.md. code-server comes from scripts/setup-vscode.sh (.cache/code-server/).
//
//   const server = await startCodeServer({ workspaceSettings, userSettings, env });
//   server.url            http://127.0.0.1:<port>/?folder=<workspace>
//   await server.stop()   ends the server (its whole process group) and removes the temporary folder
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CODE_SERVER_VERSION = '4.100.3';
export const codeServerEntry = join(root, '.cache', 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const extensionSource = join(root, 'examples', 'vscode-extension');

/** A port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Copies the built example extension where VS Code scans for installed extensions. */
export function installExtension(extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(extensionSource, 'package.json'), 'utf8'));
  if (!existsSync(join(extensionSource, 'dist', 'extension.js'))) {
    throw new Error('the example extension is not built: node examples/vscode-extension/build.mjs');
  }
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(target, { recursive: true });
  for (const name of ['package.json', 'README.md', 'dist']) {
    if (existsSync(join(extensionSource, name))) cpSync(join(extensionSource, name), join(target, name), { recursive: true });
  }
  return { id: `${manifest.publisher}.${manifest.name}`, dir: target };
}

/**
 * Options: `userSettings` / `workspaceSettings` (objects for User/settings.json and the workspace's
 * .vscode/settings.json), `env` (added to the server's environment; the extension host inherits
 * it), `trust` (false: --disable-workspace-trust, every folder trusted; true: VS Code asks),
 * `host`/`port`, `startTimeoutMs`.
 */
export async function startCodeServer({
  userSettings = {}, workspaceSettings, workspaceFiles = {}, env = {}, trust = false, host = '127.0.0.1', port,
  startTimeoutMs = 60000,
} = {}) {
  if (!existsSync(codeServerEntry)) {
    throw new Error(`code-server ${CODE_SERVER_VERSION} is not installed: bash scripts/setup-vscode.sh`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-vscode-'));
  let child;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
        await Promise.race([exited, sleep(2000)]);
      }
    }
    process.off('exit', onExit);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  // If this process ends without stop() (an uncaught error, process.exit), the server goes too.
  const onExit = () => {
    try { if (child && child.exitCode === null) process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    try { rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
  };
  process.on('exit', onExit);
  try {
    const paths = {
      dir, userData: join(dir, 'user-data'), extensions: join(dir, 'extensions'), workspace: join(dir, 'workspace'),
      config: join(dir, 'config.yaml'), log: join(dir, 'code-server.log'),
    };
    mkdirSync(join(paths.userData, 'User'), { recursive: true });
    mkdirSync(paths.extensions, { recursive: true });
    mkdirSync(join(dir, 'xdg-config'), { recursive: true });
    mkdirSync(join(dir, 'xdg-data'), { recursive: true });
    mkdirSync(join(paths.workspace, '.vscode'), { recursive: true });
    writeFileSync(join(paths.userData, 'User', 'settings.json'), JSON.stringify({
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'chat.commandCenter.enabled': false,
      ...userSettings,
    }, null, 2));
    if (workspaceSettings) writeFileSync(join(paths.workspace, '.vscode', 'settings.json'), JSON.stringify(workspaceSettings, null, 2));
    for (const [name, text] of Object.entries(workspaceFiles)) {
      mkdirSync(dirname(join(paths.workspace, name)), { recursive: true });
      writeFileSync(join(paths.workspace, name), text);
    }
    const extension = installExtension(paths.extensions);
    const listenPort = port ?? await freePort();
    writeFileSync(paths.config, `bind-addr: ${host}:${listenPort}\nauth: none\ncert: false\n`);

    const args = [codeServerEntry, '--config', paths.config, '--user-data-dir', paths.userData,
      '--extensions-dir', paths.extensions, '--disable-telemetry', '--disable-update-check',
      '--disable-getting-started-override', ...(trust ? [] : ['--disable-workspace-trust']), paths.workspace];
    const logFd = openSync(paths.log, 'a');
    child = spawn(process.execPath, args, {
      cwd: paths.workspace,
      detached: true, // its own process group: stop() ends the extension host and every helper too
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg-config'), XDG_DATA_HOME: join(dir, 'xdg-data'), ...env },
    });
    closeSync(logFd);
    const origin = `http://${host}:${listenPort}`;
    const deadline = Date.now() + startTimeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${readFileSync(paths.log, 'utf8').slice(-3000)}`);
      try {
        const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) break;
      } catch { /* not listening yet */ }
      if (Date.now() > deadline) throw new Error(`code-server did not answer /healthz within ${startTimeoutMs} ms:\n${readFileSync(paths.log, 'utf8').slice(-3000)}`);
      await sleep(250);
    }
    return {
      ...paths, origin, port: listenPort, extension, pid: child.pid,
      url: `${origin}/?folder=${encodeURIComponent(paths.workspace)}`,
      log: () => (existsSync(paths.log) ? readFileSync(paths.log, 'utf8') : ''),
      exited: new Promise((r) => child.once('exit', r)),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
