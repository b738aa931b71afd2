'use strict';
// Where each agent keeps the permission rules its user wrote, for `toolgate hook --import` and
// `toolgate serve --import`: the files of every scope, found from the hook input's working
// directory and the user's home, read into one policy with the importer of their format.
//
// Places, from each agent's documentation:
// - Claude Code (https://docs.anthropic.com/en/docs/claude-code/settings): managed
//   /etc/claude-code/managed-settings.json (macOS /Library/Application Support/ClaudeCode/), local
//   <project>/.claude/settings.local.json, project <project>/.claude/settings.json, user
//   ~/.claude/settings.json; the project is $CLAUDE_PROJECT_DIR or the working directory.
// - Codex (https://developers.openai.com/codex/exec-policy): user $CODEX_HOME/rules/*.rules
//   (~/.codex), project <project>/.codex/rules/*.rules.
// - Gemini CLI (google-gemini/gemini-cli docs/reference/policy-engine.md, docs/cli/settings.md):
//   system /etc/gemini-cli/settings.json and /etc/gemini-cli/policies/*.toml (managed), user
//   ~/.gemini/settings.json and ~/.gemini/policies/*.toml, project <project>/.gemini/settings.json.
// - Cursor (https://cursor.com/docs/cli/reference/permissions): user ~/.cursor/cli-config.json and
//   the editor's ~/.cursor/permissions.json, project <project>/.cursor/cli.json.
// - VS Code (https://code.visualstudio.com/docs/configure/settings): user
//   ~/.config/Code/User/settings.json (macOS ~/Library/Application Support/Code/User/), workspace
//   <project>/.vscode/settings.json.

const fs = require('node:fs');
const path = require('node:path');

/** Every `*.<ext>` file of a directory, sorted; none when the directory is missing. */
function filesIn(dir, ext) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  }
  return names.filter((n) => n.endsWith(ext)).sort().map((n) => path.join(dir, n));
}

/** `[{ scope, file }]` where `format`'s rules may be, highest authority first. */
function placesOf(format, { cwd, home, env = process.env, platform = process.platform }) {
  const mac = platform === 'darwin';
  const project = format === 'claudeCode' && env.CLAUDE_PROJECT_DIR ? env.CLAUDE_PROJECT_DIR : cwd;
  const at = (scope, ...parts) => ({ scope, file: path.join(...parts) });
  switch (format) {
    case 'claudeCode':
      return [
        at('managed', mac ? '/Library/Application Support/ClaudeCode' : '/etc/claude-code', 'managed-settings.json'),
        at('local', project, '.claude', 'settings.local.json'),
        at('project', project, '.claude', 'settings.json'),
        at('user', home, '.claude', 'settings.json'),
      ];
    case 'codex': {
      const codexHome = env.CODEX_HOME || path.join(home, '.codex');
      return [
        ...filesIn(path.join(project, '.codex', 'rules'), '.rules').map((file) => ({ scope: 'project', file })),
        ...filesIn(path.join(codexHome, 'rules'), '.rules').map((file) => ({ scope: 'user', file })),
      ];
    }
    case 'geminiCli': {
      const system = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || (mac ? '/Library/Application Support/GeminiCli/settings.json' : '/etc/gemini-cli/settings.json');
      return [
        { scope: 'managed', file: system },
        ...filesIn(path.join(path.dirname(system), 'policies'), '.toml').map((file) => ({ scope: 'managed', file })),
        at('project', project, '.gemini', 'settings.json'),
        at('user', home, '.gemini', 'settings.json'),
        ...filesIn(path.join(home, '.gemini', 'policies'), '.toml').map((file) => ({ scope: 'user', file })),
      ];
    }
    case 'cursorCli':
    case 'cursorEditor':
      return [
        at('project', project, '.cursor', 'cli.json'),
        at('user', home, '.cursor', 'cli-config.json'),
        at('user', home, '.cursor', 'permissions.json'),
      ];
    case 'vscode':
      return [
        at('project', project, '.vscode', 'settings.json'),
        at('user', home, ...(mac ? ['Library', 'Application Support'] : ['.config']), 'Code', 'User', 'settings.json'),
      ];
    default:
      return undefined;
  }
}

/**
 * The sources of `format` that exist: `[{ scope, file, text }]`. A file that is there but cannot be
 * read is an error naming it (the rules it holds would be missing); a missing one is skipped.
 */
function readSources(format, context) {
  const places = placesOf(format, context);
  if (!places) throw new Error(`unknown format ${JSON.stringify(format)}: expected claudeCode, codex, geminiCli, cursorCli, cursorEditor or vscode`);
  const sources = [];
  for (const { scope, file } of places) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw new Error(`${file}: cannot read the ${format} rules there: ${error.message}`);
    }
    sources.push({ scope, file, text });
  }
  return sources;
}

/**
 * The policy an agent's own rules make, from their standard places: `{ spec, files }`, or throws
 * an Error naming the file and what is wrong in it.
 */
function importAgentRules(tools, format, context) {
  const sources = readSources(format, context);
  const imported = tools.importPolicy(format, sources.map(({ scope, text }) => ({ scope, text })), { cwd: context.cwd, home: context.home });
  if (!imported.ok) {
    const named = sources.flatMap(({ scope, file, text }) => {
      const alone = tools.importPolicy(format, [{ scope, text }], { cwd: context.cwd, home: context.home });
      return alone.ok ? [] : alone.errors.map((e) => `${file}${e.line ? `:${e.line}:${e.column ?? 1}` : ''}: ${e.message}`);
    });
    throw new Error(`the ${format} rules cannot be imported: ${(named.length ? named : imported.errors.map((e) => e.message)).join('; ')}`);
  }
  return { spec: imported.policy, files: sources.map((s) => s.file) };
}

module.exports = { placesOf, readSources, importAgentRules };
