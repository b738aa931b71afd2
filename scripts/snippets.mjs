// Shared by scripts/build.mjs and the trap-test build of tests/js/resilience.test.mjs.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * wasm-bindgen writes inline JS snippets as ES modules even for the Node build, whose glue
 * `require`s them. Ours only declare `export function`s, so they become CommonJS here and
 * load on every Node version (and in any CommonJS bundle) without require(esm).
 */
export function snippetsToCommonJs(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { recursive: true })) {
    if (!String(entry).endsWith('.js')) continue;
    const file = join(dir, String(entry));
    const source = readFileSync(file, 'utf8');
    const names = [...source.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
    if (/^\s*(import|export)\b(?! function)/m.test(source)) {
      throw new Error(`${file}: only \`export function\` snippets can be converted to CommonJS`);
    }
    const body = source.replace(/^export function /gm, 'function ');
    writeFileSync(file, `${body}\nmodule.exports = { ${names.join(', ')} };\n`);
  }
}
