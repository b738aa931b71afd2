// TEST HOOK — used by tests/vscode/ only; inert unless code-server was started with
// TOOLGATE_EXAMPLE_TEST_DIR=<dir> in its environment (the extension host inherits it).
//
// The test cannot read the extension host's memory, so the extension answers through files:
//   <dir>/activated.json              written once on activation: proof that this code runs in
//                                     VS Code's Node extension host (versions, pid, trust).
//   <dir>/requests/<id>.json          written by the test: { action, ... }
//   <dir>/responses/<id>.json         written here (atomically: a temporary file, then rename)
// Actions:
//   { action: 'decide', calls: [call…] }   → { decisions: [decision…], settings }  (the host's
//                                            decisions with the settings in force, as decide.js makes
//                                            them; for tool calls also the engine's option labels)
//   { action: 'openSettings', minimal? }   → runs the command toolgate.openSettings (minimal:
//                                            toolgate.openCommandRules)
//   { action: 'play', calls: [call…] }     → { played: [{ call, outcome, answer }…] } once every
//                                            prompt was answered (the test clicks them meanwhile)
//   { action: 'session', calls: [call…] }  → { decisions: [{ outcome, grantedBy, options }…] }: the
//                                            agent session's decisions (tool calls), prompts' labels
//   { action: 'advanceClock', ms }         → { now }: the session's clock moves on by `ms`
//   { action: 'grants' }                   → { grants }: the session's grants in force
// Requests are polled (every 100 ms) rather than watched: fs.watch is unreliable on some file systems.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { isMcp } = require('./decide');

function writeJson(file, value) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2));
  fs.renameSync(tmp, file);
}

function startTestHook(ext, dir, context) {
  const requests = path.join(dir, 'requests');
  const responses = path.join(dir, 'responses');
  fs.mkdirSync(requests, { recursive: true });
  fs.mkdirSync(responses, { recursive: true });

  async function answer(request) {
    switch (request.action) {
      case 'decide':
        return {
          decisions: request.calls.map((call) => ({
            ...ext.decide(call),
            // The buttons a prompt would offer, as the engine gives them (the page shows these too).
            ...(isMcp(call) ? {} : { options: ext.decider.engineOptions(call, 'user').map((o) => o.label) }),
          })),
          settings: ext.settings,
        };
      case 'openSettings':
        await vscode.commands.executeCommand(request.minimal ? 'toolgate.openCommandRules' : 'toolgate.openSettings');
        return { opened: true };
      case 'play':
        return { played: await ext.playAgentCalls(request.calls) };
      case 'session':
        return {
          decisions: request.calls.map((call) => {
            const d = ext.sessionDecide(call);
            return { outcome: d.decision.outcome, grantedBy: d.grantedBy, options: d.options.map((o) => o.label) };
          }),
        };
      case 'advanceClock':
        ext.clockOffset += request.ms;
        return { now: ext.now() };
      case 'grants':
        return { grants: ext.session.grants(ext.now()) };
      default:
        throw new Error(`unknown action ${JSON.stringify(request.action)}`);
    }
  }

  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (const name of fs.readdirSync(requests).filter((n) => n.endsWith('.json')).sort()) {
        const file = path.join(requests, name);
        let request;
        try {
          request = JSON.parse(fs.readFileSync(file, 'utf8'));
        } catch {
          continue; // still being written
        }
        fs.rmSync(file, { force: true });
        // Not awaited: a `play` waits for prompts while other requests are answered.
        answer(request).then(
          (result) => writeJson(path.join(responses, name), { id: request.id, ok: true, ...result }),
          (e) => writeJson(path.join(responses, name), { id: request.id, ok: false, error: String(e?.stack ?? e) }));
      }
    } finally {
      busy = false;
    }
  }, 100);
  context.subscriptions.push({ dispose: () => clearInterval(timer) });

  writeJson(path.join(dir, 'activated.json'), {
    extension: context.extension.id,
    extensionKind: context.extension.extensionKind === vscode.ExtensionKind.Workspace ? 'workspace' : 'ui',
    vscodeVersion: vscode.version,
    appHost: vscode.env.appHost,
    uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
    node: process.versions.node,
    pid: process.pid,
    isTrusted: vscode.workspace.isTrusted,
    settings: ext.settings,
  });
}

module.exports = { startTestHook };
