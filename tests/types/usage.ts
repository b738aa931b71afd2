// Compiled with `tsc --strict`: the generated types must describe the API as documented,
// and wrong usage must be a type error (each @ts-expect-error fails the build if it stops erroring).
import { McpPolicy, decideMcp, addToAllowlist, splitToolName, validateName, type McpDecision, type McpSettings } from 'toolgate';
import init, { initSync, decideMcp as webDecide } from 'toolgate/web';

const settings: McpSettings = { mcpAllowedTools: ['github:*'], mcpToolsProtection: false };
const policy = new McpPolicy(settings);
const decision: McpDecision = policy.decide('github', 'create_issue', 'yolo');
const run: boolean = !decision.needApproval;
const entry: string | undefined = decision.matched?.entry;
const offer: { server: string; tool: string }[] = decision.candidatesForAllowlist;
const reason: 'allowlisted' | 'notAllowlisted' | string = decision.reason;
const fast: boolean = policy.needsApproval('github', 'x', 'full_yolo');
const list: string[] = addToAllowlist(['a:b'], 'github', 'x').list;
const server: string | undefined = splitToolName('mcp_github_x').serverId;
const known = splitToolName('mcp_my_server_x', { knownServerIds: ['my_server'] }).serverId;
const nameCheck = validateName('x', 'server');
const code: string | undefined = nameCheck.error?.problem.code;

// @ts-expect-error the mode is one of three strings
decideMcp('s', 't', {}, 'YOLO');
// @ts-expect-error settings fields are typed
new McpPolicy({ mcpAllowedTools: 'github:*' });
// @ts-expect-error decisions have no "allowed" field
decision.allowed;

async function webview(bytes: BufferSource): Promise<boolean> {
  initSync({ module: bytes });
  await init();
  return webDecide('s', 't', {}, 'yolo').needApproval;
}

import { Policy, applyPolicyChange, analyzeCommand, type Decision, type PolicySpec } from 'toolgate/engine';
import { migrateComposerState, decideTerminalCommand, requestReview, answerReview, type AutoRunSettings, type ReviewStep } from 'toolgate/engine';

const autoRun: AutoRunSettings = migrateComposerState({ useYoloMode: true, yoloCommandAllowlist: ['git'] });
const terminal = decideTerminalCommand('git status && rm -rf build', autoRun, 'ask');
const candidates: string[] = terminal.candidatesForAllowlist;
const approval: 'user' | 'allowlist' | 'full_auto' | 'none' = terminal.approvalType;
const step: ReviewStep = answerReview(requestReview('terminal', { candidatesForAllowlist: candidates }), { option: 'allowlistCommands' });
const updated: string[] | undefined = step.outcome.commandAllowlist;
// @ts-expect-error hooks answer allow, ask or reject
decideTerminalCommand('ls', autoRun, 'maybe');
// @ts-expect-error review options are a fixed set
answerReview(step.review, { option: 'approve' });
export { approval, updated };

import { GasolineAllowlist, RooMode, validateModeRestrictions, type ToolNotAllowed } from 'toolgate/engine';
const gas = new GasolineAllowlist('allowed_tools: ["observe.*"]');
const denied: ToolNotAllowed | null = gas.check('interact', 'execute_js');
const count: number = gas.summary.count;
const roo = new RooMode({ mode: { slug: 'code', mcpRestrictions: { allowedServers: ['docs'] } }, servers: { docs: { defaultEnabled: false } } });
const refusal: string | null = roo.checkTool('docs', 'search');
const visible = roo.filterCatalogue([{ name: 'docs', tools: [{ name: 'search' }] }]);
const issues = validateModeRestrictions({ slug: 'code' }, visible);
// @ts-expect-error allowedTools entries name a server and a tool
new RooMode({ mode: { slug: 'x', mcpRestrictions: { allowedTools: ['docs:search'] } } });
export { denied, count, refusal, issues };
import initEngine, { Policy as WebPolicy } from 'toolgate/engine/web';

const spec: PolicySpec = { layers: [{ name: 'user', tools: { terminal: { alwaysAllow: [{ pattern: '^ls\\b' }] } } }] };
const engine = new Policy(spec);
const explained: Decision = engine.decide('terminal', 'ls && git status');
const verdict: 'allow' | 'confirm' | 'deny' = engine.outcome('move_path', ['a', 'b']);
const why: string | undefined = explained.rule?.pattern;
const option = engine.permissionOptions('terminal', 'cargo build')[1];
const nextSpec: PolicySpec = option.change ? applyPolicyChange(spec, option.change) : spec;
const firstItem: string | undefined = analyzeCommand('ls | wc').items[0]?.text;
const zed = Policy.fromZedSettings({ user: '{}', includeDefaults: false });
// @ts-expect-error outcomes are one of three strings
const wrong: 'yes' = engine.outcome('terminal');
// @ts-expect-error rule lists hold objects with a pattern
new Policy({ layers: [{ name: 'u', tools: { terminal: { alwaysAllow: ['^ls'] } } }] });

async function engineInWebview(): Promise<string> {
  await initEngine();
  return new WebPolicy(spec).outcome('terminal', 'ls');
}

export { verdict, why, nextSpec, firstItem, zed, wrong, engineInWebview };
export { known, run, entry, offer, reason, fast, list, server, code, webview };
