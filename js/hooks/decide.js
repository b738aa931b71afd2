'use strict';
// Deciding one agent's tool call that a hook received: the call read as toolgate calls (tools named
// as the importers translate that agent's rules, `readAgentCall`), each decided by a policy or a
// session, the strictest answer kept (deny over ask over allow), and the reason the agent shows:
// the decision's message, the rule with its layer and list, or the default that applied.
//
// The module is given the toolgate build to use (`toolgate/engine`, or `toolgate/tools` when the
// rules are imported), so a hook loads one WebAssembly module, never two.

const { HookInputError } = require('./protocols.js');

const STRICTNESS = { allow: 0, confirm: 1, deny: 2 };

/** A rule reference in one line: `layer "user", terminal alwaysConfirm[0] (regex) ^git\s+push`. */
const ruleLine = (r) => `layer "${r.layer}", ${r.tool} ${r.list}[${r.index}] (${r.matcher}) ${r.pattern}`;

/** What decided: the rule, the protected path, or the default and its layer. */
function decidedBy(decision) {
  if (decision.rule) return `rule: ${ruleLine(decision.rule)}`;
  if (decision.protectedPath) {
    const p = decision.protectedPath;
    return `protected path: ${p.entry} (${p.layer ? `layer "${p.layer}"` : 'built-in'})`;
  }
  if (decision.defaultSource) {
    const { scope, layer } = decision.defaultSource;
    return `default: ${scope === 'tool' ? "the tool's" : 'the global'} default${layer ? ` of layer "${layer}"` : ' of the policy'}`;
  }
  return `reason: ${decision.reason}`;
}

/**
 * How a reason begins, by outcome. Stable words: an agent's transcript keeps the reason, and the
 * history reader tells toolgate's refusals and unanswered questions by them
 * (src/history/transcripts.rs).
 */
const LEADS = { allow: 'toolgate allows this call', confirm: 'toolgate asks about this call', deny: 'toolgate refused this call' };

/** The reason an agent shows for a decision: `toolgate refused this call: <message> [rule: layer "…", …]`. */
function reasonOf(decision) {
  return `${LEADS[decision.outcome] ?? LEADS.deny}: ${decision.message} [${decidedBy(decision)}]`;
}

/** One tool input as `decide` takes it: a string, or several for `[server, tool]` and path pairs. */
const inputArg = (inputs) => (inputs.length === 1 ? inputs[0] : inputs);

/**
 * The toolgate calls an agent's tool call makes: `[{ tool, inputs }]`. A tool toolgate has no
 * counterpart for is one call of an opaque tool under the agent's own name, its input the JSON
 * of the tool's input, so the policy's rules for that name, or its defaults, decide it.
 */
function callsOf(core, reads, toolName, toolInput) {
  const reading = core.readAgentCall(reads, toolName, toolInput);
  if (!reading.ok) throw new HookInputError(reading.errors.map((e) => e.message).join('; '));
  return reading.calls ?? [{ tool: toolName, inputs: [JSON.stringify(toolInput)] }];
}

/**
 * Decides an agent's tool call: `decideOne(tool, input)` answers `{ decision, callId?, options? }`
 * for each toolgate call. Returns `{ outcome, reason, decision, calls }`, `calls` being every
 * toolgate call with its answer (the session's call ids, for answers later).
 */
function decideAgentCall(core, reads, toolName, toolInput, decideOne) {
  const calls = callsOf(core, reads, toolName, toolInput).map((call) => ({ ...call, ...decideOne(call.tool, inputArg(call.inputs)) }));
  let strictest = calls[0];
  for (const call of calls) {
    if (STRICTNESS[call.decision.outcome] > STRICTNESS[strictest.decision.outcome]) strictest = call;
  }
  const { outcome } = strictest.decision;
  if (!Object.hasOwn(STRICTNESS, outcome)) throw new Error(`toolgate answered an unknown outcome ${JSON.stringify(outcome)}`);
  return { outcome, reason: reasonOf(strictest.decision), decision: strictest.decision, calls };
}

/**
 * Where no person is there to answer (an agent run unattended, such as Gemini CLI with `-p`, which
 * waits for ever on a hook's question), a call toolgate would ask about is refused, with why.
 */
function unattended(result) {
  if (result.outcome !== 'confirm') return result;
  return { ...result, outcome: 'deny', reason: `${result.reason} (nobody is there to answer, so toolgate refuses it)` };
}

/**
 * A policy spec ready for an agent's calls: the imported MCP tool described where the policy does
 * not, and the paths relative calls and `~` are read against (the agent's working directory, the
 * user's home) where it does not say.
 */
function specForAgent(spec, { cwd, home } = {}) {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw new HookInputError('a toolgate policy must be a JSON object');
  const out = { ...spec };
  const catalogue = spec.catalogue ?? 'zed';
  if (catalogue !== 'zed') {
    throw new HookInputError(`the policy's catalogue is "${catalogue}": an agent's calls are decided as the Zed catalogue's tools (terminal, read_file, edit_file, fetch, mcp), so use catalogue "zed"`);
  }
  if (!(spec.toolKinds && Object.hasOwn(spec.toolKinds, 'mcp'))) out.toolKinds = { ...spec.toolKinds, mcp: { kind: 'mcpCall' } };
  const host = { ...spec.host };
  if (host.cwd === undefined && cwd) host.cwd = cwd;
  if (host.home === undefined && home) host.home = home;
  if (host.cwd !== undefined || host.home !== undefined) out.host = host;
  return out;
}

module.exports = { decideAgentCall, callsOf, reasonOf, ruleLine, specForAgent, unattended, STRICTNESS };
