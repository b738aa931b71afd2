// The fake agent of "toolgate: Play agent calls": the tool calls an agent might make while fixing a
// bug — terminal lines, file edits and reads, a fetch, MCP calls. Nothing is ever run: the
// extension only decides each call and asks when the settings say so.
'use strict';

const AGENT_CALLS = [
  { say: 'Look at the repository', tool: 'terminal', input: 'git status && git diff --stat' },
  { say: 'Build it', tool: 'terminal', input: 'cargo build --release' },
  { say: 'Read the configuration', tool: 'read_file', input: 'src/../.env' },
  { say: 'Fix the bug', tool: 'edit_file', input: 'src/parser.rs' },
  { say: 'Read the docs', tool: 'fetch', input: 'https://doc.rust-lang.org/std/string/struct.String.html' },
  { say: 'Run the tests and push', tool: 'terminal', input: 'cargo test && git push origin HEAD' },
  { say: 'Search the project docs', mcp: { server: 'docs', tool: 'search' } },
  { say: 'File an issue about it', mcp: { server: 'github', tool: 'create_issue' } },
  { say: 'Clean up', tool: 'terminal', input: 'rm -rf / --no-preserve-root' },
];

/** The MCP servers the fake agent has (the settings page's catalogue). */
const CATALOGUE = {
  servers: [
    { name: 'github', tools: [{ name: 'create_issue' }, { name: 'list_issues' }, { name: 'delete_repo' }] },
    { name: 'docs', tools: [{ name: 'search' }] },
    { name: 'jira', defaultEnabled: false, tools: [{ name: 'create_ticket' }] },
  ],
};

module.exports = { AGENT_CALLS, CATALOGUE };
