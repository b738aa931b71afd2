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

export { known, run, entry, offer, reason, fast, list, server, code, webview };
