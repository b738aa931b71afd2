// The Cursor approval flow as an extension drives it: settings, a terminal decision, a review
// from request to answer, and the allowlist update flowing back into the next decision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installPackage } from './install-package.mjs';

const require = installPackage();
const engine = require('toolgate/engine');

const settingsFrom = (state) => engine.migrateComposerState(state);

test('legacy settings migrate, and a custom prompt turns auto-run off', () => {
  assert.equal(settingsFrom({}).mode, 'ask_every_time');
  assert.equal(settingsFrom({ useYoloMode: true }).mode, 'yolo');
  assert.equal(settingsFrom({ useYoloMode: true, yoloPrompt: 'be careful' }).mode, 'ask_every_time');
  assert.equal(settingsFrom({ useYoloMode: true, yoloEnableRunEverything: true }).mode, 'full_yolo');
  const s = settingsFrom({ useYoloMode: true, yoloMcpToolsDisabled: false });
  assert.equal(s.mcpToolsProtection, false);
  assert.equal(s.dotFilesProtection, true);
});

test('a chained command with git allowlisted needs approval and names rm', () => {
  const settings = settingsFrom({ useYoloMode: true, yoloCommandAllowlist: ['git'] });
  const d = engine.decideTerminalCommand('git status && rm -rf build', settings);
  assert.equal(d.needApproval, true);
  assert.deepEqual(d.candidatesForAllowlist, ['rm']);
  assert.equal(d.approvalType, 'user');
  assert.deepEqual(d.subCommands, ['git status', 'rm -rf build']);
  for (const hidden of ['git status; sudo rm x', 'git log $(sudo id)']) {
    const s = engine.decideTerminalCommand(hidden, { ...settings, mode: 'full_yolo' });
    assert.equal(s.needApproval, true, hidden);
    assert.equal(s.reason, 'sudo', hidden);
  }
});

test('an extension drives a review from request to allowlist update', () => {
  let state = { useYoloMode: true, yoloCommandAllowlist: ['git'] };
  const command = 'git status && npm test';
  const decision = engine.decideTerminalCommand(command, settingsFrom(state));
  assert.equal(decision.needApproval, true);

  let review = engine.requestReview('terminal', { candidatesForAllowlist: decision.candidatesForAllowlist });
  assert.equal(review.status, 'requested');
  assert.deepEqual(engine.reviewView(review), { headerText: "Run 'npm'?", options: ['run', 'skip', 'rejectAndTellWhatToDoDifferently', 'allowlistCommands'] });

  const step = engine.answerReview(review, { option: 'allowlistCommands', allowlists: { commandAllowlist: state.yoloCommandAllowlist } });
  assert.equal(step.review.status, 'done');
  assert.equal(step.review.approvalType, 'user');
  assert.deepEqual(step.outcome, { result: 'allowlistCommands', approved: true, commandAllowlist: ['git', 'npm'], switchToDefaultAgentMode: false });
  state = { ...state, yoloCommandAllowlist: step.outcome.commandAllowlist };

  const next = engine.decideTerminalCommand(command, settingsFrom(state));
  assert.deepEqual([next.needApproval, next.approvalType], [false, 'allowlist']);
  assert.throws(() => engine.answerReview(step.review, { option: 'run' }), /already answered or cancelled/);
});

test('MCP reviews allowlist a tool through the MCP insertion; illegal answers throw', () => {
  const review = engine.requestReview('mcp', { toolName: 'create_issue', serverName: 'github' });
  assert.equal(engine.reviewView(review).headerText, 'Run create_issue on github?');
  const step = engine.answerReview(review, { option: 'allowlistTool', allowlists: { mcpAllowedTools: ['docs:*'] } });
  assert.deepEqual(step.outcome.mcpAllowedTools, ['docs:*', 'github:create_issue']);
  assert.throws(() => engine.answerReview(review, { option: 'accept' }), /not offered/);
  assert.throws(() => engine.cancelReview({ kind: 'edit', status: 'none' }), /never requested/);
  const edit = engine.requestReview('edit');
  assert.deepEqual(engine.reviewView(edit).options, ['accept', 'rejectAndTellWhatToDoDifferently', 'switchToDefaultAgentMode']);
  assert.equal(engine.cancelReview(edit).outcome.result, 'none');
});

test('hooks reject with the model-visible message or force a prompt', () => {
  const settings = settingsFrom({ useYoloMode: true, yoloEnableRunEverything: true });
  const rejected = engine.decideTerminalCommand('ls', settings, 'reject');
  assert.equal(rejected.modelVisibleErrorMessage, 'The terminal command was rejected by a hook that prevents execution of this command. Do not attempt to work around this restriction.');
  assert.equal(rejected.actualErrorMessage, 'REJECTED_BY_HOOK');
  assert.equal(engine.decideTerminalCommand('ls', settings, 'ask').needApproval, true);
  assert.equal(engine.decideTerminalCommand('ls', settings).needApproval, false);
  assert.throws(() => engine.decideTerminalCommand('ls', settings, 'maybe'), /unknown variant `maybe`/);
});

test('admin controls and file protections', () => {
  const user = settingsFrom({ useYoloMode: true, yoloEnableRunEverything: true, yoloCommandAllowlist: ['rm'] });
  const admin = engine.applyAdminControls(user, { enabled: true, allowed: ['git'], delete_file_protection: true });
  assert.deepEqual([admin.isAdminControlled, admin.isDisabledByAdmin, admin.mode, admin.commandAllowlist], [true, false, 'yolo', ['git']]);
  assert.equal(engine.decideTerminalCommand('rm x', admin).reason, 'deleteProtection', 'the admin\'s delete protection stops rm, named by the core reason');
  const off = engine.applyAdminControls(user, { enabled: true });
  assert.equal(engine.decideTerminalCommand('git status', off).reason, 'disabledByAdmin');
  assert.throws(() => engine.applyAdminControls(user, { enabled: true, alowed: [] }), /unknown field `alowed`/);
  const roots = ['/home/me/project'];
  assert.equal(engine.decideFileOperation('write', '.env', roots, user).reason, 'dotFile');
  assert.equal(engine.decideFileOperation('write', '/etc/hosts', roots, user).reason, 'outsideWorkspace');
  assert.equal(engine.decideFileOperation('delete', 'src/x.rs', roots, admin).reason, 'deleteProtection');
  assert.equal(engine.decideFileOperation('write', 'src/x.rs', roots, user).needApproval, false);
});
