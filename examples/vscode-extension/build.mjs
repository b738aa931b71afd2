// Builds the example extension into dist/: one esbuild bundle of src/extension.js with toolgate
// inlined (`vscode` stays external), toolgate's Node .wasm files beside it (the Node builds read
// them from their own directory, which is now dist/), and the settings page's webview files in
// dist/settings-page/ (the webview's only localResourceRoot).
//
//   node examples/vscode-extension/build.mjs      (after `npm run build` built toolgate into pkg/)
//
// `toolgate` resolves from node_modules/toolgate, a link to the repository's pkg/ — what
// `npm install` makes of the `"toolgate": "file:../../pkg"` dependency; made here if missing.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, lstatSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', '..', 'pkg');
const dist = join(here, 'dist');

export async function buildExtension({ quiet = false } = {}) {
  if (!existsSync(join(pkg, 'package.json'))) throw new Error('toolgate is not built: run `npm run build` first');
  const link = join(here, 'node_modules', 'toolgate');
  if (!lstatSync(link, { throwIfNoEntry: false })) {
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(relative(dirname(link), pkg), link, 'dir');
  }
  rmSync(dist, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [join(here, 'src', 'extension.js')],
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'],
    outfile: join(dist, 'extension.js'), logLevel: quiet ? 'silent' : 'warning',
  });
  const toolgate = join(link, '.');
  cpSync(join(toolgate, 'web', 'toolgate_bg.wasm'), join(dist, 'toolgate_bg.wasm'));
  cpSync(join(toolgate, 'tools', 'web', 'toolgate_tools_bg.wasm'), join(dist, 'toolgate_tools_bg.wasm'));
  // The webview: the page's script and style beside its module, the tools' web build (raw glue,
  // snippets, .wasm); not the host half, the resilient wrapper or declarations.
  const webOnly = (src) => !/(\.d\.ts|\.md|host\.c?js|host\.mjs|package\.json|toolgate_tools\.js)$/.test(src);
  cpSync(join(toolgate, 'settings-page'), join(dist, 'webview', 'settings-page'), { recursive: true, filter: webOnly });
  cpSync(join(toolgate, 'tools', 'web'), join(dist, 'webview', 'tools', 'web'), { recursive: true, filter: webOnly });
  return dist;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildExtension();
  console.log(`built ${relative(process.cwd(), out) || '.'}`);
}
