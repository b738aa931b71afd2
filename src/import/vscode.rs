//! VS Code `chat.tools.terminal.autoApprove`: a map from a command start or a `/regex/flags` to
//! `true` (run without asking), `false` (always ask), `null` (unset) or
//! `{ approve, matchCommandLine }`.
//!
//! Source: microsoft/vscode
//! `src/vs/workbench/contrib/terminalContrib/chatAgentTools/common/terminalChatAgentToolsConfiguration.ts`
//! (the setting's schema and its documented examples; the default map is [`DEFAULTS`]) and
//! `…/commandLineAutoApprover.ts` (a plain key is the regex
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
//!
//! The export ([`export`]) writes `chat.tools.terminal.ignoreDefaultAutoApproveRules` in every
//! file, so the shipped map (which changes between releases) approves nothing the policy does
//! not, and keeps a key `false` in every file that has it once a deny or confirm rule writes it.

use super::{
    rules_of, Builder, ExportReport, ExportResult, ExportedFile, ImportContext, ImportError, ImportResult, ImportSource, SourceScope,
    Translation, TERMINAL,
};
use crate::policy::{ListKind, Outcome, PolicySpec, RuleSpec};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The setting's key.
pub const SETTING: &str = "chat.tools.terminal.autoApprove";

/// VS Code's default map: `DEFAULT_TERMINAL_AUTO_APPROVE_RULES` of microsoft/vscode
/// `src/vs/platform/agentHost/node/commandAutoApprover.ts`, the same map as the setting's default
/// in `terminalChatAgentToolsConfiguration.ts` with its git, PowerShell and sort rules from
/// `src/vs/platform/terminal/common/autoApprove/` (read from a copy of a 2026 release). `true`
/// entries run without asking, `false` entries always ask. The map changes between releases:
/// older ones approved `env`, `ps`, `jq` and `top`, which this one asks about, and newer ones add
/// `false` entries for `sed` scripts that run or write files, with back-references toolgate's
/// regex engine cannot read — so `sed` itself is left out (it asks here), and entries whose
/// regex does not compile here allow nothing.
pub const DEFAULTS: &[(&str, bool)] = &[
    (r"cd", true),
    (r"echo", true),
    (r"ls", true),
    (r"dir", true),
    (r"pwd", true),
    (r"cat", true),
    (r"head", true),
    (r"tail", true),
    (r"findstr", true),
    (r"wc", true),
    (r"tr", true),
    (r"cut", true),
    (r"cmp", true),
    (r"which", true),
    (r"basename", true),
    (r"dirname", true),
    (r"realpath", true),
    (r"readlink", true),
    (r"stat", true),
    (r"file", true),
    (r"od", true),
    (r"du", true),
    (r"df", true),
    (r"sleep", true),
    (r"nl", true),
    (r"grep", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+status\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+log\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+log\b.*\s--output(=|\s|$)/", false),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+show\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+diff\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+ls-files\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+grep\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+branch\b/", true),
    (r"/^git(\s+(-C\s+\S+|--no-pager))*\s+branch\b.*\s-(d|D|m|M|-delete|-force)\b/", false),
    (r"/^docker\s+(ps|images|info|version|inspect|logs|top|stats|port|diff|search|events)\b/", true),
    (r"/^docker\s+(container|image|network|volume|context|system)\s+(ls|ps|inspect|history|show|df|info)\b/", true),
    (r"/^docker\s+compose\s+(ps|ls|top|logs|images|config|version|port|events)\b/", true),
    (r"Get-ChildItem", true),
    (r"Get-Content", true),
    (r"Get-Date", true),
    (r"Get-Random", true),
    (r"Get-Location", true),
    (r"Set-Location", true),
    (r"Write-Host", true),
    (r"Write-Output", true),
    (r"Out-String", true),
    (r"Split-Path", true),
    (r"Join-Path", true),
    (r"Start-Sleep", true),
    (r"Where-Object", true),
    (r"/^Select-[a-z0-9]/i", true),
    (r"/^Measure-[a-z0-9]/i", true),
    (r"/^Compare-[a-z0-9]/i", true),
    (r"/^Format-[a-z0-9]/i", true),
    (r"/^Sort-[a-z0-9]/i", true),
    (
        r"/^npm\s+(ls|list|outdated|view|info|show|explain|why|root|prefix|bin|search|doctor|fund|repo|bugs|docs|home|help(-search)?)\b/",
        true,
    ),
    (r"/^npm\s+config\s+(list|get)\b/", true),
    (r"/^npm\s+pkg\s+get\b/", true),
    (r"/^npm\s+audit$/", true),
    (r"/^npm\s+cache\s+verify\b/", true),
    (r"/^yarn\s+(list|outdated|info|why|bin|help|versions)\b/", true),
    (r"/^yarn\s+licenses\b/", true),
    (r"/^yarn\s+audit\b(?!.*\bfix\b)/", true),
    (r"/^yarn\s+config\s+(list|get)\b/", true),
    (r"/^yarn\s+cache\s+dir\b/", true),
    (r"/^pnpm\s+(ls|list|outdated|why|root|bin|doctor)\b/", true),
    (r"/^pnpm\s+licenses\b/", true),
    (r"/^pnpm\s+audit\b(?!.*\bfix\b)/", true),
    (r"/^pnpm\s+config\s+(list|get)\b/", true),
    (r"npm ci", true),
    (r"/^yarn\s+install\s+--frozen-lockfile\b/", true),
    (r"/^pnpm\s+install\s+--frozen-lockfile\b/", true),
    (r"column", true),
    (r"/^column\b.*\s-c\s+[0-9]{4,}/", false),
    (r"date", true),
    (r"/^date\b.*\s(-s|--set)\b/", false),
    (r"find", true),
    (r"/^find\b.*\s-(delete|exec|execdir|fprint|fprintf|fls|ok|okdir)\b/", false),
    (r"rg", true),
    (r"/^rg\b.*\s(--pre|--hostname-bin)\b/", false),
    (r"/^sed\b.*\s(-[a-zA-Z]*(e|f)[a-zA-Z]*|--expression|--file)\b/", false),
    (r"/^sed\b.*s\/.*\/.*\/[ew]/", false),
    (r"/^sed\b.*;W/", false),
    (r"sort", true),
    (r"/^sort\b.*\s-(o|S)\b/", false),
    (r"tree", true),
    (r"/^tree\b.*\s-o\b/", false),
    (r"/^xxd$/", true),
    (r"/^xxd\b(\s+-\S+)*\s+[^-\s]\S*$/", true),
    (r"rm", false),
    (r"rmdir", false),
    (r"del", false),
    (r"Remove-Item", false),
    (r"ri", false),
    (r"rd", false),
    (r"erase", false),
    (r"dd", false),
    (r"kill", false),
    (r"ps", false),
    (r"top", false),
    (r"Stop-Process", false),
    (r"spps", false),
    (r"taskkill", false),
    (r"taskkill.exe", false),
    (r"curl", false),
    (r"wget", false),
    (r"Invoke-RestMethod", false),
    (r"Invoke-WebRequest", false),
    (r"irm", false),
    (r"iwr", false),
    (r"chmod", false),
    (r"chown", false),
    (r"Set-ItemProperty", false),
    (r"sp", false),
    (r"Set-Acl", false),
    (r"jq", false),
    (r"xargs", false),
    (r"eval", false),
    (r"Invoke-Expression", false),
    (r"iex", false),
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

/// The setting that drops VS Code's shipped auto-approve rules.
pub const IGNORE_DEFAULTS: &str = "chat.tools.terminal.ignoreDefaultAutoApproveRules";

/// Why a deny rule becomes `false`.
pub const DENY_ASKS: &str = "VS Code cannot refuse a command: written as `false`, which asks";

/// The settings file a layer's keys go to: a project's (and Claude Code's local) to the
/// workspace, the others to the user's. An untrusted project's deny and confirm rules go to the
/// user's too: VS Code reads no `autoApprove` of an untrusted workspace (the setting is
/// `restricted`), yet toolgate applies them.
fn file_of(layer: &crate::policy::LayerSpec, list: ListKind) -> SourceScope {
    match super::scope_of(layer) {
        SourceScope::Project | SourceScope::Local if layer.trusted || list == ListKind::AlwaysAllow => SourceScope::Project,
        _ => SourceScope::User,
    }
}

/// Writes the policy's terminal rules as `chat.tools.terminal.autoApprove`: a user settings file
/// (always written) and a workspace one.
///
/// VS Code merges the setting key by key, the higher scope's value winning (workspace over user,
/// `configurationModels.ts` `mergeContents`), and within the merged map a `false` entry asks
/// whatever `true` entries match (`commandLineAutoApprover.ts` `isCommandAutoApproved`). So a
/// key written for a deny or confirm rule is `false` in every file that has it: a key that is
/// also an allow rule's, in the same layer or another, stays `false`. Each file sets
/// `chat.tools.terminal.ignoreDefaultAutoApproveRules`, so VS Code's shipped map (`cat`, `find`,
/// `sed`, … approved; it changes between releases) approves nothing the policy does not.
pub fn export(policy: &PolicySpec) -> ExportResult {
    // Each key's entries: the file, whether it approves, and the report entry it came from.
    let mut keys: BTreeMap<String, Vec<(SourceScope, bool, usize)>> = BTreeMap::new();
    let mut report = Vec::new();
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let Some(layer) = policy.layers.iter().find(|l| l.name == place.layer) else { continue };
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
        let Some(key) = export_key(rule) else {
            report.push(ExportReport {
                place,
                rule: rule.text().to_owned(),
                translation: Translation::Impossible,
                why: Some("this rule kind cannot be written as a regex".into()),
                written: Vec::new(),
            });
            continue;
        };
        let file = file_of(layer, list);
        let (translation, why) = match list {
            ListKind::AlwaysDeny => (Translation::Impossible, Some(DENY_ASKS.to_owned())),
            _ if file == SourceScope::User && super::scope_of(layer) != SourceScope::User && !layer.trusted => (
                Translation::Stricter,
                Some(
                    "written to the user's settings: VS Code reads no autoApprove of an untrusted workspace; it applies in every workspace"
                        .into(),
                ),
            ),
            _ => (Translation::Exact, None),
        };
        keys.entry(key.clone()).or_default().push((file, list == ListKind::AlwaysAllow, report.len()));
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written: vec![key] });
    }
    let mut files: BTreeMap<SourceScope, Map<String, Value>> = BTreeMap::new();
    files.entry(SourceScope::User).or_default();
    for (key, entries) in &keys {
        let approve = entries.iter().all(|(_, approve, _)| *approve);
        for (file, approves, at) in entries {
            files.entry(*file).or_default().insert(key.clone(), json!(approve));
            if *approves && !approve {
                if let Some(entry) = report.get_mut(*at) {
                    entry.translation = Translation::Stricter;
                    entry.why = Some(format!(
                        "a deny or confirm rule is written as the same key: VS Code reads one value per key, so `{key}` is `false` (asks)"
                    ));
                }
            }
        }
    }
    let files = files
        .into_iter()
        .map(|(scope, map)| ExportedFile {
            scope,
            text: serde_json::to_string_pretty(&json!({ IGNORE_DEFAULTS: true, SETTING: Value::Object(map) })).unwrap_or_default() + "\n",
        })
        .collect();
    ExportResult { files, report }
}

/// Whether the export writes a key VS Code applies to the commands a rule matches: a `false`
/// key asks before any `true` key approves (`isCommandAutoApproved`), so a deny rule written as
/// one is carried as a question, which is all VS Code can do.
pub(crate) fn carries(place: &super::RulePlace, rule: &RuleSpec) -> Option<Translation> {
    (place.tool == TERMINAL && export_key(rule).is_some()).then_some(Translation::Exact)
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
