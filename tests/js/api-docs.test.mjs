// The API reference in docs/api/ is what scripts/api-docs.mjs generates from the built package's
// .d.ts files, and its pages carry the declarations with their doc comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const api = join(root, 'docs', 'api');
const page = (name) => readFileSync(join(api, name), 'utf8');

/** The summary line of the doc comment just above `declaration` in a .d.ts of pkg/. */
function summaryOf(dts, declaration) {
  const source = readFileSync(join(root, 'pkg', dts), 'utf8');
  const at = source.indexOf(declaration);
  assert.ok(at > 0, `${declaration} is not in pkg/${dts}`);
  const comment = source.slice(source.lastIndexOf('/**', at), at);
  return comment.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim()).find((l) => l && l !== '/**');
}

test('docs/api/ is what the package\'s declarations generate', () => {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'api-docs.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});

test('the reference indexes every entry point and documents known exports with their comments', () => {
  const index = page('README.md');
  for (const [name, file] of [['toolgate', 'toolgate.md'], ['toolgate/engine', 'toolgate/engine.md'],
    ['toolgate/tools', 'toolgate/tools.md'], ['toolgate/mcp-server', 'toolgate/mcp-server.md'], ['toolgate/hooks', 'toolgate/hooks.md'],
    ['toolgate/settings-page', 'toolgate/settings-page.md']]) {
    assert.ok(index.includes(`[${name}](${file})`), `README.md does not link ${name}`);
    assert.ok(existsSync(join(api, file)), `${file} is missing`);
  }

  const main = page('toolgate.md');
  assert.match(main, /^# toolgate$/m);
  assert.match(main, /^### decideMcp\(\)$/m);
  assert.match(main, /^function decideMcp\($/m);
  assert.ok(main.includes(summaryOf('node/toolgate.d.ts', 'export function decideMcp(')), 'decideMcp\'s doc comment');

  const engine = page('toolgate/engine.md');
  assert.match(engine, /^# toolgate\/engine$/m);
  assert.match(engine, /^### Policy$/m);
  assert.match(engine, /^new Policy\(spec\): Policy;$/m);
  assert.ok(engine.includes(summaryOf('engine/node/toolgate_engine.d.ts', 'export class Policy {')), 'Policy\'s doc comment');

  const paths = page('toolgate/node-paths.md');
  assert.match(paths, /^### decideOnDisk\(\)$/m);
  assert.ok(paths.includes('[`Decision`](engine.md#decision)'), 'a type of another entry point links to its page');
});
