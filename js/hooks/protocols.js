'use strict';
// Each agent's pre-tool hook protocol: what its hook receives (the session, the working directory,
// the tool call) and how it must be answered for "allow", "deny" and "ask" — on stdout with an
// exit code for a command hook, as the body of a 200 response over HTTP. A refusal that toolgate
// makes because it could not decide (input it cannot read, a policy that does not load) is
// written the way that agent is surest to block: most agents treat any other failure of a hook
// (another exit code, a timeout, a non-2xx response) as "no objection" and run the call.
//
// Sources, each agent's own documentation or code:
// - Claude Code: https://docs.anthropic.com/en/docs/claude-code/hooks ("PreToolUse", "Hook output",
//   "Exit code 2 behavior", "HTTP hooks": a non-2xx answer is a non-blocking error).
// - Codex: openai/codex codex-rs/hooks/src/engine/output_parser.rs and src/schema.rs (every field
//   not in the schema makes the answer unreadable; `allow` and `ask` are unsupported in a
//   PreToolUse answer, `deny` needs a non-empty reason) and src/events/pre_tool_use.rs (exit 2
//   blocks when stderr is not empty).
// - Gemini CLI: google-gemini/gemini-cli docs/hooks/reference.md and
//   packages/core/src/hooks/hookRunner.ts (`decision` `allow`/`deny`/`ask`; a non-JSON answer with
//   an exit code of 2 or more denies with its text).
// - Cursor: https://cursor.com/docs/agent/hooks (`beforeShellExecution`, `beforeMCPExecution`,
//   `beforeReadFile`; `permission` with `user_message` and `agent_message`; exit 2 blocks).
// - VS Code: https://code.visualstudio.com/docs/copilot/customization/hooks (PreToolUse in Claude
//   Code's shape; exit 2 denies) and microsoft/vscode-copilot-chat chatHookService.ts (input
//   fields in snake_case, camelCase in older releases).
// - GitHub Copilot: https://docs.github.com/en/copilot/reference/hooks-reference (`preToolUse`
//   input `{ sessionId, timestamp, cwd, toolName, toolArgs }`, `toolArgs` a JSON string in
//   earlier releases; answer `{ permissionDecision, permissionDecisionReason }`; exit 2 denies).

/** Input toolgate cannot decide on: the hook refuses the call, saying what is wrong. */
class HookInputError extends Error {}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first of `names` that `input` holds as a non-empty string. */
function stringField(input, ...names) {
  for (const name of names) if (typeof input[name] === 'string' && input[name] !== '') return input[name];
  return undefined;
}

function required(input, agent, ...names) {
  const value = stringField(input, ...names);
  if (value === undefined) {
    throw new HookInputError(`the ${agent} hook input has no ${names.map((n) => `\`${n}\``).join(' or ')} string`);
  }
  return value;
}

/** `tool_input` as an object: some agents send it as JSON text. */
function objectInput(value, agent, field) {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new HookInputError(`the ${agent} hook input's \`${field}\` is a string that is not JSON`);
    }
  }
  if (!isObject(value)) throw new HookInputError(`the ${agent} hook input's \`${field}\` is missing or not an object`);
  return value;
}

const json = (value) => `${JSON.stringify(value)}\n`;

/** Claude Code's answer shape, shared by VS Code. */
function hookSpecificOutput(decision, reason) {
  return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } });
}

const DECISION = { allow: 'allow', deny: 'deny', confirm: 'ask' };

/**
 * The reading of a hook's input every protocol makes:
 * `{ event, preTool, sessionId, subAgentId, cwd, toolName, toolInput, toolUseId, permissionMode }`.
 */
function claudeStyle(agent, input, { preEvents, postEvents, sessionFields = ['session_id'] }) {
  const event = stringField(input, 'hook_event_name', 'hookEventName');
  const preTool = event === undefined || preEvents.includes(event);
  const postTool = event !== undefined && postEvents.includes(event);
  // Another event (a session's start, a stop): nothing to decide, and no tool to read.
  if (!preTool && !postTool) return { event, preTool, postTool };
  return {
    event,
    preTool,
    postTool,
    sessionId: stringField(input, ...sessionFields),
    subAgentId: stringField(input, 'agent_id'),
    cwd: stringField(input, 'cwd'),
    toolName: required(input, agent, 'tool_name'),
    toolInput: objectInput(input.tool_input, agent, 'tool_input'),
    toolUseId: stringField(input, 'tool_use_id'),
    permissionMode: stringField(input, 'permission_mode'),
  };
}

/**
 * Each agent's protocol: `reads` (the agent's name for readAgentCall), `importFormat` (its rules'
 * format for importPolicy), `read(input)`, `answer(outcome, reason)` and `refusal(reason)`.
 * An answer is `{ stdout, stderr, exitCode }` for a command hook and `body` for HTTP.
 */
const PROTOCOLS = {
  'claude-code': {
    reads: 'claudeCode',
    importFormat: 'claudeCode',
    read: (input) => claudeStyle('Claude Code', input, { preEvents: ['PreToolUse'], postEvents: ['PostToolUse'] }),
    answer: (outcome, reason) => ({ stdout: hookSpecificOutput(DECISION[outcome], reason), exitCode: 0 }),
    // Exit code 2 blocks before any permission rule; its stderr is the reason Claude sees.
    refusal: (reason) => ({ stderr: `${reason}\n`, exitCode: 2, body: hookSpecificOutput('deny', reason) }),
  },
  codex: {
    reads: 'codex',
    importFormat: 'codex',
    read: (input) => claudeStyle('Codex', input, { preEvents: ['PreToolUse'], postEvents: ['PostToolUse'] }),
    // Codex takes no `allow` (an empty answer lets its own approvals decide) and no `ask`: a call
    // that needs a person is refused with the reason, never run unasked.
    answer: (outcome, reason) => (outcome === 'allow'
      ? { stdout: '', exitCode: 0 }
      : { stdout: hookSpecificOutput('deny', outcome === 'confirm' ? `${reason} (a Codex hook cannot ask a person, so toolgate refuses it)` : reason), exitCode: 0 }),
    refusal: (reason) => ({ stderr: `${reason}\n`, exitCode: 2, body: hookSpecificOutput('deny', reason) }),
  },
  'gemini-cli': {
    reads: 'geminiCli',
    importFormat: 'geminiCli',
    read: (input) => claudeStyle('Gemini CLI', input, { preEvents: ['BeforeTool'], postEvents: ['AfterTool'] }),
    answer: (outcome, reason) => ({ stdout: json({ decision: DECISION[outcome], reason }), exitCode: 0 }),
    refusal: (reason) => ({ stderr: `${reason}\n`, exitCode: 2, body: json({ decision: 'deny', reason }) }),
  },
  cursor: {
    reads: 'cursor',
    importFormat: 'cursorCli',
    read(input) {
      const event = required(input, 'Cursor', 'hook_event_name');
      const roots = Array.isArray(input.workspace_roots) ? input.workspace_roots.filter((r) => typeof r === 'string') : [];
      return {
        event,
        preTool: ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'].includes(event),
        postTool: ['afterShellExecution', 'afterMCPExecution'].includes(event),
        sessionId: stringField(input, 'conversation_id'),
        cwd: stringField(input, 'cwd') ?? roots[0],
        // Cursor's events are its tools: the event names the call, the payload holds its input.
        toolName: event,
        toolInput: input,
        toolUseId: stringField(input, 'generation_id') && stringField(input, 'command', 'tool_name', 'file_path')
          ? `${input.generation_id}:${stringField(input, 'command', 'tool_name', 'file_path')}` : undefined,
      };
    },
    // Both spellings of the messages: Cursor's documentation has shown each.
    answer: (outcome, reason) => ({ stdout: cursorAnswer(DECISION[outcome], reason), exitCode: 0 }),
    refusal: (reason) => ({ stderr: `${reason}\n`, exitCode: 2, body: cursorAnswer('deny', reason) }),
  },
  vscode: {
    reads: 'vscode',
    importFormat: 'vscode',
    read: (input) => claudeStyle('VS Code', input, { preEvents: ['PreToolUse'], postEvents: ['PostToolUse'], sessionFields: ['session_id', 'sessionId'] }),
    answer: (outcome, reason) => ({ stdout: hookSpecificOutput(DECISION[outcome], reason), exitCode: 0 }),
    refusal: (reason) => ({ stderr: `${reason}\n`, exitCode: 2, body: hookSpecificOutput('deny', reason) }),
  },
  copilot: {
    reads: 'copilot',
    importFormat: undefined,
    read(input) {
      // `preToolUse` hooks get camelCase fields; `PreToolUse` hooks, Claude Code's snake_case.
      const event = stringField(input, 'hook_event_name', 'hookEventName');
      const snake = input.tool_name !== undefined;
      const preTool = event === undefined || event === 'PreToolUse' || event === 'preToolUse';
      const postTool = event === 'PostToolUse' || event === 'postToolUse';
      if (!preTool && !postTool) return { event, preTool, postTool };
      return {
        event,
        preTool,
        postTool,
        sessionId: stringField(input, 'sessionId', 'session_id'),
        cwd: stringField(input, 'cwd', 'workingDirectory'),
        toolName: snake ? required(input, 'Copilot', 'tool_name') : required(input, 'Copilot', 'toolName'),
        toolInput: snake ? objectInput(input.tool_input, 'Copilot', 'tool_input') : objectInput(input.toolArgs, 'Copilot', 'toolArgs'),
        toolUseId: stringField(input, 'toolCallId', 'tool_use_id'),
      };
    },
    answer: (outcome, reason) => ({ stdout: json({ permissionDecision: DECISION[outcome], permissionDecisionReason: reason }), exitCode: 0 }),
    refusal: (reason) => ({ stderr: `${reason}\n`, exitCode: 2, body: json({ permissionDecision: 'deny', permissionDecisionReason: reason }) }),
  },
};

function cursorAnswer(permission, reason) {
  return json({ permission, user_message: reason, agent_message: reason, userMessage: reason, agentMessage: reason });
}

const AGENTS = Object.keys(PROTOCOLS);

/** The protocol of `agent`, or an error listing the agents. */
function protocolOf(agent) {
  if (!Object.hasOwn(PROTOCOLS, agent)) {
    throw new HookInputError(`unknown agent ${JSON.stringify(agent)}: expected ${AGENTS.join(', ')}`);
  }
  return PROTOCOLS[agent];
}

/** The HTTP body of an answer: what the agent would read on a command hook's stdout. */
const bodyOf = (answer) => answer.body ?? answer.stdout ?? '';

module.exports = { PROTOCOLS, AGENTS, protocolOf, bodyOf, HookInputError };
