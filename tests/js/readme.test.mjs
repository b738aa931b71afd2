// The README's quick start for the extension host runs as written against the installed package,
// and every `policy.outcome(…); // 'x'` line in it answers what its comment says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from './install-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Quick start: the extension host'), readme.indexOf('## Quick start: a webview'));
/** The section's JavaScript blocks that load the package by `require` (not the bundling recipe). */
const blocks = [...section.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]).filter((b) => /require\('toolgate/.test(b) && !/esbuild/.test(b));

test('the README\'s host quick start runs as written, and its outcomes are what its comments say', () => {
  assert.ok(blocks.length >= 2, `expected the engine's and the MCP allowlist's examples, found ${blocks.length}`);
  const require = installPackage();
  let checked = 0;
  for (const block of blocks) {
    const claims = [];
    // `policy.outcome(…); // 'allow': …` becomes a check of that outcome.
    const body = block.replace(/^(policy\.outcome\(.*\));\s*\/\/\s*'(\w+)'.*$/gm, (line, call, expected) => {
      claims.push(line);
      return `__claim(${call}, ${JSON.stringify(expected)}, ${JSON.stringify(line)});`;
    });
    const claim = (actual, expected, line) => {
      assert.equal(actual, expected, line);
      checked++;
    };
    const before = checked;
    new Function('require', '__claim', body)(require, claim);
    assert.equal(checked - before, claims.length, 'every claimed outcome in the block was reached');
  }
  assert.ok(checked >= 2, `only ${checked} outcome claims were checked`);
});
