//! VS Code `chat.tools.terminal.autoApprove`: a map from a command start or a `/regex/flags` to
//! `true` (run without asking), `false` (always ask), `null` (unset) or
//! `{ approve, matchCommandLine }`.
//!
//! Source: microsoft/vscode
//! `src/vs/workbench/contrib/terminalContrib/chatAgentTools/common/terminalChatAgentToolsConfiguration.ts`
//! @00a3a64 (the setting's schema, its documented examples and its default map, which
//! [`DEFAULTS`] copies) and `…/commandLineAutoApprover.ts` (a plain key is the regex
//! `^<escaped key>\b`, a key with `/` or `\` treats both as one separator and allows a leading
//! `./`; `/…/flags` is a JavaScript regex, `g` ignored; an invalid regex or an empty key never
//! matches; keys are case-sensitive). Scopes merge key by key (workspace over user over the
//! defaults) and `null` unsets a key set below.
//!
//! A key becomes a regex rule on the terminal: `true` an allow rule (*stricter*: toolgate never
//! lets an allow rule cover a sub-command with a hazard), `false` a confirm rule (exact: VS Code's
//! `false` asks, it never refuses). A `matchCommandLine` rule tests the whole line: a `false` one
//! becomes a confirm rule that sees the line and each sub-command (stricter); a `true` one cannot
//! be said per sub-command without allowing more, so it is left out (stricter).

use super::{
    rules_of, Builder, ExportReport, ExportResult, ExportedFile, ImportContext, ImportError, ImportResult, ImportSource, SourceScope,
    Translation, TERMINAL,
};
use crate::policy::{ListKind, Outcome, PolicySpec, RuleSpec};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The setting's key.
pub const SETTING: &str = "chat.tools.terminal.autoApprove";

/// VS Code's default map (terminalChatAgentToolsConfiguration.ts @00a3a64; it changes between
/// releases): `true` entries run without asking, `false` entries always ask.
pub const DEFAULTS: &[(&str, bool)] = &[
    ("echo", true),
    ("ls", true),
    ("pwd", true),
    ("cat", true),
    ("head", true),
    ("tail", true),
    ("grep", true),
    ("wc", true),
    ("sort", true),
    ("uniq", true),
    ("tr", true),
    ("cut", true),
    ("cmp", true),
    ("tree", true),
    ("column", true),
    ("which", true),
    ("date", true),
    ("time", true),
    ("env", true),
    ("printenv", true),
    ("uname", true),
    ("hostname", true),
    ("ps", true),
    ("whoami", true),
    ("basename", true),
    ("dirname", true),
    ("realpath", true),
    ("readlink", true),
    ("stat", true),
    ("file", true),
    ("du", true),
    ("df", true),
    ("jq", true),
    ("sleep", true),
    ("Start-Sleep", true),
    ("/Get-[a-z0-9]/i", true),
    ("/Select-[a-z0-9]/i", true),
    ("/Measure-[a-z0-9]/i", true),
    ("/Compare-[a-z0-9]/i", true),
    ("/PeerFormat-[a-z0-9]/i", true),
    ("/Sort-[a-z0-9]/i", true),
    ("Write-Host", true),
    ("Write-Output", true),
    ("Split-Path", true),
    ("Join-Path", true),
    ("find", true),
    (r"/find\b.*-exec(dir)?\b/", false),
    ("top", true),
    (r"/top\b.*-(k|r)\b/", false),
    ("rm", false),
    ("rmdir", false),
    ("del", false),
    ("Remove-Item", false),
    ("ri", false),
    ("rd", false),
    ("erase", false),
    ("kill", false),
    ("Stop-Process", false),
    ("spps", false),
    ("taskkill", false),
    ("taskkill.exe", false),
    ("curl", false),
    ("wget", false),
    ("Invoke-RestMethod", false),
    ("Invoke-WebRequest", false),
    ("irm", false),
    ("iwr", false),
    ("chmod", false),
    ("chown", false),
    ("Set-ItemProperty", false),
    ("sp", false),
    ("Set-Acl", false),
    ("eval", false),
    ("Invoke-Expression", false),
    ("iex", false),
];

/// One entry's value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    approve: bool,
    command_line: bool,
    /// Fields of an `{ approve, … }` entry VS Code does not read (a `description`, say): VS Code
    /// reads only `approve` and `matchCommandLine`, so they are reported, not refused.
    ignored: Vec<String>,
}

/// A key as a regex and whether it is case-sensitive; `Err` says why it never matches.
pub fn key_regex(key: &str) -> Result<(String, bool), String> {
    if key.is_empty() {
        return Err("an empty key never matches".into());
    }
    if let Some(body) = key.strip_prefix('/') {
        if let Some(close) = body.rfind('/') {
            let (pattern, flags) = (body.get(..close).unwrap_or_default(), body.get(close + 1..).unwrap_or_default());
            if flags.chars().all(|f| "dgimsuvy".contains(f)) {
                if pattern.is_empty() {
                    return Err("an empty regex".into());
                }
                let mut inline = String::new();
                for (flag, letter) in [('m', 'm'), ('s', 's')] {
                    if flags.contains(flag) {
                        inline.push(letter);
                    }
                }
                let mut regex = if inline.is_empty() { pattern.to_owned() } else { format!("(?{inline}){pattern}") };
                if flags.contains('y') {
                    regex = format!("^(?:{regex})");
                }
                return Ok((regex, !flags.contains('i')));
            }
        }
    }
    let escaped = regex_syntax::escape(key);
    if key.contains(['/', '\\']) {
        let separators = escaped.replace("\\\\", "/").replace('/', r"[/\\]");
        let rest = separators.strip_prefix(r"\.[/\\]").unwrap_or(&separators);
        return Ok((format!(r"^(?:\.[/\\])?{rest}\b"), true));
    }
    Ok((format!(r"^{escaped}\b"), true))
}

fn entry_of(value: &Value) -> Result<Option<Entry>, String> {
    match value {
        Value::Bool(approve) => Ok(Some(Entry { approve: *approve, command_line: false, ignored: Vec::new() })),
        Value::Null => Ok(None),
        Value::Object(map) => {
            let approve = map.get("approve").and_then(Value::as_bool).ok_or("`approve` must be true or false")?;
            let command_line = match map.get("matchCommandLine") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("`matchCommandLine` must be true or false".into()),
            };
            let ignored = map.keys().filter(|k| !matches!(k.as_str(), "approve" | "matchCommandLine")).cloned().collect();
            Ok(Some(Entry { approve, command_line, ignored }))
        }
        _ => Err("must be true, false, null or { approve, matchCommandLine }".into()),
    }
}

/// Reads user and workspace settings (JSON with comments), merged over VS Code's defaults.
pub fn import(sources: &[ImportSource], context: &ImportContext) -> Result<ImportResult, Vec<ImportError>> {
    let mut errors = Vec::new();
    // Merged key by key: lowest scope first, so a higher scope overrides.
    let mut merged: BTreeMap<String, (SourceScope, Option<Entry>, String)> = BTreeMap::new();
    let mut ignore_defaults = context.include_defaults == Some(false);
    let mut sorted: Vec<&ImportSource> = sources.iter().collect();
    sorted.sort_by_key(|s| std::cmp::Reverse(s.scope));
    let mut parsed = Vec::new();
    for source in sorted {
        match crate::zed::parse_settings(&format!("VS Code {}", source.scope.layer_name()), &source.text) {
            Ok(settings) => {
                if settings.get("chat.tools.terminal.ignoreDefaultAutoApproveRules").and_then(Value::as_bool) == Some(true) {
                    ignore_defaults = true;
                }
                parsed.push((source.scope, settings));
            }
            Err(e) => errors.push(ImportError { code: "invalidJson", message: e.to_string(), path: None, line: e.line, column: e.column }),
        }
    }
    if !ignore_defaults {
        for (key, approve) in DEFAULTS {
            merged.insert(
                (*key).to_owned(),
                (
                    SourceScope::Defaults,
                    Some(Entry { approve: *approve, command_line: false, ignored: Vec::new() }),
                    format!("default \"{key}\""),
                ),
            );
        }
    }
    for (scope, settings) in &parsed {
        let Some(map) = settings.get(SETTING) else { continue };
        let Some(map) = map.as_object() else {
            errors.push(invalid(SETTING, "must be an object"));
            continue;
        };
        for (key, value) in map {
            let path = format!("{SETTING}[{key:?}]");
            match entry_of(value) {
                Ok(entry) => {
                    merged.insert(key.clone(), (*scope, entry, path));
                }
                Err(message) => errors.push(invalid(&path, &message)),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut builder = Builder::default();
    for (key, (scope, entry, path)) in merged {
        let Some(entry) = entry else {
            builder.report(scope, path, &key, Translation::Exact, Some("null: unsets the key".into()), Vec::new());
            continue;
        };
        let (regex, case_sensitive) = match key_regex(&key) {
            Ok(found) => found,
            Err(why) => {
                builder.report(scope, path, &key, Translation::Exact, Some(format!("{why} (in VS Code too)")), Vec::new());
                continue;
            }
        };
        let mut notes: Vec<String> =
            entry.ignored.iter().map(|field| format!("VS Code does not read the field `{field}` of an entry; ignored here too")).collect();
        let mut translation = Translation::Exact;
        if let Err(e) = crate::policy::rules::compile(&regex, case_sensitive) {
            // VS Code never matches an invalid regex; toolgate's engine lacks some JavaScript syntax.
            match entry.approve {
                true => {
                    builder.report(
                        scope,
                        path,
                        &key,
                        Translation::Exact,
                        Some(
                            [notes.clone(), vec![format!("the regex does not compile here ({e}); it allows nothing")]].concat().join("; "),
                        ),
                        Vec::new(),
                    );
                    continue;
                }
                false => {
                    translation = Translation::Stricter;
                    notes.push(format!("the regex does not compile here ({e}): the terminal asks for every command"));
                }
            }
        }
        let list = if entry.approve { ListKind::AlwaysAllow } else { ListKind::AlwaysConfirm };
        if entry.approve && entry.command_line {
            builder.report(
                scope,
                path,
                &key,
                Translation::Impossible,
                Some(
                    [notes, vec!["a rule that approves whole command lines cannot be said per sub-command without allowing more; left out (those lines ask)".into()]]
                        .concat()
                        .join("; "),
                ),
                Vec::new(),
            );
            continue;
        }
        if entry.approve {
            translation = translation.max(Translation::Stricter);
            notes.push(
                "an allow rule never covers a sub-command with a hazard (a file redirection, a substitution, an executing flag)".into(),
            );
        }
        if entry.command_line {
            translation = translation.max(Translation::Stricter);
            notes.push("also matched against each sub-command, not only the whole line".into());
        }
        let place = builder.add(scope, true, TERMINAL, list, RuleSpec::regex(regex, case_sensitive));
        builder.report(scope, path, &key, translation, (!notes.is_empty()).then(|| notes.join("; ")), vec![place]);
    }
    Ok(builder.finish(Outcome::Confirm))
}

fn invalid(path: &str, message: &str) -> ImportError {
    ImportError { code: "invalidSettings", message: format!("{path}: {message}"), path: Some(path.to_owned()), line: None, column: None }
}

// ---- export ----

/// Writes the policy's terminal rules as `chat.tools.terminal.autoApprove`, one settings file per scope.
pub fn export(policy: &PolicySpec) -> ExportResult {
    let mut files: BTreeMap<SourceScope, Map<String, Value>> = BTreeMap::new();
    let mut report = Vec::new();
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let scope = policy.layers.iter().find(|l| l.name == place.layer).map_or(SourceScope::User, super::scope_of);
        if scope == SourceScope::Defaults {
            report.push(ExportReport {
                place,
                rule: rule.text().to_owned(),
                translation: Translation::Exact,
                why: Some("a default: not written".into()),
                written: Vec::new(),
            });
            continue;
        }
        if place.tool != TERMINAL {
            report.push(ExportReport {
                place: place.clone(),
                rule: rule.text().to_owned(),
                translation: Translation::Impossible,
                why: Some(format!("VS Code's auto-approve rules are for terminal commands only, not `{}`", place.tool)),
                written: Vec::new(),
            });
            continue;
        }
        let (key, mut translation, mut why) = match export_key(rule) {
            Some(key) => (key, Translation::Exact, None),
            None => {
                report.push(ExportReport {
                    place,
                    rule: rule.text().to_owned(),
                    translation: Translation::Impossible,
                    why: Some("this rule kind cannot be written as a regex".into()),
                    written: Vec::new(),
                });
                continue;
            }
        };
        if list == ListKind::AlwaysDeny {
            translation = Translation::Impossible;
            why = Some("VS Code cannot refuse a command: written as `false`, which asks".into());
        }
        files.entry(scope).or_default().insert(key.clone(), json!(list == ListKind::AlwaysAllow));
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written: vec![key] });
    }
    let files = files
        .into_iter()
        .map(|(scope, map)| ExportedFile {
            scope,
            text: serde_json::to_string_pretty(&json!({ SETTING: Value::Object(map) })).unwrap_or_default() + "\n",
        })
        .collect();
    ExportResult { files, report }
}

fn export_key(rule: &RuleSpec) -> Option<String> {
    let escape = |s: &str| regex_syntax::escape(s).replace('/', r"\/");
    if let Some(pattern) = &rule.pattern {
        let flags = if rule.case_sensitive { "" } else { "i" };
        return Some(format!("/{}/{flags}", pattern.replace('/', r"\/")));
    }
    if let Some(prefix) = &rule.prefix {
        let words: Vec<String> = prefix.split_whitespace().map(escape).collect();
        return Some(format!(r"/^{}(\s|$)/", words.join(r"\s+")));
    }
    if let Some(tokens) = &rule.tokens {
        let positions: Vec<String> =
            tokens.split_whitespace().map(|p| format!("(?:{})", p.split('|').map(escape).collect::<Vec<_>>().join("|"))).collect();
        return Some(format!(r"/^{}(\s|$)/", positions.join(" ")));
    }
    if let Some(glob) = &rule.glob {
        let glob = glob.strip_suffix(":*").map_or_else(|| glob.clone(), |head| format!("{head} *"));
        let pieces: Vec<String> = glob.split('*').map(escape).collect();
        let bare = pieces.len() == 2 && glob.ends_with(" *");
        return Some(match (bare, pieces.first()) {
            (true, Some(head)) => format!("/^{}( .*)?$/", head.strip_suffix(' ').unwrap_or(head)),
            _ => format!("/^{}$/", pieces.join(".*")),
        });
    }
    None
}
