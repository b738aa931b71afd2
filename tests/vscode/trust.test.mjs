// Workspace trust in a real VS Code (code-server with trust prompts on): the project layer —
// toolgate.rules in the workspace's .vscode/settings.json — is read but its allow rules are
// ignored until the user trusts the workspace; then the extension host (onDidGrantWorkspaceTrust)
// and the open settings page both decide with it. On the way, the page is hidden and shown again:
// its unsaved draft survives (VS Code's webview state). Harness: tests/vscode/harness.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ACTIVATION_MS, UI_MS, openVsCode, sleep } from './harness.mjs';

const CALLS = [
  { tool: 'terminal', input: 'make check' },
  { tool: 'terminal', input: 'git status && make' },
  { tool: 'terminal', input: 'curl https://example.com' },
  { tool: 'terminal', input: 'git status' },
];

let s;

before(async () => {
  s = await openVsCode({
    trust: true,
    userSettings: { 'toolgate.rules': { tools: { terminal: { alwaysAllow: [{ pattern: '^git\\s+status\\b' }] } } } },
    workspaceSettings: { 'toolgate.rules': { tools: { terminal: { alwaysAllow: [{ pattern: '^make\\b' }], alwaysDeny: [{ pattern: '^curl\\b' }] } } } },
  });
});

after(async () => {
  await s?.close();
});

test('an untrusted workspace\'s allow rules are ignored in the host and the page, until the workspace is trusted', { timeout: ACTIVATION_MS + 180000 }, async () => {
  // VS Code asks on startup: browse in restricted mode.
  await s.answerDialog(/Do you trust the authors of the files in this folder/, 'No, I don\'t trust the authors');
  const activated = await s.activated();
  assert.equal(activated.isTrusted, false);

  const untrusted = await s.hostDecisions(CALLS);
  assert.deepEqual(untrusted.map((d) => d.outcome), ['confirm', 'confirm', 'deny', 'allow']);
  assert.match(untrusted[0].ignored?.join(' ') ?? '', /project/, 'the decision says the project rule was ignored');
  assert.equal(untrusted[2].rule.layer, 'project', 'the project layer\'s deny rules apply untrusted');

  await s.openSettings();
  await s.frame.selectOption('#tg-rules-layer', 'project');
  await s.waitForText('#tg-rules', /This workspace is not trusted/);
  assert.deepEqual((await s.compare(CALLS)).mismatches, []);
  // An unsaved edit: the draft must survive the panel being hidden (VS Code drops a hidden
  // webview's frame) and shown again, through VS Code's getState/setState.
  await s.frame.fill('#tg-mcp-new', 'linear:create_issue');
  await s.frame.press('#tg-mcp-new', 'Enter');
  await s.waitForText('#tg-mcp-new-problems', /Added linear:create_issue/);
  const pageBefore = s.frame;

  // Trust it, as a person does: the Workspace Trust editor's "Trust" button.
  await s.runCommand('Workspaces: Manage Workspace Trust');
  const editor = s.page.locator('.workspace-trust-editor');
  await editor.getByRole('button', { name: 'Trust', exact: true }).click({ timeout: UI_MS });
  const deadline = Date.now() + UI_MS;
  let trusted = await s.hostDecisions(CALLS);
  while (trusted[0].outcome !== 'allow' && Date.now() < deadline) {
    await sleep(250);
    trusted = await s.hostDecisions(CALLS);
  }
  assert.deepEqual(trusted.map((d) => d.outcome), ['allow', 'allow', 'deny', 'allow']);
  assert.equal(trusted[0].rule.layer, 'project');

  // The page (shown again: VS Code reloads a hidden webview; it asks the host for the settings
  // and the context again) decides the same.
  await s.openSettings();
  assert.notEqual(s.frame, pageBefore, 'the page was reloaded in a new frame');
  assert.match(await s.frame.textContent('#tg-status'), /Your unsaved changes were restored/);
  assert.deepEqual(await s.frame.locator('#tg-mcp-entries input').evaluateAll((els) => els.map((e) => e.value)), ['linear:create_issue']);
  assert.equal(await s.frame.getAttribute('#toolgate-settings', 'data-dirty'), 'true');
  await s.frame.selectOption('#tg-rules-layer', 'project');
  assert.doesNotMatch(await s.frame.textContent('#tg-rules'), /This workspace is not trusted/);
  assert.deepEqual((await s.compare(CALLS)).mismatches, []);
  assert.deepEqual(s.ourErrors(), []);
});
