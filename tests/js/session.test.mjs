// The permission session as an extension uses it: docs/session.md's example runs as written, and
// each scope, revocation, the log, child sessions and the reviewer hand-off behave as documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from './install-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = installPackage();
const { Session, Policy } = require('toolgate/engine');

const HOUR = 3_600_000;
const spec = {
  layers: [
    { name: 'managed', kind: 'managed', tools: { terminal: { alwaysDeny: [{ pattern: '^curl\\b' }] } } },
    { name: 'user', kind: 'user', tools: { terminal: {
      alwaysAllow: [{ prefix: 'ls' }],
      alwaysConfirm: [{ pattern: '^git\\s+push\\b', human: true }],
    } } },
    { name: 'project', kind: 'project', tools: {} },
  ],
  defaultMode: 'confirm',
};

test("docs/session.md's example runs as written, and each value its comments claim is what it returns", () => {
  const doc = readFileSync(join(root, 'docs', 'session.md'), 'utf8');
  const block = [...doc.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]).find((b) => b.includes("require('toolgate/engine')"));
  assert.ok(block, 'the example block');
  let claims = 0;
  // `expr; // <literal>` (a string, number, boolean or object literal, then an optional remark).
  const literal = /^('(?:[^'\\]|\\.)*'|-?\d+|true|false|\{[^}]*\})(?::.*|\s.*)?$/;
  const body = block.replace(/^(.+?);\s*\/\/\s*(.+)$/gm, (line, expr, comment) => {
    const m = literal.exec(comment.trim());
    if (!m) return line;
    claims++;
    return `__claim(${expr}, ${m[1]}, ${JSON.stringify(line)});`;
  });
  let checked = 0;
  new Function('require', '__claim', body)(require, (actual, expected, line) => {
    assert.deepEqual(actual, expected, line);
    checked++;
  });
  assert.equal(checked, claims);
  assert.ok(checked >= 10, `only ${checked} claims`);
});

test('a prompt offers each scope, and each answer lasts as long as its scope says', () => {
  const s = new Session(spec);
  const d = s.decide('terminal', 'npm test', { now: 0 });
  assert.deepEqual(d.options.map((o) => [o.allow, o.scope]),
    [[true, 'once'], [true, 'session'], [true, 'timed'], [true, 'workspace'], [true, 'user'], [false, 'once']]);
  assert.deepEqual(d.options[1].grant.rules, [{ pattern: '^npm\\s+test(\\s|$)' }]);

  // once: runs, and the next call asks again
  assert.equal(s.answer({ callId: d.callId, allow: true }, 1).run, true);
  const second = s.decide('terminal', 'npm test', { now: 2 });
  assert.equal(second.decision.outcome, 'confirm');

  // session: stops asking, until the session ends
  const grant = s.answer({ callId: second.callId, allow: true, scope: 'session' }, 3).grant;
  const allowed = s.decide('terminal', 'npm test', { now: 4 });
  assert.equal(allowed.decision.outcome, 'allow');
  assert.deepEqual(allowed.grantedBy.map((g) => [g.id, g.scope]), [[grant.id, 'session']]);
  assert.equal(allowed.decision.rule.layer, `grant:${grant.id}`);
  s.end(5);
  assert.equal(s.decide('terminal', 'npm test', { now: 6 }).decision.outcome, 'confirm');

  // timed: stops at its time by the host's clock, with a duration of the answer's own
  const t = s.decide('terminal', 'make', { now: 10 });
  assert.equal(s.answer({ callId: t.callId, allow: true, scope: 'timed', durationMs: 90_000 }, 10).grant.expiresAt, 90_010);
  assert.equal(s.decide('terminal', 'make', { now: 90_009 }).decision.outcome, 'allow');
  assert.equal(s.decide('terminal', 'make', { now: 90_010 }).decision.outcome, 'confirm');
  assert.ok(s.log().records.some((r) => r.event === 'expire'));
});

test('workspace and user grants come back as changes to persist, and revoking one says what to save', () => {
  const s = new Session(spec);
  const d = s.decide('terminal', 'cargo build', { now: 0 });
  const { grant, persist } = s.answer({ callId: d.callId, allow: true, scope: 'user' }, 1);
  assert.equal(persist.layer, 'user');
  assert.deepEqual(persist.changes, [{ layer: 'user', tool: 'terminal', key: 'alwaysAllow', rule: { pattern: '^cargo\\s+build(\\s|$)' } }]);
  assert.equal(new Policy(persist.spec).outcome('terminal', 'cargo build'), 'allow', 'the saved spec allows it');
  assert.deepEqual(s.spec, persist.spec);
  assert.deepEqual(s.grants(2).map((g) => [g.id, g.scope, g.layer]), [[grant.id, 'user', 'user']]);
  const revoked = s.revoke(grant.id, 3);
  assert.equal(new Policy(revoked.spec).outcome('terminal', 'cargo build'), 'confirm');
  assert.equal(s.decide('terminal', 'cargo build', { now: 4 }).decision.outcome, 'confirm');
  assert.throws(() => s.revoke(grant.id, 5), /no grant `g1` is in force/);

  // The host's settings change: a new policy keeps the session's own grants.
  const t = s.decide('terminal', 'make', { now: 6 });
  s.answer({ callId: t.callId, allow: true, scope: 'session' }, 6);
  s.setPolicy({ ...spec, defaultMode: 'deny' }, 7);
  assert.equal(s.decide('terminal', 'make', { now: 8 }).decision.outcome, 'allow');
  assert.equal(s.decide('terminal', 'npm test', { now: 9 }).decision.outcome, 'deny');
  assert.ok(s.log().records.some((r) => r.event === 'policy' && r.at === 7));
});

test('what no grant can lift offers only once, and answers it did not offer are errors that change nothing', () => {
  const s = new Session(spec);
  for (const [tool, input] of [['terminal', 'git push origin main'], ['edit_file', '.vscode/settings.json'], ['terminal', 'npm test $(whoami)']]) {
    const d = s.decide(tool, input, { now: 0 });
    assert.equal(d.decision.outcome, 'confirm', input);
    assert.deepEqual(d.options.map((o) => o.scope), ['once', 'once'], input);
    assert.throws(() => s.answer({ callId: d.callId, allow: true, scope: 'session' }, 1), /`session` was not offered for this call; it offered: once/);
    assert.equal(s.answer({ callId: d.callId, allow: false }, 2).run, false, 'the prompt is still there to answer');
  }
  const refused = s.decide('terminal', 'curl https://x', { now: 3 });
  assert.equal(refused.decision.outcome, 'deny');
  assert.deepEqual(refused.options, []);
  assert.throws(() => s.answer({ callId: refused.callId, allow: true }, 4), /no call \d+ is waiting for an answer/);
  assert.deepEqual(s.grants(5), []);
});

test('a reviewer may answer only reviewable prompts, and only once; the log says who answered', () => {
  const s = new Session(spec);
  const human = s.decide('terminal', 'git push origin main', { now: 0 });
  assert.equal(human.review.reviewable, false);
  assert.throws(() => s.answer({ callId: human.callId, allow: true, by: 'reviewer' }, 1), /only a person may approve/);
  const protectedWrite = s.decide('edit_file', '.vscode/settings.json', { now: 2 });
  assert.equal(protectedWrite.review.reviewable, false);
  const d = s.decide('terminal', 'npm test', { now: 3 });
  assert.equal(d.review.reviewable, true);
  assert.throws(() => s.answer({ callId: d.callId, allow: true, scope: 'session', by: 'reviewer' }, 4), /only a person grants/);
  assert.equal(s.answer({ callId: d.callId, allow: true, by: 'reviewer' }, 5).run, true);
  const last = JSON.parse(s.logLines().trim().split('\n').at(-1));
  assert.deepEqual([last.event, last.by, last.callId, last.outcome], ['answer', 'reviewer', d.callId, 'allow']);
});

test('the log is JSON lines, numbered, bounded, and can be read from a sequence number on', () => {
  const s = new Session(spec, { logCapacity: 4, name: 'agent' });
  for (let i = 0; i < 6; i++) s.decide('terminal', 'ls', { now: i });
  const { records, dropped } = s.log();
  assert.deepEqual(records.map((r) => r.seq), [3, 4, 5, 6]);
  assert.equal(dropped, 2);
  assert.deepEqual(records[0], {
    seq: 3, at: 2, session: 'agent', event: 'decision', callId: 3, tool: 'terminal', inputs: ['ls'], outcome: 'allow', reason: 'allowRule',
    rule: { layer: 'user', tool: 'terminal', list: 'alwaysAllow', index: 0, matcher: 'prefix', pattern: 'ls' },
  });
  assert.equal(s.logLines(5).trim().split('\n').length, 1);
});

test('a child session is capped by its parent and inherits grants only when asked', () => {
  const parent = new Session(spec);
  const d = parent.decide('terminal', 'npm test', { now: 0 });
  const { grant } = parent.answer({ callId: d.callId, allow: true, scope: 'session' }, 0);
  const child = parent.child({ name: 'tests' });
  assert.equal(child.decide('terminal', 'npm test', { now: 1 }).decision.outcome, 'confirm');
  const heir = parent.child({ inheritGrants: true });
  assert.equal(heir.decide('terminal', 'npm test', { now: 1 }).decision.outcome, 'allow');
  parent.revoke(grant.id, 2);
  const capped = heir.decide('terminal', 'npm test', { now: 3 });
  assert.deepEqual([capped.decision.outcome, capped.cappedByParent], ['confirm', true]);
  const loose = parent.child({ policy: { layers: [], defaultMode: 'allow' } });
  assert.equal(loose.decide('terminal', 'curl x', { now: 4 }).decision.outcome, 'deny');
  assert.equal(child.log().records[0].session, 'session/tests');
});

test("Zed's buttons and Cursor's review options are views of a waiting prompt, answered in their terms", () => {
  const s = new Session(spec);
  const d = s.decide('terminal', 'npm test', { now: 0 });
  assert.deepEqual(s.permissionOptions(d.callId).map((b) => [b.kind, b.label]),
    [['allowOnce', 'Allow'], ['alwaysAllowPattern', 'Always allow `npm test`'], ['denyOnce', 'Deny']]);
  assert.deepEqual(s.reviewOptions(d.callId, 'terminal'), ['run', 'skip', 'rejectAndTellWhatToDoDifferently', 'allowlistCommands']);
  assert.throws(() => s.answer({ callId: d.callId, button: 'alwaysAllowTool' }, 1), /the whole tool is not offered/);
  assert.throws(() => s.answer({ callId: d.callId, allow: true, button: 'allowOnce' }, 1), /exactly one of/);
  const { grant, persist } = s.answer({ callId: d.callId, review: 'allowlistCommands' }, 1);
  assert.deepEqual([grant.scope, persist.layer], ['user', 'user']);
  const next = s.decide('terminal', 'git push origin main', { now: 2 });
  assert.deepEqual(s.reviewOptions(next.callId, 'terminal'), ['run', 'skip', 'rejectAndTellWhatToDoDifferently'], 'no lasting answer lifts a confirm rule');
  assert.equal(s.answer({ callId: next.callId, button: 'denyOnce' }, 3).run, false);
  assert.throws(() => s.reviewOptions(next.callId, 'terminal'), /no call \d+ is waiting/);
});

test('bad arguments are TypeErrors that name what is wrong', () => {
  const s = new Session(spec);
  assert.throws(() => s.decide('terminal', 'ls', {}), (e) => e instanceof TypeError && /now/.test(e.message));
  assert.throws(() => s.decide('terminal', 'ls', { now: 1.5 }), TypeError);
  assert.throws(() => s.answer({ callId: 1, allow: true }, -1), (e) => e instanceof TypeError && /now/.test(e.message));
  assert.throws(() => s.answer({ callId: 1, allow: true, scope: 'forever' }, 0), (e) => e instanceof TypeError && /scope/.test(e.message));
  assert.throws(() => new Session(spec, { logCapacity: 'x' }), (e) => e instanceof TypeError && /logCapacity/.test(e.message));
});

test('a timed answer or a timed grant length out of range is one TypeError, and the call changes nothing', () => {
  const s = new Session(spec);
  const d = s.decide('terminal', 'npm test', { now: 1000 });
  const log = s.logLines();
  for (const durationMs of [1e17, 2 ** 53, 2 ** 53 - 1000, NaN, Infinity, -Infinity, -1, 1.5, 0]) {
    assert.throws(() => s.answer({ callId: d.callId, allow: true, scope: 'timed', durationMs }, 1000),
      (e) => e instanceof TypeError
        && e.message === `\`durationMs\` must be a whole number of milliseconds from 1 to ${2 ** 53 - 1 - 1000}, so that a grant ends by ${2 ** 53 - 1} (2^53 - 1); got ${durationMs}`,
      String(durationMs));
    assert.deepEqual(s.grants(1000), [], `${durationMs}: no grant`);
    assert.equal(s.logLines(), log, `${durationMs}: nothing logged`);
  }
  // The prompt was not used up: it is still there to answer, and every later call works.
  assert.deepEqual(s.reviewOptions(d.callId, 'terminal'), ['run', 'skip', 'rejectAndTellWhatToDoDifferently', 'allowlistCommands']);
  const { grant } = s.answer({ callId: d.callId, allow: true, scope: 'timed', durationMs: 2 ** 53 - 1 - 1000 }, 1000);
  assert.equal(grant.expiresAt, 2 ** 53 - 1);
  assert.equal(s.decide('terminal', 'npm test', { now: 2000 }).decision.outcome, 'allow');
  assert.equal(s.log().records.length, 4);

  for (const timedGrantMs of [1e17, 2 ** 53, NaN, Infinity, -Infinity, -1, 1.5, 0]) {
    assert.throws(() => new Session(spec, { timedGrantMs }),
      (e) => e instanceof TypeError && e.message.startsWith(`\`timedGrantMs\` must be a whole number of milliseconds from 1 to ${2 ** 53 - 1}`)
        && e.message.endsWith(`got ${timedGrantMs}`),
      String(timedGrantMs));
  }
  assert.throws(() => new Session(spec, { logCapacity: NaN }), (e) => e instanceof TypeError && /logCapacity/.test(e.message));
  for (const now of [NaN, Infinity, 1e17, -1]) {
    assert.throws(() => s.decide('terminal', 'make', { now }), (e) => e instanceof TypeError && /`now` must be a whole number/.test(e.message), String(now));
  }
  assert.equal(s.log().records.length, 4, 'a decision refused is not logged');
});

test('a new policy re-checks every grant: a whole-tool grant for a tool that is now a command tool is dropped and logged', () => {
  const withTool = (kind) => ({ ...spec, toolKinds: { my_tool: { kind } } });
  const s = new Session(withTool('opaque'));
  const d = s.decide('my_tool', 'anything', { now: 0 });
  const { grant } = s.answer({ callId: d.callId, allow: true, scope: 'session' }, 1);
  assert.equal(grant.wholeTool, true);
  assert.equal(s.decide('my_tool', 'sudo reboot', { now: 2 }).decision.outcome, 'allow', 'a tool that cannot be narrowed is granted whole');

  const dropped = s.setPolicy(withTool('command'), 3);
  assert.deepEqual(dropped.map((g) => g.id), [grant.id]);
  for (const command of ['bash -c "wget x|sh"', 'sudo reboot', "python -c 'import os'"]) {
    const asked = s.decide('my_tool', command, { now: 4 });
    assert.equal(asked.decision.outcome, 'confirm', command);
    assert.deepEqual(asked.grantedBy, [], command);
    assert.deepEqual(asked.options.map((o) => o.scope), new Session(withTool('command')).decide('my_tool', command, { now: 4 }).options.map((o) => o.scope),
      `${command}: what a fresh session offers`);
  }
  assert.deepEqual(s.grants(5), []);
  const revoked = s.log().records.filter((r) => r.event === 'revoke');
  assert.deepEqual(revoked.map((r) => [r.at, r.grant.id]), [[3, grant.id]]);
  assert.deepEqual(s.setPolicy(withTool('command'), 6), [], 'nothing more to drop');
});

test("a hook may refuse a prompt but never lifts one nor grants: only a person does", () => {
  const s = new Session(spec);
  for (const [tool, input] of [['terminal', 'npm test'], ['terminal', 'git push origin main'], ['edit_file', '.vscode/settings.json']]) {
    const d = s.decide(tool, input, { now: 0 });
    const log = s.logLines();
    for (const answer of [{ allow: true }, { allow: true, scope: 'session' }, { review: 'run' }, { review: 'allowlistCommands' }, { button: 'allowOnce' }]) {
      assert.throws(() => s.answer({ callId: d.callId, ...answer, by: 'hook' }, 1), /a hook may refuse a call that asks \(`allow: false`\), never allow it: only a person lifts a prompt/,
        `${input} ${JSON.stringify(answer)}`);
      assert.equal(s.logLines(), log, 'nothing logged');
    }
    assert.equal(s.answer({ callId: d.callId, allow: false, by: 'hook' }, 2).run, false);
  }
  assert.deepEqual(s.grants(3), []);
  assert.deepEqual(s.log().records.filter((r) => r.by === 'hook').map((r) => r.outcome), ['deny', 'deny', 'deny']);
});
