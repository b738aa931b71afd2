#!/usr/bin/env node
// `npx toolgate …`: the engine from a shell. Decide a call with a policy file and see why (like
// `codex execpolicy check`), bring another agent's rules in, write a policy out, lint it, replay it
// over the calls an agent logged, learn a few safe rules from what a person approved.
// As an agent's hook (`toolgate hook`, `toolgate serve`) it answers in that agent's protocol.
// Plain CommonJS and Node's standard library only. The tools build is loaded in exactly one place
// and only by the commands that need it: a hook decides with the engine alone (js/cli/hook.js).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

let toolsBuild;
/** The engine with lint, import/export and history (`toolgate/tools`), loaded on first use. */
const tools = () => (toolsBuild ??= require('../tools/node/toolgate_tools.js'));

/** Exit codes a script can rely on; `toolgate --help` and the README list them. Keep them stable. */
const EXIT = {
  ok: 0, // check: allow; import, export: done; lint: no error-severity finding
  badInput: 1, // a file that cannot be read, bad JSON, an invalid policy, an unknown format, a source that does not parse
  usage: 2, // an unknown command or option, a missing argument
  confirm: 3, // check: the call asks the user
  deny: 4, // check: the call is refused
  lintErrors: 5, // lint: at least one finding of severity error
  wouldAllowRefused: 6, // replay: the policy would have allowed a call that was refused
};

const SCOPES = ['managed', 'local', 'project', 'user', 'defaults'];

const HELP = `toolgate — decide, import, export, lint and learn AI-agent permission rules

Usage:
  toolgate check <policy.json> <tool> [input…] [--json]
      Decides one call and explains it: outcome, reason, the deciding rule (layer, list, index,
      pattern), every item checked, the message. Several inputs for tools that take several
      (move_path <source> <destination>; with the cursor catalogue, mcp <server> <tool>).
  toolgate import <format> [<scope>=]<file>… [--cwd <dir>] [--home <dir>] [--json]
      Reads another agent's rules into one toolgate policy. Prints the policy (JSON) on stdout and
      the report on stderr: for every source rule, what it became and whether the translation is
      exact, stricter or impossible, and why. <scope> is managed, local, project (the default),
      user or defaults.
  toolgate export <format> <policy.json> [--cwd <dir>] [--home <dir>] [--json]
      Writes a policy in another agent's format. Prints the file(s) on stdout and, on stderr,
      every rule that could not be expressed exactly, and why.
  toolgate lint <policy.json> [--json]
      Prints the findings: severity, code, the rule's path, the message.
  toolgate replay <policy.json> <log.jsonl>… [--format <log format>] [--json]
      Replays a policy (or a proposed change to one) over logged calls: which calls would change
      and how ("would have allowed 3 calls that were refused"), by the rule that decided them now,
      and the rules no logged call met. A log line that cannot be read is reported with its file
      and line number.
  toolgate learn <log.jsonl>… [--policy <policy.json>] [--layer <name>] [--min-calls <n>]
                 [--format <log format>] [--json]
      Proposes a few rules that would have let the calls a person approved run: per sub-command,
      MCP tool, origin, or the common parent of files, each covering at least --min-calls calls
      (default 2), none letting a refused call of the logs run, none with a lint warning. Prints
      the policy with the proposals (JSON) on stdout and the report on stderr: each proposal with
      the lines it covers and the prompts it saves, each candidate withheld and why; with
      --policy, also the rules no logged call met and the rules another rule covers or shadows.
      Nothing is applied: review the policy, then keep it. --layer names the layer proposals go
      to (default user).

  toolgate hook <agent> (--policy <policy.json> | --import <format>) [--unattended] [--home <dir>]
      An agent's pre-tool hook: reads the hook's JSON on stdin and answers in the agent's
      protocol (allow, deny or ask, the reason naming the rule and its layer). Agents:
      claude-code, codex, gemini-cli, cursor, vscode, copilot. --import reads the agent's own
      rules from their standard places (from the hook input's cwd and your home). Input it
      cannot read, or a policy that does not load, refuses the call (exit 2 and the reason on
      stderr, which every one of these agents reads as a refusal). --unattended: nobody is there
      to answer, so a call that would ask is refused (Gemini CLI with -p waits for ever on a
      hook's question).
  toolgate hook install <agent> (--policy <f> | --import <format> | --serve <url>) [--unattended]
                [--scope user|project] [--settings <file>] [--state-dir <dir>]
  toolgate hook uninstall <agent> [--scope user|project] [--settings <file>]
      Adds toolgate's hook to the agent's settings file (default scope: project), keeping what
      is there, or takes it out. A file that is not valid JSON is refused, never overwritten.
      With --serve, the hook calls a running toolgate serve (Claude Code over HTTP, the
      others with a one-line curl command).
  toolgate serve (--policy <policy.json> | --import <format>) [--port <n>] [--log <file.jsonl>]
                 [--remember once|session|timed] [--idle-minutes <n>] [--state-dir <dir>] [--unattended]
      A hook server on 127.0.0.1: POST /hooks/<agent> with the token (Authorization: Bearer,
      from $TOOLGATE_TOKEN or made up and written to <state-dir>/serve.json and serve.header,
      default ~/.toolgate). One session per agent session: the answers a person gave at the
      agent's prompt are remembered as --remember says (default once), the log is appended to
      --log for replay and learn, the policy file is reloaded when it changes (a bad edit is
      kept out), idle sessions end after --idle-minutes (default 30).

Log formats (recognised by their records, or named with --format): session (toolgate's session
log, session.logLines()), claudeCode (a Claude Code transcript, ~/.claude/projects/…/*.jsonl),
codex (a Codex rollout, ~/.codex/sessions/…/rollout-*.jsonl).

Formats: claudeCode, codex, vscode, cursorCli, cursorEditor, geminiCli (policy TOML or settings.json).
Policy files are toolgate policy specs in JSON (schema: toolgate/policy.schema.json). A file
named - is standard input. Put -- before an input that starts with - (check p.json terminal -- -x).

Options:
  --json       one JSON document on stdout for machines (bad input: { ok: false, errors: [{ code, message, file? }] })
  --cwd <dir>  import/export: the working directory path rules are read against (default: the current one)
  --home <dir> import/export: the home directory for ~/ rules (default: yours)
  --format <f> replay/learn: the logs' format (session, claudeCode, codex; default: recognised)
  --policy <f> learn: the policy in force when the calls were made (default: every call asks)
  --layer <n>  learn: the layer proposals are written to (default: user)
  --min-calls <n>  learn: how many approved calls a proposal must cover (default: 2)
  --import <f> hook, serve: decide with the agent's own rules, imported from their standard places
  --unattended hook, serve: nobody is there to answer; a call that would ask is refused
  -h, --help   this text
  --version    the package's version

Exit codes:
  0  check: allow; import, export: done; lint: no error-severity finding
  1  bad input: a file that cannot be read, invalid JSON, an invalid policy, an unknown format,
     a source that does not parse (the message, on stderr, names the file and what is wrong)
  2  usage: an unknown command or option, a missing argument
  3  check: confirm (the call asks the user)
  4  check: deny (the call is refused)
  5  lint: at least one finding of severity error
  6  replay: the policy would have allowed a call that was refused
  (hook answers with the exit codes of the agent's protocol: 0 with the answer on stdout, or 2)
`;

/** A failure the user can fix; `exit` says which code. */
class CliError extends Error {
  constructor(exit, message, { code = 'badInput', file } = {}) {
    super(message);
    this.exit = exit;
    this.code = code;
    this.file = file;
  }
}

const usage = (message) => new CliError(EXIT.usage, `${message}\nRun \`toolgate --help\` for usage.`, { code: 'usage' });

/** Splits argv into positionals and the options each command accepts. */
function parseArgs(argv) {
  const options = { json: false, help: false, version: false };
  const valued = ['--cwd', '--home', '--format', '--policy', '--layer', '--min-calls', '--import', '--port', '--log', '--remember',
    '--idle-minutes', '--state-dir', '--scope', '--settings', '--serve'];
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    } else if (arg === '--json') options.json = true;
    else if (arg === '--unattended') options.unattended = true;
    else if (arg === '-h' || arg === '--help') options.help = true;
    else if (arg === '--version') options.version = true;
    else if (valued.includes(arg)) {
      if (i + 1 >= argv.length) throw usage(`${arg} needs a value`);
      options[arg.slice(2)] = argv[++i];
    } else if (valued.some((v) => arg.startsWith(`${v}=`))) {
      const at = arg.indexOf('=');
      options[arg.slice(2, at)] = arg.slice(at + 1);
    } else if (arg.startsWith('-') && arg !== '-') throw usage(`unknown option ${arg}`);
    else positionals.push(arg);
  }
  return { options, positionals };
}

/** A file's text; `-` is standard input (`toolgate import codex x.rules | toolgate lint -`). */
function readText(file) {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    const why = error.code === 'ENOENT' ? 'no such file' : error.code === 'EISDIR' ? 'is a directory' : error.message;
    throw new CliError(EXIT.badInput, `${file}: cannot read: ${why}`, { code: 'unreadableFile', file });
  }
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function readJson(file) {
  const text = readText(file);
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(error.message);
    const where = at ? (({ line, column }) => ` at line ${line}, column ${column}`)(lineColumn(text, Number(at[1]))) : '';
    const why = error.message.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    throw new CliError(EXIT.badInput, `${file}: invalid JSON${where}: ${why}`, { code: 'invalidJson', file });
  }
}

/** The engine throws a TypeError naming the field for a spec it cannot read. */
function policyFrom(file) {
  const spec = readJson(file);
  try {
    return { spec, policy: new (tools().Policy)(spec) };
  } catch (error) {
    throw new CliError(EXIT.badInput, `${file}: not a toolgate policy: ${error.message}`, { code: 'invalidPolicy', file });
  }
}

/** Calls the engine with arguments built from the user's input; its TypeError is their mistake. */
function engine(what, call, file) {
  const core = tools();
  if (typeof core[what] !== 'function') {
    throw new CliError(EXIT.badInput, `this build of toolgate has no ${what}()`, { code: 'unsupported' });
  }
  try {
    return call(core[what]);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const message = error.message.replace(/^format: unknown variant/, 'unknown format');
    throw new CliError(EXIT.badInput, file ? `${file}: ${message}` : message, { code: 'invalidInput', file });
  }
}

const print = (text = '') => process.stdout.write(`${text}\n`);
const note = (text = '') => process.stderr.write(`${text}\n`);
const printJson = (value) => print(JSON.stringify(value, null, 2));

/** A rule reference as one line: `layer "user" alwaysConfirm[0] (regex) ^git\s+push`. */
const ruleLine = (r) => `layer "${r.layer}", ${r.tool} ${r.list}[${r.index}] (${r.matcher}) ${r.pattern}`;

function check(positionals, options) {
  const [file, tool, ...inputs] = positionals;
  if (!file || !tool) throw usage('check needs a policy file and a tool: toolgate check <policy.json> <tool> [input…]');
  const { policy } = policyFrom(file);
  const input = inputs.length === 0 ? undefined : inputs.length === 1 ? inputs[0] : inputs;
  const decision = policy.decide(tool, input);
  if (options.json) printJson(decision);
  else {
    print(`${decision.outcome} (${decision.reason})`);
    print(decision.message);
    if (decision.rule) print(`rule: ${ruleLine(decision.rule)}`);
    if (decision.matchedInput !== undefined) print(`matched: ${decision.matchedInput}`);
    if (decision.protectedPath) {
      const p = decision.protectedPath;
      print(`protected path: ${p.entry} (${p.layer ? `layer "${p.layer}"` : 'built-in'}): ${p.why}${p.source ? ` [${p.source}]` : ''}`);
    }
    if (decision.defaultSource) {
      const { scope, layer } = decision.defaultSource;
      print(`default: ${scope === 'tool' ? "the tool's" : 'the global'} default${layer ? ` of layer "${layer}"` : " of the policy"}`);
    }
    if (decision.cannotVouch) print(`cannot vouch: ${decision.cannotVouch}`);
    if (decision.items.length) {
      print('items:');
      for (const item of decision.items) {
        const notes = [];
        if (item.allowedBy) notes.push(`allowed by ${ruleLine(item.allowedBy)}`);
        for (const h of item.hazards ?? []) notes.push(`hazard ${h.kind}${h.subject ? ` (${h.subject})` : ''}: ${h.why}`);
        print(`  ${item.kind} ${JSON.stringify(item.text)}${notes.length ? ` — ${notes.join('; ')}` : ''}`);
      }
    }
    for (const bad of decision.invalidPatterns ?? []) {
      print(`invalid rule: layer "${bad.layer}", ${bad.tool} ${bad.list}[${bad.index}] ${bad.pattern}: ${bad.error}`);
    }
    for (const s of decision.suggestions ?? []) print(`suggestion: to always allow ${JSON.stringify(s.source)}, add ${JSON.stringify(s.rule)}`);
    for (const ignored of decision.ignored ?? []) print(`ignored: ${ignored.message}`);
  }
  return { allow: EXIT.ok, confirm: EXIT.confirm, deny: EXIT.deny }[decision.outcome] ?? EXIT.badInput;
}

/** `[<scope>=]<file>`: a scope prefix only when it is one of the scopes, so `a=b.json` stays a file name. */
function sourceArg(arg) {
  const at = arg.indexOf('=');
  const scope = at > 0 ? arg.slice(0, at) : '';
  return SCOPES.includes(scope) ? { scope, file: arg.slice(at + 1) } : { scope: 'project', file: arg };
}

function context(options) {
  return { cwd: path.resolve(options.cwd ?? process.cwd()), home: path.resolve(options.home ?? os.homedir()) };
}

function importRules(positionals, options) {
  const [format, ...args] = positionals;
  if (!format || args.length === 0) throw usage('import needs a format and at least one file: toolgate import <format> [<scope>=]<file>…');
  const files = args.map(sourceArg);
  const sources = files.map(({ scope, file }) => ({ scope, text: readText(file) }));
  const ctx = context(options);
  const result = engine('importPolicy', (importPolicy) => importPolicy(format, sources, ctx));
  if (!result.ok) {
    // The engine names the scope, line and column; name the file too, by importing each alone.
    const errors = files.flatMap(({ scope, file }, i) => {
      const alone = tools().importPolicy(format, [sources[i]], ctx);
      return alone.ok ? [] : alone.errors.map((e) => ({ ...e, file, scope }));
    });
    const named = errors.length ? errors : result.errors;
    if (options.json) printJson({ ok: false, errors: named });
    for (const e of named) note(`${e.file ? `${e.file}: ` : ''}${e.message}`);
    return EXIT.badInput;
  }
  if (options.json) {
    printJson({ ok: true, policy: result.policy, report: result.report.map((r) => ({ ...r, file: files.find((f) => f.scope === r.scope)?.file })) });
    return EXIT.ok;
  }
  printJson(result.policy);
  const counts = { exact: 0, stricter: 0, impossible: 0 };
  for (const r of result.report) counts[r.translation] = (counts[r.translation] ?? 0) + 1;
  note(`import report (${result.report.length} rules: ${counts.exact} exact, ${counts.stricter} stricter, ${counts.impossible} impossible):`);
  for (const r of result.report) {
    const where = `${r.scope} ${r.source}${r.line ? ` (line ${r.line}${r.column ? `, column ${r.column}` : ''})` : ''}`;
    const became = r.became.length
      ? r.became.map((b) => `${b.layer} ${b.tool}${b.list ? ` ${b.list}[${b.index}]` : ' default'}`).join(', ')
      : 'nothing';
    note(`  ${r.translation.padEnd(10)} ${where}: ${r.rule} → ${became}`);
    if (r.why) note(`             why: ${r.why}`);
  }
  return EXIT.ok;
}

function exportRules(positionals, options) {
  const [format, file] = positionals;
  if (!format || !file || positionals.length > 2) throw usage('export needs a format and one policy file: toolgate export <format> <policy.json>');
  const { spec } = policyFrom(file);
  const result = engine('exportPolicy', (exportPolicy) => exportPolicy(format, spec, context(options)));
  if (options.json) {
    printJson(result);
    return EXIT.ok;
  }
  if (result.files.length === 1) process.stdout.write(result.files[0].text);
  for (const f of result.files.length > 1 ? result.files : []) {
    print(`==> ${f.scope} <==`);
    process.stdout.write(f.text.endsWith('\n') ? f.text : `${f.text}\n`);
  }
  const inexact = result.report.filter((r) => r.translation !== 'exact');
  note(`export report: ${result.report.length - inexact.length} of ${result.report.length} rules exact${inexact.length ? '; not expressed exactly:' : ''}`);
  for (const r of inexact) {
    const place = `${r.place.layer} ${r.place.tool}${r.place.list ? ` ${r.place.list}[${r.place.index}]` : ' default'}`;
    note(`  ${r.translation.padEnd(10)} ${place}: ${r.rule}${r.why ? ` — ${r.why}` : ''}`);
  }
  return EXIT.ok;
}

function lint(positionals, options) {
  const [file] = positionals;
  if (!file || positionals.length > 1) throw usage('lint needs one policy file: toolgate lint <policy.json>');
  const spec = readJson(file);
  const report = engine('lint', (lintSpec) => lintSpec(spec), file);
  if (options.json) printJson(report);
  else {
    for (const f of report.findings) {
      print(`${f.severity.padEnd(7)} ${f.code} ${f.path}${f.column ? `:${f.column}` : ''}: ${f.message}`);
    }
    const count = (s) => report.findings.filter((f) => f.severity === s).length;
    print(
      report.findings.length
        ? `${file}: ${report.findings.length} finding(s): ${count('error')} error(s), ${count('warning')} warning(s), ${count('info')} info`
        : `${file}: no findings`,
    );
  }
  return report.ok ? EXIT.ok : EXIT.lintErrors;
}

/** The calls of every log, each with its file; the lines that could not be read. */
function readLogs(logs, options) {
  const calls = [];
  const unread = [];
  const skipped = {};
  for (const log of logs) {
    const history = engine('readHistory', (read) => read(readText(log), options.format), log);
    calls.push(...history.calls.map((c) => ({ ...c, file: log })));
    unread.push(...history.unread.map((p) => ({ ...p, file: log })));
    for (const [tool, n] of Object.entries(history.skipped ?? {})) skipped[tool] = (skipped[tool] ?? 0) + n;
  }
  // Lines count from 1 in each log: the engine sees each call's place in all of them, and the
  // reports map it back to its file and line.
  const plain = calls.map(({ file: _file, ...call }, i) => ({ ...call, line: i + 1 }));
  const origin = (at) => ({ file: calls[at - 1]?.file, line: calls[at - 1]?.line });
  return { plain, unread, skipped, origin };
}

function replay(positionals, options) {
  const [file, ...logs] = positionals;
  if (!file || logs.length === 0) throw usage('replay needs a policy file and at least one log: toolgate replay <policy.json> <log.jsonl>…');
  const { spec } = policyFrom(file);
  const { plain, unread, origin } = readLogs(logs, options);
  const report = engine('replayHistory', (replayHistory) => replayHistory(spec, plain), file);
  const unused = engine('unusedRules', (unusedRules) => unusedRules(spec, plain), file);
  const changed = report.changed.map((c) => ({ ...c, ...origin(c.line) }));
  if (options.json) printJson({ ok: true, report: { ...report, changed }, unused, unread });
  else {
    print(`${report.calls} call(s) replayed from ${logs.length} log(s)`);
    for (const line of report.summary) print(`  ${line}`);
    if (!report.summary.length) print('  no call would change');
    for (const r of report.byRule) {
      const counts = Object.entries(r.changes).map(([k, n]) => `${k} ${n}`).join(', ');
      print(`by ${r.rule ? ruleLine(r.rule) : 'defaults and gates'}: ${counts}`);
    }
    for (const c of changed) print(`  ${c.file}:${c.line} ${c.tool} ${JSON.stringify(c.inputs.join(' '))}: ${c.happened} → ${c.now} (${c.change})`);
    if (unused.length) {
      print(`${unused.length} rule(s) no logged call met:`);
      for (const r of unused) print(`  ${ruleLine(r)}`);
    }
    for (const p of unread) note(`${p.file}:${p.line}: not read: ${p.message}`);
  }
  return report.changes.wouldAllowRefused ? EXIT.wouldAllowRefused : EXIT.ok;
}

/** Lint codes that say a rule can go: it repeats, is covered by, or is shadowed by another. */
const REDUNDANT = ['duplicateRule', 'coveredAllow', 'shadowedAllow'];

function learn(positionals, options) {
  const logs = positionals;
  if (logs.length === 0) throw usage('learn needs at least one log: toolgate learn <log.jsonl>… [--policy <policy.json>]');
  const minCalls = options['min-calls'];
  if (minCalls !== undefined && !/^[1-9][0-9]*$/.test(minCalls)) throw usage(`--min-calls needs a whole number of at least 1, not ${JSON.stringify(minCalls)}`);
  const spec = options.policy ? policyFrom(options.policy).spec : { layers: [], defaultMode: 'confirm' };
  const { plain, unread, skipped, origin } = readLogs(logs, options);
  const learnOptions = { ...(options.layer ? { layer: options.layer } : {}), ...(minCalls ? { minCalls: Number(minCalls) } : {}) };
  const report = engine('learnRules', (learnRules) => learnRules(spec, plain, learnOptions), options.policy);
  const unused = options.policy ? engine('unusedRules', (unusedRules) => unusedRules(spec, plain), options.policy) : [];
  const redundant = options.policy ? engine('lint', (lint) => lint(spec), options.policy).findings.filter((f) => REDUNDANT.includes(f.code)) : [];
  const where = (lines) => lines.map((at) => `${origin(at).file}:${origin(at).line}`);
  if (options.json) {
    const proposals = report.proposals.map((p) => ({ ...p, covers: p.covers.map(origin) }));
    const withheld = report.withheld.map((w) => ({
      ...w, covers: w.covers.map(origin), ...(w.refusedLine ? { refusedLine: undefined, refused: origin(w.refusedLine) } : {}),
    }));
    printJson({ ok: true, report: { ...report, proposals, withheld }, unused, redundant, unread, skipped });
    return EXIT.ok;
  }
  printJson(report.policy);
  note(`${report.approved} call(s) approved in ${logs.length} log(s); the ${report.proposals.length} proposal(s) would have run ${report.saved} of them without asking`);
  if (!options.policy && plain.some((c) => c.happened === 'ran')) {
    note('  (a transcript does not say which calls a person approved: each call that ran counts; pass --policy with the rules in force then)');
  }
  for (const p of report.proposals) {
    note(`  + ${p.summary}`);
    const shown = where(p.covers.slice(0, 3)).join(', ');
    const more = p.covers.length > 3 ? `, and ${p.covers.length - 3} more` : '';
    note(`      ${JSON.stringify(p.rule)}; covers ${shown}${more}`);
  }
  for (const w of report.withheld) {
    const refused = w.refusedLine ? ` (${where([w.refusedLine])[0]})` : '';
    note(`  - not proposed: \`${w.display}\` for ${w.tool}: ${w.why}${refused}`);
  }
  if (unused.length) {
    note(`${unused.length} rule(s) no logged call met:`);
    for (const r of unused) note(`  ${ruleLine(r)}`);
  }
  if (redundant.length) {
    note(`${redundant.length} rule(s) another rule repeats, covers or shadows:`);
    for (const f of redundant) note(`  ${f.path} (${f.code}): ${f.message}`);
  }
  const names = Object.entries(skipped);
  if (names.length) note(`calls of tools toolgate does not decide, not learned from: ${names.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  for (const p of unread) note(`${p.file}:${p.line}: not read: ${p.message}`);
  return EXIT.ok;
}

const AGENT_NAMES = ['claude-code', 'codex', 'gemini-cli', 'cursor', 'vscode', 'copilot'];

function agentArg(agent, command) {
  if (!agent) throw usage(`${command} needs an agent: ${AGENT_NAMES.join(', ')}`);
  if (!AGENT_NAMES.includes(agent)) throw usage(`unknown agent ${JSON.stringify(agent)}: expected ${AGENT_NAMES.join(', ')}`);
  return agent;
}

/** `--policy <file>` or `--import <format>`, exactly one. */
function rulesArg(options, command) {
  if (Boolean(options.policy) === Boolean(options.import)) throw usage(`${command} needs --policy <policy.json> or --import <format>, one of them`);
}

function hook(positionals, options) {
  const [first, ...rest] = positionals;
  if (first === 'install' || first === 'uninstall') return hookInstall(first, rest, options);
  const agent = agentArg(first, 'hook');
  if (rest.length) throw usage(`hook takes one agent, not ${JSON.stringify(rest[0])}`);
  rulesArg(options, 'hook');
  // A hook's process decides one call and exits: V8's optimising tier would compile hot functions
  // in the background and hold the exit for them (about 100 ms with a preset's rules), so this
  // process keeps to the baseline compiler, and validates each function when it first runs rather
  // than the whole module up front (bench/hooks.mjs measures it). Set before the module is
  // compiled; a host's process (`serve`, an extension) keeps V8's defaults.
  const v8 = require('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--wasm-lazy-validation');
  const { answerHook } = require('./hook.js');
  let text;
  try {
    text = fs.readFileSync(0, 'utf8');
  } catch (error) {
    text = `not readable: ${error.message}`;
  }
  const answer = answerHook(agent, text, options);
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  return answer.exitCode;
}

function hookInstall(action, positionals, options) {
  const agent = agentArg(positionals[0], `hook ${action}`);
  const scope = options.scope ?? 'project';
  if (!['user', 'project'].includes(scope)) throw usage(`--scope is user or project, not ${JSON.stringify(scope)}`);
  const { install, uninstall } = require('./hook-install.js');
  const where = { scope, cwd: path.resolve(options.cwd ?? process.cwd()), home: path.resolve(options.home ?? os.homedir()), file: options.settings && path.resolve(options.settings) };
  try {
    if (action === 'uninstall') {
      const { file, removed } = uninstall(agent, where);
      print(removed ? `${file}: toolgate's ${agent} hook removed` : `${file}: no toolgate hook for ${agent}`);
      return EXIT.ok;
    }
    const sources = [options.policy, options.import, options.serve].filter(Boolean).length;
    if (sources !== 1) throw usage('hook install needs one of --policy <policy.json>, --import <format> or --serve <url>');
    const { shellQuote, curlCommand, defaultStateDir } = require('./serve.js');
    let hookSpec;
    if (options.serve) {
      const url = options.serve.replace(/\/+$/, '');
      if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(url)) throw usage(`--serve is the URL toolgate serve listens on, http://127.0.0.1:<port>, not ${JSON.stringify(options.serve)}`);
      const stateDir = path.resolve(options['state-dir'] ?? defaultStateDir(where.home));
      hookSpec = agent === 'claude-code'
        ? { serve: true, http: { type: 'http', url: `${url}/hooks/${agent}`, headers: { Authorization: 'Bearer $TOOLGATE_TOKEN' }, allowedEnvVars: ['TOOLGATE_TOKEN'], timeout: 30 } }
        : { serve: true, command: curlCommand(agent, { stateDir, url }) };
    } else {
      const rules = options.policy ? `--policy ${shellQuote(path.resolve(options.policy))}` : `--import ${shellQuote(options.import)}`;
      hookSpec = { command: `${shellQuote(process.execPath)} ${shellQuote(path.join(__dirname, 'toolgate.js'))} hook ${agent} ${rules}${options.unattended ? ' --unattended' : ''}` };
    }
    const { file, added } = install(agent, hookSpec, where);
    print(`${file}: toolgate's ${agent} hook added to ${Object.keys(added).join(', ')}`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(EXIT.badInput, error.message, { code: 'invalidSettings' });
  }
}

function serve(positionals, options) {
  if (positionals.length) throw usage(`serve takes no arguments, not ${JSON.stringify(positionals[0])}`);
  rulesArg(options, 'serve');
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--port is a port number, not ${JSON.stringify(options.port)}`);
  const idle = options['idle-minutes'] === undefined ? 30 : Number(options['idle-minutes']);
  if (!(idle > 0)) throw usage(`--idle-minutes is a number of minutes above 0, not ${JSON.stringify(options['idle-minutes'])}`);
  const remember = options.remember ?? 'once';
  if (!['once', 'session', 'timed'].includes(remember)) throw usage(`--remember is once, session or timed, not ${JSON.stringify(remember)}`);
  const { HookServer, writeState, defaultStateDir } = require('./serve.js');
  const core = options.import ? tools() : require('../engine/node/toolgate_engine.js');
  const home = path.resolve(options.home ?? os.homedir());
  const stateDir = path.resolve(options['state-dir'] ?? defaultStateDir(home));
  const token = process.env.TOOLGATE_TOKEN || require('node:crypto').randomBytes(24).toString('base64url');
  let server;
  try {
    server = new HookServer({ core, policyFile: options.policy, importFormat: options.import, token, logFile: options.log, idleMs: idle * 60_000, remember, unattended: options.unattended === true, home });
  } catch (error) {
    throw new CliError(EXIT.badInput, error.message, { code: 'invalidPolicy', file: options.policy });
  }
  return server.listen(port).then((url) => {
    writeState(stateDir, { url, token, pid: process.pid });
    print(`toolgate serve: listening on ${url} (hooks: POST ${url}/hooks/<agent>; token in ${path.join(stateDir, 'serve.json')})`);
    const stop = () => server.close().then(() => {
      const state = path.join(stateDir, 'serve.json');
      try {
        if (JSON.parse(fs.readFileSync(state, 'utf8')).pid === process.pid) for (const f of ['serve.json', 'serve.header']) fs.rmSync(path.join(stateDir, f), { force: true });
      } catch {
        // Another server's state, or none: left as it is.
      }
      process.exit(EXIT.ok);
    });
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }, (error) => {
    note(`toolgate: cannot listen on 127.0.0.1:${port}: ${error.message}`);
    process.exitCode = EXIT.badInput;
  });
}

const COMMANDS = { check, import: importRules, export: exportRules, lint, replay, learn, hook, serve };

function main(argv) {
  let json = argv.includes('--json');
  try {
    const { options, positionals } = parseArgs(argv);
    json = options.json;
    if (options.version) {
      print(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version);
      return EXIT.ok;
    }
    const [command, ...rest] = positionals;
    if (options.help || command === 'help') {
      print(HELP.trimEnd());
      return EXIT.ok;
    }
    if (!command) throw usage('no command given');
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!run) throw usage(`unknown command ${JSON.stringify(command)}: expected check, import, export, lint, replay, learn, hook or serve`);
    return run(rest, options);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (json && error.exit !== EXIT.usage) {
      printJson({ ok: false, errors: [{ code: error.code, message: error.message, ...(error.file ? { file: error.file } : {}) }] });
    }
    note(`toolgate: ${error.message}`);
    return error.exit;
  }
}

const code = main(process.argv.slice(2));
// `serve` keeps running; every other command has its exit code.
if (typeof code === 'number') process.exitCode = code;
