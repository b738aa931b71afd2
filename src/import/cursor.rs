//! Cursor CLI `permissions` (`~/.cursor/cli-config.json`, `<project>/.cursor/cli.json`), and the
//! editor's `~/.cursor/permissions.json` allowlists (`mcpAllowlist`, `terminalAllowlist`):
//! `allow` and `deny` lists of `Shell(command[:args])`, `Read(glob)`, `Write(glob)`,
//! `WebFetch(domain)`, `Mcp(server:tool)` and bare type names; deny beats allow; anything
//! unmatched asks; no ask list.
//!
//! Source: Cursor's CLI permissions reference (cursor.com/docs/cli/reference/permissions, as
//! summarised in `peer-formats.md` §5, and dyoshikawa/rulesync
//! `src/features/permissions/cursor-permissions.ts` for `Mcp(server:tool)`). Cursor documents
//! that the command base is the first token and that `Shell(curl:*)` allows any arguments, but
//! not how arguments are matched nor whether a bare file name matches at any depth: where the
//! documentation is silent the translation takes the stricter reading and says so — argument
//! globs are read as Claude Code's command globs, an allowed path is anchored at the workspace,
//! a denied bare name matches at any depth.
//!
//! The editor's `permissions.json` lists are read here too, and written by [`editor`].

use super::{
    is_match_all, kind_of, match_all, rules_of, Builder, ExportReport, ExportResult, ExportedFile, ImportContext, ImportError,
    ImportResult, ImportSource, SourceScope, Translation, EDIT_TOOLS, FETCH, MCP_TOOL, READ_TOOLS, TERMINAL, WRITE_TOOLS,
};
use crate::policy::{ListKind, Outcome, PolicySpec, RuleSpec};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub mod editor;

const SILENT: &str = "Cursor does not document how arguments are matched: read as a Claude Code command glob";

/// Reads global and project CLI configs; their lists are united.
pub fn import(sources: &[ImportSource], context: &ImportContext) -> Result<ImportResult, Vec<ImportError>> {
    let mut builder = Builder::default();
    let mut errors = Vec::new();
    let mut global = Outcome::Confirm;
    let mut mode_report = None;
    for source in sources {
        let settings = match crate::zed::parse_settings(&format!("Cursor {}", source.scope.layer_name()), &source.text) {
            Ok(value) => value,
            Err(e) => {
                errors.push(ImportError { code: "invalidJson", message: e.to_string(), path: None, line: e.line, column: e.column });
                continue;
            }
        };
        let trusted = source.scope != SourceScope::Project || context.project_trusted.unwrap_or(true);
        if let Some(mode) = settings.get("approvalMode").and_then(Value::as_str) {
            if mode == "unrestricted" {
                global = Outcome::Allow;
                mode_report = Some((source.scope, mode.to_owned()));
            }
        }
        editor::import_lists(&mut builder, &mut errors, source.scope, trusted, &settings);
        let Some(permissions) = settings.get("permissions") else { continue };
        for (key, list) in [("deny", ListKind::AlwaysDeny), ("allow", ListKind::AlwaysAllow)] {
            let Some(entries) = permissions.get(key) else { continue };
            let Some(entries) = entries.as_array() else {
                errors.push(invalid(&format!("permissions.{key}"), "must be an array of strings"));
                continue;
            };
            for (index, entry) in entries.iter().enumerate() {
                let path = format!("permissions.{key}[{index}]");
                let Some(text) = entry.as_str() else {
                    errors.push(invalid(&path, "must be a string"));
                    continue;
                };
                let (targets, translation, why) = translate(text.trim(), list, context);
                let became = targets.into_iter().map(|(tool, rule)| builder.add(source.scope, trusted, &tool, list, rule)).collect();
                builder.report(source.scope, path, text, translation, why, became);
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some((scope, mode)) = mode_report {
        let place = builder.layer_default(scope, true, Outcome::Allow);
        builder.report(
            scope,
            "approvalMode".into(),
            &mode,
            Translation::Stricter,
            Some("calls no rule decides run, except what toolgate never allows by default (hard-coded denials, lines it cannot read while deny rules exist)".into()),
            vec![place],
        );
    }
    Ok(builder.finish(global))
}

fn invalid(path: &str, message: &str) -> ImportError {
    ImportError { code: "invalidSettings", message: format!("{path}: {message}"), path: Some(path.to_owned()), line: None, column: None }
}

type Targets = Vec<(String, RuleSpec)>;

fn all(tools: &[&str]) -> Targets {
    tools.iter().map(|t| ((*t).to_owned(), match_all(kind_of(t)))).collect()
}

fn to(tools: &[&str], rule: &RuleSpec) -> Targets {
    tools.iter().map(|t| ((*t).to_owned(), rule.clone())).collect()
}

/// The tool a call of Cursor's permission type `kind` (`Shell`, `Read`, `Write`, `WebFetch`,
/// `Mcp`) is decided as: the first tool a deny rule of that type becomes.
pub fn call_tool(kind: &str) -> Option<String> {
    translate(kind, ListKind::AlwaysDeny, &ImportContext::default()).0.into_iter().next().map(|(tool, _)| tool)
}

fn translate(entry: &str, list: ListKind, context: &ImportContext) -> (Targets, Translation, Option<String>) {
    let allow = list == ListKind::AlwaysAllow;
    let (kind, spec) = match entry.split_once('(') {
        Some((kind, rest)) if rest.ends_with(')') => (kind.trim(), rest.get(..rest.len() - 1).map(str::trim)),
        _ => (entry, None),
    };
    let hazards = "an allow rule never covers a sub-command with a hazard (a file redirection, a substitution, an executing flag)";
    match (kind, spec) {
        ("Shell", None | Some("*")) => (all(&[TERMINAL]), Translation::Exact, None),
        ("Shell", Some(spec)) => {
            let (base, args) = match spec.split_once(':') {
                Some((base, args)) => (base.trim(), Some(args.trim())),
                None => (spec, None),
            };
            if base.is_empty() || base.contains(char::is_whitespace) {
                return (Vec::new(), Translation::Impossible, Some("the command base must be one word".into()));
            }
            if base.contains('*') && allow {
                return (
                    Vec::new(),
                    Translation::Impossible,
                    Some("a glob in the command base cannot be held to one word; the allow rule was left out".into()),
                );
            }
            let glob = match args {
                None | Some("*") => format!("{base} *"),
                Some(args) => format!("{base} {args}"),
            };
            let mut notes = Vec::new();
            let mut translation = if allow { Translation::Stricter } else { Translation::Exact };
            if allow {
                notes.push(hazards);
            }
            if args.is_some_and(|a| a != "*") {
                notes.push(SILENT);
                translation = Translation::Stricter;
            }
            if base.contains('*') {
                notes.push("a glob in the command base may match past the first word");
                translation = Translation::Stricter;
            }
            (to(&[TERMINAL], &RuleSpec::glob(glob)), translation, (!notes.is_empty()).then(|| notes.join("; ")))
        }
        ("Read", None) => (all(READ_TOOLS), Translation::Exact, None),
        ("Write", None) if allow => {
            (all(EDIT_TOOLS), Translation::Stricter, Some("deleting, moving, copying and creating directories still ask".into()))
        }
        ("Write", None) => (all(WRITE_TOOLS), Translation::Exact, None),
        ("Read" | "Write", Some(glob)) => {
            let root = context.cwd.clone();
            let slashless = !glob.trim_end_matches('/').contains('/');
            let pattern = if allow && slashless && !glob.starts_with("**") { format!("./{glob}") } else { glob.to_owned() };
            let rule = RuleSpec::path(pattern, root.clone());
            let mut notes = Vec::new();
            if slashless {
                notes.push(if allow {
                    "Cursor does not say whether a bare name matches below the workspace root: allowed only there"
                } else {
                    "a bare name is denied at any depth"
                });
            }
            if root.is_none() && !glob.starts_with('/') {
                notes.push(if allow {
                    "the workspace is unknown (set `cwd`): only relative paths can match"
                } else {
                    "the workspace is unknown: every absolute path matches"
                });
            }
            let tools = match (kind, allow) {
                ("Read", _) => READ_TOOLS,
                (_, true) => {
                    notes.push("deleting, moving, copying and creating directories still ask");
                    EDIT_TOOLS
                }
                _ => WRITE_TOOLS,
            };
            let translation = if notes.is_empty() { Translation::Exact } else { Translation::Stricter };
            (to(tools, &rule), translation, (!notes.is_empty()).then(|| notes.join("; ")))
        }
        ("WebFetch", None | Some("*")) => (all(&[FETCH]), Translation::Exact, None),
        ("WebFetch", Some(domain)) => web_fetch(domain, list),
        ("Mcp", None) => (all(&[MCP_TOOL]), Translation::Exact, None),
        ("Mcp", Some(entry)) => match crate::policy::pair_index::PairPattern::mcp_entry(entry) {
            Ok(_) => (to(&[MCP_TOOL], &RuleSpec::mcp(entry)), Translation::Exact, None),
            Err(e) if allow => (Vec::new(), Translation::Impossible, Some(format!("{e}; the allow rule was left out"))),
            Err(e) => (to(&[MCP_TOOL], &RuleSpec::mcp("*:*")), Translation::Stricter, Some(format!("{e}: widened to every MCP tool"))),
        },
        ("WebSearch", None) => (all(&["web_search"]), Translation::Exact, None),
        _ => (Vec::new(), Translation::Impossible, Some(format!("`{kind}` is not a Cursor permission type toolgate has a tool for"))),
    }
}

/// `WebFetch(domainOrPattern)`: "`*.example.com` matches subdomains … `example.com` matches that
/// exact domain only" (Cursor's reference); how it reads a scheme, a port, an IP address or a
/// name outside ASCII is not documented. A deny the domain matcher cannot say exactly (an IP
/// address, a non-ASCII name, a port) covers more — every fetch, or the host on every port —
/// rather than vanish; such an allow is left out.
fn web_fetch(domain: &str, list: ListKind) -> (Targets, Translation, Option<String>) {
    let allow = list == ListKind::AlwaysAllow;
    let host = domain.split_once("://").map_or(domain, |(_, rest)| rest);
    let host = host.split(['/', '?', '#']).next().unwrap_or_default();
    // An IPv6 address keeps its brackets and colons; a port follows the `]`.
    let (host, port) = match host.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
        Some((address, rest)) => (address, rest.strip_prefix(':')),
        None => match host.rsplit_once(':') {
            Some((name, port)) if !name.contains(':') => (name, Some(port)),
            _ => (host, None),
        },
    };
    let port = port.filter(|p| !p.is_empty());
    if port.is_some_and(|p| !p.chars().all(|c| c.is_ascii_digit())) {
        let why = format!("`{}` has no port a URL could name", crate::visible::visible(domain));
        return if allow { (Vec::new(), Translation::Impossible, Some(why)) } else { (all(&[FETCH]), Translation::Stricter, Some(why)) };
    }
    match (super::domain_rule(host, list), port) {
        (Ok((rule, translation, why)), None) => (to(&[FETCH], &rule), translation, why),
        (Ok(_), Some(port)) if allow => (
            Vec::new(),
            Translation::Impossible,
            Some(format!("toolgate's domain rules match a host on every port, not port {port} alone; the allow rule was left out")),
        ),
        (Ok((rule, _, _)), Some(port)) => (
            to(&[FETCH], &rule),
            Translation::Stricter,
            Some(format!(
                "toolgate's domain rules match a host on every port: the rule covers {host} on every port, not port {port} alone"
            )),
        ),
        (Err(why), _) if allow => (Vec::new(), Translation::Impossible, Some(format!("{why}; the allow rule was left out"))),
        (Err(why), _) => (all(&[FETCH]), Translation::Stricter, Some(format!("{why}: the rule covers every fetch (it fails closed)"))),
    }
}

// ---- export ----

/// Writes the policy as Cursor CLI configs: the user's `cli-config.json` permissions and the
/// project's `.cursor/cli.json`. Deny beats allow (cursor.com/docs/cli/reference/permissions);
/// how the two files' lists combine is not documented, so a project file that allows anything
/// also carries the user's deny rules, in case its lists replace the user's.
pub fn export(policy: &PolicySpec, context: &ImportContext) -> ExportResult {
    let mut files: BTreeMap<SourceScope, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut report = Vec::new();
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let scope = policy.layers.iter().find(|l| l.name == place.layer).map_or(SourceScope::User, super::scope_of);
        if list == ListKind::AlwaysConfirm {
            report.push(ExportReport {
                place,
                rule: rule.text().to_owned(),
                translation: Translation::Impossible,
                why: Some("Cursor has no ask list: the calls it matches ask only where no allow entry matches them, so the allow rules that may meet it are left out".into()),
                written: Vec::new(),
            });
            continue;
        }
        let (written, translation, why) = export_rule(&place.tool, list, rule, context);
        let lists = files.entry(scope).or_default();
        let target = if list == ListKind::AlwaysAllow { &mut lists.0 } else { &mut lists.1 };
        for w in &written {
            if !target.contains(w) {
                target.push(w.clone());
            }
        }
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written });
    }
    let global: Vec<String> = files
        .iter()
        .filter(|(scope, _)| !matches!(scope, SourceScope::Project | SourceScope::Local))
        .flat_map(|(_, (_, deny))| deny.clone())
        .collect();
    for (scope, (allow, deny)) in files.iter_mut() {
        if matches!(scope, SourceScope::Project | SourceScope::Local) && !allow.is_empty() {
            for d in &global {
                if !deny.contains(d) {
                    deny.push(d.clone());
                }
            }
        }
    }
    let files = files
        .into_iter()
        .map(|(scope, (allow, deny))| ExportedFile {
            scope,
            text: serde_json::to_string_pretty(&json!({ "permissions": { "allow": allow, "deny": deny } })).unwrap_or_default() + "\n",
        })
        .collect();
    ExportResult { files, report }
}

/// Whether the export writes an entry Cursor applies to at least the calls a deny rule matches
/// (deny beats allow), or to at most those an allow rule matches. A confirm rule is never
/// carried: Cursor has no ask list.
pub(crate) fn carries(place: &super::RulePlace, rule: &RuleSpec, context: &ImportContext) -> Option<Translation> {
    place
        .list
        .filter(|list| *list != ListKind::AlwaysConfirm)
        .map(|list| export_rule(&place.tool, list, rule, context).1)
        .filter(|t| *t != Translation::Impossible)
}

fn export_rule(tool: &str, list: ListKind, rule: &RuleSpec, context: &ImportContext) -> (Vec<String>, Translation, Option<String>) {
    let (written, translation, why) = export_exact(tool, rule, context);
    if translation != Translation::Impossible || tool != TERMINAL || list != ListKind::AlwaysDeny {
        return (written, translation, why);
    }
    // "commandBase is the first token in the command line": a deny of the first words every
    // command it matches starts with refuses more, never less.
    match super::leading_words(rule) {
        Some(lines) => {
            let mut bases: Vec<String> = lines.iter().filter_map(|l| l.split_whitespace().next()).map(|w| format!("Shell({w})")).collect();
            bases.dedup();
            (bases, Translation::Stricter, Some("written as the command's first word, which matches more".into()))
        }
        None => (written, translation, why),
    }
}

fn export_exact(tool: &str, rule: &RuleSpec, context: &ImportContext) -> (Vec<String>, Translation, Option<String>) {
    let kind = match tool {
        TERMINAL => "Shell",
        "read_file" | "list_directory" => "Read",
        t if WRITE_TOOLS.contains(&t) => "Write",
        FETCH => "WebFetch",
        MCP_TOOL => "Mcp",
        "web_search" => "WebSearch",
        _ => return (Vec::new(), Translation::Impossible, Some(format!("Cursor has no permission type for `{tool}`"))),
    };
    if is_match_all(rule) {
        return (vec![kind.to_owned()], Translation::Exact, None);
    }
    let exact = |w: String| (vec![w], Translation::Exact, None);
    let shell = |words: &[&str]| match words {
        [base] => format!("Shell({base})"),
        [base, rest @ ..] => format!("Shell({base}:{} *)", rest.join(" ")),
        [] => String::new(),
    };
    match (kind, rule) {
        ("Shell", RuleSpec { prefix: Some(prefix), .. }) => {
            let words: Vec<&str> = prefix.split_whitespace().collect();
            (vec![shell(&words)], Translation::Exact, (words.len() > 1).then(|| SILENT.to_owned()))
        }
        ("Shell", RuleSpec { tokens: Some(tokens), .. }) => match super::claude::expand_tokens(tokens) {
            Some(lines) => {
                let written: Vec<String> = lines.iter().map(|l| shell(&l.split(' ').collect::<Vec<_>>())).collect();
                let why = lines.iter().any(|l| l.contains(' ')).then(|| SILENT.to_owned());
                (written, Translation::Exact, why)
            }
            None => (Vec::new(), Translation::Impossible, Some("too many alternatives to write out".into())),
        },
        ("Shell", RuleSpec { glob: Some(glob), .. }) => match glob.split_once(' ') {
            Some((base, "*")) if !base.contains('*') => exact(format!("Shell({base})")),
            Some((base, rest)) if !base.contains('*') => {
                (vec![format!("Shell({base}:{rest})")], Translation::Exact, Some(SILENT.to_owned()))
            }
            _ => (Vec::new(), Translation::Impossible, Some("a glob without a literal first word cannot be a Cursor command base".into())),
        },
        ("Read" | "Write", RuleSpec { path: Some(path), root, .. }) => {
            let anchored = if path.starts_with('/') {
                Some(path.clone())
            } else if root.as_deref() == context.cwd.as_deref() {
                Some(path.strip_prefix("./").unwrap_or(path).to_owned())
            } else {
                root.as_ref().map(|r| format!("{}/{path}", r.trim_end_matches('/')))
            };
            match anchored {
                Some(p) => exact(format!("{kind}({p})")),
                None => (Vec::new(), Translation::Impossible, Some("a relative path rule without a root cannot be anchored".into())),
            }
        }
        ("WebFetch", RuleSpec { domain: Some(domain), .. }) => exact(format!("WebFetch({domain})")),
        ("Mcp", RuleSpec { mcp: Some(entry), .. }) => exact(format!("Mcp({entry})")),
        _ => (
            Vec::new(),
            Translation::Impossible,
            Some(format!("a {} rule cannot be written as Cursor's {kind}", crate::policy::MatcherKind::of(rule).name()).to_lowercase()),
        ),
    }
}
