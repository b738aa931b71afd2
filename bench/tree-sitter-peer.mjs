// The terminal decision VS Code's agent tools and Gemini CLI ship, as the peer baseline:
// parse the command line with tree-sitter-bash (web-tree-sitter, the grammar's own .wasm from
// node_modules), take the text of every `command` node (VS Code's query `(command) @command`,
// nested ones included), and test each against the rules with RegExp:
// any command denied → deny; any command confirmed → confirm; every command allowed → allow;
// otherwise the default (confirm).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

/** Loads the parser once (as an extension does at activation); returns a decider factory. */
export async function loadPeer() {
  await Parser.init();
  const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(bash);
  const query = new Query(bash, '(command) @command');

  /** The text of every command node, outermost first. */
  function commandsOf(line) {
    const tree = parser.parse(line);
    if (!tree) return [];
    try {
      return query.captures(tree.rootNode).map((capture) => capture.node.text);
    } finally {
      tree.delete();
    }
  }

  /** A decider over one terminal rule set ({ alwaysAllow, alwaysConfirm, alwaysDeny } of { pattern }). */
  function decider(rules) {
    const compile = (list) => (list ?? []).map((r) => new RegExp(r.pattern, r.caseSensitive ? '' : 'i'));
    const deny = compile(rules.alwaysDeny), confirm = compile(rules.alwaysConfirm), allow = compile(rules.alwaysAllow);
    const any = (regexes, command) => regexes.some((r) => r.test(command));
    return (line) => {
      const commands = commandsOf(line);
      if (commands.some((c) => any(deny, c))) return 'deny';
      if (commands.some((c) => any(confirm, c))) return 'confirm';
      if (commands.length > 0 && commands.every((c) => any(allow, c))) return 'allow';
      return 'confirm';
    };
  }

  // Neither package exports its package.json; read it beside a file each does export.
  const version = (file) => JSON.parse(readFileSync(join(dirname(require.resolve(file)), 'package.json'), 'utf8')).version;
  return { commandsOf, decider, versions: {
    'web-tree-sitter': version('web-tree-sitter/tree-sitter.wasm'),
    'tree-sitter-bash': version('tree-sitter-bash/tree-sitter-bash.wasm'),
  } };
}
