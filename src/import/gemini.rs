//! Gemini CLI policy files (`~/.gemini/policies/*.toml`, admin policy directories): `[[rule]]`
//! tables with `toolName`, `mcpName`, `commandPrefix`, `commandRegex`, `argsPattern`,
//! `decision`, `priority`, `modes`, read with the `toml` crate.
//!
//! Source: google-gemini/gemini-cli `packages/core/src/policy/utils.ts` @04fbf50
//! (`buildArgsPatterns`: a `commandPrefix` p is the regex `"command":"<p>(?:[\s"]|\\")` over the
//! JSON of the arguments — a prefix ending at whitespace or the end; a `commandRegex` r is
//! `"command":"` + r — anchored at the start of the command, matched against JSON-escaped
//! text), `policy-engine.ts` and `toml-loader.ts` (rules sorted by tier + priority/1000, the
//! first match wins; decisions `allow`, `deny`, `ask_user`; every sub-command is re-checked) and
//! `docs/reference/policy-engine.md`.
//!
//! Gemini CLI decides by priority; toolgate's deny and confirm rules win whatever the priority.
//! Where a Gemini allow outranks a deny or ask, toolgate is therefore *stricter*, never looser.
//! The import models the default mode: rules limited to other modes (or to non-interactive or
//! sub-agent use, or to tool annotations) never apply there or cannot be checked — an allow is
//! left out, a deny or ask applies to every call of its tool. `argsPattern` regexes run over
//! JSON toolgate does not build: a deny or ask with one covers the whole tool, an allow is left
//! out. Workspace policies are disabled in Gemini CLI (`disableWorkspacePolicies`), so a
//! project source is reported and not imported.
//!
//! The same format also reads `settings.json` files and their legacy `tools.*` keys
//! ([`settings`]).

use super::{
    kind_of, match_all, Builder, ImportContext, ImportError, ImportResult, ImportSource, SourceScope, Translation, FETCH, MCP_TOOL,
    TERMINAL,
};
use crate::policy::{ListKind, Outcome, RuleSpec};
use serde_json::Value;

pub mod settings;

/// Gemini CLI's built-in tool names and the Zed tools they stand for.
const TOOLS: &[(&str, &[&str])] = &[
    ("run_shell_command", &[TERMINAL]),
    ("read_file", &["read_file"]),
    ("read_many_files", &["read_file"]),
    ("list_directory", &["list_directory"]),
    ("write_file", &["edit_file", "save_file"]),
    ("replace", &["edit_file"]),
    ("glob", &["find_path"]),
    ("search_file_content", &["grep"]),
    ("grep_search", &["grep"]),
    ("web_fetch", &[FETCH]),
    ("google_web_search", &["web_search"]),
];

/// The tool a call of Gemini CLI's tool `name` is decided as: the first Zed tool its rules become.
pub fn call_tool(name: &str) -> Option<&'static str> {
    TOOLS.iter().find(|(n, _)| *n == name).and_then(|(_, tools)| tools.first().copied())
}

/// Every Zed tool a Gemini tool stands for, and the imported MCP tool.
fn every_tool() -> Vec<&'static str> {
    let mut all: Vec<&str> = TOOLS.iter().flat_map(|(_, z)| z.iter().copied()).collect();
    all.push(MCP_TOOL);
    all.sort_unstable();
    all.dedup();
    all
}

/// A 1-based line and column for a byte offset.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn field<'v>(rule: &'v Value, camel: &str, snake: &str) -> Option<&'v Value> {
    rule.get(camel).or_else(|| rule.get(snake))
}

fn strings(value: Option<&Value>) -> Result<Vec<String>, &'static str> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(Value::Array(items)) => {
            items.iter().map(|i| i.as_str().map(str::to_owned).ok_or("must be a string or a list of strings")).collect()
        }
        Some(_) => Err("must be a string or a list of strings"),
    }
}

/// Reads policy files and `settings.json` files (told apart by `settings::is_settings`);
/// user policy files become the user layer, admin files the managed layer, a settings file's
/// rules the layer of its scope.
pub fn import(sources: &[ImportSource], context: &ImportContext) -> Result<ImportResult, Vec<ImportError>> {
    let mut builder = Builder::default();
    let mut errors = Vec::new();
    let (settings_files, policy_files): (Vec<&ImportSource>, Vec<&ImportSource>) =
        sources.iter().partition(|s| settings::is_settings(&s.text));
    let mut policies: Vec<(&ImportSource, Vec<Value>)> = Vec::new();
    for source in policy_files {
        let document: Value = match toml::from_str(&source.text) {
            Ok(value) => value,
            Err(e) => {
                let (line, column) = e.span().map_or((None, None), |span| {
                    let (l, c) = position(&source.text, span.start);
                    (Some(l), Some(c))
                });
                errors.push(ImportError { code: "invalidToml", message: e.message().to_owned(), path: None, line, column });
                continue;
            }
        };
        match document.get("rule") {
            None => {}
            Some(Value::Array(rules)) => policies.push((source, rules.clone())),
            Some(_) => errors.push(invalid("rule", "must be an array of tables (`[[rule]]`)")),
        }
    }
    let user_strict: Vec<f64> =
        policies.iter().filter(|(s, _)| in_user_tier(s.scope)).flat_map(|(_, rules)| strict_priorities(rules)).collect();
    let shadows = settings::import(&mut builder, &mut errors, &settings_files, context, &user_strict);
    for (source, rules) in &policies {
        // Priorities of deny and ask rules, to say when an allow outranked one.
        let strict = strict_priorities(rules);
        for (index, rule) in rules.iter().enumerate() {
            let path = format!("rule[{index}]");
            let shown = shown(rule);
            if source.scope == SourceScope::Project {
                builder.report(
                    source.scope,
                    path,
                    &shown,
                    Translation::Exact,
                    Some("Gemini CLI ignores workspace policies; nothing to translate".into()),
                    Vec::new(),
                );
                continue;
            }
            match translate(rule, &path, &strict) {
                Ok((mut targets, mut translation, mut why)) => {
                    let mut note = |text: &str| why = Some(why.take().map_or_else(|| text.to_owned(), |w| format!("{w}; {text}")));
                    if in_user_tier(source.scope) && outranked(rule, &mut targets, shadows) {
                        note(settings::SHADOWED);
                    }
                    if shadows.shell_denied && asks_become_denies(&mut targets) {
                        note(settings::ASK_BECOMES_DENY);
                        translation = translation.max(Translation::Stricter);
                    }
                    let became = targets.into_iter().map(|(tool, list, spec)| builder.add(source.scope, true, &tool, list, spec)).collect();
                    builder.report(source.scope, path, &shown, translation, why, became);
                }
                Err(e) => errors.push(e),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(builder.finish(Outcome::Confirm))
}

/// Whether a scope's policy files are Gemini CLI's user tier (4), where settings rules sit;
/// admin files (managed) are tier 5 and outrank them.
fn in_user_tier(scope: SourceScope) -> bool {
    scope != SourceScope::Managed
}

/// Turns the ask targets for some shell commands into denies; returns whether any was. (With
/// the shell's unallowed commands denied, `asked && unallowed` is denied in Gemini CLI, but a
/// confirm rule would ask in toolgate: see [`settings::ASK_BECOMES_DENY`].)
fn asks_become_denies(targets: &mut Targets) -> bool {
    let mut any = false;
    for (tool, list, spec) in targets.iter_mut() {
        if tool == TERMINAL && *list == ListKind::AlwaysConfirm && !super::is_match_all(spec) {
            *list = ListKind::AlwaysDeny;
            any = true;
        }
    }
    any
}

fn strict_priorities(rules: &[Value]) -> Vec<f64> {
    rules
        .iter()
        .filter(|r| matches!(r.get("decision").and_then(Value::as_str), Some("deny" | "ask_user")))
        .filter_map(|r| r.get("priority").and_then(Value::as_f64))
        .collect()
}

/// Leaves out the allow and ask targets of a user rule that a settings-derived deny outranks
/// (they never apply in Gemini CLI, so keeping them would allow or ask where it refuses);
/// returns whether any was left out. A deny stays: it refuses what the outranking deny refuses.
fn outranked(rule: &Value, targets: &mut Targets, shadows: settings::Shadows) -> bool {
    let priority = rule.get("priority").and_then(Value::as_i64).unwrap_or_default();
    let below = |floor: Option<i64>| floor.is_some_and(|f| priority <= f);
    let before = targets.len();
    targets.retain(|(tool, list, _)| *list == ListKind::AlwaysDeny || !(below(shadows.all) || (tool == TERMINAL && below(shadows.shell))));
    targets.len() != before
}

fn invalid(path: &str, message: &str) -> ImportError {
    ImportError { code: "invalidSettings", message: format!("{path}: {message}"), path: Some(path.to_owned()), line: None, column: None }
}

fn shown(rule: &Value) -> String {
    match rule.as_object() {
        Some(map) => map.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", "),
        None => rule.to_string(),
    }
}

type Targets = Vec<(String, ListKind, RuleSpec)>;

fn translate(rule: &Value, path: &str, strict_priorities: &[f64]) -> Result<(Targets, Translation, Option<String>), ImportError> {
    let at = |key: &str, message: &str| invalid(&format!("{path}.{key}"), message);
    let list = match rule.get("decision").and_then(Value::as_str) {
        Some("allow") => ListKind::AlwaysAllow,
        Some("deny") => ListKind::AlwaysDeny,
        Some("ask_user") => ListKind::AlwaysConfirm,
        _ => return Err(at("decision", "must be \"allow\", \"deny\" or \"ask_user\"")),
    };
    let priority = match rule.get("priority") {
        Some(p) if p.as_i64().is_some_and(|p| (0..=999).contains(&p)) => p.as_f64().unwrap_or_default(),
        _ => return Err(at("priority", "must be an integer from 0 to 999")),
    };
    let allow = list == ListKind::AlwaysAllow;
    let tool_names = strings(field(rule, "toolName", "tool_name")).map_err(|m| at("toolName", m))?;
    let mcp_name = field(rule, "mcpName", "mcp_name").and_then(Value::as_str);
    let prefixes = strings(field(rule, "commandPrefix", "command_prefix")).map_err(|m| at("commandPrefix", m))?;
    let command_regex = field(rule, "commandRegex", "command_regex").and_then(Value::as_str);
    let args_pattern = field(rule, "argsPattern", "args_pattern").and_then(Value::as_str);
    let mut notes: Vec<String> = Vec::new();
    let mut translation = Translation::Exact;
    // Conditions toolgate cannot check: an allow that depends on them is left out; a deny or ask
    // applies without them.
    let modes = strings(rule.get("modes")).map_err(|m| at("modes", m))?;
    if !modes.is_empty() && !modes.iter().any(|m| m == "default") {
        return Ok((
            Vec::new(),
            Translation::Exact,
            Some(format!("applies only in the {} mode(s); this import models the default mode", modes.join(", "))),
        ));
    }
    if rule.get("interactive").and_then(Value::as_bool) == Some(false) {
        return Ok((
            Vec::new(),
            Translation::Exact,
            Some("applies only to non-interactive use; this import models interactive use".into()),
        ));
    }
    let conditional = ["subagent", "toolAnnotations", "tool_annotations"].iter().find(|k| rule.get(**k).is_some());
    if let Some(condition) = conditional {
        if allow {
            return Ok((
                Vec::new(),
                Translation::Impossible,
                Some(format!("toolgate cannot check `{condition}`; the allow rule was left out")),
            ));
        }
        notes.push(format!("toolgate cannot check `{condition}`: the rule applies without it"));
        translation = Translation::Stricter;
    }
    // Which Zed tools, and for MCP which entry.
    let mut tools: Vec<&str> = Vec::new();
    let mut mcp_entries: Vec<String> = Vec::new();
    for name in &tool_names {
        if let Some(server) = mcp_name {
            mcp_entries.push(format!("{server}:{}", if name == "*" { "*" } else { name }));
        } else if name == "*" {
            tools.extend(every_tool());
        } else if let Some(rest) = name.strip_prefix("mcp_") {
            match rest.split_once('_') {
                Some((server, tool)) if !server.contains('*') => {
                    mcp_entries.push(format!("{server}:{}", if tool == "*" { "*" } else { tool }))
                }
                _ if rest == "*" => mcp_entries.push("*:*".into()),
                _ if allow => {
                    notes.push(format!("`{name}` cannot be an MCP entry; left out"));
                    translation = translation.max(Translation::Stricter);
                }
                _ => {
                    mcp_entries.push("*:*".into());
                    notes.push(format!("`{name}` widened to every MCP tool"));
                    translation = translation.max(Translation::Stricter);
                }
            }
        } else if let Some((_, zed)) = TOOLS.iter().find(|(g, _)| g == name) {
            tools.extend(zed.iter().copied());
        } else {
            notes.push(format!("`{name}` is not a Gemini CLI tool toolgate has a tool for"));
            translation = translation.max(Translation::Impossible);
        }
    }
    if tool_names.is_empty() && mcp_name.is_some() {
        mcp_entries.push(format!("{}:*", mcp_name.unwrap_or("*")));
    }
    let mut targets: Targets = Vec::new();
    for entry in mcp_entries {
        if crate::policy::pair_index::PairPattern::mcp_entry(&entry).is_ok() {
            targets.push((MCP_TOOL.into(), list, RuleSpec::mcp(entry)));
        } else if !allow {
            targets.push((MCP_TOOL.into(), list, RuleSpec::mcp("*:*")));
            notes.push(format!("`{entry}` is not a valid MCP entry: widened to every MCP tool"));
            translation = translation.max(Translation::Stricter);
        }
    }
    for tool in tools {
        let is_shell = tool == TERMINAL;
        if is_shell && !prefixes.is_empty() {
            // As whole words of the command (unquoted, past leading assignments), a token prefix;
            // a word with `|` cannot be a token, so it stays a plain prefix.
            targets.extend(prefixes.iter().map(|p| {
                let rule = if p.contains('|') || p.trim().is_empty() { RuleSpec::prefix(p.clone()) } else { RuleSpec::tokens(p.clone()) };
                (TERMINAL.to_owned(), list, rule)
            }));
        } else if is_shell && command_regex.is_some() {
            let regex = command_regex.unwrap_or_default();
            // `$` means the end of the JSON, and `\"` an escaped quote: not what toolgate matches.
            if regex.contains('$') || regex.contains("\\\"") || regex.contains('"') {
                if allow {
                    notes.push("the regex refers to the JSON around the command; the allow rule was left out".into());
                    translation = translation.max(Translation::Impossible);
                    continue;
                }
                notes.push("the regex refers to the JSON around the command: the rule covers every command".into());
                translation = translation.max(Translation::Stricter);
                targets.push((TERMINAL.to_owned(), list, match_all(kind_of(TERMINAL))));
                continue;
            }
            targets.push((TERMINAL.to_owned(), list, RuleSpec::regex(format!("^(?:{regex})"), true)));
        } else if args_pattern.is_some() {
            if allow {
                notes.push("`argsPattern` runs over JSON toolgate does not build; the allow rule was left out".into());
                translation = translation.max(Translation::Impossible);
                continue;
            }
            notes.push("`argsPattern` runs over JSON toolgate does not build: the rule covers every call of the tool".into());
            translation = translation.max(Translation::Stricter);
            targets.push((tool.to_owned(), list, match_all(kind_of(tool))));
        } else {
            targets.push((tool.to_owned(), list, match_all(kind_of(tool))));
        }
    }
    if allow && !targets.is_empty() {
        if targets.iter().any(|(t, _, _)| t == TERMINAL) {
            notes.push(
                "an allow rule never covers a sub-command with a hazard (a file redirection, a substitution, an executing flag)".into(),
            );
            translation = translation.max(Translation::Stricter);
        }
        if strict_priorities.iter().any(|p| *p < priority) {
            notes.push("it outranks a deny or ask rule in Gemini CLI; in toolgate deny and ask rules always win".into());
            translation = translation.max(Translation::Stricter);
        }
    }
    Ok((targets, translation, (!notes.is_empty()).then(|| notes.join("; "))))
}

// ---- export ----

/// Writes the policy as Gemini CLI `[[rule]]` tables. Gemini decides by priority, so deny rules
/// get 900, ask rules 800 and allow rules 100: toolgate's deny > confirm > allow.
pub fn export(policy: &crate::policy::PolicySpec) -> super::ExportResult {
    use super::{is_match_all, rules_of, ExportReport, ExportedFile};
    let mut files: std::collections::BTreeMap<SourceScope, String> = std::collections::BTreeMap::new();
    let mut report = Vec::new();
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let scope = policy.layers.iter().find(|l| l.name == place.layer).map_or(SourceScope::User, super::scope_of);
        let (decision, priority) = match list {
            ListKind::AlwaysDeny => ("deny", 900),
            ListKind::AlwaysConfirm => ("ask_user", 800),
            ListKind::AlwaysAllow => ("allow", 100),
        };
        let gemini_tool = TOOLS.iter().find(|(_, zed)| zed.first() == Some(&place.tool.as_str())).map(|(g, _)| *g);
        let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut tables = Vec::new();
        let (translation, why) = match (place.tool.as_str(), gemini_tool) {
            (MCP_TOOL, _) => match rule.mcp.as_deref().and_then(|e| e.split_once(':')) {
                Some(("*", tool)) => {
                    tables.push(format!("mcpName = \"*\"\ntoolName = {}", q(tool)));
                    (Translation::Exact, None)
                }
                Some((server, tool)) => {
                    tables.push(format!("mcpName = {}\ntoolName = {}", q(server), q(tool)));
                    (Translation::Exact, None)
                }
                None => (Translation::Impossible, Some("only MCP entries can be written for MCP calls".to_owned())),
            },
            (_, Some(tool)) if is_match_all(rule) => {
                tables.push(format!("toolName = {}", q(tool)));
                (Translation::Exact, None)
            }
            (TERMINAL, Some(tool)) => {
                let prefixes: Option<Vec<String>> = if let Some(prefix) = &rule.prefix {
                    Some(vec![prefix.split_whitespace().collect::<Vec<_>>().join(" ")])
                } else if let Some(tokens) = &rule.tokens {
                    super::claude::expand_tokens(tokens)
                } else if let Some(glob) = &rule.glob {
                    glob.strip_suffix(" *").or_else(|| glob.strip_suffix(":*")).filter(|h| !h.contains('*')).map(|h| vec![h.to_owned()])
                } else {
                    None
                };
                match prefixes {
                    Some(prefixes) => {
                        let list: Vec<String> = prefixes.iter().map(|p| q(p)).collect();
                        tables.push(format!("toolName = {}\ncommandPrefix = [{}]", q(tool), list.join(", ")));
                        (Translation::Exact, None)
                    }
                    None => (Translation::Impossible, Some("only word prefixes can be written as commandPrefix".to_owned())),
                }
            }
            _ => (Translation::Impossible, Some(format!("Gemini CLI matches `{}` calls only through argsPattern over JSON", place.tool))),
        };
        let written: Vec<String> =
            tables.into_iter().map(|t| format!("[[rule]]\n{t}\ndecision = \"{decision}\"\npriority = {priority}\n")).collect();
        for w in &written {
            let file = files.entry(scope).or_default();
            file.push_str(w);
            file.push('\n');
        }
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written });
    }
    super::ExportResult { files: files.into_iter().map(|(scope, text)| ExportedFile { scope, text }).collect(), report }
}
