// Build step (scripts/build.mjs, and the trap-test build in tests/js/resilience.test.mjs): puts
// toolgate's resilient wrapper (./resilient.js) in front of a wasm-bindgen build.
//
// In an output folder `dir` holding wasm-bindgen's `<name>.js`:
//   - the glue moves to `<name>_raw.js`, patched so it can re-instantiate itself after a trap
//     (`__toolgate.reinstantiate()`), with one FinalizationRegistry per instance;
//   - `<name>.js` becomes the entry: the same export names over the wrapper, so the package's
//     `exports` map, `<name>.d.ts` and the web build's `init()` / `initSync()` are unchanged;
//   (the wrapper's fail-closed reason, `internalError`, is one of the core's `Reason`s).
// `writeResilientLib(libDir)` writes the wrapper in both flavours: resilient.js (ES module) and
// resilient.cjs (CommonJS), from the one source.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Writes resilient.js (ESM), resilient.cjs (CommonJS) and a package.json saying .js is ESM. */
export function writeResilientLib(libDir) {
  const source = readFileSync(join(here, 'resilient.js'), 'utf8');
  const exportLine = /^export \{ ([\w, ]+) \};\n?$/m;
  const names = source.match(exportLine)?.[1];
  if (!names || /^\s*(import|export)\b/m.test(source.replace(exportLine, ''))) {
    throw new Error('js/resilient/resilient.js: expected one closing `export { … };` and no other import or export');
  }
  mkdirSync(libDir, { recursive: true });
  writeFileSync(join(libDir, 'resilient.js'), source);
  writeFileSync(join(libDir, 'resilient.cjs'), `'use strict';\n${source.replace(exportLine, `module.exports = { ${names} };\n`)}`);
  writeFileSync(join(libDir, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');
}

/**
 * Turns `dir/<name>.js` (wasm-bindgen's `nodejs` glue when `type` is 'commonjs', its `web` glue
 * when 'module') into `<name>_raw.js` plus the wrapped entry `<name>.js`.
 */
export function makeResilientEntry({ dir, name, type, libDir }) {
  const gluePath = join(dir, `${name}.js`);
  const source = readFileSync(gluePath, 'utf8');
  if (source.includes('__toolgateReinstantiate')) throw new Error(`${gluePath} is already prepared`);
  const names = type === 'commonjs' ? commonJsExports(source) : moduleExports(source);
  writeFileSync(join(dir, `${name}_raw.js`), reinstantiable(source, type, gluePath));

  let lib = relative(dir, libDir).split(sep).join('/');
  if (!lib.startsWith('.')) lib = `./${lib}`;
  const header = `/* @ts-self-types="./${name}.d.ts" */\n` +
    `// toolgate's entry: the wasm-bindgen glue (./${name}_raw.js) behind the resilient wrapper (${lib}/resilient.${type === 'commonjs' ? 'cjs' : 'js'}):\n` +
    '// a call that traps fails closed, and the module is re-instantiated so later calls work.\n';
  const entry = type === 'commonjs'
    ? `${header}'use strict';\nconst api = require(${JSON.stringify(`${lib}/resilient.cjs`)}).resilient(require(${JSON.stringify(`./${name}_raw.js`)}));\n` +
      [...names, '__toolgate'].map((n) => `exports.${n} = api.${n};\n`).join('')
    : `${header}import * as raw from ${JSON.stringify(`./${name}_raw.js`)};\nimport { resilient } from ${JSON.stringify(`${lib}/resilient.js`)};\n` +
      'const api = resilient(raw);\n' +
      [...names, '__toolgate'].map((n) => (n === 'default' ? 'export default api.default;\n' : `export const ${n} = api.${n};\n`)).join('');
  writeFileSync(gluePath, entry);
}

function commonJsExports(source) {
  const names = [...source.matchAll(/^exports\.(\w+) = \1;$/gm)].map((m) => m[1]);
  if (names.length === 0) throw new Error('no `exports.name = name;` in the nodejs glue');
  return names;
}

function moduleExports(source) {
  const names = [...source.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]);
  const list = source.match(/^export \{ initSync, __wbg_init as default \};$/m);
  if (names.length === 0 || !list) throw new Error('unexpected exports in the web glue');
  return [...names, 'initSync', 'default'];
}

/** The glue, able to re-instantiate itself: the wrapper calls `__toolgate.reinstantiate()` after a trap. */
function reinstantiable(source, type, where) {
  const need = (pattern, what) => {
    if (!pattern.test(source)) throw new Error(`${where}: ${what} not found; has wasm-bindgen's output changed?`);
  };
  if (source.includes('_assertClass(')) {
    throw new Error(`${where}: a function takes a class instance; js/resilient does not unwrap arguments yet`);
  }
  const caches = [...source.matchAll(/^let (cached\w*Memory\d*) = null;$/gm)].map((m) => m[1]);
  let tail;
  if (type === 'commonjs') {
    need(/^const wasmModule = new WebAssembly\.Module\(wasmBytes\);$/m, 'the compiled module');
    need(/^let wasmInstance = new WebAssembly\.Instance\(wasmModule, __wbg_get_imports\(\)\);$/m, 'the instance');
    need(/^let wasm = wasmInstance\.exports;$/m, 'the exports');
    tail = `
function __toolgateReinstantiate() {
    const dead = wasm;
    wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());
    wasm = wasmInstance.exports;
${caches.map((c) => `    ${c} = null;\n`).join('')}    __toolgateRenew(dead);
    wasm.__wbindgen_start();
}
exports.__toolgate = {
    reinstantiate: __toolgateReinstantiate,
    memory: () => wasm.memory,
    onTrap: (listener) => { __toolgateOnTrap = listener; },
};
`;
  } else {
    need(/^let wasmModule, wasmInstance, wasm;$/m, 'the module state');
    need(/^function __wbg_finalize_init\(instance, module\) \{$/m, '__wbg_finalize_init');
    tail = `
function __toolgateReinstantiate() {
    if (wasmModule === undefined) throw new Error('toolgate is not initialised: call init() or initSync() first');
    const dead = wasm;
    const imports = __wbg_get_imports();
    let instance;
    try {
        instance = new WebAssembly.Instance(wasmModule, imports);
    } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        // Where synchronous instantiation is refused (a large module on a browser's main thread).
        return WebAssembly.instantiate(wasmModule, imports).then((instance) => {
            __toolgateRenew(dead);
            __wbg_finalize_init(instance, wasmModule);
        });
    }
    __toolgateRenew(dead);
    __wbg_finalize_init(instance, wasmModule);
}
export const __toolgate = {
    reinstantiate: __toolgateReinstantiate,
    memory: () => (wasm === undefined ? undefined : wasm.memory),
    onTrap: (listener) => { __toolgateOnTrap = listener; },
};
`;
  }
  const registries = source.split('new FinalizationRegistry(').length - 1;
  const patched = source.replaceAll('new FinalizationRegistry(', '__toolgateFinalizationRegistry(');
  // One per class, and one for the closures handed to JavaScript (the settings page's listeners).
  if (registries !== [...source.matchAll(/^const (\w+Finalization|CLOSURE_DTORS) = /gm)].length) {
    throw new Error(`${where}: expected one FinalizationRegistry per class and one for closures`);
  }
  return `${patched}
// --- Added by toolgate's build (js/resilient/prepare.mjs): re-instantiation after a trap. ---
// A pointer means something only in the instance that made it: each instance gets its own
// FinalizationRegistry, and the dead instance's registrations never free into the next one.
var __toolgateRegistries;
var __toolgateOnTrap;
function __toolgateFinalizationRegistry(free) {
    const fresh = () => {
        const live = { value: true };
        const registry = new FinalizationRegistry((ptr) => {
            if (!live.value) return;
            try {
                free(ptr);
            } catch (error) {
                if (__toolgateOnTrap) __toolgateOnTrap(error);
            }
        });
        return { live, registry };
    };
    const handle = {
        current: fresh(),
        register(object, ptr, token) { this.current.registry.register(object, ptr, token); },
        unregister(token) { this.current.registry.unregister(token); },
        renew() {
            this.current.live.value = false;
            this.current = fresh();
        },
    };
    (__toolgateRegistries || (__toolgateRegistries = [])).push(handle);
    return handle;
}
function __toolgateRenew(dead) {
    for (const handle of __toolgateRegistries || []) handle.renew();
    // Detaches the dead memory's buffer, so no view of it (the glue's caches, a snippet's) is used again.
    try {
        if (dead !== undefined) dead.memory.grow(0);
    } catch (_) {
        // A memory that cannot grow is detached already or gone.
    }
}
${tail}`;
}
