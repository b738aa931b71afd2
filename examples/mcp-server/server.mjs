// An MCP server over stdio, built with the official SDK, whose tools are guarded by Gasoline's YAML
// allowlist (seed 001):
//
//   node examples/mcp-server/server.mjs --allowlist-config=examples/mcp-server/allowlist.yaml
//
// Its tools take their action the way Gasoline's do: observe({what}), interact({action}),
// generate({format}); ping() has no arguments, so no action. Each handler logs "ran tool.action"
// on stderr, which shows that a denied call never reaches its handler.
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
// A server of your own writes: import { guardServer } from 'toolgate/mcp-server';
// this example runs inside the repository, so it loads the built package (npm run build) by path.
import { guardServer } from '../../pkg/mcp-server/index.js';

const { values } = parseArgs({ options: { 'allowlist-config': { type: 'string' } } });
if (!values['allowlist-config']) {
  console.error('usage: node server.mjs --allowlist-config=allowlist.yaml');
  process.exit(2);
}

/** The argument that carries each tool's action; other tools use `action`. */
const actionArgument = new Map([['observe', 'what'], ['generate', 'format']]);

const server = new McpServer({ name: 'toolgate-example', version: '1.0.0' });
let guard;
try {
  guard = guardServer(server, {
    allowlistFile: values['allowlist-config'],
    actionOf: (tool, args) => args[actionArgument.get(tool) ?? 'action'],
  });
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

const ran = (name) => console.error(`ran ${name}`);
const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] });

server.registerTool('observe', {
  description: 'Reads the browser state: what = "server_config" | "logs"',
  inputSchema: { what: z.string() },
}, ({ what }) => {
  ran(`observe.${what}`);
  if (what === 'server_config') {
    const config = { server: { name: 'toolgate-example', version: '1.0.0' }, ...guard.serverConfig() };
    return { ...text(config), structuredContent: config };
  }
  return text(what === 'logs' ? ['page loaded'] : `unknown mode "${what}"`);
});

server.registerTool('interact', {
  description: 'Acts on the page: action = "navigate" | "refresh" | "execute_js"',
  inputSchema: { action: z.string(), url: z.string().optional(), script: z.string().optional() },
}, ({ action, url }) => {
  ran(`interact.${action}`);
  return text(`${action} done${url ? `: ${url}` : ''}`);
});

// A tool with an output schema: its denials carry the error object as text only.
server.registerTool('generate', {
  description: 'Generates an artifact: format = "reproduction" | "test"',
  inputSchema: { format: z.string() },
  outputSchema: { format: z.string(), script: z.string() },
}, ({ format }) => {
  ran(`generate.${format}`);
  const artifact = { format, script: `// ${format} script` };
  return { ...text(artifact), structuredContent: artifact };
});

// The SDK's older `tool()` form, without arguments: the call has no action.
server.tool('ping', 'Answers pong', () => {
  ran('ping');
  return text('pong');
});

await server.connect(new StdioServerTransport());
