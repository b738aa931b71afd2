// Deciding an agent's call in the extension host with toolgate, from the settings the settings page
// edits (PROTOCOL.md "Decide with the saved settings as the page previews them"): tool calls with
// the layered engine (`new Policy(settingsPolicy(settings, context))`), MCP calls with Cursor's
// allowlist (`new McpPolicy(settingsMcp(settings, context))` and `settings.mcp.mode`). The page's
// "Try a call" section makes exactly these calls in the webview, so both sides agree.
'use strict';
const { McpPolicy } = require('toolgate');
const { Policy, settingsPolicy, settingsMcp } = require('toolgate/tools');
// The characters that hide or reorder text, written out as the core writes them in its messages
// (the settings page's copy of the core's set): a prompt names the call as it runs.
const { visible } = require('toolgate/settings-page/visible.js');

/**
 * A call of the fake agent (and of the test table):
 *   { tool: 'terminal', input: 'git status && cargo build' }   a tool of the engine (Zed's tools)
 *   { tool: 'copy_path', input: ['a.txt', '../b.txt'] }         two paths
 *   { mcp: { server: 'github', tool: 'create_issue' } }         an MCP tool call (Cursor's allowlist)
 */
const isMcp = (call) => call && typeof call.mcp === 'object' && call.mcp !== null;

/** Compiled policies for one (settings, context) pair; `free()` them when the settings change. */
class Decider {
  constructor(settings, context) {
    this.settings = settings;
    this.context = context;
    /** The engine's policy for these settings: what the agent's session decides with. */
    this.spec = settingsPolicy(settings, context);
    this.policy = new Policy(this.spec);
    this.mcp = new McpPolicy(settingsMcp(settings, context));
  }

  /** `{ outcome: 'allow' | 'confirm' | 'deny', message, rule?, layer?, candidates? }`. */
  decide(call) {
    if (isMcp(call)) {
      const d = this.mcp.decide(call.mcp.server, call.mcp.tool, this.settings.mcp.mode);
      return {
        outcome: d.needApproval ? 'confirm' : 'allow',
        reason: d.reason,
        message: d.message,
        ...(d.matched ? { entry: d.matched.entry, list: d.matched.list } : {}),
        candidates: d.candidatesForAllowlist,
      };
    }
    const d = this.policy.decide(call.tool, call.input);
    return {
      outcome: d.outcome,
      reason: d.reason,
      message: d.message,
      ...(d.rule ? { rule: { pattern: d.rule.pattern, list: d.rule.list, index: d.rule.index, layer: d.rule.layer, tool: d.rule.tool } } : {}),
      items: d.items.map((i) => i.text),
      ...(d.ignored?.length ? { ignored: d.ignored.map((i) => i.message) } : {}),
    };
  }

  /** The engine's permission options for a tool call, unfiltered (what the settings page offers). */
  engineOptions(call, layer) {
    return this.policy.permissionOptions(call.tool, call.input, layer);
  }

  free() {
    this.policy.free();
    this.mcp.free();
  }
}

/**
 * A one-line description of a call, for prompts and logs: every character that is invisible or
 * reorders text written out (`\u{202E}`, `\n`), so the prompt reads as what runs.
 */
function describeCall(call) {
  if (isMcp(call)) return `MCP ${visible(call.mcp.server)}:${visible(call.mcp.tool)}`;
  const input = Array.isArray(call.input) ? call.input.map(visible).join(' → ') : visible(String(call.input ?? ''));
  return `${visible(call.tool)}: ${input}`;
}

module.exports = { Decider, describeCall, isMcp };
