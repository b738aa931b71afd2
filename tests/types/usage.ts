// Compiled with `tsc --strict`: the generated types must describe the API as documented,
// and wrong usage must be a type error (each @ts-expect-error fails the build if it stops erroring).
import { decideOnDisk, type DiskDecision } from 'toolgate/node-paths';
import { McpPolicy, decideMcp, addToAllowlist, splitToolName, validateName, parseEntry, formatEntry, type McpDecision, type McpSettings, type Problem } from 'toolgate';
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
// A user's mistake is data: `{ ok: true, … } | { ok: false, errors: Problem[] }`, narrowed on `ok`.
const nameCheck = validateName('x', 'server');
const code: string | undefined = nameCheck.ok ? undefined : nameCheck.errors[0]?.code;
const parsed = parseEntry('github:*');
const parsedServer: string = parsed.ok ? parsed.serverId : parsed.errors.map((e: Problem) => e.message).join('; ');
const formatted = formatEntry('github', 'create_issue');
const formattedEntry: string | null = formatted.ok ? formatted.entry : null;
// @ts-expect-error the entry is only there once `ok` is checked
formatEntry('github', 'x').entry;
// @ts-expect-error name kinds are "server" or "tool"
validateName('x', 'resource');
const mcpReason: McpDecision['reason'] = 'mcpProtection';

// @ts-expect-error the mode is one of three strings
decideMcp('s', 't', {}, 'YOLO');
// @ts-expect-error settings fields are typed
new McpPolicy({ mcpAllowedTools: 'github:*' });
// @ts-expect-error decisions have no "allowed" field
decision.allowed;
// @ts-expect-error reasons are the core's Reason names
const notAReason: McpDecision['reason'] = 'allowedByList';

async function webview(bytes: BufferSource): Promise<boolean> {
  initSync({ module: bytes });
  await init();
  return webDecide('s', 't', {}, 'yolo').needApproval;
}

import { Policy, applyPolicyChange, applyZedSettingsChange, analyzeCommand, type Decision, type PolicySpec, type SubCommandKind, type MatcherKind, type ItemKind, type Ignored, type Problem as EngineProblem } from 'toolgate/engine';
import { migrateComposerState, decideTerminalCommand, decideFileOperation, requestReview, answerReview, type AutoRunSettings, type ReviewStep, type Reason } from 'toolgate/engine';

const autoRun: AutoRunSettings = migrateComposerState({ useYoloMode: true, yoloCommandAllowlist: ['git'] });
const terminal = decideTerminalCommand('git status && rm -rf build', autoRun, 'ask');
const candidates: string[] = terminal.candidatesForAllowlist;
const approval: 'user' | 'allowlist' | 'full_auto' | 'none' = terminal.approvalType;
const step: ReviewStep = answerReview(requestReview('terminal', { candidatesForAllowlist: candidates }), { option: 'allowlistCommands' });
const updated: string[] | undefined = step.outcome.commandAllowlist;
const terminalReason: Reason = terminal.reason;
const fileReason: Reason = decideFileOperation('delete', 'src/x.rs', ['/p'], autoRun).reason;
const deleteReason: Reason = 'deleteProtection';
// @ts-expect-error deleteFileProtection became the core's deleteProtection
const oldDeleteReason: Reason = 'deleteFileProtection';
// @ts-expect-error hooks answer allow, ask or reject
decideTerminalCommand('ls', autoRun, 'maybe');
// @ts-expect-error review options are a fixed set
answerReview(step.review, { option: 'approve' });
export { approval, updated, terminalReason, fileReason, deleteReason, oldDeleteReason };

import { GasolineAllowlist, RooMode, validateModeRestrictions, type ToolNotAllowed, type Validation } from 'toolgate/engine';
const loaded = GasolineAllowlist.parse('allowed_tools: ["observe.*"]');
if (!loaded.ok) throw new Error(loaded.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n'));
const gas: GasolineAllowlist = loaded.allowlist;
const denied: ToolNotAllowed | null = gas.check('interact', 'execute_js');
const count: number = gas.summary.count;
const patterns: string[] = gas.patterns;
const gasOutcome: 'allow' | 'confirm' | 'deny' = gas.decide('interact', 'execute_js').outcome;
const reloaded = gas.reload('allowed_tools: []');
const reloadLine: number | undefined = reloaded.ok ? undefined : reloaded.errors[0]?.line;
// @ts-expect-error an allowlist comes from GasolineAllowlist.parse, which can answer with errors
new GasolineAllowlist('allowed_tools: []');
// @ts-expect-error the allowlist is only there once `ok` is checked
GasolineAllowlist.parse('').allowlist;
const roo = new RooMode({ mode: { slug: 'code', mcpRestrictions: { allowedServers: ['docs'] } }, servers: { docs: { defaultEnabled: false } } });
const refusal: string | null = roo.checkTool('docs', 'search');
const visible = roo.filterCatalogue([{ name: 'docs', tools: [{ name: 'search' }] }]);
const issues: Validation = validateModeRestrictions({ slug: 'code' }, visible);
const firstError: string | undefined = issues.errors[0]?.path;
const warningCodes: string[] = issues.warnings.map((w) => w.code);
const valid: boolean = issues.ok;
// @ts-expect-error allowedTools entries name a server and a tool
new RooMode({ mode: { slug: 'x', mcpRestrictions: { allowedTools: ['docs:search'] } } });
export { denied, count, refusal, issues, patterns, gasOutcome, reloadLine, firstError, warningCodes, valid };
import initEngine, { Policy as WebPolicy } from 'toolgate/engine/web';

const spec: PolicySpec = { layers: [{ name: 'user', tools: { terminal: { alwaysAllow: [{ pattern: '^ls\\b' }] } } }] };
const engine = new Policy(spec);
const explained: Decision = engine.decide('terminal', 'ls && git status');
const verdict: 'allow' | 'confirm' | 'deny' = engine.outcome('move_path', ['a', 'b']);
const why: string | undefined = explained.rule?.pattern;
const option = engine.permissionOptions('terminal', 'cargo build')[1];
const nextSpec: PolicySpec = option.change ? applyPolicyChange(spec, option.change) : spec;
const firstItem: string | undefined = analyzeCommand('ls | wc').items[0]?.text;
const psItems: SubCommandKind[] = analyzeCommand('Get-ChildItem; ls', 'powershell').items.map((i) => i.kind);
const zed = Policy.fromZedSettings({ user: '{}', includeDefaults: false, shell: 'nushell', projectTrusted: false });
const zedSpec: PolicySpec | undefined = zed.ok ? zed.policy.spec : undefined;
const zedWhere: [number | undefined, number | undefined] | undefined = zed.ok ? undefined : [zed.errors[0]?.line, zed.errors[0]?.column];
// @ts-expect-error the old 'other' shell is 'unknown' now
Policy.fromZedSettings({ shell: 'other' });
// @ts-expect-error the policy is only there once `ok` is checked
Policy.fromZedSettings({ user: '{}' }).policy.decide('terminal', 'ls');
const zedChange = applyZedSettingsChange({ agent: {} }, { layer: 'user', tool: 'terminal', key: 'defaultMode', mode: 'allow' });
const zedSettings: Record<string, unknown> | undefined = zedChange.ok ? zedChange.settings : undefined;
const fullSpec: PolicySpec = {
  catalogue: 'cursor',
  suggest: 'prefix',
  unparsedCommands: 'deny',
  toolKinds: { run_ps: { kind: 'command', shell: 'powershell' }, open_file: { kind: 'path' } },
  layers: [
    { name: 'user', tools: { run_ps: { alwaysAllow: [{ prefix: 'Get-ChildItem' }] }, mcp: { alwaysAllow: [{ mcp: 'github:*' }] } } },
    { name: 'project', kind: 'project', trusted: false, tools: { terminal: { alwaysDeny: [{ pattern: '^rm\\b', caseSensitive: true }] } } },
  ],
};
const strict = new Policy(fullSpec);
const asked: Decision = strict.decide('terminal', 'ls', 'ask');
const matcher: MatcherKind | undefined = asked.rule?.matcher;
const itemKinds: ItemKind[] = asked.items.map((i) => i.kind);
const problems: EngineProblem[] = strict.problems;
const ignoredLayers: string[] = (asked.ignored ?? []).map((i: Ignored) => i.layer);
const suggested: string[] = (asked.suggestions ?? []).map((s) => s.pattern);
// @ts-expect-error `shell` moved from the spec to each command tool's kind
new Policy({ shell: 'posix' });
// @ts-expect-error catalogues are a fixed set
new Policy({ catalogue: 'vscode' });
// @ts-expect-error hooks answer allow, ask or reject
strict.decide('terminal', 'ls', 'maybe');
// @ts-expect-error outcomes are one of three strings
const wrong: 'yes' = engine.outcome('terminal');
// @ts-expect-error rule lists hold objects with a pattern
new Policy({ layers: [{ name: 'u', tools: { terminal: { alwaysAllow: ['^ls'] } } }] });

// The control plane and where commands run: layers protect more paths, the host names home and cwd.
const guarded = new Policy({
  host: { home: '/home/u', cwd: '/work' },
  toolKinds: { open_file: { kind: 'path', access: 'read' } },
  layers: [{ name: 'admin', kind: 'managed', protectedPaths: ['deploy/**'], unprotectedPaths: ['.env'], tools: {} }],
});
const protectedEntry: string | undefined = guarded.decide('edit_file', '.vscode/settings.json').protectedPath?.entry;
// @ts-expect-error a path tool reads or writes
new Policy({ toolKinds: { open_file: { kind: 'path', access: 'execute' } } });
const onDisk: DiskDecision = decideOnDisk(guarded, 'read_file', 'docs/link', { cwd: '/work' });
const resolvedFrom: string[] | undefined = onDisk.resolvedFrom;

// The permission session: decisions with their options and hand-off, answers, grants, the log.
import { Session, type SessionDecision, type AnswerOutcome, type Grant, type LogRecord } from 'toolgate/engine';
const session = new Session(spec, { name: 'agent', timedGrantMs: 30 * 60_000 });
const prompt: SessionDecision = session.decide('terminal', 'npm test', { now: Date.now() });
const sessionLabels: string[] = prompt.options.map((o) => o.label);
const reviewable: boolean = prompt.review.reviewable;
const answered: AnswerOutcome = session.answer({ callId: prompt.callId, allow: true, scope: 'session' }, Date.now());
const expiresAt: number | undefined = answered.grant?.expiresAt;
const grantList: Grant[] = session.grants(Date.now());
const records: LogRecord[] = session.log().records;
const lines: string = session.logLines(records.at(-1)?.seq);
const subAgent: Session = session.child({ inheritGrants: false, name: 'tests' });
const zedButtons: string[] = session.permissionOptions(prompt.callId).map((b) => b.label);
const reviewButtons: string[] = session.reviewOptions(prompt.callId, 'terminal');
session.answer({ callId: prompt.callId, review: 'allowlistCommands' }, Date.now());
// @ts-expect-error the host passes its clock
session.decide('terminal', 'ls');
// @ts-expect-error an answer lasts once, for the session, until a time, in the workspace, or for the user
session.answer({ callId: 1, allow: true, scope: 'forever' }, 0);

// Learning from history (toolgate/tools): a session's log read back, a proposal replayed over it.
import { readSessionLog, replayHistory, unusedRules, type History, type ReplayReport, type RuleRef as ToolsRuleRef } from 'toolgate/tools';
const history: History = readSessionLog(session.logLines());
const replayed: ReplayReport = replayHistory(spec, history.calls);
const wouldAllowRefused: number | undefined = replayed.changes.wouldAllowRefused;
const neverMet: ToolsRuleRef[] = unusedRules(spec, history.calls);
// Another agent's history, and the rules it teaches.
import { readHistory, learnRules, type LearnReport, type HistoryFormat } from 'toolgate/tools';
const format: HistoryFormat = readHistory('', 'claudeCode').format;
const learned: LearnReport = learnRules(spec, readHistory('').calls, { minCalls: 3, layer: 'user' });
const firstCovered: number | undefined = learned.proposals[0]?.covers[0];
const whyNot: string | undefined = learned.withheld[0]?.why;
const skippedTools: Record<string, number> = readHistory('').skipped;
// @ts-expect-error a log is read as toolgate's session log, a Claude Code transcript or a Codex rollout
readHistory('', 'cursor');
// @ts-expect-error a log is text
readHistory(42);

async function engineInWebview(): Promise<string> {
  await initEngine();
  return new WebPolicy(spec).outcome('terminal', 'ls');
}

export { verdict, why, nextSpec, firstItem, zed, wrong, engineInWebview, psItems, zedSpec, zedWhere, zedSettings, matcher, itemKinds, problems, ignoredLayers, suggested };
export { protectedEntry, resolvedFrom };
export { sessionLabels, reviewable, expiresAt, grantList, lines, subAgent, zedButtons, reviewButtons, wouldAllowRefused, neverMet };
export { format, firstCovered, whyNot, skippedTools };
export { known, run, entry, offer, reason, fast, list, server, code, webview, parsedServer, formattedEntry, mcpReason, notAReason };
