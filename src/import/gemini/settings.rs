//! Gemini CLI's settings-derived rules: the `tools` keys of `settings.json` (`tools.allowed`,
//! `tools.core`, `tools.confirmationRequired`, `tools.exclude`), which Gemini CLI turns into
//! policy rules of the user tier.
//!
//! Source: google-gemini/gemini-cli @5411f11 `packages/core/src/policy/config.ts`
//! (`createPolicyEngineConfig`, `mapToolsToRules`): `tools.exclude` entries are DENY rules at
//! 4.4 whose `toolName` is the entry as written; `tools.confirmationRequired` ASK_USER at 4.35;
//! `tools.allowed` ALLOW at 4.3, where `run_shell_command(<prefix>)` is a command prefix and
//! `<tool>(<args>)` of any other tool allows the whole tool; once `tools.allowed` lists a shell
//! entry, a DENY of the shell tool at 4.29 follows ("narrowing enforcement", google-gemini/gemini-cli#25283);
//! `tools.core` ALLOW at 4.25 (same parsing, non-plan modes) with a DENY of `*` at 4.24.
//! `packages/cli/src/config/settingsSchema.ts` and `utils/deepMerge.ts`: `tools.exclude` is
//! united across settings files, the other keys are replaced by the highest scope that sets
//! them (system > workspace > user > system defaults); an untrusted workspace's settings are
//! ignored (`mergeSettings`).
//!
//! A settings DENY outranks the user's policy rules below it: those rules are then inert in
//! Gemini CLI, and the import leaves them out (`Shadows`) rather than let them allow or ask
//! where Gemini CLI refuses.

use super::super::{is_match_all, Builder, ImportContext, ImportError, ImportSource, SourceScope, Translation, TERMINAL};
use crate::policy::{ListKind, Outcome};
use serde_json::{json, Value};

/// Why a `tools.exclude` (or `tools.confirmationRequired`) entry with arguments does nothing.
pub const INERT_ENTRY: &str = "inert in Gemini CLI (google-gemini/gemini-cli#17728): the entry becomes a rule whose tool name is the text as written, and no tool is called that; nothing was imported. To decide the command, write a policy rule (`toolName = \"run_shell_command\"`, `commandPrefix = \"…\"`, `decision = \"deny\"` or `\"ask_user\"`)";
/// Why `<tool>(<args>)` of a tool other than the shell allows the whole tool.
pub const ARGS_IGNORED: &str = "Gemini CLI ignores the arguments of tools other than the shell: the whole tool is allowed";
/// What the narrowing enforcement of `tools.allowed` does.
pub const NARROWING: &str = "surprising: once tools.allowed lists a shell command, Gemini CLI denies every other shell command (narrowing enforcement, google-gemini/gemini-cli#25283) instead of asking; imported as that deny";
/// What the allowlist enforcement of `tools.core` does.
pub const CORE_ENFORCEMENT: &str =
    "Gemini CLI denies every tool tools.core does not list (and tools.allowed does not allow) in the default, auto-edit and yolo modes";
/// Why an ask rule for some shell commands became a deny.
pub const ASK_BECOMES_DENY: &str = "stricter: settings.json denies the shell commands no rule allows, and in Gemini CLI a line that joins an asked command to such a command is denied, but in toolgate a confirm rule decides the whole line before the default; so that the import is never looser the ask became a deny";
/// Why a user policy rule below a settings DENY was left out.
pub const SHADOWED: &str = "a deny Gemini CLI derives from settings.json outranks it there, so it never applies; left out";

/// The shell tool and the legacy name Gemini CLI reads as it (`SHELL_TOOL_NAMES`).
const SHELL: &str = "run_shell_command";
const SHELL_ALIAS: &str = "ShellTool";

/// The priorities (0–999, of the user tier) at or below which a user policy rule is outranked
/// by a settings-derived DENY: `all` by `tools.core`'s `*` (4.24), `shell` by the narrowing
/// enforcement of `tools.allowed` (4.29). `shell_denied`: shell commands no rule allows are
/// denied (by either) and the settings do not allow the whole shell.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Shadows {
    pub all: Option<i64>,
    pub shell: Option<i64>,
    pub shell_denied: bool,
}

/// How far below its allows an enforcement deny sits: Gemini CLI's `priority - 0.01`, in the
/// thousandths of a tier that policy priorities count.
const ENFORCEMENT_BELOW: i64 = 10;

/// One `tools` key: the decision and priority Gemini CLI gives its entries, and how it reads them.
struct Key {
    name: &'static str,
    decision: &'static str,
    /// The priority within the user tier (4.3 → 300).
    priority: i64,
    /// `tool(args)` is read (a command prefix for the shell); otherwise the text is the tool name.
    reads_args: bool,
    /// `ShellTool` is read as `run_shell_command`.
    reads_alias: bool,
    /// The lists of every settings file are united; otherwise the highest scope's replaces them.
    united: bool,
    /// A shell entry denies every other shell command (narrowing enforcement).
    narrows_shell: bool,
    /// Every tool not listed is denied (allowlist enforcement).
    denies_the_rest: bool,
}

const KEYS: &[Key] = &[
    Key {
        name: "exclude",
        decision: "deny",
        priority: 400,
        reads_args: false,
        reads_alias: false,
        united: true,
        narrows_shell: false,
        denies_the_rest: false,
    },
    Key {
        name: "confirmationRequired",
        decision: "ask_user",
        priority: 350,
        reads_args: false,
        reads_alias: true,
        united: false,
        narrows_shell: false,
        denies_the_rest: false,
    },
    Key {
        name: "allowed",
        decision: "allow",
        priority: 300,
        reads_args: true,
        reads_alias: true,
        united: false,
        narrows_shell: true,
        denies_the_rest: false,
    },
    Key {
        name: "core",
        decision: "allow",
        priority: 250,
        reads_args: true,
        reads_alias: true,
        united: false,
        narrows_shell: false,
        denies_the_rest: true,
    },
];

/// Whether a source is a `settings.json` rather than policy TOML: JSON (with comments) starts
/// with `{` or `/`, which no TOML document does.
pub(crate) fn is_settings(text: &str) -> bool {
    text.trim_start().starts_with(['{', '/'])
}

/// `name(args)`, Gemini CLI's legacy form (`/^([a-zA-Z0-9_-]+)\((.*)\)$/`).
fn with_args(entry: &str) -> Option<(&str, &str)> {
    let (name, rest) = entry.split_once('(')?;
    let args = rest.strip_suffix(')')?;
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid.then_some((name, args))
}

/// A settings file's entries of one key.
struct Entries<'s> {
    source: &'s ImportSource,
    items: Vec<String>,
}

/// What one key's kept lists imply beyond their own rules.
#[derive(Default)]
struct Effects {
    /// A shell entry of a narrowing key.
    narrowed: bool,
    /// An allow of the whole shell survived.
    whole_shell: bool,
}

/// Reads the settings files' `tools` keys into `builder`; returns what they outrank.
/// `user_strict` are the priorities of the user's policy deny and ask rules, for the report.
pub(crate) fn import(
    builder: &mut Builder,
    errors: &mut Vec<ImportError>,
    sources: &[&ImportSource],
    context: &ImportContext,
    user_strict: &[f64],
) -> Shadows {
    let mut read: Vec<(&ImportSource, Value)> = Vec::new();
    for source in sources {
        match crate::zed::parse_settings(&format!("Gemini CLI {}", source.scope.layer_name()), &source.text) {
            Ok(value) => read.push((source, value)),
            Err(e) => errors.push(ImportError { code: "invalidJson", message: e.to_string(), path: None, line: e.line, column: e.column }),
        }
    }
    // Highest scope first, so the first file that sets a replaced key is the one Gemini keeps.
    read.sort_by_key(|(source, _)| source.scope);
    let mut shadows = Shadows::default();
    let mut whole_shell = false;
    for key in KEYS {
        let path = format!("tools.{}", key.name);
        let mut kept_scope = None;
        for list in lists_of(key, &read, errors) {
            let scope = list.source.scope;
            if let Some(why) = ignored(key, &list, kept_scope, context) {
                for (index, item) in list.items.iter().enumerate() {
                    builder.report(scope, format!("{path}[{index}]"), item, Translation::Exact, Some(why.clone()), Vec::new());
                }
                continue;
            }
            kept_scope = Some(scope);
            let effects = translate_list(builder, errors, key, &list, user_strict, shadows);
            whole_shell |= effects.whole_shell;
            if effects.narrowed {
                let place = builder.tool_default(scope, true, TERMINAL, Outcome::Deny);
                let rule = format!("{SHELL} (narrowing enforcement)");
                builder.report(scope, path.clone(), &rule, Translation::Exact, Some(NARROWING.into()), vec![place]);
                shadows.shell = Some(key.priority - ENFORCEMENT_BELOW);
            }
            if key.denies_the_rest {
                let place = builder.layer_default(scope, true, Outcome::Deny);
                let rule = "* (allowlist enforcement)";
                builder.report(scope, path.clone(), rule, Translation::Exact, Some(CORE_ENFORCEMENT.into()), vec![place]);
                shadows.all = Some(key.priority - ENFORCEMENT_BELOW);
            }
        }
    }
    shadows.shell_denied = (shadows.shell.is_some() || shadows.all.is_some()) && !whole_shell;
    shadows
}

/// Each settings file's entries of a key, highest scope first; entries that are not strings
/// are errors.
fn lists_of<'s>(key: &Key, read: &[(&'s ImportSource, Value)], errors: &mut Vec<ImportError>) -> Vec<Entries<'s>> {
    let path = format!("tools.{}", key.name);
    let mut lists = Vec::new();
    for (source, settings) in read {
        let Some(value) = settings.get("tools").and_then(|t| t.get(key.name)) else { continue };
        let Some(items) = value.as_array() else {
            errors.push(super::invalid(&path, "must be an array of strings"));
            continue;
        };
        let mut strings = Vec::new();
        for (index, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) => strings.push(s.to_owned()),
                None => errors.push(super::invalid(&format!("{path}[{index}]"), "must be a string")),
            }
        }
        lists.push(Entries { source, items: strings });
    }
    lists
}

/// Why Gemini CLI does not read a file's list: an untrusted workspace, or a higher scope's list
/// of a key that is replaced, not united.
fn ignored(key: &Key, list: &Entries, kept_scope: Option<SourceScope>, context: &ImportContext) -> Option<String> {
    if list.source.scope == SourceScope::Project && context.project_trusted == Some(false) {
        return Some("the workspace is not trusted: Gemini CLI ignores its settings".to_owned());
    }
    let kept = kept_scope.filter(|_| !key.united)?;
    Some(format!(
        "replaced by the {} settings' tools.{}: Gemini CLI keeps only the list of the highest scope that sets it",
        kept.layer_name(),
        key.name
    ))
}

/// Translates one file's entries of a key, leaving out what a deny of a key before it outranks
/// (the narrowing deny outranks `tools.core`).
fn translate_list(
    builder: &mut Builder,
    errors: &mut Vec<ImportError>,
    key: &Key,
    list: &Entries,
    user_strict: &[f64],
    shadows: Shadows,
) -> Effects {
    let scope = list.source.scope;
    let mut effects = Effects::default();
    for (index, entry) in list.items.iter().enumerate() {
        let path = format!("tools.{}[{index}]", key.name);
        // The policy rule Gemini CLI derives: a tool name, and for the shell a command prefix.
        let (tool, prefix, note) = match with_args(entry) {
            Some(_) if !key.reads_args => {
                builder.report(scope, path, entry, Translation::Exact, Some(INERT_ENTRY.into()), Vec::new());
                continue;
            }
            Some((name, args)) if name == SHELL || name == SHELL_ALIAS => {
                effects.narrowed |= key.narrows_shell;
                (SHELL, Some(args), None)
            }
            Some((name, _)) => (name, None, Some(ARGS_IGNORED)),
            None if key.reads_alias && entry == SHELL_ALIAS => (SHELL, None, None),
            None => (entry.as_str(), None, None),
        };
        let rule = match prefix {
            Some(prefix) => json!({ "toolName": tool, "commandPrefix": prefix, "decision": key.decision, "priority": key.priority }),
            None => json!({ "toolName": tool, "decision": key.decision, "priority": key.priority }),
        };
        match super::translate(&rule, &path, user_strict) {
            Ok((mut targets, translation, why)) => {
                let why = if super::outranked(&rule, &mut targets, shadows) {
                    Some(why.map_or_else(|| SHADOWED.to_owned(), |w| format!("{w}; {SHADOWED}")))
                } else {
                    why
                };
                effects.whole_shell |=
                    targets.iter().any(|(tool, list, spec)| tool == TERMINAL && *list == ListKind::AlwaysAllow && is_match_all(spec));
                let became = targets.into_iter().map(|(tool, list, spec)| builder.add(scope, true, &tool, list, spec)).collect();
                let why = match (note, why) {
                    (Some(n), Some(w)) => Some(format!("{n}; {w}")),
                    (n, w) => n.map(str::to_owned).or(w),
                };
                builder.report(scope, path, entry, translation, why, became);
            }
            Err(e) => errors.push(e),
        }
    }
    effects
}
