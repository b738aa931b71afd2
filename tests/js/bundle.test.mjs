// An extension author's build: esbuild bundles toolgate into the extension's single file and
// copies the .wasm next to the bundle, where the Node build looks for it (`__dirname`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { installPackage, app, scratch } from './install-package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = installPackage();

async function bundleExtension(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const entry = join(app, 'src', 'extension.js');
  mkdirSync(dirname(entry), { recursive: true });
  copyFileSync(join(here, 'fixtures', 'extension.js'), entry);
  await esbuild.build({
    entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', external: ['vscode'],
    outfile: join(outdir, 'extension.js'), logLevel: 'silent',
  });
}

const runInChild = (bundle, script) => execFileSync(process.execPath, ['-e', `
  const ext = require(${JSON.stringify(bundle)});
  ${script}
`], { cwd: '/', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('the bundled extension runs on its own once the .wasm is copied next to it', async () => {
  const dist = join(scratch, 'extension', 'dist');
  await bundleExtension(dist);
  const bundleText = readFileSync(join(dist, 'extension.js'), 'utf8');
  assert.ok(!/require\(["']toolgate["']\)/.test(bundleText), 'toolgate is inlined into the bundle');
  copyFileSync(require.resolve('toolgate/toolgate_bg.wasm'), join(dist, 'toolgate_bg.wasm'));

  const out = JSON.parse(runInChild(join(dist, 'extension.js'), `
    const api = ext.activate({ mcpAllowedTools: ['github:*'], mcpToolsProtection: false });
    console.log(JSON.stringify({
      allowed: api.onToolCall('github', 'create_issue', 'yolo'),
      asked: api.onToolCall('jira', 'create_ticket', 'yolo'),
      list: api.allow(['github:*'], 'jira', 'create_ticket'),
    }));
  `));
  assert.equal(out.allowed.run, true);
  assert.match(out.allowed.why, /"github:\*"/);
  assert.equal(out.asked.run, false);
  assert.deepEqual(out.asked.offer, [{ server: 'jira', tool: 'create_ticket' }]);
  assert.deepEqual(out.list, ['github:*', 'jira:create_ticket']);
});

test('without the copied .wasm the bundle fails loudly, naming the file', async () => {
  const dist = join(scratch, 'extension-missing-wasm', 'dist');
  await bundleExtension(dist);
  assert.throws(() => runInChild(join(dist, 'extension.js'), 'ext.activate({})'), /toolgate_bg\.wasm/);
});
