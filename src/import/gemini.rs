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
//! out; a rule whose regex Gemini CLI deems unsafe is dropped there, so such an allow is left out
//! too. A deny or ask that matches every call of its tools and ranks below every other rule of
//! them (and below the rules Gemini CLI derives from settings) decides only what nothing else
//! does: it is read as their default. Workspace policies are disabled in Gemini CLI
//! (`disableWorkspacePolicies`), so a project source is reported and not imported.
//!
//! The export ([`export`]) writes deny and ask rules above every allow, in every tier that has
//! an allow or an ask, never only into a workspace file, and the policy's defaults as catch-alls.
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
    let defaults = catch_all_defaults(&policies);
    for (file, (source, rules)) in policies.iter().enumerate() {
        // Priorities of deny and ask rules, to say when an allow outranked one.
        let strict = strict_priorities(rules);
        for (index, rule) in rules.iter().enumerate() {
            let path = format!("rule[{index}]");
            let shown = shown(rule);
            if defaults.contains(&(file, index)) {
                let mode = if rule.get("decision").and_then(Value::as_str) == Some("deny") { Outcome::Deny } else { Outcome::Confirm };
                // An ask is what the imported policy does anyway where no rule decides.
                let became = match mode {
                    Outcome::Confirm => Vec::new(),
                    _ => tools_named(rule).into_iter().map(|tool| builder.tool_default(source.scope, true, tool, mode)).collect(),
                };
                let bare_shell = mode == Outcome::Confirm
                    && tools_named(rule).contains(&TERMINAL)
                    && field(rule, "commandRegex", "command_regex").is_none();
                let (translation, why) = if bare_shell {
                    (Translation::Stricter, format!("{DEFAULT_NOTE}; Gemini CLI also runs the shell commands it deems safe without asking under an ask rule with no command pattern"))
                } else {
                    (Translation::Exact, DEFAULT_NOTE.to_owned())
                };
                builder.report(source.scope, path, &shown, translation, Some(why), became);
                continue;
            }
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

/// What Gemini CLI does with a rule whose regex it deems unsafe.
const DROPPED_BY_GEMINI: &str =
    "Gemini CLI drops a rule whose regex it deems unsafe (longer than 2,048 characters, or a quantified group holding a quantifier)";

/// Whether Gemini CLI drops a rule with this regex (`utils.ts` `isSafeRegExp`).
fn unsafe_in_gemini(regex: &str) -> bool {
    regex.len() > 2048 || regex_lite::Regex::new(r"\([^)]*[*+?{].*\)[*+?{]").is_ok_and(|nested| nested.is_match(regex))
}

/// What a catch-all at the bottom of its tools' rules is.
const DEFAULT_NOTE: &str = "the lowest-ranked rule of its tools, with nothing below it: it decides what no other rule does, their default";

/// The Zed tools a rule names: every tool for `*`, the MCP tool for an MCP rule.
fn tools_named(rule: &Value) -> Vec<&'static str> {
    let names = strings(field(rule, "toolName", "tool_name")).unwrap_or_default();
    let mut out: Vec<&'static str> = Vec::new();
    if field(rule, "mcpName", "mcp_name").is_some() {
        out.push(MCP_TOOL);
    } else {
        for name in &names {
            if name == "*" {
                out.extend(every_tool());
            } else if name.starts_with("mcp_") {
                out.push(MCP_TOOL);
            } else if let Some((_, zed)) = TOOLS.iter().find(|(g, _)| g == name) {
                out.extend(zed.iter().copied());
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a rule applies in the default, interactive mode this import models.
fn applies(rule: &Value) -> bool {
    let modes = strings(rule.get("modes")).unwrap_or_default();
    (modes.is_empty() || modes.iter().any(|m| m == "default")) && rule.get("interactive").and_then(Value::as_bool) != Some(false)
}

/// Whether a rule matches every call of the tools it names: no argument condition (a shell rule
/// may have `commandRegex = ".*"`), no condition toolgate cannot check, and for MCP every tool
/// of every server.
fn whole_tools(rule: &Value) -> bool {
    let regex = field(rule, "commandRegex", "command_regex").and_then(Value::as_str);
    let mcp = field(rule, "mcpName", "mcp_name").and_then(Value::as_str);
    let names = strings(field(rule, "toolName", "tool_name")).unwrap_or_default();
    field(rule, "argsPattern", "args_pattern").is_none()
        && field(rule, "commandPrefix", "command_prefix").is_none()
        && regex.is_none_or(|r| r == ".*")
        && ["subagent", "toolAnnotations", "tool_annotations"].iter().all(|k| rule.get(*k).is_none())
        && mcp.is_none_or(|m| m == "*" && names.iter().all(|n| n == "*"))
        && (mcp.is_some() || names.iter().all(|n| !n.starts_with("mcp_")))
}

/// The deny and ask rules that are their tools' defaults: each matches every call of its tools,
/// sits in the user tier below every rule Gemini CLI derives from settings (4.1 and up), and no
/// other rule of those tools ranks at or below it (but another such catch-all with the same
/// decision). Gemini CLI lets the highest-ranked matching rule decide, so such a rule decides
/// exactly the calls no other rule does. By (file, rule) index.
fn catch_all_defaults(policies: &[(&ImportSource, Vec<Value>)]) -> Vec<(usize, usize)> {
    let loaded: Vec<(usize, usize, &Value, i64)> = policies
        .iter()
        .enumerate()
        .filter(|(_, (source, _))| source.scope != SourceScope::Project)
        .flat_map(|(file, (source, rules))| {
            let tier = if in_user_tier(source.scope) { 4000 } else { 5000 };
            rules
                .iter()
                .enumerate()
                .filter(|(_, r)| applies(r))
                .map(move |(index, rule)| (file, index, rule, tier + rule.get("priority").and_then(Value::as_i64).unwrap_or_default()))
        })
        .collect();
    let decision = |rule: &Value| rule.get("decision").and_then(Value::as_str).unwrap_or_default().to_owned();
    loaded
        .iter()
        .filter(|(_, _, rule, rank)| {
            matches!(decision(rule).as_str(), "deny" | "ask_user") && whole_tools(rule) && (4000..4100).contains(rank)
        })
        .filter(|(file, index, rule, rank)| {
            let tools = tools_named(rule);
            !tools.is_empty()
                && loaded.iter().all(|(f, i, other, other_rank)| {
                    (f, i) == (file, index)
                        || !tools_named(other).iter().any(|t| tools.contains(t))
                        || other_rank > rank
                        || (other_rank == rank && whole_tools(other) && decision(other) == decision(rule))
                })
        })
        .map(|(file, index, _, _)| (*file, *index))
        .collect()
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
    // Gemini CLI drops a rule whose regex it deems unsafe (`toml-loader.ts`, `utils.ts`
    // `isSafeRegExp`: longer than 2,048 characters, or a quantified group holding a quantifier).
    if [command_regex, args_pattern].into_iter().flatten().any(unsafe_in_gemini) {
        if allow {
            return Ok((Vec::new(), Translation::Exact, Some(format!("{DROPPED_BY_GEMINI}; nothing to translate"))));
        }
        notes.push(format!("{DROPPED_BY_GEMINI}, where toolgate keeps it"));
        translation = translation.max(Translation::Stricter);
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

/// Priorities within a tier (the TOML `priority`, 0–999; Gemini CLI ranks a rule at
/// tier + priority/1000, `toml-loader.ts` `transformPriority`): deny and ask rules above every
/// allow the export writes and above every allow Gemini CLI derives from settings or saves from
/// "always allow" (at most 4.95 in the user tier, `config.ts`); the catch-alls that stand for the
/// policy's defaults below them all, yet above Gemini CLI's own default rules (tier 1).
const DENY_PRIORITY: u32 = 999;
const ASK_PRIORITY: u32 = 998;
const ALLOW_PRIORITY: u32 = 100;
const DEFAULT_PRIORITY: u32 = 1;

/// Why a project's allow rule is not written.
pub const WORKSPACE_INERT: &str = "Gemini CLI does not load workspace policies (`disableWorkspacePolicies`, packages/cli/src/config/policy.ts; google-gemini/gemini-cli#18186): a project's allow rule cannot be written";
/// What becomes of a project's deny or ask rule.
pub const WORKSPACE_TO_USER: &str =
    "written to the user's policies, as Gemini CLI does not load workspace policies: it applies in every project";

/// The tier a layer's rules are written to: the admin policies (tier 5) for a managed layer, the
/// user's (tier 4) for the others; `None` for a project's, which Gemini CLI would not load.
fn tier_of(layer: &crate::policy::LayerSpec) -> Option<SourceScope> {
    match super::scope_of(layer) {
        SourceScope::Managed => Some(SourceScope::Managed),
        SourceScope::Project | SourceScope::Local => None,
        SourceScope::User | SourceScope::Defaults => Some(SourceScope::User),
    }
}

/// Whether the export writes a table Gemini CLI applies to at least the calls a deny or ask rule
/// matches (at a priority above every allow it writes, in every tier that has one), or to at
/// most those an allow rule matches.
pub(crate) fn carries(place: &super::RulePlace, rule: &RuleSpec, layer: &crate::policy::LayerSpec) -> Option<Translation> {
    let list = place.list.filter(|list| *list != ListKind::AlwaysAllow || tier_of(layer).is_some())?;
    Some(tables_for(&place.tool, list, rule).1).filter(|t| *t != Translation::Impossible)
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The Gemini tool a Zed tool is written as.
fn gemini_tool(tool: &str) -> Option<&'static str> {
    TOOLS.iter().find(|(_, zed)| zed.first() == Some(&tool)).map(|(g, _)| *g)
}

/// The tools an allow rule of `tool` becomes once read back: those of the Gemini tool it is
/// written as (`write_file` stands for both `edit_file` and `save_file`).
pub(crate) fn reads_back_as(tool: &str) -> &'static [&'static str] {
    TOOLS.iter().find(|(_, zed)| zed.first() == Some(&tool)).map_or(&[], |(_, zed)| *zed)
}

/// The `[[rule]]` bodies (without decision and priority) one rule becomes.
fn tables_for(tool: &str, list: ListKind, rule: &RuleSpec) -> (Vec<String>, Translation, Option<String>) {
    if tool == MCP_TOOL {
        return match rule.mcp.as_deref().and_then(|e| e.split_once(':')) {
            Some((server, name)) => (vec![format!("mcpName = {}\ntoolName = {}", quoted(server), quoted(name))], Translation::Exact, None),
            None => (Vec::new(), Translation::Impossible, Some("only MCP entries can be written for MCP calls".to_owned())),
        };
    }
    let Some(name) = gemini_tool(tool) else {
        return (Vec::new(), Translation::Impossible, Some(format!("Gemini CLI has no tool for `{tool}`")));
    };
    if super::is_match_all(rule) {
        // A shell rule without a command pattern is upgraded from ask to allow for commands
        // Gemini CLI deems safe (`policy-engine.ts` `applyShellHeuristics`); a pattern that
        // matches every command keeps it a question.
        let body = if tool == TERMINAL && list == ListKind::AlwaysConfirm {
            format!("toolName = {}\ncommandRegex = \".*\"", quoted(name))
        } else {
            format!("toolName = {}", quoted(name))
        };
        return (vec![body], Translation::Exact, None);
    }
    if tool != TERMINAL {
        return (
            Vec::new(),
            Translation::Impossible,
            Some(format!("Gemini CLI matches `{tool}` calls only through argsPattern over JSON")),
        );
    }
    let exact: Option<Vec<String>> = if let Some(prefix) = &rule.prefix {
        Some(vec![prefix.split_whitespace().collect::<Vec<_>>().join(" ")])
    } else if let Some(tokens) = &rule.tokens {
        super::claude::expand_tokens(tokens)
    } else if let Some(glob) = &rule.glob {
        glob.strip_suffix(" *").or_else(|| glob.strip_suffix(":*")).filter(|h| !h.contains('*')).map(|h| vec![h.to_owned()])
    } else {
        None
    };
    let prefixes = |prefixes: &[String]| {
        let list: Vec<String> = prefixes.iter().map(|p| quoted(p)).collect();
        vec![format!("toolName = {}\ncommandPrefix = [{}]", quoted(name), list.join(", "))]
    };
    match (exact, list) {
        (Some(exact), _) => (prefixes(&exact), Translation::Exact, None),
        (None, ListKind::AlwaysAllow) => {
            (Vec::new(), Translation::Impossible, Some("only word prefixes can be written as commandPrefix".to_owned()))
        }
        (None, _) => match super::leading_words(rule) {
            Some(words) => (
                prefixes(&words),
                Translation::Stricter,
                Some("written as the words every command it matches starts with, which match more".to_owned()),
            ),
            None => (
                Vec::new(),
                Translation::Impossible,
                Some("no word prefix holds every command it matches, and a commandRegex would run over JSON".to_owned()),
            ),
        },
    }
}

/// One `[[rule]]` table.
fn table(body: &str, list: ListKind, priority: u32) -> String {
    let decision = match list {
        ListKind::AlwaysDeny => "deny",
        ListKind::AlwaysConfirm => "ask_user",
        ListKind::AlwaysAllow => "allow",
    };
    format!("[[rule]]\n{body}\ndecision = \"{decision}\"\npriority = {priority}\n")
}

fn priority_of(list: ListKind) -> u32 {
    match list {
        ListKind::AlwaysDeny => DENY_PRIORITY,
        ListKind::AlwaysConfirm => ASK_PRIORITY,
        ListKind::AlwaysAllow => ALLOW_PRIORITY,
    }
}

/// Writes the policy as Gemini CLI policy files: the admin tier's for a managed layer, the
/// user's for the others. Gemini CLI lets the highest-ranked matching rule decide and ranks a
/// higher tier first (`policy-engine.ts` `check`), so deny and ask rules are written at 999 and
/// 998, above the allows at 100, and a lower tier's deny and ask rules are written again into
/// the admin file when it holds an allow or an ask; a project's deny and ask rules go to the user's file,
/// as Gemini CLI does not load workspace policies. The policy's default for each tool is a
/// catch-all at priority 1 (so Gemini CLI's own defaults, which allow its read-only tools, do
/// not decide).
pub fn export(policy: &crate::policy::PolicySpec) -> super::ExportResult {
    use super::{rules_of, ExportReport, ExportedFile};
    let mut files: std::collections::BTreeMap<SourceScope, Vec<String>> = std::collections::BTreeMap::new();
    let mut report = Vec::new();
    let mut strict_below: Vec<String> = Vec::new();
    // Whether the admin file holds an allow or an ask, which outranks every rule of the user's.
    let mut admin_outranks = false;
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let Some(layer) = policy.layers.iter().find(|l| l.name == place.layer) else { continue };
        let (bodies, mut translation, mut why) = tables_for(&place.tool, list, rule);
        let tier = match (tier_of(layer), list) {
            (Some(tier), _) => tier,
            (None, ListKind::AlwaysAllow) => {
                report.push(ExportReport {
                    place,
                    rule: rule.text().to_owned(),
                    translation: Translation::Impossible,
                    why: Some(WORKSPACE_INERT.to_owned()),
                    written: Vec::new(),
                });
                continue;
            }
            (None, _) => {
                if !bodies.is_empty() {
                    translation = translation.max(Translation::Stricter);
                    why = Some(why.map_or_else(|| WORKSPACE_TO_USER.to_owned(), |w| format!("{w}; {WORKSPACE_TO_USER}")));
                }
                SourceScope::User
            }
        };
        let written: Vec<String> = bodies.iter().map(|b| table(b, list, priority_of(list))).collect();
        if tier == SourceScope::Managed && list != ListKind::AlwaysDeny && !written.is_empty() {
            admin_outranks = true;
        }
        if tier == SourceScope::User && list != ListKind::AlwaysAllow {
            strict_below.extend(written.iter().cloned());
        }
        let file = files.entry(tier).or_default();
        for w in &written {
            if !file.contains(w) {
                file.push(w.clone());
            }
        }
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written });
    }
    if admin_outranks {
        // The admin tier outranks the user's: its allows and asks would otherwise decide before
        // the user's deny and ask rules.
        let admin = files.entry(SourceScope::Managed).or_default();
        for w in strict_below {
            if !admin.contains(&w) {
                admin.push(w);
            }
        }
        for entry in report.iter_mut().filter(|e| e.place.list.is_some_and(|l| l != ListKind::AlwaysAllow) && !e.written.is_empty()) {
            let layer = policy.layers.iter().find(|l| l.name == entry.place.layer);
            if layer.and_then(tier_of) != Some(SourceScope::Managed) {
                let note = "written to the admin policies too, where an allow or ask would otherwise outrank it";
                entry.why = Some(entry.why.take().map_or_else(|| note.to_owned(), |w| format!("{w}; {note}")));
            }
        }
    }
    report.extend(defaults(policy, files.entry(SourceScope::User).or_default()));
    super::ExportResult {
        files: files
            .into_iter()
            .filter(|(_, tables)| !tables.is_empty())
            .map(|(scope, tables)| ExportedFile { scope, text: tables.join("\n") })
            .collect(),
        report,
    }
}

/// The catch-alls that stand for the policy's default of each Gemini CLI tool (the strictest of
/// the Zed tools it stands for) and of MCP tools: an ask or a deny at priority 1 of the user tier,
/// reported at the default's place (a tool's, a layer's or the policy's). A default that allows
/// is not written (Gemini CLI then asks, or allows what its own defaults allow).
fn defaults(policy: &crate::policy::PolicySpec, user: &mut Vec<String>) -> Vec<super::ExportReport> {
    use super::{ExportReport, RulePlace};
    use crate::policy::DefaultSource;
    let compiled = crate::policy::Policy::new(policy.clone());
    let mut report: Vec<ExportReport> = Vec::new();
    let every = TOOLS.iter().map(|(name, zed)| (*name, *zed)).chain([("mcp_*", &[MCP_TOOL][..])]);
    for (name, zed) in every {
        let found: Vec<(Outcome, RulePlace)> = zed
            .iter()
            .map(|tool| {
                let (mode, source) = compiled.default_for(compiled.tool(tool));
                let place = match source {
                    DefaultSource::Tool { layer } => RulePlace { layer, tool: (*tool).to_owned(), list: None, index: None },
                    DefaultSource::Global { layer } => {
                        RulePlace { layer: layer.unwrap_or_default(), tool: "*".into(), list: None, index: None }
                    }
                };
                (mode, place)
            })
            .collect();
        let mode = found.iter().map(|(m, _)| *m).max().unwrap_or(Outcome::Confirm);
        let list = match mode {
            Outcome::Allow => None,
            Outcome::Confirm => Some(ListKind::AlwaysConfirm),
            Outcome::Deny => Some(ListKind::AlwaysDeny),
        };
        let written: Vec<String> = list
            .map(|list| {
                let body = match name {
                    "mcp_*" => "mcpName = \"*\"\ntoolName = \"*\"".to_owned(),
                    "run_shell_command" if list == ListKind::AlwaysConfirm => {
                        format!("toolName = {}\ncommandRegex = \".*\"", quoted(name))
                    }
                    _ => format!("toolName = {}", quoted(name)),
                };
                vec![table(&body, list, DEFAULT_PRIORITY)]
            })
            .unwrap_or_default();
        for w in &written {
            if !user.contains(w) {
                user.push(w.clone());
            }
        }
        for (tool_mode, place) in found {
            if let Some(entry) = report.iter_mut().find(|e| e.place == place) {
                entry.written.extend(written.iter().filter(|w| !entry.written.contains(w)).cloned().collect::<Vec<_>>());
                continue;
            }
            let (translation, why) = match (tool_mode, list) {
                (Outcome::Allow, None) => (
                    Translation::Stricter,
                    Some(
                        "not written: Gemini CLI asks for calls no rule decides (and its own defaults allow its read-only tools)"
                            .to_owned(),
                    ),
                ),
                (Outcome::Allow, Some(_)) => (Translation::Stricter, Some(format!("{name} stands for tools with a stricter default too"))),
                _ => (Translation::Exact, None),
            };
            report.push(ExportReport { place, rule: format!("defaultMode {tool_mode:?}"), translation, why, written: written.clone() });
        }
    }
    report
}
