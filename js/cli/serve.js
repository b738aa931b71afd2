'use strict';
// `toolgate serve --policy <file>`: a local hook server, so a decision costs no process start and
// answers can be remembered. It listens on 127.0.0.1 only and answers `POST /hooks/<agent>` with
// the body the agent's hook reads (js/hooks/protocols.js) — always a 200, because an HTTP hook's
// other answers (a 401, a 500) are non-blocking errors that let the call run in Claude Code:
// a request without the token, or one toolgate cannot read, is answered with a refusal instead.
//
// - One `Session` per agent session id (a child session per sub-agent where the protocol names
//   one, Claude Code's and Codex's `agent_id`), created with the policy on its first call.
// - A call that asked and that the agent then reports as run (its post-tool event, the same
//   endpoint) was approved by the person at the agent's prompt: the session records the answer,
//   and with `--remember session|timed` grants it for the session or an hour, so that call does
//   not ask again in that session (and never in another).
// - Every session's new log records are appended to `--log <file>` as JSON lines, the session
//   log `toolgate replay` and `toolgate learn` read.
// - The policy file is watched and reloaded as the MCP server guard does (js/mcp-server): the
//   directory is watched, so an editor's atomic rename is seen; a text that does not parse or
//   load is logged and the previous policy stays in force.
// - A session idle for `--idle-minutes` (30) ends and is dropped, so memory stays bounded.
// - SIGINT and SIGTERM close the server: requests in flight are answered, the logs flushed.

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { protocolOf, bodyOf, AGENTS, HookInputError } = require('../hooks/protocols.js');
const { decideAgentCall, specForAgent, unattended } = require('../hooks/decide.js');

const MAX_BODY = 1 << 20;
const DEFAULT_IDLE_MS = 30 * 60_000;
const DEBOUNCE_MS = 100;

/** Where the server's address and token are kept for the hooks that call it (readable by the user alone). */
const defaultStateDir = (home) => path.join(home, '.toolgate');

/**
 * The one-line command hook that forwards an agent's hook input to the server: curl reads the
 * token's header from the state directory (`-H @file`, so the token is in no command line), and
 * a server that cannot be reached refuses the call (exit 2, which every agent here reads as a
 * refusal), never lets it run.
 */
function curlCommand(agent, { stateDir, url }) {
  const header = path.join(stateDir, 'serve.header');
  return `curl -sS --max-time 30 -H @${shellQuote(header)} -H 'Content-Type: application/json' --data-binary @- ${url}/hooks/${agent} || { echo 'toolgate serve is not reachable: refused' >&2; exit 2; }`;
}

/** A word quoted for a POSIX shell. */
const shellQuote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

class HookServer {
  /**
   * @param {object} options `{ core, policyFile?, importFormat?, token, port?, logFile?, idleMs?,
   *   remember?, unattended?, home?, log? }`
   */
  constructor(options) {
    this.core = options.core;
    this.policyFile = options.policyFile && path.resolve(options.policyFile);
    this.importFormat = options.importFormat;
    this.token = options.token;
    this.logFile = options.logFile && path.resolve(options.logFile);
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.remember = options.remember ?? 'once';
    this.unattended = options.unattended === true;
    this.home = options.home ?? os.homedir();
    this._log = options.log ?? ((message) => process.stderr.write(`toolgate serve: ${message}\n`));
    /** `<agent> <session id>` → `{ session, children: Map, lastSeen, logged, cwd }`. */
    this.sessions = new Map();
    /** `<agent> <session id> <tool use id or call>` → `[{ session, callId, options }]`: asks awaiting the agent's report. */
    this.asked = new Map();
    this.spec = null;
    this._lastText = null;
    if (this.policyFile) {
      const loaded = this._loadPolicyText(fs.readFileSync(this.policyFile, 'utf8'));
      if (loaded.error) throw new Error(loaded.error);
      this._watch();
    }
    this.server = http.createServer((req, res) => this._handle(req, res));
    this._sweep = setInterval(() => this.expireIdle(Date.now()), Math.max(1000, Math.min(this.idleMs / 2, 60_000)));
    this._sweep.unref();
  }

  /** Listens on 127.0.0.1; resolves with the URL. */
  listen(port = 0) {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve(`http://127.0.0.1:${this.server.address().port}`);
      });
    });
  }

  /** Stops listening, ends every session and writes what is left of the logs. */
  close() {
    clearInterval(this._sweep);
    clearTimeout(this._debounce);
    this._watcher?.close();
    const now = Date.now();
    for (const key of [...this.sessions.keys()]) this._end(key, now);
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  // ---- the policy ----

  /** Parses and compiles a policy text; on success it is the policy sessions start with. */
  _loadPolicyText(text) {
    this._lastText = text;
    this._lastLoaded = false;
    let spec;
    try {
      spec = JSON.parse(text);
      new this.core.Policy(specForAgent(spec)).free?.();
    } catch (error) {
      return { error: `${this.policyFile}: ${error instanceof SyntaxError ? 'not JSON' : 'does not load'}: ${error.message}` };
    }
    this.spec = spec;
    this._lastLoaded = true;
    return { ok: true };
  }

  /** Re-reads the policy file; a bad edit is logged and kept out. Returns whether the new policy is in force. */
  reload() {
    let text;
    try {
      text = fs.readFileSync(this.policyFile, 'utf8');
    } catch (error) {
      this._log(`policy reload failed, the previous policy stays in force: cannot read ${this.policyFile}: ${error.message}`);
      return false;
    }
    if (text === this._lastText) return this._lastLoaded;
    const loaded = this._loadPolicyText(text);
    if (loaded.error) {
      this._log(`policy reload failed, the previous policy stays in force: ${loaded.error}`);
      return false;
    }
    const now = Date.now();
    for (const [key, entry] of [...this.sessions]) {
      try {
        entry.session.setPolicy(specForAgent(this.spec, { cwd: entry.cwd, home: this.home }), now);
        this._flush(entry);
      } catch (error) {
        // A session that cannot take the new policy (its module restarted) ends; the next call starts it anew.
        this._log(`session ${entry.name} ended: it could not take the new policy: ${error.message}`);
        this.sessions.delete(key);
      }
    }
    this._log(`policy reloaded from ${this.policyFile}`);
    return true;
  }

  _watch() {
    this._watcher = fs.watch(path.dirname(this.policyFile), { persistent: false }, () => {
      clearTimeout(this._debounce);
      this._debounce = setTimeout(() => this.reload(), DEBOUNCE_MS);
      this._debounce.unref();
    });
    this._watcher.on('error', (e) => {
      this._log(`policy watch stopped, the current policy stays in force: ${e.message}`);
      this._watcher?.close();
    });
  }

  /** The spec a new session of `cwd` starts with. */
  _specFor(cwd) {
    if (this.policyFile) return specForAgent(this.spec, { cwd, home: this.home });
    if (!cwd) throw new HookInputError('the hook input names no absolute working directory (`cwd`): the agent\'s project rules cannot be found');
    const { importAgentRules } = require('./agent-rules.js');
    try {
      return specForAgent(importAgentRules(this.core, this.importFormat, { cwd, home: this.home }).spec, { cwd, home: this.home });
    } catch (error) {
      throw new HookInputError(error.message);
    }
  }

  // ---- sessions ----

  /** The session of an agent's session (and sub-agent), created on its first call. */
  _sessionFor(agent, call, now) {
    const key = `${agent} ${call.sessionId ?? '-'}`;
    let entry = this.sessions.get(key);
    if (!entry) {
      const cwd = call.cwd && path.isAbsolute(call.cwd) ? call.cwd : undefined;
      const name = `${agent}:${call.sessionId ?? '-'}`;
      entry = { session: new this.core.Session(this._specFor(cwd), { name }), children: new Map(), lastSeen: now, logged: 0, cwd, name };
      this.sessions.set(key, entry);
    }
    entry.lastSeen = now;
    if (!call.subAgentId) return { key, entry, session: entry.session };
    let child = entry.children.get(call.subAgentId);
    if (!child) {
      child = { session: entry.session.child({ name: `${entry.name}/${call.subAgentId}` }), logged: 0 };
      entry.children.set(call.subAgentId, child);
    }
    return { key, entry, session: child.session, child };
  }

  /** Ends and drops the sessions idle since before `now - idleMs`. */
  expireIdle(now) {
    for (const [key, entry] of this.sessions) if (now - entry.lastSeen >= this.idleMs) this._end(key, now);
  }

  _end(key, now) {
    const entry = this.sessions.get(key);
    if (!entry) return;
    this.sessions.delete(key);
    for (const askKey of [...this.asked.keys()]) if (askKey.startsWith(`${key} `)) this.asked.delete(askKey);
    for (const holder of [...entry.children.values(), entry]) {
      try {
        holder.session.end(now);
        this._append(holder);
        holder.session.free?.();
      } catch (error) {
        // A session lost to an internal error cannot end or log; it is dropped all the same.
        this._log(`session ${entry.name} dropped without its last records: ${error.message}`);
      }
    }
  }

  /** Appends a session's new log records to the log file. */
  _append(holder) {
    if (!this.logFile) return;
    const lines = holder.session.logLines(holder.logged);
    if (!lines) return;
    const records = lines.split('\n').filter(Boolean);
    const last = JSON.parse(records[records.length - 1]);
    holder.logged = last.seq;
    fs.mkdirSync(path.dirname(this.logFile), { recursive: true });
    fs.appendFileSync(this.logFile, `${records.join('\n')}\n`);
  }

  _flush(entry) {
    this._append(entry);
    for (const child of entry.children.values()) this._append(child);
  }

  // ---- one hook call ----

  /**
   * Answers one hook input of `agent`: `{ body }` in the agent's protocol. A post-tool event
   * records the person's approval of a call that asked.
   */
  answer(agent, input, now = Date.now()) {
    const protocol = protocolOf(agent);
    let sessionKey;
    try {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new HookInputError('the hook input is not a JSON object');
      const call = protocol.read(input);
      if (call.postTool) {
        this._approved(agent, call, now);
        return { body: '' };
      }
      if (!call.preTool) return { body: '' };
      const { key, entry, session } = this._sessionFor(agent, call, now);
      sessionKey = key;
      const decided = decideAgentCall(this.core, protocol.reads, call.toolName, call.toolInput, (tool, toolInput) => session.decide(tool, toolInput, { now }));
      const result = this.unattended ? unattended(decided) : decided;
      if (result.outcome === 'confirm') {
        const asks = result.calls.filter((c) => c.decision.outcome === 'confirm').map((c) => ({ session, callId: c.callId, options: c.options }));
        this.asked.set(`${key} ${askKey(call)}`, asks);
      }
      this._flush(entry);
      return { body: bodyOf(protocol.answer(result.outcome, result.reason)) };
    } catch (error) {
      const internal = !(error instanceof HookInputError);
      // After an internal error the session's state is gone (the module restarted): the next call starts it anew.
      if (internal && sessionKey) this._end(sessionKey, now);
      const message = internal ? `an internal error: ${error && error.message}` : error.message;
      return { body: bodyOf(protocol.refusal(`toolgate refused this call: ${message}`)) };
    }
  }

  /** The agent ran a call toolgate asked about: the person approved it at the agent's prompt. */
  _approved(agent, call, now) {
    const key = `${agent} ${call.sessionId ?? '-'}`;
    const asks = this.asked.get(`${key} ${askKey(call)}`);
    if (!asks) return;
    this.asked.delete(`${key} ${askKey(call)}`);
    for (const { session, callId, options } of asks) {
      const scope = (options ?? []).some((o) => o.allow && o.scope === this.remember) ? this.remember : 'once';
      try {
        session.answer({ callId, allow: true, scope, by: 'user' }, now);
      } catch (error) {
        this._log(`the approval of call ${callId} was not recorded: ${error.message}`);
      }
    }
    const entry = this.sessions.get(key);
    if (entry) this._flush(entry);
  }

  _handle(req, res) {
    const reply = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const match = /^\/hooks\/([a-z-]+)$/.exec(new URL(req.url, 'http://127.0.0.1').pathname);
    if (!match || !AGENTS.includes(match[1])) return reply(404, JSON.stringify({ error: `no such hook: POST /hooks/<agent>, agent one of ${AGENTS.join(', ')}` }));
    if (req.method !== 'POST') return reply(405, JSON.stringify({ error: 'POST the hook input' }));
    const agent = match[1];
    const protocol = protocolOf(agent);
    const refuse = (message) => reply(200, bodyOf(protocol.refusal(`toolgate refused this call: ${message}`)));
    if (!this._authorized(req.headers.authorization)) return refuse('the hook did not present toolgate serve\'s token (Authorization: Bearer <token>)');
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('error', () => refuse('the request could not be read'));
    req.on('end', () => {
      if (size > MAX_BODY) return refuse(`the hook input is larger than ${MAX_BODY} bytes`);
      let input;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        return refuse(`the hook input is not JSON: ${error.message}`);
      }
      reply(200, this.answer(agent, input).body);
    });
  }

  _authorized(header) {
    const expected = Buffer.from(`Bearer ${this.token}`);
    const given = Buffer.from(typeof header === 'string' ? header : '');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
}

/** What identifies a call between its pre-tool and post-tool events. */
function askKey(call) {
  return call.toolUseId ?? `${call.toolName} ${JSON.stringify(call.toolInput)}`;
}

/**
 * Writes the server's address and token where hooks read them: `serve.json` (`{ url, token, pid }`)
 * and `serve.header` (the header curl sends), readable by the user alone, each replaced atomically.
 */
function writeState(dir, state) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const write = (name, text) => {
    const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, text, { mode: 0o600 });
    fs.renameSync(temporary, path.join(dir, name));
  };
  write('serve.json', `${JSON.stringify(state, null, 2)}\n`);
  write('serve.header', `Authorization: Bearer ${state.token}\n`);
}

module.exports = { HookServer, curlCommand, shellQuote, writeState, defaultStateDir, AGENTS };
