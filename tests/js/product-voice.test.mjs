// The product speaks of itself: the check that keeps session and issue numbers out of the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findings } from '../../scripts/check-product-voice.mjs';

test('a session or an issue named by number is a finding, with its file and line', () => {
  // Written in pieces, so this file does not itself say what it checks for.
  const n = (word, number) => `${word} ${number}`;
  for (const line of [`// added in ${n('session', 12)}`, `Fixes ${n('issue', '#35')}.`, `see ${n('Issue', 7)} for why`, `reworked (${'#'}123)`, `as ${n('stop', 41)} measured`]) {
    const found = findings('src/x.rs', `ok\n${line}\n`);
    assert.equal(found.length, 1, line);
    assert.match(found[0], /^src\/x\.rs:2: /, line);
  }
});

test("a peer's issue cited as owner/repo#N, and product words, are not findings", () => {
  for (const line of [
    'narrowing enforcement, google-gemini/gemini-cli#25283',
    'anthropics/claude-code#43085; CVE-2026-25725',
    'Allow for this session',
    'an issue the user reports',
    'let seed = 25283u64;',
    'color: #0078d4',
  ]) {
    assert.deepEqual(findings('docs/x.md', line), [], line);
  }
});
