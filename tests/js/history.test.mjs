// Learning from what happened: a session's log read back as a history, a proposed policy replayed
// over it, the rules no call met; through `toolgate/tools` and `npx toolgate replay`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPackage } from './install-package.mjs';

const require = installPackage();
const { Session, readSessionLog, replayHistory, unusedRules } = require('toolgate/tools');
const manifestFile = require.resolve('toolgate/package.json');
const bin = join(dirname(manifestFile), JSON.parse(readFileSync(manifestFile, 'utf8')).bin.toolgate);
const dir = mkdtempSync(join(tmpdir(), 'toolgate-history-'));

const policy = {
  layers: [{ name: 'user', kind: 'user', tools: {
    terminal: { alwaysAllow: [{ prefix: 'ls' }, { prefix: 'git status' }], alwaysDeny: [{ pattern: '^curl\\b' }] },
    edit_file: { alwaysAllow: [{ pattern: '^src/' }] },
  } }],
  defaultMode: 'confirm',
};

/** A log written by a session as an agent worked: approvals, a refusal by a person and by a rule. */
function sessionLog() {
  const s = new Session(policy, { name: 'agent' });
  const ask = (command, allow, now) => {
    const d = s.decide('terminal', command, { now });
    if (allow !== undefined) s.answer({ callId: d.callId, allow }, now);
  };
  ask('ls -la', undefined, 1);
  ask('npm test', true, 2);
  ask('npm test -- --watch', true, 3);
  ask('make deploy', false, 4);
  ask('curl https://example.com', undefined, 5);
  return s.logLines();
}

/** The proposal a user is weighing: allow npm and make, ask for ls. */
const proposal = {
  layers: [{ name: 'user', kind: 'user', tools: { terminal: {
    alwaysAllow: [{ prefix: 'npm' }, { prefix: 'make' }], alwaysConfirm: [{ prefix: 'ls' }], alwaysDeny: [{ pattern: '^curl\\b' }],
  } } }],
  defaultMode: 'confirm',
};

test("docs/history.md's example runs as written, and each value its comments claim is what it returns", () => {
  const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'history.md'), 'utf8');
  const block = [...doc.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]).find((b) => b.includes("require('toolgate/tools')"));
  assert.ok(block, 'the example block');
  let claims = 0;
  // `expr; // <literal>` (an array or a number, then an optional remark); a claim on the next line.
  const body = block
    .replace(/^(.+?);\s*\/\/\s*(\[.*?\]|\d+)(?::.*)?$/gm, (line, expr, literal) => { claims++; return `__claim(${expr}, ${literal}, ${JSON.stringify(line)});`; })
    .replace(/^(report\.summary);\n\/\/\s*(\[.*\])$/m, (line, expr, literal) => { claims++; return `__claim(${expr}, ${literal}, ${JSON.stringify(line)});`; });
  let checked = 0;
  new Function('require', '__claim', body)(require, (actual, expected, line) => {
    assert.deepEqual(actual, expected, line);
    checked++;
  });
  assert.equal(checked, claims);
  assert.equal(checked, 5);
});

test('a session log reads back as calls and what happened to each; a bad line is reported with its number', () => {
  const history = readSessionLog(`${sessionLog()}not json\n`);
  assert.deepEqual(history.calls.map((c) => [c.inputs[0], c.happened]), [
    ['ls -la', 'ran'], ['npm test', 'approved'], ['npm test -- --watch', 'approved'], ['make deploy', 'declined'], ['curl https://example.com', 'refused'],
  ]);
  assert.equal(history.unread.length, 1);
  assert.equal(history.unread[0].line, sessionLog().split('\n').filter(Boolean).length + 1);
  assert.match(history.unread[0].message, /^not a JSON record/);
});

test('replaying a proposal says what it would have done, by rule; the rules no call met are listed', () => {
  const { calls } = readSessionLog(sessionLog());
  const report = replayHistory(proposal, calls);
  assert.deepEqual(report.changes, { wouldAllowRefused: 1, wouldAskRan: 1, wouldSavePrompt: 2 });
  assert.deepEqual(report.summary, [
    'would have allowed 1 call that was refused', 'would have asked for 1 call that ran without asking', 'would have run 2 calls a person approved, without asking',
  ]);
  assert.deepEqual(report.byRule.map((r) => [r.rule.pattern, r.changes]), [['ls', { wouldAskRan: 1 }], ['npm', { wouldSavePrompt: 2 }], ['make', { wouldAllowRefused: 1 }]]);
  assert.deepEqual(unusedRules(policy, calls).map((r) => `${r.tool} ${r.list}[${r.index}] ${r.pattern}`), ['edit_file alwaysAllow[0] ^src/', 'terminal alwaysAllow[1] git status']);
  assert.throws(() => replayHistory(proposal, [{ tool: 'terminal', inputs: ['ls'], happened: 'maybe' }]), TypeError);
});

test('`toolgate replay` prints the changes with each call\'s file and line, and exits 6 when a refused call would run', () => {
  const log = join(dir, 'agent.jsonl');
  writeFileSync(log, `${sessionLog()}{"event":"mystery"}\n`);
  const proposalFile = join(dir, 'proposal.json');
  writeFileSync(proposalFile, JSON.stringify(proposal));
  const r = spawnSync(process.execPath, [bin, 'replay', proposalFile, log], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 6, r.stderr);
  assert.match(r.stdout, /^5 call\(s\) replayed from 1 log\(s\)\n {2}would have allowed 1 call that was refused\n/);
  assert.match(r.stdout, /agent\.jsonl:\d+ terminal "make deploy": declined → allow \(wouldAllowRefused\)/);
  assert.match(r.stdout, /by layer "user", terminal alwaysAllow\[0\] \(prefix\) npm: wouldSavePrompt 2/);
  assert.match(r.stderr, /agent\.jsonl:\d+: not read: `mystery` is not a record of toolgate's session log/);

  const json = spawnSync(process.execPath, [bin, 'replay', proposalFile, log, '--json'], { cwd: dir, encoding: 'utf8' });
  const out = JSON.parse(json.stdout);
  assert.equal(out.ok, true);
  assert.equal(out.report.calls, 5);
  assert.ok(out.report.changed.every((c) => c.file === log && c.line > 0));
  assert.deepEqual(out.unread.map((u) => [u.file, u.code]), [[log, 'unreadableLine']]);

  // The policy that made the log changes nothing: exit 0.
  const same = join(dir, 'same.json');
  writeFileSync(same, JSON.stringify(policy));
  const unchanged = spawnSync(process.execPath, [bin, 'replay', same, log], { cwd: dir, encoding: 'utf8' });
  assert.equal(unchanged.status, 0, unchanged.stderr);
  assert.match(unchanged.stdout, /no call would change/);
  assert.match(unchanged.stdout, /2 rule\(s\) no logged call met:\n {2}layer "user", edit_file alwaysAllow\[0\] \(regex\) \^src\/\n {2}layer "user", terminal alwaysAllow\[1\] \(prefix\) git status\n/);
});
