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
  cpSync(join(toolgate, 'node', 'toolgate_bg.wasm'), join(dist, 'toolgate_bg.wasm'));
  cpSync(join(toolgate, 'tools', 'node', 'toolgate_tools_bg.wasm'), join(dist, 'toolgate_tools_bg.wasm'));
  cpSync(join(toolgate, 'settings-page'), join(dist, 'settings-page'), {
    recursive: true,
    // The webview needs the page's modules, style and snippets; not the host half or declarations.
    filter: (src) => !/(\.d\.ts|\.md|host\.c?js|host\.mjs|package\.json)$/.test(src),
  });
  return dist;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildExtension();
  console.log(`built ${relative(process.cwd(), out) || '.'}`);
}
