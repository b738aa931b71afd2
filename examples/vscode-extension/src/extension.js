// toolgate's example VS Code extension: the same toolgate core decides an agent's tool calls here,
// in the extension host (Node), and in the settings page's webview.
//
//   toolgate: Play agent calls  — a fake agent's calls, each decided by the agent's permission
//                                 session; "confirm" asks with a VS Code prompt offering the
//                                 session's answers: once, for this session, for an hour, always in
//                                 this workspace, always. The "always" answers are saved in VS Code's
//                                 settings (workspace or user); the others last as long as they say.
//   toolgate: End the agent session — session and timed answers are forgotten.
//   toolgate: Open settings     — the settings page (toolgate/settings-page) in a webview panel,
//                                 connected with the host half (toolgate/settings-page/host), with
//                                 the agent's session: what you allowed (revoke it there), the
//                                 rules your approvals suggest, the recent decisions.
//   toolgate: Open command rules — the same page as a minimal embedding: only the command and
//                                 file rules and "Try a call", in this agent's words.
//
// Where the settings live (VS Code's own settings, see package.json `contributes.configuration`):
//   toolgate.mcp, toolgate.roo, toolgate.gasoline   user settings (application scope)
//   toolgate.rules                                  user settings → the engine's user layer,
//                                                   workspace settings → the project layer, whose
//                                                   allow rules count only once the workspace is trusted.
'use strict';
const vscode = require('vscode');
const { addToAllowlist } = require('toolgate');
const { Session, applySettingsChange, validateSettings } = require('toolgate/tools');
const { createSettingsHost, settingsPageHtml } = require('toolgate/settings-page/host');
const { Decider, describeCall, isMcp } = require('./decide');
const { AGENT_CALLS, CATALOGUE } = require('./agent');

const SECTION = 'toolgate';

/** The minimal embedding: this agent's command and file rules and "Try a call", in its words. */
const MINIMAL_PAGE = {
  sections: ['rules', 'try'],
  title: 'Example Agent: command rules',
  agentName: 'Example Agent',
  words: { rules: { heading: 'Command and file rules', help: 'What Example Agent may run or edit without asking, what asks first, and what is refused: regular expressions per tool. A command line is checked per sub-command.' } },
  tools: [{ name: 'terminal', label: 'Run a command' }, { name: 'edit_file', label: 'Edit a file' }],
};
const { Global, Workspace } = vscode.ConfigurationTarget;

/** JSON with sorted keys: compares settings whatever order their keys came in. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => value[k] !== undefined).sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A prompt button for a session's answer: "Allow once", "Allow for 1 hour", "Always in this workspace"… */
function buttonLabel(option) {
  if (!option.allow) return 'Deny';
  switch (option.scope) {
    case 'session': return 'Allow for this session';
    case 'timed': {
      const minutes = Math.round(option.durationMs / 60000);
      return minutes % 60 === 0 ? `Allow for ${minutes / 60 === 1 ? '1 hour' : `${minutes / 60} hours`}` : `Allow for ${minutes} minutes`;
    }
    case 'workspace': return 'Always in this workspace';
    case 'user': return 'Always';
    default: return 'Allow once';
  }
}

class Extension {
  constructor(context) {
    this.context = context;
    this.log = vscode.window.createOutputChannel('toolgate');
    this.settings = undefined; // the last good settings (validated): what the host decides with
    this.decider = undefined;
    this.panel = undefined; // { panel, host } while the settings page is open
    this.persisting = 0;
    this.session = undefined; // the agent's permission session: grants, prompts, the decision log
    this.logged = 0; // the last session log record written to the output channel
    this.clockOffset = 0; // moved only by the test hook, to reach a timed answer's end without waiting
    this.reload();
  }

  /** What the page and the core know besides the settings: catalogue, admin state, trust. */
  pageContext() {
    return { catalogue: CATALOGUE, admin: {}, projectTrusted: vscode.workspace.isTrusted };
  }

  /** The settings as stored in VS Code's settings, in the page's shape (validated by the caller). */
  readStored() {
    const config = vscode.workspace.getConfiguration(SECTION);
    const user = (key) => config.inspect(key)?.globalValue;
    const rules = config.inspect('rules');
    const stored = { rules: { user: rules?.globalValue ?? {}, project: rules?.workspaceValue ?? {} } };
    for (const key of ['mcp', 'roo', 'gasoline']) if (user(key) !== undefined) stored[key] = user(key);
    return stored;
  }

  /**
   * Writes validated settings to VS Code's settings: only what changed, each to its scope. Every
   * check comes before the first write, so a refused save writes nothing.
   */
  async persist(settings) {
    const config = vscode.workspace.getConfiguration(SECTION);
    const noRules = canonical({ tools: {} });
    const writes = [
      ['mcp', settings.mcp, Global], ['roo', settings.roo, Global], ['gasoline', settings.gasoline, Global],
      ['rules', settings.rules.user, Global], ['rules', settings.rules.project, Workspace],
    ].filter(([key, value, target]) => {
      const inspected = config.inspect(key);
      const current = target === Global ? inspected?.globalValue : inspected?.workspaceValue;
      return canonical(current ?? (key === 'rules' ? { tools: {} } : undefined)) !== canonical(value);
    }).filter(([, value, target]) => target === Global || vscode.workspace.workspaceFolders?.length || canonical(value) !== noRules);
    if (writes.some(([, , target]) => target === Workspace) && !vscode.workspace.workspaceFolders?.length) {
      throw new Error('project rules are saved in the workspace settings: open a folder or workspace first');
    }
    this.persisting += 1;
    try {
      for (const [key, value, target] of writes) await config.update(key, value, target);
    } finally {
      this.persisting -= 1;
    }
  }

  /** The session's clock: the host's (milliseconds). */
  now() {
    return Date.now() + this.clockOffset;
  }

  /** Settings now in force: recompile the policies; the session keeps its grants and log. */
  use(settings, why) {
    this.decider?.free();
    this.settings = settings;
    this.decider = new Decider(settings, this.pageContext());
    if (this.session) this.session.setPolicy(this.decider.spec, this.now());
    else this.session = new Session(this.decider.spec, { name: 'agent' });
    this.log.appendLine(`settings in force (${why}): ${canonical(settings)}`);
    this.writeSessionLog();
  }

  /** The session's new log records, as JSON lines, in the output channel; an open page is told. */
  writeSessionLog() {
    const lines = this.session.logLines(this.logged).split('\n').filter(Boolean);
    for (const line of lines) this.log.appendLine(`[session] ${line}`);
    if (lines.length) this.logged = JSON.parse(lines[lines.length - 1]).seq;
    if (lines.length && this.panel) this.panel.host.refreshActivity();
  }

  /** A lasting grant revoked in the page: its rules come out of VS Code's settings (that layer's). */
  async forget(persist) {
    const layer = persist.layer === 'project' ? 'project' : 'user';
    const tools = structuredClone(this.settings.rules[layer].tools ?? {});
    for (const change of persist.changes) {
      const rules = tools[change.tool];
      if (rules?.alwaysAllow) rules.alwaysAllow = rules.alwaysAllow.filter((r) => canonical(r) !== canonical(change.rule));
    }
    await this.save({ ...this.settings, rules: { ...this.settings.rules, [layer]: { ...this.settings.rules[layer], tools } } });
    this.writeSessionLog();
  }

  /** The session's decision about a tool call (it remembers the call for its answer). */
  sessionDecide(call) {
    const d = this.session.decide(call.tool, call.input, { now: this.now() });
    this.writeSessionLog();
    return d;
  }

  /** Forgets the session's and the timed answers (saved "always" answers stay in the settings). */
  endSession() {
    this.session.end(this.now());
    this.writeSessionLog();
  }

  /** Re-reads VS Code's settings; settings with errors leave the last good ones in force. */
  reload(why = 'loaded') {
    const checked = validateSettings(this.readStored(), this.pageContext());
    if (checked.ok) {
      this.use(checked.settings, why);
    } else {
      const list = checked.errors.map((e) => `${e.path ?? ''}: ${e.message}`).join('; ');
      this.log.appendLine(`the toolgate settings have errors, the previous ones stay in force: ${list}`);
      if (!this.settings) this.use(validateSettings({}, this.pageContext()).settings, 'defaults');
      vscode.window.showWarningMessage(`toolgate: your settings have errors (${list}). Open the settings page to fix them.`);
    }
    if (this.panel) this.panel.host.refresh();
  }

  /** The host's decision for a call, with the settings in force (after a save in the page: `host.settings`). */
  decide(call) {
    return this.decider.decide(call);
  }

  // --- toolgate: Open settings ------------------------------------------------------------------

  /**
   * The full page: every settings section and the agent's session. `minimal`: only the rules and
   * "Try a call", with this agent's names for its tools.
   */
  openSettings({ minimal = false } = {}) {
    if (this.panel?.minimal === minimal) {
      this.panel.panel.reveal();
      return this.panel.panel;
    }
    this.panel?.panel.dispose();
    const webviewRoot = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview');
    const root = vscode.Uri.joinPath(webviewRoot, 'settings-page');
    const title = minimal ? 'Example Agent: command rules' : 'Tool permissions';
    const panel = vscode.window.createWebviewPanel('toolgate.settings', title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [webviewRoot], // the page's script and style, and its module: nothing else
    });
    const { webview } = panel;
    const page = minimal ? MINIMAL_PAGE : { agentName: 'Example Agent' };
    const host = createSettingsHost({
      webview,
      load: () => this.readStored(),
      persist: (settings) => this.persist(settings),
      context: () => this.pageContext(),
      // Validated again by the host half and persisted: decide with them from now on.
      onDidSave: () => this.use(host.settings, 'saved in the settings page'),
      log: (message, level) => this.log.appendLine(`[settings page ${level}] ${message}`),
      page,
      // The session's grants (revoked in the page), its approvals' suggested rules, its decisions.
      ...(minimal ? {} : { activity: { session: () => this.session, now: () => this.now(), onRevoke: (persist) => this.forget(persist) } }),
    });
    // The HTML (strict CSP: scripts and styles from the webview's own source, 'wasm-unsafe-eval'
    // to compile the core; no inline script or style) is set after the host listens for `ready`.
    // It carries the stored settings, drawn before any message; the host's `load` checks them.
    webview.html = settingsPageHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'settings-page.js')),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'settings-page.css')),
      settings: this.readStored(),
      page,
      context: this.pageContext(),
    });
    this.panel = { panel, host, minimal };
    panel.onDidDispose(() => {
      host.dispose();
      if (this.panel?.panel === panel) this.panel = undefined;
    });
    return panel;
  }

  // --- toolgate: Play agent calls ---------------------------------------------------------------

  /** Plays the calls one by one; returns what happened to each (`{ call, outcome, answer }`). */
  async playAgentCalls(calls = AGENT_CALLS) {
    this.log.show(true);
    const played = [];
    for (const [n, call] of calls.entries()) {
      const asked = isMcp(call) ? undefined : this.sessionDecide(call);
      const d = asked ? asked.decision : this.decide(call);
      const what = describeCall(call);
      this.log.appendLine(`agent #${n + 1} ${call.say ? `(${call.say}) ` : ''}${what} → ${d.outcome}: ${d.message}`);
      let answer = 'ran';
      if (d.outcome === 'deny') {
        await vscode.window.showErrorMessage(`toolgate refused ${what}`, { modal: true, detail: d.message }, 'Next');
        answer = 'refused';
      } else if (d.outcome === 'confirm') {
        answer = asked ? await this.askTool(asked, what) : await this.askMcp(call, d, what);
        this.log.appendLine(`    you chose: ${answer}`);
      }
      played.push({ call, outcome: d.outcome, answer });
      if (answer === 'stop') break;
    }
    this.log.appendLine('the agent is done');
    return played;
  }

  /**
   * A confirm for a tool call: the session's answers as the prompt's buttons. Each grant is narrow
   * (`npm test`, not the terminal); an "always" answer comes back as changes to save in VS Code's
   * settings: workspace settings (the project layer) or user settings (the user layer).
   */
  async askTool(asked, what) {
    const hasFolder = !!vscode.workspace.workspaceFolders?.length;
    const options = asked.options.filter((o) => o.scope !== 'workspace' || hasFolder);
    // Short buttons (a dialog has room for six short ones); the rule a lasting answer grants is
    // named once, in the detail.
    const granted = options.find((o) => o.grant)?.grant;
    const detail = granted ? `${asked.decision.message}\n\nAn answer that lasts allows ${granted.display} only.` : asked.decision.message;
    const picked = await vscode.window.showWarningMessage(`The agent wants to run ${what}`,
      { modal: true, detail }, ...options.map(buttonLabel));
    const option = options.find((o) => buttonLabel(o) === picked);
    if (!option) return 'stop';
    const answered = this.session.answer({ callId: asked.callId, allow: option.allow, scope: option.scope }, this.now());
    this.writeSessionLog();
    if (answered.persist) {
      let settings = this.settings;
      for (const change of answered.persist.changes) {
        const applied = applySettingsChange(settings, change);
        if (!applied.ok) {
          vscode.window.showErrorMessage(`toolgate: ${applied.errors.map((e) => e.message).join('; ')}`);
          return 'error';
        }
        settings = applied.settings;
      }
      await this.save(settings);
    }
    return buttonLabel(option);
  }

  /** A confirm for an MCP call: add the call to the allowlist (user settings), allow once, or deny. */
  async askMcp(call, d, what) {
    const add = d.candidates.map((c) => ({ label: `Add ${c.server}:${c.tool} to the allowlist`, c }));
    const picked = await vscode.window.showWarningMessage(`The agent wants to call ${what}`,
      { modal: true, detail: d.message }, ...add.map((a) => a.label), 'Allow', 'Deny');
    const chosen = add.find((a) => a.label === picked);
    if (!chosen) return picked ?? 'stop';
    const added = addToAllowlist(this.settings.mcp.mcpAllowedTools, chosen.c.server, chosen.c.tool);
    await this.save({ ...this.settings, mcp: { ...this.settings.mcp, mcpAllowedTools: added.list } });
    return chosen.label;
  }

  /** Validates and persists settings changed outside the page; an open page is told. */
  async save(settings) {
    const checked = validateSettings(settings, this.pageContext());
    if (!checked.ok) throw new Error(checked.errors.map((e) => e.message).join('; '));
    await this.persist(checked.settings);
    this.use(checked.settings, 'saved from a prompt');
    if (this.panel) await this.panel.host.refresh();
  }

  dispose() {
    this.panel?.panel.dispose();
    this.session?.free(); // the session ends with the extension host: its grants never outlive it
    this.decider?.free();
    this.log.dispose();
  }
}

function activate(context) {
  const ext = new Extension(context);
  context.subscriptions.push(
    ext,
    vscode.commands.registerCommand('toolgate.playAgentCalls', () => ext.playAgentCalls()),
    vscode.commands.registerCommand('toolgate.openSettings', () => { ext.openSettings(); }),
    vscode.commands.registerCommand('toolgate.openCommandRules', () => { ext.openSettings({ minimal: true }); }),
    vscode.commands.registerCommand('toolgate.endSession', () => ext.endSession()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION) && !ext.persisting) ext.reload('changed in VS Code settings');
    }),
    // The project layer's allow rules start counting once the user trusts the workspace.
    vscode.workspace.onDidGrantWorkspaceTrust(() => ext.reload('workspace trusted')),
  );
  // The test hook (tests/vscode/): only when the test starts code-server with this variable.
  if (process.env.TOOLGATE_EXAMPLE_TEST_DIR) {
    require('./test-hook').startTestHook(ext, process.env.TOOLGATE_EXAMPLE_TEST_DIR, context);
  }
  return { decide: (call) => ext.decide(call), openSettings: (options) => ext.openSettings(options) };
}

function deactivate() {}

module.exports = { activate, deactivate };
