'use strict';
// `toolgate hook <agent> --policy <file>` (or `--import <format>`): an agent's pre-tool hook. Reads
// the hook's JSON on stdin, decides the call with the one evaluator, and answers in that agent's
// protocol (js/hooks/protocols.js), the reason naming the rule and its layer. It fails closed:
// input it cannot read, a tool input without what its tool is decided on, a policy that does not
// load — each refuses the call the way that agent is surest to block, with a message that says
// what is wrong; nothing here ends in an allow or in an error the agent would shrug off.
//
// Only what deciding needs is loaded: the engine build, or the tools build (which holds the
// engine too) when `--import` needs the importers.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { protocolOf, HookInputError } = require('../hooks/protocols.js');
const { decideAgentCall, specForAgent, unattended } = require('../hooks/decide.js');

/** The build with the importers, or the engine alone. */
const coreFor = (options) => (options.import ? require('../tools/node/toolgate_tools.js') : require('../engine/node/toolgate_engine.js'));

/** A policy file's spec; an Error names the file and what is wrong. */
function readPolicyFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new HookInputError(`the policy ${file} cannot be read: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HookInputError(`the policy ${file} is not JSON: ${error.message}`);
  }
}

/**
 * The policy spec a call is decided with: the file's, or the agent's own rules imported from
 * their standard places, read against the call's working directory and the user's home.
 */
function policySpec(options, core, { cwd, home }) {
  if (options.policy) return readPolicyFile(path.resolve(options.policy));
  const { importAgentRules } = require('./agent-rules.js');
  try {
    return importAgentRules(core, options.import, { cwd, home }).spec;
  } catch (error) {
    throw new HookInputError(error.message);
  }
}

/** A compiled policy; an Error says why the spec does not load. */
function compile(core, spec, where) {
  try {
    return new core.Policy(spec);
  } catch (error) {
    throw new HookInputError(`the policy ${where} does not load: ${error.message}`);
  }
}

/**
 * Answers one hook input (its text) for `agent`: `{ stdout, stderr, exitCode }` as the agent must
 * read them. `options`: `{ policy }` or `{ import }`, `home`, and `unattended` (a call that
 * would ask is refused: nobody is there to answer).
 */
function answerHook(agent, text, options) {
  const protocol = protocolOf(agent);
  const refuse = (message) => protocol.refusal(`toolgate refused this call: ${message}`);
  try {
    let input;
    try {
      input = JSON.parse(text);
    } catch (error) {
      throw new HookInputError(`the hook input is not JSON: ${error.message}`);
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new HookInputError('the hook input is not a JSON object');
    const call = protocol.read(input);
    // Another event than the one before a tool runs: nothing to decide.
    if (!call.preTool) return { stdout: '', exitCode: 0 };
    const home = options.home ? path.resolve(options.home) : os.homedir();
    const cwd = call.cwd && path.isAbsolute(call.cwd) ? call.cwd : process.cwd();
    const core = coreFor(options);
    const spec = specForAgent(policySpec(options, core, { cwd, home }), { cwd, home });
    const policy = compile(core, spec, options.policy ?? `imported from ${options.import}`);
    const decided = decideAgentCall(core, protocol.reads, call.toolName, call.toolInput, (tool, input) => ({ decision: policy.decide(tool, input) }));
    const { outcome, reason } = options.unattended ? unattended(decided) : decided;
    return protocol.answer(outcome, reason);
  } catch (error) {
    return refuse(error instanceof HookInputError ? error.message : `an internal error: ${error && error.stack ? error.stack.split('\n')[0] : error}`);
  }
}

module.exports = { answerHook, readPolicyFile, policySpec, compile, coreFor };
