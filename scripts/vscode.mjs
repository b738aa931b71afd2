// `npm run vscode`: code-server (a real VS Code in the browser) with toolgate's example extension
// (examples/vscode-extension/) in a fresh temporary profile, for a person to try. Prints the URL;
// Ctrl+C stops the server and removes the profile.
//
//   node scripts/vscode.mjs [--port 8081] [--host 127.0.0.1] [--no-trust-prompt]
//
// The demo workspace has project rules in .vscode/settings.json; VS Code asks whether you trust
// it (answer "No" to see the project layer's allow rules ignored; --no-trust-prompt trusts it).
// Try the commands "toolgate: Play agent calls" and "toolgate: Open settings" (Ctrl+Shift+P).
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION, startCodeServer } from './code-server.mjs';
import { buildExtension } from '../examples/vscode-extension/build.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8081' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-trust-prompt': { type: 'boolean', default: false },
  },
});

const available = (port, host) => new Promise((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(port, host, () => probe.close(() => resolve(true)));
});

const USER_RULES = {
  tools: {
    terminal: {
      alwaysAllow: [{ pattern: '^git\\s+(status|log|diff)\\b' }, { pattern: '^ls\\b' }],
      alwaysConfirm: [{ pattern: '^git\\s+push\\b' }],
      alwaysDeny: [{ pattern: '^sudo\\b' }],
    },
    edit_file: { alwaysAllow: [{ pattern: '^src/' }], alwaysDeny: [{ pattern: '\\.env$' }] },
    fetch: { alwaysAllow: [{ pattern: '^https://docs\\.rs/' }] },
  },
};
const PROJECT_RULES = {
  tools: { terminal: { alwaysAllow: [{ pattern: '^cargo\\s+(build|test)\\b' }], alwaysDeny: [{ pattern: '^curl\\b' }] } },
};

const dist = await buildExtension({ quiet: true });
const port = Number(values.port);
const host = values.host;
const usePort = (await available(port, host)) ? port : undefined; // else a free one
const server = await startCodeServer({
  host, port: usePort, trust: !values['no-trust-prompt'],
  userSettings: { 'toolgate.rules': USER_RULES, 'toolgate.mcp': { mcpAllowedTools: ['docs:search'], mcpToolsProtection: false } },
  workspaceSettings: { 'toolgate.rules': PROJECT_RULES },
  workspaceFiles: {
    'README.md': [
      '# toolgate example workspace',
      '',
      'Run these from the command palette (Ctrl+Shift+P):',
      '',
      '- **toolgate: Play agent calls**: a fake agent\'s tool calls, each decided by toolgate in the extension host.',
      '  "Always allow …" saves a rule in your user settings (user layer) or this workspace\'s settings (project layer).',
      '- **toolgate: Open settings**: the settings page in a webview; "Try a call" shows the decision the host makes.',
      '',
      'The project layer is `toolgate.rules` in `.vscode/settings.json`: its allow rules count only once the workspace is trusted.',
      'The output channel "toolgate" logs every decision.',
      '',
    ].join('\n'),
    'src/parser.rs': 'pub fn parse(input: &str) -> Vec<&str> {\n    input.split_whitespace().collect()\n}\n',
  },
});

let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping code-server…');
  await server.stop();
  process.exit(code);
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
server.exited.then(() => {
  if (!stopping) {
    console.error(`code-server exited:\n${server.log().slice(-2000)}`);
    stop(1);
  }
});

console.log(`toolgate's example extension (built into ${dist}) in code-server ${CODE_SERVER_VERSION}:\n`);
console.log(`  ${server.url}\n`);
console.log(`workspace: ${server.workspace}`);
console.log('commands: "toolgate: Play agent calls", "toolgate: Open settings"; output channel "toolgate".');
console.log('Ctrl+C stops the server and removes its temporary profile.');
