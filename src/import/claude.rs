//! Claude Code `settings.json` `permissions`: `allow`, `ask` and `deny` lists of `Tool` or
//! `Tool(specifier)` strings, and `defaultMode`.
//!
//! Source: Claude Code `docs/permissions.md` (code.claude.com/docs/en/permissions, read from the
//! docs mirror `zhalice2011/claude-code-docs` @021fb77), sections "Manage permissions",
//! "Permission modes", "Wildcard patterns", "Tool name wildcards", "Bash", "Read and Edit",
//! "WebFetch", "MCP"; scopes from `docs/settings.md`.
//!
//! - Scopes are layers, highest authority first: managed > local > project > user. Lists are
//!   united across scopes and deny > ask > allow whatever the scope, which is what toolgate's
//!   layers do. `defaultMode` comes from the highest scope that sets it.
//! - `Bash(…)` is a command glob on the terminal ([`crate::policy::matchers::CommandGlob`]); deny
//!   and ask globs also meet a command past its leading assignments and wrappers, as Claude
//!   Code's do. Allow globs are *stricter*: toolgate never lets an allow rule cover a
//!   sub-command with a hazard (a file redirection, a substitution, a leading assignment, an
//!   executing flag such as `sed -i`), where Claude Code lets some through.
//! - `Read(…)` / `Edit(…)` are path patterns, their anchor resolved here: `//abs` is absolute,
//!   `~/x` is below the home directory, `/x` below the settings source (the project root for a
//!   project file, `~/.claude` for the user's), anything else below the working directory. A
//!   `Read` deny also blocks edits; read and edit rules cannot see the paths of searches, so a
//!   deny or ask makes `grep` and `find_path` ask.
//! - `WebFetch(domain:…)` is a domain glob; `mcp__server[__tool]` an MCP entry on the `mcp` tool.
//! - Bare tool names (`Bash`, `Read`) and tool-name globs in deny and ask (`*`, `mcp__*`) match
//!   every call of the tools they name.

use super::{
    is_match_all, kind_of, match_all, rules_of, scope_of, Builder, ExportReport, ExportResult, ExportedFile, ImportContext, ImportError,
    ImportResult, ImportSource, RulePlace, SourceScope, Translation, EDIT_TOOLS, FETCH, MCP_TOOL, READ_TOOLS, SEARCH_TOOLS, TERMINAL,
    WRITE_TOOLS,
};
use crate::policy::matchers::CommandGlob;
use crate::policy::{ListKind, Outcome, PolicySpec, RuleSpec};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Claude Code's tool names toolgate has tools for, and which Zed tools each stands for.
const TOOL_NAMES: &[&str] = &["Bash", "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "WebFetch", "WebSearch", "Grep", "Glob", "LS"];

/// Bash's input parameters other than `command` (a `Bash(param:value)` rule names one).
const BASH_PARAMETERS: &[&str] = &["run_in_background", "timeout", "description", "dangerouslyDisableSandbox"];

struct Translated {
    targets: Vec<(String, ListKind, RuleSpec)>,
    translation: Translation,
    why: Option<String>,
}

impl Translated {
    fn new(translation: Translation, why: Option<String>) -> Self {
        Translated { targets: Vec::new(), translation, why }
    }

    fn to(mut self, tools: &[&str], list: ListKind, rule: &RuleSpec) -> Self {
        self.targets.extend(tools.iter().map(|t| ((*t).to_owned(), list, rule.clone())));
        self
    }

    fn all_of(mut self, tools: &[&str], list: ListKind) -> Self {
        self.targets.extend(tools.iter().map(|t| ((*t).to_owned(), list, match_all(kind_of(t)))));
        self
    }

    fn stricter(mut self, why: &str) -> Self {
        if self.translation == Translation::Exact {
            self.translation = Translation::Stricter;
        }
        self.why = Some(match self.why.take() {
            Some(before) => format!("{before}; {why}"),
            None => why.to_owned(),
        });
        self
    }
}

/// What path anchors resolve against for one source file.
struct Anchors<'c> {
    cwd: Option<&'c str>,
    home: Option<&'c str>,
    settings_dir: Option<String>,
}

impl<'c> Anchors<'c> {
    fn new(source: &ImportSource, context: &'c ImportContext) -> Self {
        let cwd = context.cwd.as_deref();
        let home = context.home.as_deref();
        let settings_dir = source.dir.clone().or_else(|| match source.scope {
            SourceScope::Project => context.project_dir.clone().or_else(|| cwd.map(str::to_owned)),
            SourceScope::Local => cwd.map(str::to_owned),
            SourceScope::User => home.map(|h| format!("{}/.claude", h.trim_end_matches('/'))),
            SourceScope::Managed | SourceScope::Defaults => None,
        });
        Anchors { cwd, home, settings_dir }
    }
}

/// Reads every scope's `permissions`.
pub fn import(sources: &[ImportSource], context: &ImportContext) -> Result<ImportResult, Vec<ImportError>> {
    let mut builder = Builder::default();
    let mut errors = Vec::new();
    let mut modes: Vec<(SourceScope, String, usize)> = Vec::new();
    let mut sorted: Vec<&ImportSource> = sources.iter().collect();
    sorted.sort_by_key(|s| s.scope);
    for source in sorted {
        let settings = match crate::zed::parse_settings(&format!("Claude Code {}", source.scope.layer_name()), &source.text) {
            Ok(value) => value,
            Err(e) => {
                errors.push(ImportError { code: "invalidJson", message: e.to_string(), path: None, line: e.line, column: e.column });
                continue;
            }
        };
        let trusted = source.scope != SourceScope::Project || context.project_trusted.unwrap_or(true);
        let anchors = Anchors::new(source, context);
        let Some(permissions) = settings.get("permissions") else { continue };
        if !permissions.is_object() {
            errors.push(invalid_settings("permissions", "must be an object"));
            continue;
        }
        for (key, list) in [("deny", ListKind::AlwaysDeny), ("ask", ListKind::AlwaysConfirm), ("allow", ListKind::AlwaysAllow)] {
            let Some(entries) = permissions.get(key) else { continue };
            let Some(entries) = entries.as_array() else {
                errors.push(invalid_settings(&format!("permissions.{key}"), "must be an array of strings"));
                continue;
            };
            for (index, entry) in entries.iter().enumerate() {
                let path = format!("permissions.{key}[{index}]");
                let Some(text) = entry.as_str() else {
                    errors.push(invalid_settings(&path, "must be a string"));
                    continue;
                };
                let mut translated = translate(text.trim(), list, &anchors);
                if list == ListKind::AlwaysAllow && !trusted {
                    translated = translated.stricter(
                        "the project is not trusted: its allow rules are ignored (as Claude Code ignores them before the trust dialog)",
                    );
                }
                let became = translated
                    .targets
                    .into_iter()
                    .map(|(tool, list, rule)| builder.add(source.scope, trusted, &tool, list, rule))
                    .collect();
                builder.report(source.scope, path, text, translated.translation, translated.why, became);
            }
        }
        if let Some(mode) = permissions.get("defaultMode") {
            match mode.as_str() {
                Some(mode) => modes.push((source.scope, mode.to_owned(), builder.report.len())),
                None => errors.push(invalid_settings("permissions.defaultMode", "must be a string")),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // The highest scope that sets a mode decides; the others are overridden.
    let mut global = Outcome::Confirm;
    if modes.is_empty() && !sources.is_empty() {
        // Claude Code's default mode still shapes every decision no rule makes.
        let scope = sources.iter().map(|s| s.scope).min().unwrap_or(SourceScope::User);
        let (_, translation, why, _) = mode_outcome("default");
        builder.report(scope, "permissions.defaultMode".into(), "(not set: default)", translation, Some(why.to_owned()), Vec::new());
    }
    for (i, (scope, mode, _)) in modes.iter().enumerate() {
        let source = "permissions.defaultMode".to_owned();
        if i > 0 {
            let winner = modes.first().map_or("", |(s, _, _)| s.layer_name());
            builder.report(
                *scope,
                source,
                mode,
                Translation::Exact,
                Some(format!("overridden by the {winner} scope's defaultMode")),
                Vec::new(),
            );
            continue;
        }
        let (outcome, translation, why, write_default) = mode_outcome(mode);
        global = outcome;
        let mut became = vec![builder.layer_default(*scope, true, outcome)];
        if let Some(write) = write_default {
            became.extend(WRITE_TOOLS.iter().map(|tool| builder.tool_default(*scope, true, tool, write)));
        }
        builder.report(*scope, source, mode, translation, Some(why.to_owned()), became);
    }
    Ok(builder.finish(global))
}

fn invalid_settings(path: &str, message: &str) -> ImportError {
    ImportError { code: "invalidSettings", message: format!("{path}: {message}"), path: Some(path.to_owned()), line: None, column: None }
}

/// A Claude Code mode as toolgate's fallback for calls no rule decides, and the default of the
/// writing tools when the mode sets one.
fn mode_outcome(mode: &str) -> (Outcome, Translation, &'static str, Option<Outcome>) {
    const READS: &str = "Claude Code reads files in the working directories and runs its built-in read-only commands (ls, cat, grep, read-only git, …) without asking; here calls no rule allows ask";
    let stricter = Translation::Stricter;
    match mode {
        "default" | "manual" => (Outcome::Confirm, stricter, READS, None),
        "acceptEdits" => (
            Outcome::Confirm,
            stricter,
            "Claude Code also accepts edits and mkdir/touch/mv/cp inside the working directories without asking; here they ask",
            None,
        ),
        "plan" => (
            Outcome::Confirm,
            stricter,
            "plan mode: edits are refused, other calls no rule allows ask (Claude Code still runs read-only commands)",
            Some(Outcome::Deny),
        ),
        "dontAsk" => (Outcome::Deny, stricter, "calls no rule allows are refused; Claude Code still runs its built-in read-only commands", None),
        "auto" => (Outcome::Confirm, stricter, "auto mode's classifier is not modelled: calls no rule allows ask", None),
        "bypassPermissions" => (
            Outcome::Confirm,
            stricter,
            "bypassPermissions skips prompts except for actions no mode auto-approves, which toolgate does not model: calls no rule allows ask",
            None,
        ),
        _ => (Outcome::Confirm, stricter, "an unknown mode: calls no rule allows ask", None),
    }
}

/// The tool a call of Claude Code's tool `name` is decided as: the first tool a deny rule of that
/// name becomes (`Read` → `read_file`, `Write` → `edit_file`), so the call meets the rules its
/// name's rules became. `None` for a tool the catalogue has no counterpart for.
pub fn call_tool(name: &str) -> Option<String> {
    if !TOOL_NAMES.contains(&name) {
        return None;
    }
    let anchors = Anchors { cwd: None, home: None, settings_dir: None };
    translate(name, ListKind::AlwaysDeny, &anchors).targets.into_iter().next().map(|(tool, _, _)| tool)
}

/// `Tool` or `Tool(specifier)`.
fn split_rule(rule: &str) -> (&str, Option<&str>) {
    match rule.split_once('(') {
        Some((tool, rest)) if rest.ends_with(')') => (tool.trim(), rest.get(..rest.len() - 1)),
        _ => (rule, None),
    }
}

fn translate(rule: &str, list: ListKind, anchors: &Anchors<'_>) -> Translated {
    let (tool, spec) = split_rule(rule);
    if let Some(server_and_tool) = tool.strip_prefix("mcp__") {
        return mcp(server_and_tool, spec.is_some(), list);
    }
    if tool.contains('*') {
        return tool_glob(tool, spec, list, anchors);
    }
    match (tool, spec) {
        ("Bash", spec) => bash(spec, list),
        ("Read", None) => read_all(list),
        ("Read", Some(spec)) => read(spec, list, anchors),
        ("Edit" | "Write" | "MultiEdit" | "NotebookEdit", None) => edit_all(list),
        ("Edit", Some(spec)) => edit(spec, list, anchors),
        ("Write" | "MultiEdit" | "NotebookEdit" | "Glob", Some(_)) => Translated::new(
            Translation::Exact,
            Some(format!("Claude Code accepts a path rule for {tool} but never consults it (use Edit or Read); nothing to translate")),
        ),
        ("WebFetch", None) => Translated::new(Translation::Exact, None).all_of(&[FETCH], list),
        ("WebFetch", Some(spec)) => match spec.trim().strip_prefix("domain:") {
            Some(domain) => match super::domain_rule(domain, list) {
                Ok((rule, translation, why)) => Translated::new(translation, why).to(&[FETCH], list, &rule),
                Err(why) if list == ListKind::AlwaysAllow => {
                    Translated::new(Translation::Impossible, Some(format!("{why}; the allow rule was left out")))
                }
                // Fails closed: a deny or ask toolgate cannot say exactly covers every fetch.
                Err(why) => {
                    Translated::new(Translation::Stricter, Some(format!("{why}: the rule covers every fetch"))).all_of(&[FETCH], list)
                }
            },
            None => Translated::new(
                Translation::Impossible,
                Some("Claude Code matches WebFetch rules only by `domain:`; this one matches nothing".into()),
            ),
        },
        ("WebSearch", None) => Translated::new(Translation::Exact, None).all_of(&["web_search"], list),
        ("Grep", None) => Translated::new(Translation::Exact, None).all_of(&["grep"], list),
        ("Glob", None) => Translated::new(Translation::Exact, None).all_of(&["find_path"], list),
        ("LS", None) => Translated::new(Translation::Exact, None).all_of(&["list_directory"], list),
        ("WebSearch" | "Grep" | "LS", Some(_)) => scoped_search(tool, list),
        ("PowerShell", _) => Translated::new(
            Translation::Impossible,
            Some("the Zed catalogue has no PowerShell tool; the rule has no calls to decide".into()),
        ),
        _ => Translated::new(
            Translation::Impossible,
            Some(format!("the Zed catalogue has no tool for Claude Code's `{tool}`; the rule has no calls to decide")),
        ),
    }
}

fn bash(spec: Option<&str>, list: ListKind) -> Translated {
    let spec = spec.map(str::trim).filter(|s| !s.is_empty() && *s != "*");
    let Some(spec) = spec else { return Translated::new(Translation::Exact, None).all_of(&[TERMINAL], list) };
    if let Some((param, _)) = spec.split_once(':') {
        if BASH_PARAMETERS.contains(&param.trim()) {
            return match list {
                ListKind::AlwaysAllow => {
                    Translated::new(Translation::Exact, Some("Claude Code ignores parameter rules in allow lists".into()))
                }
                _ => Translated::new(Translation::Stricter, None)
                    .all_of(&[TERMINAL], list)
                    .stricter(&format!("toolgate cannot see Bash's `{}`: the rule applies to every command", param.trim())),
            };
        }
    }
    let mut out = Translated::new(Translation::Exact, None).to(&[TERMINAL], list, &RuleSpec::glob(spec));
    if spec.contains(":*") && !spec.ends_with(":*") {
        out = out.stricter(
            "`:*` is only read at the end: here the `:` is a literal character, so the rule matches almost nothing (as in Claude Code)",
        );
        out.translation = Translation::Exact;
    }
    match list {
        ListKind::AlwaysAllow => out.stricter(
            "an allow rule never covers a sub-command with a hazard (a file redirection, a substitution, a leading assignment, an executing flag such as `find -exec` or `sed -i`), and wrappers such as `timeout` are not stripped",
        ),
        _ if spec.contains(['"', '\'', '\\']) => {
            // toolgate renders a sub-command with its quotes removed: match that form too.
            let unquoted: String = spec.chars().filter(|c| !matches!(c, '"' | '\'' | '\\')).collect();
            out.to(&[TERMINAL], list, &RuleSpec::glob(unquoted)).stricter("also matched with its quotes removed, as toolgate renders commands")
        }
        _ => out,
    }
}

fn read_all(list: ListKind) -> Translated {
    let out = Translated::new(Translation::Exact, None).all_of(READ_TOOLS, list);
    match list {
        ListKind::AlwaysAllow => out,
        ListKind::AlwaysDeny => out.all_of(WRITE_TOOLS, list).all_of(SEARCH_TOOLS, list),
        ListKind::AlwaysConfirm => out.all_of(SEARCH_TOOLS, list),
    }
}

fn edit_all(list: ListKind) -> Translated {
    match list {
        ListKind::AlwaysAllow => Translated::new(Translation::Exact, None)
            .all_of(EDIT_TOOLS, list)
            .stricter("deleting, moving, copying and creating directories still ask"),
        _ => Translated::new(Translation::Exact, None).all_of(WRITE_TOOLS, list),
    }
}

fn read(spec: &str, list: ListKind, anchors: &Anchors<'_>) -> Translated {
    let (rule, note) = match path_rule(spec, list, anchors) {
        Ok(found) => found,
        Err(why) => return Translated::new(Translation::Impossible, Some(why)),
    };
    let mut out = Translated::new(Translation::Exact, None).to(READ_TOOLS, list, &rule);
    if let Some(note) = note {
        out = out.stricter(&note);
    }
    match list {
        ListKind::AlwaysAllow => out,
        _ => {
            if list == ListKind::AlwaysDeny {
                out = out.to(WRITE_TOOLS, list, &rule);
            }
            out.all_of(SEARCH_TOOLS, ListKind::AlwaysConfirm).stricter("grep and find_path take a query, not a path: they ask")
        }
    }
}

fn edit(spec: &str, list: ListKind, anchors: &Anchors<'_>) -> Translated {
    let (rule, note) = match path_rule(spec, list, anchors) {
        Ok(found) => found,
        Err(why) => return Translated::new(Translation::Impossible, Some(why)),
    };
    let mut out = match list {
        ListKind::AlwaysAllow => Translated::new(Translation::Exact, None)
            .to(EDIT_TOOLS, list, &rule)
            .stricter("deleting, moving, copying and creating directories still ask"),
        _ => Translated::new(Translation::Exact, None).to(WRITE_TOOLS, list, &rule),
    };
    if let Some(note) = note {
        out = out.stricter(&note);
    }
    out
}

fn scoped_search(tool: &str, list: ListKind) -> Translated {
    let zed = match tool {
        "WebSearch" => "web_search",
        "Grep" => "grep",
        _ => "list_directory",
    };
    match list {
        ListKind::AlwaysAllow => Translated::new(
            Translation::Impossible,
            Some(format!("toolgate cannot see what a scoped {tool} rule constrains; the allow rule was left out (those calls ask)")),
        ),
        _ => Translated::new(
            Translation::Stricter,
            Some(format!("toolgate cannot see what a scoped {tool} rule constrains: it applies to every call")),
        )
        .all_of(&[zed], list),
    }
}

/// A `Read`/`Edit` specifier as a path rule, its anchor resolved; with a note when the
/// resolution had to be broader than Claude Code's.
fn path_rule(spec: &str, list: ListKind, anchors: &Anchors<'_>) -> Result<(RuleSpec, Option<String>), String> {
    let spec = spec.trim();
    let root = anchors.cwd.map(str::to_owned);
    let allow = list == ListKind::AlwaysAllow;
    let join = |base: &str, rest: &str| format!("{}/{}", base.trim_end_matches('/'), rest.trim_start_matches('/'));
    let anywhere = |rest: &str| format!("/**/{}", rest.trim_start_matches('/'));
    if let Some(rest) = spec.strip_prefix("//") {
        return Ok((RuleSpec::path(format!("/{rest}"), root), None));
    }
    if let Some(rest) = spec.strip_prefix("~/").or_else(|| (spec == "~").then_some("")) {
        return match (anchors.home, allow) {
            (Some(home), _) => Ok((RuleSpec::path(join(home, rest), root), None)),
            (None, true) => Err("the home directory is unknown (set `home`): the allow rule was left out".into()),
            (None, false) => {
                Ok((RuleSpec::path(anywhere(rest), root), Some("the home directory is unknown: matched below any directory".into())))
            }
        };
    }
    if let Some(rest) = spec.strip_prefix('/') {
        return match (&anchors.settings_dir, allow) {
            (Some(dir), _) => Ok((RuleSpec::path(join(dir, rest), root), None)),
            (None, true) => Err("the settings file's directory is unknown (set `dir` or `cwd`): the allow rule was left out".into()),
            (None, false) => Ok((
                RuleSpec::path(anywhere(rest), root),
                Some("the settings file's directory is unknown: matched below any directory".into()),
            )),
        };
    }
    let relative = spec.strip_prefix("./").unwrap_or(spec);
    // Claude Code: a single-segment directory pattern (`src/**`) in deny and ask matches at any depth.
    let single_dir = relative.strip_suffix("/**").is_some_and(|dir| !dir.is_empty() && !dir.contains('/'));
    let pattern = if single_dir && !allow { format!("**/{relative}") } else { relative.to_owned() };
    match (root, allow) {
        (Some(root), _) => Ok((RuleSpec::path(pattern, Some(root)), None)),
        (None, true) => Ok((RuleSpec::path(pattern, None), Some("the working directory is unknown: only relative paths can match".into()))),
        (None, false) => {
            Ok((RuleSpec::path(pattern, None), Some("the working directory is unknown: every absolute path matches this rule".into())))
        }
    }
}

fn mcp(server_and_tool: &str, has_spec: bool, list: ListKind) -> Translated {
    if has_spec {
        return Translated::new(
            Translation::Exact,
            Some("Claude Code skips an `mcp__` rule with parentheses; nothing to translate".into()),
        );
    }
    let (server, tool) = match server_and_tool.split_once("__") {
        Some((server, tool)) => (server, tool),
        None => (server_and_tool, "*"),
    };
    let allow = list == ListKind::AlwaysAllow;
    if server.is_empty() || server.contains('*') {
        return match allow {
            true => Translated::new(Translation::Exact, Some("Claude Code skips an allow glob whose server is not literal".into())),
            false => Translated::new(Translation::Exact, None)
                .to(&[MCP_TOOL], list, &RuleSpec::mcp("*:*"))
                .stricter("a server glob is widened to every server"),
        };
    }
    let (entry, note) = if tool.is_empty() || tool == "*" {
        (format!("{server}:*"), None)
    } else if tool.contains('*') {
        if allow {
            return Translated::new(
                Translation::Impossible,
                Some("an MCP entry has no partial tool glob; the allow rule was left out (those calls ask)".into()),
            );
        }
        (format!("{server}:*"), Some("a partial tool glob is widened to every tool of the server"))
    } else {
        (format!("{server}:{tool}"), None)
    };
    if crate::policy::pair_index::PairPattern::mcp_entry(&entry).is_err() {
        return match allow {
            true => {
                Translated::new(Translation::Impossible, Some(format!("`{entry}` is not a valid MCP entry; the allow rule was left out")))
            }
            false => Translated::new(Translation::Exact, None)
                .to(&[MCP_TOOL], list, &RuleSpec::mcp("*:*"))
                .stricter("the names are not valid MCP names: widened to every MCP tool"),
        };
    }
    let out = Translated::new(Translation::Exact, None).to(&[MCP_TOOL], list, &RuleSpec::mcp(entry));
    match note {
        Some(note) => out.stricter(note),
        None => out,
    }
}

/// A tool-name glob (`*`, `mcp__*`, `B*`): deny and ask only; Claude Code skips one in allow.
fn tool_glob(glob: &str, spec: Option<&str>, list: ListKind, anchors: &Anchors<'_>) -> Translated {
    if list == ListKind::AlwaysAllow {
        return Translated::new(
            Translation::Exact,
            Some("Claude Code skips an unanchored allow glob with a warning; nothing to translate".into()),
        );
    }
    let Ok(pattern) = CommandGlob::new(glob) else { return Translated::new(Translation::Impossible, Some("an empty tool glob".into())) };
    let mut out = Translated::new(Translation::Exact, None);
    for name in TOOL_NAMES.iter().filter(|n| pattern.is_match(n)) {
        let one = translate(name, list, anchors);
        out.targets.extend(one.targets);
    }
    if pattern.is_match("mcp__x") || glob.starts_with("mcp__") {
        out.targets.push((MCP_TOOL.to_owned(), list, RuleSpec::mcp("*:*")));
    }
    if spec.is_some() {
        out = out.stricter("the specifier is ignored: the rule applies to every call of the tools it names");
    }
    out
}

// ---- export ----

/// Writes a policy as Claude Code settings files, one per scope.
pub fn export(policy: &PolicySpec, context: &ImportContext) -> ExportResult {
    let mut files: BTreeMap<SourceScope, [Vec<String>; 3]> = BTreeMap::new();
    let mut report = Vec::new();
    let mut modes: BTreeMap<SourceScope, &'static str> = BTreeMap::new();
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let scope = policy.layers.iter().find(|l| l.name == place.layer).map_or(SourceScope::User, scope_of);
        let (written, translation, why) = export_rule(&place.tool, list, rule, context);
        let slot = match list {
            ListKind::AlwaysAllow => 0,
            ListKind::AlwaysConfirm => 1,
            ListKind::AlwaysDeny => 2,
        };
        let lists = files.entry(scope).or_default();
        if let Some(target) = lists.get_mut(slot) {
            for w in &written {
                if !target.contains(w) {
                    target.push(w.clone());
                }
            }
        }
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written });
    }
    // The global default toolgate applies: the layers' (as the evaluator admits them), else the
    // policy's.
    let compiled = crate::policy::Policy::new(policy.clone());
    let global = match compiled.default_for(None) {
        (mode, crate::policy::DefaultSource::Global { layer: Some(layer) }) => {
            policy.layers.iter().find(|l| l.name == layer).map(|l| (scope_of(l), l.name.clone(), mode))
        }
        _ => None,
    };
    let (scope, mode) = global.as_ref().map_or((SourceScope::User, policy.default_mode), |(s, _, m)| (*s, *m));
    // Claude Code runs its read-only commands and reads files without asking in every mode
    // (docs/permissions.md, "Permission system" and "Read-only commands"): no mode asks for them.
    const READ_ONLY: &str = "runs its built-in read-only commands (ls, cat, grep, read-only git, …) and reads files in the working directories without asking, where the policy decides them by its default: write deny or ask rules for those that must not run";
    let (name, translation, why) = match mode {
        Outcome::Confirm => ("default", Translation::Impossible, format!("Claude Code's default mode asks, but {READ_ONLY}")),
        Outcome::Deny => {
            ("dontAsk", Translation::Impossible, format!("Claude Code's dontAsk refuses what no rule allows, but {READ_ONLY}"))
        }
        Outcome::Allow => {
            ("bypassPermissions", Translation::Stricter, "bypassPermissions still asks for actions no mode auto-approves".to_owned())
        }
    };
    if mode != Outcome::Confirm || global.is_some() {
        modes.insert(scope, name);
        files.entry(scope).or_default();
    }
    report.push(ExportReport {
        place: RulePlace {
            layer: global.as_ref().map_or_else(String::new, |(_, layer, _)| layer.clone()),
            tool: "*".into(),
            list: None,
            index: None,
        },
        rule: format!("defaultMode {mode:?}"),
        translation,
        why: Some(why),
        written: vec![format!("defaultMode: {name}")],
    });
    for layer in &policy.layers {
        for (tool, rules) in &layer.tools {
            if let Some(mode) = rules.default_mode {
                report.push(ExportReport {
                    place: RulePlace { layer: layer.name.clone(), tool: tool.clone(), list: None, index: None },
                    rule: format!("defaultMode {mode:?}"),
                    translation: Translation::Impossible,
                    why: Some("Claude Code has no per-tool default: a bare tool rule would also override the tool's allow rules".into()),
                    written: Vec::new(),
                });
            }
        }
    }
    let files = files
        .into_iter()
        .map(|(scope, [allow, ask, deny])| {
            let mut permissions = serde_json::Map::new();
            for (key, list) in [("allow", allow), ("ask", ask), ("deny", deny)] {
                if !list.is_empty() {
                    permissions.insert(key.into(), json!(list));
                }
            }
            if let Some(mode) = modes.get(&scope) {
                permissions.insert("defaultMode".into(), json!(mode));
            }
            let text = serde_json::to_string_pretty(&json!({ "permissions": Value::Object(permissions) })).unwrap_or_default();
            ExportedFile { scope, text: text + "\n" }
        })
        .collect();
    ExportResult { files, report }
}

/// Whether the export writes a rule Claude Code applies to at least the calls a deny or confirm
/// rule matches (deny, then ask, then allow: no allow it writes can lift it), or to at most those
/// an allow rule matches.
pub(crate) fn carries(place: &RulePlace, rule: &RuleSpec, context: &ImportContext) -> Option<Translation> {
    place.list.map(|list| export_rule(&place.tool, list, rule, context).1).filter(|t| *t != Translation::Impossible)
}

fn export_rule(tool: &str, list: ListKind, rule: &RuleSpec, context: &ImportContext) -> (Vec<String>, Translation, Option<String>) {
    let name = match tool {
        TERMINAL => "Bash",
        "read_file" | "list_directory" => "Read",
        t if super::WRITE_TOOLS.contains(&t) => "Edit",
        FETCH => "WebFetch",
        "web_search" => "WebSearch",
        "grep" => "Grep",
        "find_path" => "Glob",
        MCP_TOOL => "mcp",
        _ => return (Vec::new(), Translation::Impossible, Some(format!("Claude Code has no tool for `{tool}`"))),
    };
    if is_match_all(rule) {
        return match name {
            "mcp" if list == ListKind::AlwaysAllow => (
                Vec::new(),
                Translation::Impossible,
                Some("Claude Code skips `mcp__*` in allow lists; allow each server (`mcp__server`)".into()),
            ),
            "mcp" => (vec!["mcp__*".into()], Translation::Exact, None),
            _ => (vec![name.to_owned()], Translation::Exact, None),
        };
    }
    let exact = |w: String| (vec![w], Translation::Exact, None);
    match (name, rule) {
        ("Bash", RuleSpec { glob: Some(glob), .. }) => exact(format!("Bash({glob})")),
        ("Bash", RuleSpec { prefix: Some(prefix), .. }) => {
            exact(format!("Bash({} *)", prefix.split_whitespace().collect::<Vec<_>>().join(" ")))
        }
        ("Bash", RuleSpec { tokens: Some(tokens), .. }) => match expand_tokens(tokens) {
            Some(lines) => (lines.into_iter().map(|l| format!("Bash({l} *)")).collect(), Translation::Exact, None),
            None => (Vec::new(), Translation::Impossible, Some("too many alternatives to write out".into())),
        },
        ("Read" | "Edit", RuleSpec { path: Some(path), root, .. }) => match claude_path(path, root.as_deref(), context) {
            Some(p) => exact(format!("{name}({p})")),
            None => (Vec::new(), Translation::Impossible, Some("a relative path rule without a root cannot be anchored".into())),
        },
        ("WebFetch", RuleSpec { domain: Some(domain), .. }) => exact(format!("WebFetch(domain:{domain})")),
        ("mcp", RuleSpec { mcp: Some(entry), .. }) => match entry.split_once(':') {
            Some(("*", _)) if list == ListKind::AlwaysAllow => {
                (Vec::new(), Translation::Impossible, Some("Claude Code allows MCP tools per server only".into()))
            }
            Some(("*", _)) => (vec!["mcp__*".into()], Translation::Stricter, Some("written for every server".into())),
            Some((server, "*")) => exact(format!("mcp__{server}")),
            Some((server, tool)) => exact(format!("mcp__{server}__{tool}")),
            None => (Vec::new(), Translation::Impossible, Some("not an MCP entry".into())),
        },
        // Deny and ask rules come first whatever else matches: one that matches more refuses or
        // asks more, never less.
        ("Bash", _) if list != ListKind::AlwaysAllow && super::covering_glob(rule).is_some() => (
            super::covering_glob(rule).map(|glob| format!("Bash({glob})")).into_iter().collect(),
            Translation::Stricter,
            Some("written as the text every command it matches starts with, which matches more".into()),
        ),
        ("Bash", _) if list != ListKind::AlwaysAllow => match super::leading_words(rule) {
            Some(lines) => (
                lines.iter().map(|l| format!("Bash({l} *)")).collect(),
                Translation::Stricter,
                Some("written as the words every command it matches starts with, which match more".into()),
            ),
            None => (Vec::new(), Translation::Impossible, Some("no Bash(…) glob holds every command it matches".into())),
        },
        _ => (
            Vec::new(),
            Translation::Impossible,
            Some(format!("a {} rule cannot be written for Claude Code's {name}", crate::policy::MatcherKind::of(rule).name())),
        ),
    }
}

/// Every token line a token prefix stands for (`git status|log` → `git status`, `git log`), at most 64.
pub(crate) fn expand_tokens(tokens: &str) -> Option<Vec<String>> {
    let mut lines = vec![String::new()];
    for position in tokens.split_whitespace() {
        let alternatives: Vec<&str> = position.split('|').collect();
        if lines.len() * alternatives.len() > 64 {
            return None;
        }
        lines = lines
            .iter()
            .flat_map(|l| alternatives.iter().map(move |a| if l.is_empty() { (*a).to_owned() } else { format!("{l} {a}") }))
            .collect();
    }
    Some(lines)
}

/// A path rule as Claude Code writes it: `//abs`, or `./rel` when relative to the working directory.
fn claude_path(path: &str, root: Option<&str>, context: &ImportContext) -> Option<String> {
    if let Some(abs) = path.strip_prefix('/') {
        return Some(format!("//{abs}"));
    }
    let any_depth = !path.trim_end_matches('/').contains('/');
    match root {
        Some(root) if Some(root) == context.cwd.as_deref() => Some(if any_depth { path.to_owned() } else { format!("./{path}") }),
        Some(root) => {
            let root = root.trim_end_matches('/').trim_start_matches('/');
            Some(if any_depth && !path.starts_with("**") { format!("//{root}/**/{path}") } else { format!("//{root}/{path}") })
        }
        None => None,
    }
}
