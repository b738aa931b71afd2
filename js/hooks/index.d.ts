// toolgate in an agent's own process: callbacks for the Claude Agent SDK and the GitHub Copilot
// SDK, and every supported agent's hook protocol.
import type { Decision, Policy, PolicySpec, Session } from '../engine/node/toolgate_engine';

export type { Decision, Policy, PolicySpec, Session };

/**
 * A policy spec ready for agents' calls: the MCP tool (`mcp`, `[server, tool]`) described where the
 * spec does not describe it, and the directories relative paths and `~` are read against where it
 * does not say. Throws a TypeError for a spec of another catalogue than Zed's.
 */
export declare function agentSpec(spec: PolicySpec, paths?: { cwd?: string; home?: string }): PolicySpec;

/** The agents whose hook protocols toolgate speaks. */
export type HookAgent = 'claude-code' | 'codex' | 'gemini-cli' | 'cursor' | 'vscode' | 'copilot';

/** The agents whose hook protocols toolgate speaks, as a list. */
export declare const AGENTS: HookAgent[];

/** What decides: a compiled policy, or a session (grants, log, children for sub-agents). */
export type DecisionSource = Policy | Session;

/** One toolgate call an agent's tool call made, with its decision. */
export interface DecidedCall {
  /** The tool id (`terminal`, `read_file`, `edit_file`, `fetch`, `mcp`, or the agent's own name for a tool toolgate has no counterpart for). */
  tool: string;
  /** Its inputs. */
  inputs: string[];
  decision: Decision;
  /** With a Session: the call's id, to answer it by. */
  callId?: number;
}

/** An agent's tool call, decided: the strictest answer of the toolgate calls it makes. */
export interface ToolCallDecision {
  outcome: 'allow' | 'confirm' | 'deny';
  /** The message the agent shows: the decision's message and the rule with its layer, or the default that applied. */
  reason: string;
  /** The deciding (strictest) call's decision. */
  decision: Decision;
  calls: DecidedCall[];
}

export interface DecideOptions {
  /** The host's clock in milliseconds (timed grants expire by it). Default: `Date.now()`. */
  now?: number;
  /** A sub-agent's id: with a Session, the call is decided by that sub-agent's child session. */
  subAgent?: string;
}

/**
 * Decides an agent's tool call (its tool name and input as the agent names them). Throws an Error
 * naming what is wrong with an input toolgate cannot read.
 */
export declare function decideToolCall(source: DecisionSource, agent: HookAgent, toolName: string, toolInput: Record<string, unknown>, options?: DecideOptions): ToolCallDecision;

/** A hook's answer in its agent's protocol. */
export interface HookAnswer {
  /** Absent when toolgate refused without deciding (input it could not read) or had nothing to decide. */
  outcome?: 'allow' | 'confirm' | 'deny';
  reason: string;
  /** What a command hook prints on stdout. */
  stdout?: string;
  /** What a command hook prints on stderr. */
  stderr?: string;
  /** A command hook's exit code. */
  exitCode: number;
  /** The body of an HTTP answer (always sent with status 200). */
  body: string;
}

/** Answers one hook input of `agent` (the parsed JSON its hook received) in that agent's protocol. */
export declare function decideHook(agent: HookAgent, input: unknown, source: DecisionSource, options?: { now?: number }): HookAnswer;

/** What the Claude Agent SDK's `canUseTool` resolves to. */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  | { behavior: 'deny'; message: string };

/** A call toolgate would ask about, put to the person. */
export interface ConfirmRequest {
  toolName: string;
  input: Record<string, unknown>;
  reason: string;
  decision: Decision;
}

export interface CanUseToolOptions {
  /** Asks the person whether a call toolgate would ask about may run; without it such a call is refused. */
  confirm?: (request: ConfirmRequest) => boolean | Promise<boolean>;
  /** The clock, in milliseconds. Default: `Date.now`. */
  now?: () => number;
}

/** The Claude Agent SDK's `canUseTool` callback. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options?: { signal?: AbortSignal; toolUseID?: string; agentID?: string; [key: string]: unknown },
) => Promise<PermissionResult>;

/** A `canUseTool` callback for the Claude Agent SDK (`query({ prompt, options: { canUseTool } })`). */
export declare function canUseTool(source: DecisionSource, options?: CanUseToolOptions): CanUseTool;

/** The GitHub Copilot SDK's pre-tool hook input. */
export interface PreToolUseHookInput {
  sessionId: string;
  timestamp: Date | number | string;
  workingDirectory?: string;
  cwd?: string;
  toolName: string;
  /** The tool's arguments: an object, or their JSON text. */
  toolArgs: unknown;
}

/** The GitHub Copilot SDK's pre-tool hook output. */
export interface PreToolUseHookOutput {
  permissionDecision: 'allow' | 'deny' | 'ask';
  permissionDecisionReason: string;
}

/** An `onPreToolUse` handler for the GitHub Copilot SDK (`createSession({ hooks: { onPreToolUse } })`). Never throws. */
export declare function onPreToolUse(
  source: DecisionSource,
  options?: { now?: () => number },
): (input: PreToolUseHookInput, invocation?: { sessionId: string }) => Promise<PreToolUseHookOutput>;
