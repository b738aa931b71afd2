// toolgate/hooks as a TypeScript caller uses it (tsc --strict against the published .d.ts).
import { Policy, Session, readAgentCall, type PolicySpec } from 'toolgate/engine';
import { canUseTool, onPreToolUse, decideHook, decideToolCall, agentSpec, AGENTS, type HookAgent, type PermissionResult, type ToolCallDecision } from 'toolgate/hooks';

const spec: PolicySpec = agentSpec({ layers: [], defaultMode: 'confirm' }, { cwd: '/repo' });
const policy = new Policy(spec);
const session = new Session(spec, { name: 'sdk' });

const can = canUseTool(policy, { confirm: async (request) => request.reason.length > 0 });
const result: Promise<PermissionResult> = can('Bash', { command: 'ls' }, { toolUseID: 't1' });
void result.then((r) => (r.behavior === 'allow' ? r.updatedInput : r.message));

const handler = onPreToolUse(session);
void handler({ sessionId: 's', timestamp: new Date(), workingDirectory: '/repo', toolName: 'bash', toolArgs: { command: 'ls' } }, { sessionId: 's' })
  .then((o) => o.permissionDecision satisfies 'allow' | 'deny' | 'ask');

const agent: HookAgent = AGENTS[0];
const answer = decideHook(agent, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, policy);
const exitCode: number = answer.exitCode;
const decided: ToolCallDecision = decideToolCall(session, 'codex', 'Bash', { command: 'ls' }, { now: Date.now(), subAgent: 'a1' });
const outcome: 'allow' | 'confirm' | 'deny' = decided.outcome;

const read = readAgentCall('geminiCli', 'run_shell_command', { command: 'ls' });
if (read.ok) read.calls?.map((c) => c.tool + c.inputs.join(' '));
else read.errors.map((e) => e.message);
void exitCode, outcome;
