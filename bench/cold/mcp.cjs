// A fresh process's first decision with the main entry: load, `new McpPolicy(settings)`, one `decide`.
'use strict';
const start = performance.now();
const { McpPolicy } = require(process.argv[2]);
const loaded = performance.now();
const policy = new McpPolicy({ mcpAllowedTools: ['github:*', 'docs:search'], mcpToolsProtection: false });
const built = performance.now();
const outcome = policy.decide('github', 'create_issue', 'yolo').needApproval ? 'confirm' : 'allow';
const decided = performance.now();
process.stdout.write(JSON.stringify({ load: loaded - start, build: built - loaded, decide: decided - built, total: decided - start, outcome }));
