// Builds pkg/settings-page/ (`toolgate/settings-page`), called by scripts/build.mjs once the rest
// of the package is built:
//   - the page: settings-page.js, one file bundled (esbuild) from its modules in js/settings-page/
//     (its frame, shell.js, one per section, section-*.js, the helpers they share, dom.js,
//     problems.js, words.js, stored.js, visible.js, and core.js, its only way to the core), so the
//     browser fetches it in one request instead of waves of six; settings-page.css; visible.js, a
//     helper embedders use on its own. The core's parts (the link, the validator, the tools'
//     module) are imported when asked, from their own folders beside the page, fetched from its
//     own source (CSP `connect-src <cspSource>`);
//   - the host half from js/settings-page/: host.mjs (ES module) as written and host.cjs, its
//     CommonJS twin over the tools' Node build;
//   - the `exports` entries, added to the package.json build.mjs wrote.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The page's own modules that ship as files of their own: the page bundles the rest. */
const SHIPPED_MODULES = ['settings-page.js', 'visible.js'];

export async function buildSettingsPage({ root, pkg }) {
  const out = join(pkg, 'settings-page');
  mkdirSync(out, { recursive: true });
  const source = join(root, 'js', 'settings-page');
  for (const file of readdirSync(source)) {
    if (!file.endsWith('.js') || SHIPPED_MODULES.includes(file)) copyFileSync(join(source, file), join(out, file));
    else rmSync(join(out, file), { force: true });
  }
  // The glue of the page's two wasm modules (core.js imports it from ./link/ and ./validator/,
  // built here, with its snippets) goes into the page's file; only the validator's .wasm stays
  // beside it.
  // The tools' module stays a dynamic import, by path from the page.
  const builtGlue = { name: 'built-glue', setup(build) {
    build.onResolve({ filter: /^\.\/(link|validator)\// }, (args) => ({ path: join(out, args.path) }));
  } };
  // The link's .wasm too (80 KB), as bytes: the page compiles it synchronously and draws before
  // it yields to the browser, instead of fetching it and waiting a turn of the event loop.
  // Imported here: a machine without the dev dependencies hears first what build.mjs says of them.
  const esbuild = await import('esbuild');
  await esbuild.build({ entryPoints: [join(source, 'settings-page.js')], outfile: join(out, 'settings-page.js'), bundle: true, format: 'esm',
    target: 'es2022', legalComments: 'none', logLevel: 'warning', plugins: [builtGlue], loader: { '.wasm': 'binary' } });
  rmSync(join(out, 'link'), { recursive: true, force: true });
  for (const file of ['toolgate_validator.js', 'snippets', 'package.json']) rmSync(join(out, 'validator', file), { recursive: true, force: true });

  const host = readFileSync(join(source, 'host.mjs'), 'utf8');

  // host.mjs ends with its one `export { … };`: the CommonJS twin takes the tools' Node build as its core.
  const exportLine = /^export \{ ([\w, ]+) \};\n?$/m;
  const names = host.match(exportLine)?.[1];
  if (!names || /^\s*(import|export)\b/m.test(host.replace(exportLine, ''))) {
    throw new Error('js/settings-page/host.mjs: expected one closing `export { … };` and no other import or export');
  }
  writeFileSync(join(out, 'host.cjs'), `'use strict';
// Generated from host.mjs by scripts/build-settings-page.mjs: the host half in CommonJS (.cjs: this
// folder's .js files are ES modules for the webview), validating
// with the tools' Node build (the same core as the page's module).
const defaultCore = require('../tools/node/toolgate_tools.js');
${host.replace(exportLine, '')
    .replace(/^const defaultCore = null;.*$/m, '')}
module.exports = { ${names} };
`);
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');

  const manifestPath = join(pkg, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.exports = {
    ...manifest.exports,
    './settings-page': { types: './settings-page/settings-page.d.ts', default: './settings-page/settings-page.js' },
    // CommonJS over the tools' Node build (Node's ESM imports it too); host.mjs, for a page or a
    // stand-in that passes its own core, is reached through './settings-page/*'.
    './settings-page/host': { types: './settings-page/host.d.ts', default: './settings-page/host.cjs' },
    './settings-page/protocol': { types: './settings-page/protocol.d.ts' },
    './settings-page/*': './settings-page/*',
  };
  manifest.files = [...new Set([...(manifest.files ?? []), 'settings-page/'])];
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
}
