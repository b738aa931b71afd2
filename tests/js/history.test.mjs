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
const { Session, readSessionLog, readHistory, replayHistory, unusedRules, learnRules, Policy } = require('toolgate/tools');
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

test("docs/history.md's examples run as written, and each value their comments claim is what they return", () => {
  const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'history.md'), 'utf8');
  const blocks = [...doc.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]).filter((b) => b.includes("require('toolgate/tools')"));
  assert.equal(blocks.length, 2, 'the example blocks');
  let checked = 0;
  let claims = 0;
  for (const block of blocks) {
    const claim = (line, expr, literal) => { claims++; return `__claim(${expr}, ${literal}, ${JSON.stringify(line)});`; };
    // `expr; // <literal>` (an array, a number or a quoted string, then an optional remark), or
    // `expr;` with the claim alone on the next line.
    const body = block
      .replace(/^(.+?);\s*\/\/\s*(\[.*?\]|\d+|'[^']*')(?::.*)?$/gm, claim)
      .replace(/^([^\n/]+);\n\/\/\s*(\[.*\])$/gm, claim);
    new Function('require', '__claim', body)(require, (actual, expected, line) => {
      assert.deepEqual(actual, expected, line);
      checked++;
    });
  }
  assert.equal(checked, claims);
  assert.equal(checked, 8);
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

/** A log of a person approving the same few things again and again, and declining one. */
function repetitiveLog() {
  const s = new Session({ layers: [{ name: 'user', kind: 'user', tools: {} }], defaultMode: 'confirm' }, { name: 'agent' });
  let now = 0;
  const ask = (tool, input, allow) => {
    const d = s.decide(tool, input, { now: ++now });
    s.answer({ callId: d.callId, allow }, now);
  };
  for (let i = 0; i < 4; i++) ask('terminal', i % 2 ? 'npm test' : 'npm test -- --watch', true);
  ask('terminal', 'git status', true);
  ask('terminal', 'git status --short', true);
  ask('terminal', 'git push --force', false);
  ask('terminal', 'git push', true);
  ask('edit_file', 'src/a.rs', true);
  ask('edit_file', 'src/net/b.rs', true);
  return s.logLines();
}

test('learnRules proposes a few rules from what a person approved, never one that lets a declined call run', () => {
  const { calls } = readSessionLog(repetitiveLog());
  const report = learnRules({ layers: [], defaultMode: 'confirm' }, calls);
  assert.deepEqual(report.proposals.map((p) => [p.tool, p.display, p.saves]), [['terminal', 'npm test', 4], ['terminal', 'git status', 2], ['edit_file', 'src/', 2]]);
  assert.equal(report.proposals[0].summary, 'allow `npm test` with any arguments for terminal: approved 4 times; would have saved 4 prompts');
  assert.deepEqual(report.proposals[0].covers, [1, 3, 5, 7], 'the lines of their decisions (each answer is the next line)');
  assert.equal(report.approved, 9);
  assert.equal(report.saved, 8);
  // The proposed policy: what was approved runs; the declined push and anything else still ask.
  const proposed = new Policy(report.policy);
  assert.equal(proposed.outcome('terminal', 'npm test --coverage'), 'allow');
  assert.equal(proposed.outcome('terminal', 'git push --force'), 'confirm');
  assert.equal(proposed.outcome('terminal', 'git push'), 'confirm', 'approved once: not enough to learn from');
  const once = learnRules({ layers: [], defaultMode: 'confirm' }, calls, { minCalls: 1, layer: 'learned' });
  // Approved once, `git push` would be a candidate at one call; lint finds it also allows the
  // declined `git push --force`, so it is withheld with the finding.
  assert.ok(once.withheld.some((w) => w.display === 'git push' && w.finding === 'broadAllow' && /git push --force/.test(w.why)), JSON.stringify(once.withheld));
  assert.ok(once.proposals.every((p) => p.change.layer === 'learned'));
  assert.throws(() => learnRules({ layers: [] }, calls, { minCals: 1 }), /unknown field `minCals`/);
});

test('`toolgate learn` prints the proposed policy and a report with each covered call\'s file and line', () => {
  const log = join(dir, 'repetitive.jsonl');
  writeFileSync(log, repetitiveLog());
  const r = spawnSync(process.execPath, [bin, 'learn', log], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const proposed = JSON.parse(r.stdout);
  assert.deepEqual(proposed.layers.map((l) => l.name), ['user']);
  assert.match(r.stderr, /^9 call\(s\) approved in 1 log\(s\); the 3 proposal\(s\) would have run 8 of them without asking\n/);
  assert.match(r.stderr, /\+ allow `npm test` with any arguments for terminal: approved 4 times; would have saved 4 prompts\n.*covers \S*repetitive\.jsonl:1, \S*repetitive\.jsonl:3, \S*repetitive\.jsonl:5, and 1 more\n/);

  // With the policy in force: its unused and redundant rules too.
  const policyFile = join(dir, 'in-force.json');
  writeFileSync(policyFile, JSON.stringify({ layers: [{ name: 'user', kind: 'user', tools: { terminal: {
    alwaysAllow: [{ glob: 'make test' }, { glob: 'make *' }] } } }], defaultMode: 'confirm' }));
  const withPolicy = spawnSync(process.execPath, [bin, 'learn', log, '--policy', policyFile, '--min-calls', '3', '--json'], { cwd: dir, encoding: 'utf8' });
  assert.equal(withPolicy.status, 0, withPolicy.stderr);
  const out = JSON.parse(withPolicy.stdout);
  assert.deepEqual(out.report.proposals.map((p) => p.display), ['npm test']);
  assert.deepEqual(out.report.proposals[0].covers[0], { file: log, line: out.report.proposals[0].covers[0].line });
  assert.deepEqual(out.unused.map((u) => u.pattern), ['make test', 'make *']);
  assert.deepEqual(out.redundant.map((f) => [f.code, f.path]), [['coveredAllow', 'layers[0].tools.terminal.alwaysAllow[0]']]);

  const bad = spawnSync(process.execPath, [bin, 'learn', log, '--min-calls', 'two'], { cwd: dir, encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--min-calls needs a whole number of at least 1, not "two"/);
});

/** A Claude Code transcript in this test's own words: two approved test runs, a rejected deploy. */
function claudeTranscript() {
  const lines = [{ type: 'summary', summary: 'made up' }];
  const call = (id, command, result, isError) => {
    lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
    lines.push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }] } });
  };
  call('t1', 'pytest -q', 'passed', false);
  call('t2', 'pytest -q', 'passed', false);
  call('t2b', 'pytest -q tests/unit', 'passed', false);
  call('t3', 'fly deploy', "The user doesn't want to proceed with this tool use. The tool use was rejected.", true);
  lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't4', name: 'TodoWrite', input: {} }] } });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"type":\n`;
}

test("readHistory reads another agent's transcript in toolgate's tool names, and replay and learn take it", () => {
  const read = readHistory(claudeTranscript());
  assert.equal(read.format, 'claudeCode');
  assert.deepEqual(read.calls.map((c) => [c.tool, c.inputs[0], c.happened, c.line]), [
    ['terminal', 'pytest -q', 'ran', 2], ['terminal', 'pytest -q', 'ran', 4], ['terminal', 'pytest -q tests/unit', 'ran', 6],
    ['terminal', 'fly deploy', 'declined', 8],
  ]);
  assert.deepEqual(read.skipped, { TodoWrite: 1 });
  assert.deepEqual(read.unread.map((p) => [p.line, p.code]), [[11, 'unreadableLine']]);
  assert.equal(readHistory(claudeTranscript(), 'session').calls.length, 0, 'read as the format named');
  assert.throws(() => readHistory('', 'cursor'), TypeError);

  const file = join(dir, 'claude.jsonl');
  writeFileSync(file, claudeTranscript());
  const r = spawnSync(process.execPath, [bin, 'learn', file], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // pytest is no program known to only read: the invocation approved twice, not all of pytest.
  assert.match(r.stderr, /\+ allow `pytest -q`, exactly as approved, for terminal: approved 2 times; would have saved 2 prompts/);
  assert.doesNotMatch(r.stderr, /allow `pytest` /);
  assert.match(r.stderr, /each call that ran counts; pass --policy/);
  assert.match(r.stderr, /calls of tools toolgate does not decide, not learned from: TodoWrite 1/);
  assert.match(r.stderr, /claude\.jsonl:11: not read/);
  const proposed = join(dir, 'claude-proposed.json');
  writeFileSync(proposed, r.stdout);
  const replayed = spawnSync(process.execPath, [bin, 'replay', proposed, file, '--json'], { cwd: dir, encoding: 'utf8' });
  assert.equal(replayed.status, 0, replayed.stderr);
  // The calls that ran stay out of the count of prompts saved; the one with more arguments than
  // the approved invocation would ask under the proposal, and replay says so.
  assert.deepEqual(JSON.parse(replayed.stdout).report.changes, { wouldAskRan: 1 });
});
