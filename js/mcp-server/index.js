'use strict';
// Gasoline's YAML allowlist (seed 001) inside an MCP server built with the official TypeScript SDK:
// the file is loaded at start, watched and reloaded atomically, and every tool call is checked
// before its handler runs. The SDK is not a dependency: the guard patches the server it is given,
// so it works with whichever copy of `@modelcontextprotocol/sdk` the server uses.
//
// A file being rewritten in place (truncated, then written, as `>` and many editors do) is empty
// or cut short for a moment, and an empty list is the seed's "everything permitted". So while a
// list is in force, a reload never opens every tool by accident: a text with no list is refused
// (the core's `noList`: only `allowed_tools: []` says so), and a text that would permit every
// tool/action applies only once it reads the same a second time, a debounce apart.
const fs = require('node:fs');
const path = require('node:path');
const { GasolineAllowlist } = require('../engine/node/toolgate_engine.js');

const DEFAULT_DEBOUNCE_MS = 100;

/** Gasoline's tools carry their action in `args.action` (`interact({action: "navigate"})`). */
function defaultActionOf(_toolName, args) {
  return args.action;
}

function defaultLog(message) {
  process.stderr.write(`${message}\n`);
}

/** `file:line:column: message`, one line per error, the form editors and terminals link. */
function describeErrors(file, errors) {
  return errors.map((e) => `${file}${e.line ? `:${e.line}:${e.column}` : ''}: ${e.message}`).join('\n');
}

/** Whether a list permits every tool/action: an empty list (the seed's rule) or `*`. */
function permitsEverything(summary) {
  return !summary.enabled || summary.allowed_tools.includes('*');
}

/** The file's text, or `null` and why it cannot be read. */
function readText(file) {
  try {
    return { text: fs.readFileSync(file, 'utf8') };
  } catch (e) {
    return { text: null, problem: `cannot read ${file}: ${e.message}` };
  }
}

/**
 * Loads `options.allowlistFile`, watches it, and patches `server.registerTool` and `server.tool`
 * so that every tool registered afterwards is checked before its handler runs. Throws (the server
 * must not start) when the file cannot be read or is invalid; the message names file, line, column.
 *
 * @param {object} server an `McpServer` from `@modelcontextprotocol/sdk/server/mcp.js`
 * @param {import('./index').GuardOptions} options
 * @returns {import('./index').AllowlistGuard}
 */
function guardServer(server, options) {
  const guard = new AllowlistGuard(options);
  try {
    guard.protect(server);
  } catch (e) {
    guard.close();
    throw e;
  }
  return guard;
}

class AllowlistGuard {
  constructor(options) {
    if (!options || typeof options.allowlistFile !== 'string' || options.allowlistFile === '') {
      throw new TypeError('guardServer: options.allowlistFile must be the path of the allowlist YAML file');
    }
    this.allowlistFile = path.resolve(options.allowlistFile);
    this._actionOf = options.actionOf ?? defaultActionOf;
    this._log = options.log ?? defaultLog;

    const read = readText(this.allowlistFile);
    if (read.text === null) throw new Error(`Cannot load the allowlist: ${read.problem}`);
    const parsed = GasolineAllowlist.parse(read.text);
    if (!parsed.ok) {
      const [first] = parsed.errors;
      throw Object.assign(new Error(`Invalid allowlist: ${describeErrors(this.allowlistFile, parsed.errors)}`), {
        file: this.allowlistFile, line: first.line, column: first.column, errors: parsed.errors,
      });
    }
    this._allowlist = parsed.allowlist;
    /** The text last read from disk, good or bad: the watcher reloads only when it changes. */
    this._lastText = read.text;
    this._log(this._allowlist.summary.message, 'info');

    this._watcher = null;
    this._debounce = null;
    this._debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    /** A text that would permit every tool/action, read once and waiting to be read again. */
    this._unconfirmed = null;
    if (options.watch ?? true) this._watch();
  }

  /**
   * `null` when the call may run, else the seed's `tool_not_allowed` object (the same on every
   * retry). The action is `actionOf(toolName, args)` when that is a non-empty string; otherwise the
   * tool has no action and only `*` or `tool.*` allow it.
   */
  check(toolName, args) {
    const action = this._actionOf(toolName, args ?? {});
    const denial = this._allowlist.check(toolName, typeof action === 'string' ? action : '');
    if (denial) this._log(`Allowlist blocked ${denial.action ? `${toolName}.${denial.action}` : toolName}`, 'warn');
    return denial;
  }

  /** What `observe({what: "server_config"})` reports: the list, its size, the log message and the file. */
  serverConfig() {
    return { allowlist: { ...this._allowlist.summary, config_file: this.allowlistFile } };
  }

  /**
   * Re-reads the file and replaces the list. On any error the previous list stays in force and the
   * error is logged; returns whether the new list is in force. A file with no list while a list is
   * in force is such an error (it must say `allowed_tools: []`); the caller chose the moment, so
   * there is no second read.
   */
  reload() {
    return this._apply(readText(this.allowlistFile));
  }

  /** Stops watching the file. */
  close() {
    clearTimeout(this._debounce);
    this._watcher?.close();
    this._watcher = null;
  }

  /**
   * Patches the server's registration methods. Tools registered before would run unchecked, so
   * that is an error; task-based tools (`experimental.tasks.registerToolTask`) cannot answer with a
   * tool result, so registering one on a guarded server throws rather than leaving it open.
   */
  protect(server) {
    if (!server || typeof server.registerTool !== 'function' || typeof server.tool !== 'function') {
      throw new TypeError('guardServer: server must be an McpServer (with registerTool and tool methods)');
    }
    // McpServer keeps its tools in `_registeredTools`; other servers may not, and then pass.
    const earlier = Object.keys(server._registeredTools ?? {});
    if (earlier.length > 0) {
      throw new Error(`guardServer: call it before registering tools; these would run unchecked: ${earlier.join(', ')}`);
    }
    const registerTool = server.registerTool.bind(server);
    const tool = server.tool.bind(server);
    server.registerTool = (name, config, handler) =>
      registerTool(name, config, this._guarded(name, handler, config?.outputSchema == null));
    // tool(name, [description], [schema], [annotations], handler): the handler is always last.
    server.tool = (name, ...rest) => {
      const handler = rest.pop();
      return tool(name, ...rest, this._guarded(name, handler, true));
    };
    const tasks = server.experimental?.tasks;
    if (tasks && typeof tasks.registerToolTask === 'function') {
      tasks.registerToolTask = (name) => {
        throw new Error(`guardServer: task-based tool "${name}" cannot be guarded; register it with registerTool`);
      };
    }
    return server;
  }

  /**
   * Wraps a tool handler. The SDK calls `handler(args, extra)` for a tool with an input schema and
   * `handler(extra)` without one, whose arguments the handler never sees (so it has no action).
   * A denial becomes an MCP tool error the model can read; `structuredContent` carries the same
   * object unless the tool declares an output schema, which the error object would not satisfy.
   */
  _guarded(toolName, handler, structured) {
    if (typeof handler !== 'function') {
      throw new TypeError(`guardServer: the handler of tool "${toolName}" must be a function`);
    }
    return (...params) => {
      const args = params.length >= 2 ? params[0] : {};
      const denial = this.check(toolName, args);
      if (!denial) return handler(...params);
      const result = { content: [{ type: 'text', text: JSON.stringify(denial) }], isError: true };
      if (structured) result.structuredContent = denial;
      return result;
    };
  }

  /**
   * Watches the file's directory, not the file: editors that save by writing a new file and
   * renaming it over the old one replace the inode a file watch would follow. Any event in the
   * directory (names can be missing, and symlink swaps name another entry) schedules one re-read
   * after `debounceMs`; an unchanged text is ignored, so bursts of events reload once.
   */
  _watch() {
    this._watcher = fs.watch(path.dirname(this.allowlistFile), { persistent: false }, () => this._schedule());
    this._watcher.on('error', (e) => {
      this._log(`Allowlist watch stopped, the current list stays in force: ${e.message}`, 'error');
      this.close();
    });
  }

  /** One re-read, `debounceMs` after the last event (or after a text that needs a second read). */
  _schedule() {
    clearTimeout(this._debounce);
    this._debounce = setTimeout(() => this._reloadIfChanged(), this._debounceMs);
    this._debounce.unref();
  }

  /**
   * Applies the file's text if it changed. A text that would permit every tool/action where the
   * list in force does not (an empty list, or `*`) waits for a second read `debounceMs` later and
   * applies only if that reads the same: on its way to something else, a file being written can
   * say so for a moment.
   */
  _reloadIfChanged() {
    const read = readText(this.allowlistFile);
    const confirmed = read.text !== null && read.text === this._unconfirmed;
    this._unconfirmed = null;
    if (read.text === this._lastText) return;
    if (!confirmed && read.text !== null && this._wouldOpen(read.text)) {
      this._unconfirmed = read.text;
      this._log(`Allowlist: ${this.allowlistFile} now reads as permitting every tool/action; `
        + `it applies only if it reads the same in ${this._debounceMs} ms`, 'warn');
      this._schedule();
      return;
    }
    this._apply(read);
  }

  /** Whether `text` is a valid list that permits every tool/action while the list in force does not. */
  _wouldOpen(text) {
    if (permitsEverything(this._allowlist.summary)) return false;
    const parsed = GasolineAllowlist.parse(text);
    return parsed.ok && permitsEverything(parsed.allowlist.summary);
  }

  _apply({ text, problem }) {
    this._lastText = text;
    if (text === null) {
      this._log(`Allowlist reload failed, keeping the previous list: ${problem}`, 'error');
      return false;
    }
    const result = this._allowlist.reload(text);
    if (!result.ok) {
      this._log(`Allowlist reload failed, keeping the previous list: ${describeErrors(this.allowlistFile, result.errors)}`, 'error');
      return false;
    }
    const { enabled, count } = this._allowlist.summary;
    if (enabled) this._log(`Allowlist reloaded, ${count} tools/actions permitted`, 'info');
    else this._log('Allowlist reloaded, the list is empty: all tools/actions are permitted', 'warn');
    return true;
  }
}

module.exports = { guardServer, AllowlistGuard };
