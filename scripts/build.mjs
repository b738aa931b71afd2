// Builds the npm package in pkg/: a Node build (CommonJS, synchronous `require`) and a
// web build (ES module, `init()` / `initSync({ module })`) behind one `exports` map.
// wasm-pack never downloads (--mode no-install); wasm-opt comes from the npm `binaryen` package.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(root, 'pkg');
const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

if (!existsSync(wasmOpt)) {
  console.error('wasm-opt is missing: run `npm ci` (or `npm test`, which installs everything) first.');
  process.exit(1);
}

rmSync(pkg, { recursive: true, force: true });
const builds = [
  { target: 'nodejs', dir: 'node', type: 'commonjs' },
  { target: 'web', dir: 'web', type: 'module' },
];
for (const { target, dir, type } of builds) {
  const out = join(pkg, dir);
  run('wasm-pack', ['--quiet', 'build', '--mode', 'no-install', '--release', '--target', target,
    '--out-dir', out, '--out-name', 'toolgate', '--no-pack']);
  const wasm = join(out, 'toolgate_bg.wasm');
  run(wasmOpt, ['-O3', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
    '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals', wasm, '-o', wasm]);
  rmSync(join(out, '.gitignore'), { force: true });
  // Tells Node how to load this folder's .js: CommonJS for the Node build, ESM for the web build.
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type }, null, 2) + '\n');
}

const version = readFileSync(join(root, 'Cargo.toml'), 'utf8').match(/^version = "([^"]+)"/m)[1];
const node = { types: './node/toolgate.d.ts', default: './node/toolgate.js' };
const web = { types: './web/toolgate.d.ts', default: './web/toolgate.js' };
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
    './package.json': './package.json',
  },
  files: ['node/', 'web/', 'README.md'],
  sideEffects: false,
};
writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
copyFileSync(join(root, 'README.md'), join(pkg, 'README.md'));
console.log(`built pkg/ (toolgate ${version}): node/ and web/`);
