// Builds pkg/settings-page/ (`toolgate/settings-page`), called by scripts/build.mjs once the rest
// of the package is built:
//   - the page (settings-page.js, settings-page.css, and its own modules beside it: its frame,
//     shell.js, one per section, section-*.js, the helpers they share, dom.js, problems.js,
//     words.js, stored.js, visible.js, and core.js, its only way to the core),
//     whose module is the tools' web build (../tools/web/: the engine and MCP APIs plus the gloo
//     glue to its host), fetched by the page from its own source (CSP `connect-src <cspSource>`);
//   - the host half from js/settings-page/: host.mjs (ES module) as written and host.cjs, its
//     CommonJS twin over the tools' Node build;
//   - the `exports` entries, added to the package.json build.mjs wrote.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function buildSettingsPage({ root, pkg }) {
  const out = join(pkg, 'settings-page');
  mkdirSync(out, { recursive: true });
  const source = join(root, 'js', 'settings-page');
  for (const file of readdirSync(source)) copyFileSync(join(source, file), join(out, file));

  // The page's module files to preload: its own modules beside settings-page.js, and the glue of
  // its two wasm modules with their snippets, by their paths from here. Only the link's .wasm is
  // preloaded (host.mjs PAGE_WASM): the validator's is fetched once the settings are drawn.
  const glue = (dir, name) => {
    const text = readFileSync(join(out, dir, `${name}.js`), 'utf8');
    const snippets = [...text.matchAll(/^import [^;]* from ['"]\.\/(snippets\/[^'"]+)['"]/gm)].map((m) => `./${dir}/${m[1]}`).sort();
    return [`./${dir}/${name}.js`, ...snippets];
  };
  const own = readdirSync(source).filter((f) => f.endsWith('.js') && f !== 'settings-page.js').map((f) => `./${f}`).sort();
  const modules = [...own, ...glue('link', 'toolgate_link'), ...glue('validator', 'toolgate_validator')];
  const placeholder = 'const PAGE_MODULES = []; // written by scripts/build-settings-page.mjs';
  const hostSource = readFileSync(join(source, 'host.mjs'), 'utf8');
  if (!hostSource.includes(placeholder)) throw new Error('js/settings-page/host.mjs: the PAGE_MODULES line is missing');
  const host = hostSource.replace(placeholder, `const PAGE_MODULES = ${JSON.stringify(modules)};`);
  writeFileSync(join(out, 'host.mjs'), host);

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
