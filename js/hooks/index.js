'use strict';
// `toolgate/hooks`: toolgate in the agent's own process. A `canUseTool` callback for the Claude
// Agent SDK and an `onPreToolUse` handler for the GitHub Copilot SDK, each deciding with a `Policy`
// or a `Session` of `toolgate/engine`; and `decideHook`, which answers any supported agent's hook
// input in its protocol (what `toolgate hook` and `toolgate serve` answer).
//
// - Claude Agent SDK (https://docs.anthropic.com/en/docs/claude-code/sdk/sdk-typescript,
//   "canUseTool"): `(toolName, input, { signal, suggestions, toolUseID, agentID? })` resolves to
//   `{ behavior: 'allow', updatedInput }` or `{ behavior: 'deny', message }`. The SDK calls it only
//   for a call its own rules would ask about, so it cannot itself ask: a call toolgate would ask
//   about goes to `options.confirm` (the person's answer), and without one it is refused.
// - Copilot SDK (github/copilot-sdk nodejs/src/types.ts, `PreToolUseHandler`): `(input, invocation)`
//   with `{ sessionId, timestamp, workingDirectory, toolName, toolArgs }` answers
//   `{ permissionDecision, permissionDecisionReason }`. A handler that throws lets the call run in
//   that SDK, so this one never throws: whatever goes wrong refuses the call.
//
// With a `Session`, each sub-agent gets a child session (never looser than its parent): the
// Claude Agent SDK's `agentID`, a Copilot hook input whose `sessionId` is not the invocation's.

const { PROTOCOLS, AGENTS, protocolOf, bodyOf, HookInputError } = require('./protocols.js');
const { decideAgentCall, specForAgent } = require('./decide.js');

/** The engine build, loaded on first use (a caller that only reads PROTOCOLS loads no module). */
const engine = () => require('../engine/node/toolgate_engine.js');

const isSession = (source) => source != null && typeof source.answer === 'function' && typeof source.child === 'function';

/** Sub-agents' child sessions, by their parent session and id. */
const children = new WeakMap();

function sessionOf(session, subAgent) {
  if (!subAgent) return session;
  let byId = children.get(session);
  if (!byId) children.set(session, (byId = new Map()));
  let child = byId.get(subAgent);
  if (!child) byId.set(subAgent, (child = session.child({ name: `${subAgent}` })));
  return child;
}

function checkSource(source, what) {
  if (source == null || typeof source.decide !== 'function') {
    throw new TypeError(`${what}: the first argument must be a Policy or a Session of toolgate/engine`);
  }
}

/**
 * Decides an agent's tool call with a Policy or a Session: `{ outcome, reason, decision, calls }`.
 * Throws an Error naming what is wrong with a tool input it cannot read.
 */
function decideToolCall(source, agent, toolName, toolInput, { now = Date.now(), subAgent } = {}) {
  const protocol = protocolOf(agent);
  if (isSession(source)) {
    const session = sessionOf(source, subAgent);
    return { ...decideAgentCall(engine(), protocol.reads, toolName, toolInput, (tool, input) => session.decide(tool, input, { now })), session };
  }
  return decideAgentCall(engine(), protocol.reads, toolName, toolInput, (tool, input) => ({ decision: source.decide(tool, input) }));
}

/**
 * Answers one hook input of `agent` (the parsed JSON its hook received) in that agent's protocol:
 * `{ outcome?, reason, stdout, stderr?, exitCode, body }` — `stdout` and `exitCode` for a command
 * hook, `body` for an HTTP answer. Input it cannot read is refused, never allowed.
 */
function decideHook(agent, input, source, { now = Date.now() } = {}) {
  checkSource(source, 'decideHook');
  const protocol = protocolOf(agent);
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new HookInputError('the hook input is not a JSON object');
    const call = protocol.read(input);
    if (!call.preTool) return { reason: 'not a pre-tool event: nothing to decide', stdout: '', exitCode: 0, body: '' };
    const result = decideToolCall(source, agent, call.toolName, call.toolInput, { now, subAgent: call.subAgentId });
    const answer = protocol.answer(result.outcome, result.reason);
    return { outcome: result.outcome, reason: result.reason, ...answer, body: bodyOf(answer) };
  } catch (error) {
    const reason = `toolgate refused this call: ${error.message}`;
    const answer = protocol.refusal(reason);
    return { reason, ...answer, body: bodyOf(answer) };
  }
}

/** Records a person's answer to the calls of a decision that asked (a Session only). */
function recordAnswer(result, allow, now) {
  if (!result.session) return;
  for (const call of result.calls) {
    if (call.decision.outcome !== 'confirm' || call.callId === undefined) continue;
    try {
      result.session.answer({ callId: call.callId, allow, scope: 'once', by: 'user' }, now);
    } catch {
      // An answer the prompt did not offer: the log keeps the question unanswered.
    }
  }
}

/**
 * A `canUseTool` callback for the Claude Agent SDK that decides with `source` (a Policy or a
 * Session). `options.confirm(request)` is asked, for a call toolgate would ask about, whether the
 * person allows it; without it such a call is refused.
 */
function canUseTool(source, options = {}) {
  checkSource(source, 'canUseTool');
  const { confirm, now = Date.now } = options;
  return async (toolName, input, context = {}) => {
    try {
      const at = now();
      const result = decideToolCall(source, 'claude-code', toolName, input, { now: at, subAgent: context.agentID });
      if (result.outcome === 'allow') return { behavior: 'allow', updatedInput: input };
      if (result.outcome === 'confirm' && typeof confirm === 'function') {
        const allowed = (await confirm({ toolName, input, reason: result.reason, decision: result.decision })) === true;
        recordAnswer(result, allowed, now());
        return allowed ? { behavior: 'allow', updatedInput: input } : { behavior: 'deny', message: `${result.reason} (declined)` };
      }
      return {
        behavior: 'deny',
        message: result.outcome === 'confirm' ? `${result.reason} (it needs a person's confirmation, and none was asked)` : result.reason,
      };
    } catch (error) {
      return { behavior: 'deny', message: `toolgate refused this call: ${error && error.message}` };
    }
  };
}

const COPILOT_DECISION = { allow: 'allow', deny: 'deny', confirm: 'ask' };

/** An `onPreToolUse` handler for the GitHub Copilot SDK that decides with `source` (a Policy or a Session). */
function onPreToolUse(source, options = {}) {
  checkSource(source, 'onPreToolUse');
  const { now = Date.now } = options;
  return async (input, invocation) => {
    try {
      if (typeof input !== 'object' || input === null) throw new HookInputError('the hook input is not an object');
      const call = PROTOCOLS.copilot.read(input);
      const parent = invocation && typeof invocation.sessionId === 'string' ? invocation.sessionId : undefined;
      const subAgent = parent && call.sessionId && call.sessionId !== parent ? call.sessionId : undefined;
      const result = decideToolCall(source, 'copilot', call.toolName, call.toolInput, { now: now(), subAgent });
      return { permissionDecision: COPILOT_DECISION[result.outcome], permissionDecisionReason: result.reason };
    } catch (error) {
      return { permissionDecision: 'deny', permissionDecisionReason: `toolgate refused this call: ${error && error.message}` };
    }
  };
}

/**
 * A policy spec ready for agents' calls: the MCP tool (`mcp`, `[server, tool]`) described where
 * the spec does not describe it, and the directories relative paths and `~` are read against
 * (`cwd`, `home`) where it does not say. Throws for a spec of another catalogue than Zed's, whose
 * tool names an agent's calls would not meet.
 */
function agentSpec(spec, paths = {}) {
  try {
    return specForAgent(spec, paths);
  } catch (error) {
    throw new TypeError(`agentSpec: ${error.message}`);
  }
}

module.exports = { canUseTool, onPreToolUse, decideHook, decideToolCall, agentSpec, AGENTS: [...AGENTS] };
