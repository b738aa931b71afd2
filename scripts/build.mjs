// Builds the npm package in pkg/: a Node build (CommonJS, synchronous `require`) and a
// web build (ES module, `init()` / `initSync({ module })`) behind one `exports` map.
// wasm-pack never downloads (--mode no-install); wasm-opt comes from the npm `binaryen` package.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSettingsPage } from './build-settings-page.mjs';
import { makeResilientEntry, writeResilientLib } from '../js/resilient/prepare.mjs';
import { snippetsToCommonJs } from './snippets.mjs';
import { packageReadme } from './package-readme.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(root, 'pkg');
const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
const run = (cmd, args, env = {}) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

if (!existsSync(wasmOpt)) {
  console.error('wasm-opt is missing: run `npm ci` (or `npm test`, which installs everything) first.');
  process.exit(1);
}

const WASM_OPT_FLAGS = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals'];
/** wasm-opt's output by the SHA-256 of its input: the Node and web builds of one feature set are
 *  the same module, optimised once. */
const optimisedBy = new Map();
/** Optimisations still running, awaited before the build ends. */
const optimising = [];

/**
 * Optimises `wasm` in place with wasm-opt at `level` (-O3 for speed, -Oz for size), in the
 * background: wasm-pack's next build (whose link step runs on one core) goes on meanwhile. A module already optimised in this build, byte for
 * byte, gets that output without a second run (the output is a function of the input and flags).
 * Resolves when `wasm` holds the optimised bytes.
 */
function optimize(wasm, level) {
  const hash = createHash('sha256').update(readFileSync(wasm)).update(level).digest('hex');
  let output = optimisedBy.get(hash);
  if (output === undefined) {
    const temporary = `${wasm}.opt`;
    output = new Promise((resolve, reject) => {
      const child = spawn(wasmOpt, [level, ...WASM_OPT_FLAGS, wasm, '-o', temporary], { cwd: root, stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`wasm-opt failed on ${wasm} (${signal ?? `exit ${code}`})`))));
    }).then(() => {
      const bytes = readFileSync(temporary);
      rmSync(temporary);
      return bytes;
    });
    optimisedBy.set(hash, output);
  }
  const written = output.then((bytes) => writeFileSync(wasm, bytes));
  optimising.push(written);
  return written;
}

rmSync(pkg, { recursive: true, force: true });
// Three APIs from one crate, by Cargo feature: the MCP allowlist (main entry, small: without the
// `analysis` feature, so no shell parser or regex engine), the layered
// rule engine (`toolgate/engine`) and the engine with its tools (`toolgate/tools`); each for Node
// (CommonJS) and the web (ES module).
const builds = [
  { target: 'nodejs', dir: 'node', name: 'toolgate', type: 'commonjs', features: ['--no-default-features', '--features', 'mcp'] },
  { target: 'web', dir: 'web', name: 'toolgate', type: 'module', features: ['--no-default-features', '--features', 'mcp'] },
  { target: 'nodejs', dir: 'engine/node', name: 'toolgate_engine', type: 'commonjs', features: ['--no-default-features', '--features', 'engine'] },
  { target: 'web', dir: 'engine/web', name: 'toolgate_engine', type: 'module', features: ['--no-default-features', '--features', 'engine'] },
  // The engine plus lint, import/export and the settings validator (`toolgate/tools`): what a CLI, a
  // settings page's host or an importer needs, kept out of the module that only decides. No
  // decision on an agent's hot path runs here, so it is optimised for size (`z`): the package is a
  // third lighter (docs/benchmark.md).
  { target: 'nodejs', dir: 'tools/node', name: 'toolgate_tools', type: 'commonjs', features: ['--no-default-features', '--features', 'tools'], forSize: true },
  { target: 'web', dir: 'tools/web', name: 'toolgate_tools', type: 'module', features: ['--no-default-features', '--features', 'tools'], forSize: true },
  // The settings page's own two modules, web only, their raw glue as the page has always used:
  // its glue to the host (`webview`, a few dozen KB, so the page draws the
  // stored settings at once) and what validates and saves a draft (`settings`). "Try a call"
  // and the importers load the engine's and the tools' modules when they are used.
  { target: 'web', dir: 'settings-page/link', name: 'toolgate_link', type: 'module', features: ['--no-default-features', '--features', 'webview'], forSize: true, page: true },
  { target: 'web', dir: 'settings-page/validator', name: 'toolgate_validator', type: 'module', features: ['--no-default-features', '--features', 'settings'], forSize: true, page: true },
];
for (const { target, dir, name, type, features, forSize, page } of builds) {
  const out = join(pkg, dir);
  run('wasm-pack', ['--quiet', 'build', '--mode', 'no-install', '--release', '--weak-refs', '--target', target,
    '--out-dir', out, '--out-name', name, '--no-pack', ...(features.length ? ['--', ...features] : [])],
  forSize ? { CARGO_PROFILE_RELEASE_OPT_LEVEL: 'z' } : {});
  optimize(join(out, `${name}_bg.wasm`), forSize ? '-Oz' : '-O3');
  rmSync(join(out, '.gitignore'), { force: true });
  if (type === 'commonjs') {
    snippetsToCommonJs(join(out, 'snippets'));
    bundlerFriendlyRequires(join(out, `${name}.js`));
    readsSharedWasm(join(out, `${name}.js`), name);
  }
  // Tells Node how to load this folder's .js: CommonJS for the Node builds, ESM for the web builds.
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type }, null, 2) + '\n');
  if (!page) makeResilient(out, name, type);
  // The page's own modules are its internals, imported only by its core.js: no declarations ship.
  else for (const file of [`${name}.d.ts`, `${name}_bg.wasm.d.ts`]) rmSync(join(out, file), { force: true });
}

/**
 * No poisoned instance: the glue moves to `<name>_raw.js`, able to re-instantiate the
 * module after a trap, and `<name>.js` — the same exports and .d.ts — is js/resilient's wrapper
 * over it (pkg/resilient/): a call that traps fails closed, later calls work.
 */
function makeResilient(out, name, type) {
  writeResilientLib(join(pkg, 'resilient'));
  makeResilientEntry({ dir: out, name, type, libDir: join(pkg, 'resilient') });
}

/**
 * One .wasm per module: the Node glue reads the web build's file (`../web/<name>_bg.wasm`), the
 * same bytes, unless a copy sits next to the glue — where a bundled extension puts it.
 */
function readsSharedWasm(glue, name) {
  const source = readFileSync(glue, 'utf8');
  const line = `const wasmPath = \`\${__dirname}/${name}_bg.wasm\`;`;
  if (!source.includes(line)) throw new Error(`${glue}: wasm-bindgen's wasmPath line not found; has its output changed?`);
  writeFileSync(glue, source.replace(line, `const wasmPath = (() => {
    const beside = require('path').join(__dirname, '${name}_bg.wasm');
    return require('fs').existsSync(beside) ? beside : require('path').join(__dirname, '..', 'web', '${name}_bg.wasm');
})();`));
}

/** The Node build's .wasm is the web build's, byte for byte: keep the web one only. */
function dropNodeCopies() {
  for (const { target, dir, name } of builds.filter((b) => b.target === 'nodejs')) {
    const nodeWasm = join(pkg, dir, `${name}_bg.wasm`);
    const webWasm = join(pkg, dirname(dir) === '.' ? 'web' : join(dirname(dir), 'web'), `${name}_bg.wasm`);
    if (!readFileSync(nodeWasm).equals(readFileSync(webWasm))) throw new Error(`${nodeWasm} differs from ${webWasm}: the Node build cannot share the web build's module`);
    rmSync(nodeWasm);
  }
}

/** The Node glue writes require(String.raw`./x.js`); bundlers only follow string literals. */
function bundlerFriendlyRequires(glue) {
  const source = readFileSync(glue, 'utf8');
  writeFileSync(glue, source.replace(/require\(String\.raw`([^`\\'"$]+)`\)/g, (_, path) => `require(${JSON.stringify(path)})`));
}

// The MCP server guard: plain CommonJS over the engine's Node build (Node only: it reads and watches files).
cpSync(join(root, 'js', 'mcp-server'), join(pkg, 'mcp-server'), { recursive: true });
// Paths as the file system resolves them (`toolgate/node-paths`): plain CommonJS for Node hosts.
cpSync(join(root, 'js', 'node-paths'), join(pkg, 'node-paths'), { recursive: true });
// Agents' pre-tool hooks (`toolgate/hooks`): plain CommonJS over the engine's Node build — each
// agent's hook protocol, the SDK callbacks, and what the CLI's `hook` and `serve` decide with.
cpSync(join(root, 'js', 'hooks'), join(pkg, 'hooks'), { recursive: true });
// The command line (`npx toolgate …`): plain CommonJS over the Node build of `toolgate/tools` (engine, lint, import/export).
cpSync(join(root, 'js', 'cli'), join(pkg, 'cli'), { recursive: true });
// The policy file's JSON Schema, generated from the Rust types (tests/schema.rs keeps it current).
copyFileSync(join(root, 'schema', 'policy.schema.json'), join(pkg, 'policy.schema.json'));

const version = readFileSync(join(root, 'Cargo.toml'), 'utf8').match(/^version = "([^"]+)"/m)[1];
const node = { types: './node/toolgate.d.ts', default: './node/toolgate.js' };
const web = { types: './web/toolgate.d.ts', default: './web/toolgate.js' };
const engineNode = { types: './engine/node/toolgate_engine.d.ts', default: './engine/node/toolgate_engine.js' };
const engineWeb = { types: './engine/web/toolgate_engine.d.ts', default: './engine/web/toolgate_engine.js' };
const toolsNode = { types: './tools/node/toolgate_tools.d.ts', default: './tools/node/toolgate_tools.js' };
const toolsWeb = { types: './tools/web/toolgate_tools.d.ts', default: './tools/web/toolgate_tools.js' };
const manifest = {
  name: 'toolgate',
  version,
  description: 'Decides whether an AI agent\'s tool call runs, asks the user, or is refused. One Rust core compiled to WebAssembly, the same in the extension host and the webview.',
  license: 'MIT OR Apache-2.0',
  main: './node/toolgate.js',
  types: './node/toolgate.d.ts',
  exports: {
    '.': { node: node, default: web },
    './node': node,
    './web': web,
    './toolgate_bg.wasm': './web/toolgate_bg.wasm',
    './engine': { node: engineNode, default: engineWeb },
    './engine/node': engineNode,
    './engine/web': engineWeb,
    './engine/toolgate_engine_bg.wasm': './engine/web/toolgate_engine_bg.wasm',
    './tools': { node: toolsNode, default: toolsWeb },
    './tools/node': toolsNode,
    './tools/web': toolsWeb,
    './tools/toolgate_tools_bg.wasm': './tools/web/toolgate_tools_bg.wasm',
    './mcp-server': { types: './mcp-server/index.d.ts', default: './mcp-server/index.js' },
    './node-paths': { types: './node-paths/index.d.ts', default: './node-paths/index.js' },
    './hooks': { types: './hooks/index.d.ts', default: './hooks/index.js' },
    './package.json': './package.json',
    './policy.schema.json': './policy.schema.json',
  },
  bin: { toolgate: './cli/toolgate.js' },
  files: ['node/', 'web/', 'engine/', 'tools/', 'resilient/', 'mcp-server/', 'node-paths/', 'hooks/', 'cli/', 'policy.schema.json', 'README.md'],
  sideEffects: false,
};
writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
// The settings page (`toolgate/settings-page`): the page over the tools' web build, the host half; adds its exports.
await buildSettingsPage({ root, pkg });
packageReadme({ root, pkg }); // README.md, its links to the package's own files on unpkg, and those files
await Promise.all(optimising);
dropNodeCopies();
console.log(`built pkg/ (toolgate ${version}): node/, web/, engine/, tools/, resilient/, mcp-server/, node-paths/, hooks/`);
