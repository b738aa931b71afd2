'use strict';
// `toolgate hook install <agent>` and `toolgate hook uninstall <agent>`: toolgate's pre-tool hook
// added to (or taken out of) the agent's own settings file, everything else in the file kept. A
// file that is not valid JSON, or whose `hooks` is not what the agent reads, is refused with
// where it is wrong, never overwritten; a changed file replaces the old one atomically.
//
// Where each agent reads hooks and in what shape (sources in js/hooks/protocols.js):
// - Claude Code: `.claude/settings.json` (project) or `~/.claude/settings.json` (user),
//   `hooks.PreToolUse[]` = `{ matcher, hooks: [{ type: 'command', command }] }` or
//   `{ type: 'http', url, headers, allowedEnvVars }`.
// - Codex: `~/.codex/hooks.json` (user) or `.codex/hooks.json` (project), `hooks.PreToolUse[]` =
//   `{ hooks: [{ type: 'command', command, timeout }] }` with no matcher (it is read as a regex).
// - Gemini CLI: `~/.gemini/settings.json` or `.gemini/settings.json`, `hooks.BeforeTool[]` =
//   `{ matcher, hooks: [{ type: 'command', command, name }] }`.
// - Cursor: `~/.cursor/hooks.json` or `.cursor/hooks.json`, `{ version: 1, hooks: {
//   beforeShellExecution: [{ command }], beforeMCPExecution: […], beforeReadFile: […] } }`.
// - VS Code: a file of its own in `.github/hooks/` (project) or `~/.copilot/hooks/` (user),
//   `hooks.PreToolUse[]` = `{ type: 'command', command }` (VS Code ignores matchers).
// - GitHub Copilot: a file of its own in `.github/hooks/` or `~/.copilot/hooks/`, `{ version: 1,
//   hooks: { preToolUse: [{ type: 'command', bash, timeoutSec }] } }`.

const fs = require('node:fs');
const path = require('node:path');

/** Claude Code's tools toolgate decides: the matcher its hook is installed with. */
const CLAUDE_MATCHER = 'Bash|Read|Edit|MultiEdit|Write|NotebookEdit|WebFetch|WebSearch|Grep|Glob|LS|mcp__.*';
/** Gemini CLI's tools toolgate decides. */
const GEMINI_MATCHER = 'run_shell_command|read_file|read_many_files|write_file|replace|list_directory|glob|search_file_content|grep_search|web_fetch|google_web_search|mcp_.*';
const CURSOR_EVENTS = ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'];

/** The settings file of `agent` in `scope` (`user` or `project`). */
function settingsFile(agent, scope, { cwd, home }) {
  const base = scope === 'user' ? home : cwd;
  switch (agent) {
    case 'claude-code': return path.join(base, '.claude', 'settings.json');
    case 'codex': return path.join(base, '.codex', 'hooks.json');
    case 'gemini-cli': return path.join(base, '.gemini', 'settings.json');
    case 'cursor': return path.join(base, '.cursor', 'hooks.json');
    case 'vscode': return scope === 'user' ? path.join(home, '.copilot', 'hooks', 'toolgate-vscode.json') : path.join(cwd, '.github', 'hooks', 'toolgate-vscode.json');
    case 'copilot': return scope === 'user' ? path.join(home, '.copilot', 'hooks', 'toolgate-copilot.json') : path.join(cwd, '.github', 'hooks', 'toolgate-copilot.json');
    default: throw new Error(`unknown agent ${JSON.stringify(agent)}`);
  }
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** The file's settings object (`{}` when it does not exist); an Error says where it is malformed. */
function readSettings(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return {};
    throw new Error(`${file}: cannot read: ${error.message}`);
  }
  if (text.trim() === '') return {};
  let settings;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(error.message);
    throw new Error(`${file}: not valid JSON${at ? ` at ${lineColumn(text, Number(at[1]))}` : ''} (${error.message}); left as it is`);
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw new Error(`${file}: the settings are not a JSON object; left as it is`);
  return settings;
}

/** `settings.hooks[event]` as an array, creating both; an Error when either is not what the agent reads. */
function eventList(settings, event, file) {
  if (settings.hooks === undefined) settings.hooks = {};
  if (typeof settings.hooks !== 'object' || settings.hooks === null || Array.isArray(settings.hooks)) {
    throw new Error(`${file}: \`hooks\` is not an object; left as it is`);
  }
  if (settings.hooks[event] === undefined) settings.hooks[event] = [];
  if (!Array.isArray(settings.hooks[event])) throw new Error(`${file}: \`hooks.${event}\` is not a list; left as it is`);
  return settings.hooks[event];
}

/** Whether a hook handler is toolgate's for `agent`. */
function isOurs(entry, agent) {
  if (!entry || typeof entry !== 'object') return false;
  const texts = [entry.command, entry.bash, entry.url].filter((t) => typeof t === 'string');
  return texts.some((t) => t.includes(`/hooks/${agent}`) || (t.includes('toolgate') && t.includes(` hook ${agent}`)));
}

/** An event's list without toolgate's handlers: a group keeps its other handlers, and goes when none is left. */
function withoutOurs(list, agent) {
  const kept = [];
  for (const entry of list) {
    if (entry && typeof entry === 'object' && Array.isArray(entry.hooks)) {
      const hooks = entry.hooks.filter((h) => !isOurs(h, agent));
      if (hooks.length === entry.hooks.length) kept.push(entry);
      else if (hooks.length) kept.push({ ...entry, hooks });
    } else if (!isOurs(entry, agent)) kept.push(entry);
  }
  return kept;
}

/** Each agent's post-tool events: the hook server learns from them that a call it asked about ran (the person approved it). */
const POST_EVENTS = {
  'claude-code': ['PostToolUse'], codex: ['PostToolUse'], 'gemini-cli': ['AfterTool'],
  cursor: ['afterShellExecution', 'afterMCPExecution'], vscode: ['PostToolUse'], copilot: ['postToolUse'],
};

/**
 * The entries toolgate adds to `agent`'s settings, by event, for a hook: `{ command }`, or
 * `{ http }` (Claude Code's HTTP hook). With `serve`, the post-tool events get the same hook, so
 * the server sees what the person approved at the agent's prompt.
 */
function entriesFor(agent, hook, { serve = false } = {}) {
  const command = hook.command;
  let pre;
  switch (agent) {
    case 'claude-code':
      pre = { PreToolUse: { matcher: CLAUDE_MATCHER, hooks: [hook.http ?? { type: 'command', command }] } };
      break;
    case 'codex':
      pre = { PreToolUse: { hooks: [{ type: 'command', command, timeout: 30 }] } };
      break;
    case 'gemini-cli':
      pre = { BeforeTool: { matcher: GEMINI_MATCHER, hooks: [{ type: 'command', command, name: 'toolgate', timeout: 30000 }] } };
      break;
    case 'cursor':
      pre = Object.fromEntries(CURSOR_EVENTS.map((event) => [event, { command, timeout: 30 }]));
      break;
    case 'vscode':
      pre = { PreToolUse: { type: 'command', command, timeout: 30 } };
      break;
    case 'copilot':
      pre = { preToolUse: { type: 'command', bash: command, timeoutSec: 30 } };
      break;
    default:
      throw new Error(`unknown agent ${JSON.stringify(agent)}`);
  }
  if (!serve) return pre;
  const [first] = Object.values(pre);
  return { ...pre, ...Object.fromEntries(POST_EVENTS[agent].map((event) => [event, first])) };
}

/** Every event toolgate may have a hook in, for `agent`. */
const eventsOf = (agent) => [...Object.keys(entriesFor(agent, { command: '' })), ...POST_EVENTS[agent]];

/** Writes the settings atomically: a new file renamed over the old. */
function writeSettings(file, settings) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.toolgate-${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

/**
 * Adds toolgate's hook to `agent`'s settings file (replacing an earlier toolgate hook there):
 * `{ file, added }`. `hook`: `{ command }` for a command hook, `{ http }` for Claude Code's HTTP
 * hook, with `serve: true` when it calls `toolgate serve`.
 */
function install(agent, hook, { scope, cwd, home, file }) {
  const target = file ?? settingsFile(agent, scope, { cwd, home });
  const settings = readSettings(target);
  if ((agent === 'cursor' || agent === 'copilot') && settings.version === undefined) settings.version = 1;
  const added = entriesFor(agent, hook, { serve: Boolean(hook.serve) });
  for (const [event, entry] of Object.entries(added)) {
    const list = eventList(settings, event, target);
    list.splice(0, list.length, ...withoutOurs(list, agent), entry);
  }
  writeSettings(target, settings);
  return { file: target, added };
}

/** Takes toolgate's hooks out of `agent`'s settings file: `{ file, removed }` (how many events had one). */
function uninstall(agent, { scope, cwd, home, file }) {
  const target = file ?? settingsFile(agent, scope, { cwd, home });
  if (!fs.existsSync(target)) return { file: target, removed: 0 };
  const settings = readSettings(target);
  let removed = 0;
  for (const event of eventsOf(agent)) {
    if (settings.hooks?.[event] === undefined) continue;
    const list = eventList(settings, event, target);
    const kept = withoutOurs(list, agent);
    removed += JSON.stringify(kept) === JSON.stringify(list) ? 0 : 1;
    if (kept.length) settings.hooks[event] = kept;
    else delete settings.hooks[event];
  }
  if (removed) writeSettings(target, settings);
  return { file: target, removed };
}

module.exports = { install, uninstall, settingsFile, readSettings, CLAUDE_MATCHER, GEMINI_MATCHER };
