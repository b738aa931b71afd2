// `toolgate/node-paths`: a path call decided where it really lands on disk. Real symlinks in a
// temporary directory; the stricter of the written and the resolved decision stands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPackage } from './install-package.mjs';

const require = installPackage();
const { Policy } = require('toolgate/engine');
const { decideOnDisk, resolveOnDisk } = require('toolgate/node-paths');

const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolgate-paths-')));
const work = join(root, 'work');
const secrets = join(root, 'secrets');
mkdirSync(join(work, 'docs'), { recursive: true });
mkdirSync(join(work, '.vscode'), { recursive: true });
mkdirSync(secrets, { recursive: true });
writeFileSync(join(secrets, 'key'), 'k');
symlinkSync(join(secrets, 'key'), join(work, 'docs', 'key-link'));
symlinkSync(secrets, join(work, 'out'));
symlinkSync(join(work, '.vscode'), join(work, 'editor'));
symlinkSync('/etc/passwd', join(work, 'docs', 'passwd-link'));

const spec = {
  defaultMode: 'allow',
  layers: [{ name: 'user', tools: {
    read_file: { alwaysDeny: [{ path: `${secrets}/**` }, { path: '/etc/passwd' }] },
    edit_file: { alwaysDeny: [{ path: `${secrets}/**` }] },
  } }],
};

test('a symlink is decided where it points; writing through a linked directory where it lands', () => {
  const policy = new Policy(spec);
  try {
    const link = join(work, 'docs', 'passwd-link');
    assert.equal(policy.decide('read_file', link).outcome, 'allow', 'as written the core cannot see the link');
    const passwd = decideOnDisk(policy, 'read_file', link);
    assert.equal(passwd.outcome, 'deny');
    assert.deepEqual(passwd.resolvedFrom, [link]);
    assert.equal(passwd.matchedInput, '/etc/passwd');

    assert.equal(decideOnDisk(policy, 'read_file', 'docs/key-link', { cwd: work }).outcome, 'deny');
    // A file that does not exist yet, below a linked directory, lands in the directory's target.
    const created = decideOnDisk(policy, 'edit_file', join(work, 'out', 'new.txt'));
    assert.equal(created.outcome, 'deny');
    assert.equal(created.matchedInput, join(secrets, 'new.txt'));
    // The control plane through a link: editor/ is .vscode/.
    const settings = decideOnDisk(policy, 'edit_file', join(work, 'editor', 'settings.json'));
    assert.equal(settings.reason, 'protectedPath');
    assert.equal(settings.protectedPath.entry, '.vscode');
    // A move is decided on both paths.
    assert.equal(decideOnDisk(policy, 'move_path', [join(work, 'a.txt'), join(work, 'out', 'a.txt')]).outcome, 'allow',
      'move_path has no rules here: the default allows');
    // Nothing linked: the written decision, unchanged.
    const plain = decideOnDisk(policy, 'edit_file', join(work, 'docs', 'notes.md'));
    assert.equal(plain.outcome, 'allow');
    assert.equal(plain.resolvedFrom, undefined);
  } finally {
    policy.free();
  }
});

test('resolveOnDisk follows the existing part and appends the rest', () => {
  assert.equal(resolveOnDisk('out/a/b.txt', work), join(secrets, 'a', 'b.txt'));
  assert.equal(resolveOnDisk(join(work, 'docs', 'key-link')), join(secrets, 'key'));
  assert.equal(resolveOnDisk('docs', work), join(work, 'docs'));
});
