//! Target `settings_readers`: every reader of settings text, chosen by the first byte; the rest is
//! the text (lossy UTF-8).
//!
//! Properties, for every reader:
//! - no panic; a failure is an error with a non-empty message (and, for text positions, a 1-based
//!   line and column);
//! - a success serialises and reads back to the same value (where the type has a serialiser), and
//!   what is built from it (a policy, a mode, a decision) is built without panicking;
//! - reader-specific meaning, checked against a plain reading of the seed:
//!   - Zed: JSONC text and the same settings re-written as plain JSON give the same policy;
//!   - Gasoline: each pattern allows its own calls (ASCII case ignored) and a non-empty list allows
//!     nothing a plain scan of the patterns does not;
//!   - Cursor settings: a command needing no approval was allowlisted, run-everything or sandboxed,
//!     an allowlisted one has every command covered by an allowlist prefix, and a blocklisted
//!     command always asks;
//!   - Cursor admin controls: disabled controls change nothing, enabled ones replace the lists;
//!   - Roo: a tool or resource the mode allows is one the seed's `isServerAllowedForMode` /
//!     `isToolAllowedForModeAndServer` allow (exact names), and the other way round for plain names;
//!   - MCP settings: an allowlist decision names the entry a plain scan finds first.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Debug;
use toolgate::api::{self, Problem, RooModeOptions};
use toolgate::cursor::{self, ApprovalType, AutoRunControls, AutoRunSettings, ComposerState};
use toolgate::gasoline::GasolineAllowlist;
use toolgate::input::{from_json, InputError};
use toolgate::mcp::{entry_matches, validate_name, AutoRunMode, McpPolicy, McpSettings, NameKind};
use toolgate::policy::{Call, Policy, PolicySpec, Reason};
use toolgate::roo::{self, ModeConfig, ToolRef};
use toolgate::shell::Shell;
use toolgate::zed::{self, ZedSources};

/// Settings files are small; longer inputs only slow the fuzzer.
const MAX_TEXT: usize = 8192;

/// Which reader the first byte selects (modulo the count).
#[derive(Debug, Clone, Copy)]
pub enum Reader {
    Zed,
    Gasoline,
    ComposerState,
    AdminControls,
    RooMode,
    PolicySpec,
    AutoRunSettings,
    McpSettings,
}

const READERS: [Reader; 8] = [
    Reader::Zed,
    Reader::Gasoline,
    Reader::ComposerState,
    Reader::AdminControls,
    Reader::RooMode,
    Reader::PolicySpec,
    Reader::AutoRunSettings,
    Reader::McpSettings,
];

pub fn check(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    if rest.len() > MAX_TEXT {
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let reader = READERS.get(usize::from(selector) % READERS.len()).copied().unwrap_or(Reader::Zed);
    match reader {
        Reader::Zed => check_zed(selector, &text),
        Reader::Gasoline => check_gasoline(&text),
        Reader::ComposerState => {
            if let Some(state) = read_json::<ComposerState>("composerState", &text) {
                let settings = cursor::migrate(&state);
                round_trip(&settings);
                check_terminal_settings(&settings);
            }
        }
        Reader::AdminControls => {
            if let Some(controls) = read_json::<AutoRunControls>("controls", &text) {
                check_admin_controls(&controls);
            }
        }
        Reader::RooMode => check_roo(&text),
        Reader::PolicySpec => {
            if let Some(spec) = read_json::<PolicySpec>("spec", &text) {
                check_policy_spec(spec);
            }
        }
        Reader::AutoRunSettings => {
            if let Some(settings) = read_json::<AutoRunSettings>("settings", &text) {
                check_terminal_settings(&settings);
            }
        }
        Reader::McpSettings => {
            if let Some(settings) = read_json::<McpSettings>("settings", &text) {
                check_mcp_settings(settings);
            }
        }
    }
}

/// Reads JSON the way the bindings do; a failure must say what is wrong. A success must survive
/// serialise → read unchanged.
fn read_json<T: DeserializeOwned + Serialize + PartialEq + Debug>(what: &str, text: &str) -> Option<T> {
    match from_json::<T>(what, text) {
        Ok(value) => {
            round_trip(&value);
            Some(value)
        }
        Err(error) => {
            check_input_error(&error);
            None
        }
    }
}

fn check_input_error(error: &InputError) {
    assert!(!error.message.is_empty() && !error.to_string().is_empty(), "an input error without a message: {error:?}");
}

fn check_problems(problems: &[Problem]) {
    assert!(!problems.is_empty(), "a failed answer with no problem in it");
    for p in problems {
        assert!(!p.code.is_empty() && !p.message.is_empty(), "a problem without a code or message: {p:?}");
        assert!(p.line.is_none_or(|l| l >= 1) && p.column.is_none_or(|c| c >= 1), "positions are 1-based: {p:?}");
    }
}

/// Serialises with serde_json and reads back: the same value.
pub fn round_trip<T: DeserializeOwned + Serialize + PartialEq + Debug>(value: &T) {
    let json = serde_json::to_string(value).unwrap_or_else(|e| panic!("serialise failed for {value:?}: {e}"));
    let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("re-read failed for {json}: {e}"));
    assert_eq!(&back, value, "serialise → read changed the value (JSON {json})");
}

// ---- Zed ----

fn check_zed(selector: u8, text: &str) {
    let (user, project) = match text.split_once('\u{0}') {
        Some((user, project)) => (user.to_owned(), Some(project.to_owned())),
        None => (text.to_owned(), None),
    };
    let shell = [Shell::Posix, Shell::PowerShell, Shell::Unknown].get(usize::from(selector >> 6) % 3).copied();
    let sources = ZedSources {
        user: Some(user.clone()),
        project: project.clone(),
        include_defaults: Some(selector & 0x08 == 0),
        shell,
        project_trusted: Some(selector & 0x10 == 0),
    };
    let answer = api::zed_policy(&sources);
    assert_eq!(answer.is_ok(), zed::policy_from_sources(&sources).is_ok(), "api::zed_policy and zed::policy_from_sources disagree");
    let spec = match answer {
        Ok(spec) => spec,
        Err(problems) => return check_problems(&problems),
    };
    // The same settings without comments or trailing commas: plain JSON gives the same policy.
    let plain = |text: &str| {
        let value = zed::parse_settings("user", text).unwrap_or_else(|e| panic!("a file that built a policy no longer parses: {e}"));
        serde_json::to_string(&value).unwrap_or_else(|e| panic!("settings value does not serialise: {e}"))
    };
    let rewritten = ZedSources { user: Some(plain(&user)), project: project.as_deref().map(plain), ..sources };
    let again = api::zed_policy(&rewritten).unwrap_or_else(|p| panic!("the settings as plain JSON fail: {p:?}"));
    assert_eq!(again, spec, "JSONC and the same settings as plain JSON give different policies");
    check_policy_spec(spec);
}

// ---- the policy spec ----

/// Calls every built policy answers once without panicking, for whatever its catalogue reads.
const PROBE_CALLS: [(&str, &[&str]); 6] = [
    ("terminal", &["git status && rm -rf / ; echo $(id)"]),
    ("edit_file", &["src/../.env"]),
    ("move_path", &["a", "../b"]),
    ("mcp", &["github", "create_issue"]),
    ("gasoline", &["observe", "logs"]),
    ("custom", &["x"]),
];

fn check_policy_spec(spec: PolicySpec) {
    round_trip(&spec);
    let policy = Policy::new(spec.clone());
    for problem in api::policy_problems(&policy) {
        assert!(!problem.message.is_empty() && problem.path.is_some(), "an invalid rule without a message or path: {problem:?}");
    }
    let again = Policy::new(serde_json::from_value(serde_json::json!(spec)).unwrap_or_else(|e| panic!("spec does not re-read: {e}")));
    for (tool, inputs) in PROBE_CALLS {
        let call = Call::new(tool, inputs);
        let decision = policy.decide_call(&call);
        assert_eq!(decision, again.decide_call(&call), "serialise → read → decide differs for {call:?}");
        assert_eq!(decision.outcome, policy.outcome_of(&call), "outcome_of differs from decide_call for {call:?}");
    }
}

// ---- Gasoline ----

fn gasoline_matches(pattern: &str, tool: &str, action: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    match pattern.split_once('.') {
        Some((t, "*")) => t.eq_ignore_ascii_case(tool),
        Some((t, a)) => t.eq_ignore_ascii_case(tool) && a.eq_ignore_ascii_case(action),
        None => false,
    }
}

fn check_gasoline(text: &str) {
    let list = match api::gasoline_allowlist(text) {
        Ok(list) => list,
        Err(problems) => return check_problems(&problems),
    };
    let patterns = list.patterns().to_vec();
    let summary = list.summary();
    assert_eq!((summary.count, summary.enabled), (patterns.len(), !patterns.is_empty()), "summary disagrees with the list");
    // Re-written as YAML with every pattern quoted, the list reads back the same.
    let yaml: String = std::iter::once("allowed_tools:\n".to_owned())
        .chain(patterns.iter().map(|p| format!("  - {}\n", serde_json::to_string(p).unwrap_or_default())))
        .collect();
    let again = GasolineAllowlist::load(&yaml).unwrap_or_else(|e| panic!("the patterns re-written as YAML fail: {e}\n{yaml}"));
    assert_eq!(again.patterns(), patterns.as_slice(), "YAML re-write changed the patterns");

    let mut calls: Vec<(String, String)> = vec![("observe".into(), "logs".into()), ("interact".into(), "execute_js".into())];
    for p in &patterns {
        if let Some((tool, action)) = p.split_once('.') {
            calls.push((tool.to_owned(), action.to_owned()));
            calls.push((tool.to_ascii_uppercase(), format!("{action}x")));
            calls.push((format!("{tool}x"), action.to_owned()));
        }
    }
    for (tool, action) in calls {
        let scan = patterns.is_empty() || patterns.iter().any(|p| gasoline_matches(p, &tool, &action));
        let allowed = list.check(&tool, &action).is_ok();
        assert_eq!(allowed, scan, "gasoline {tool}.{action}: the list says {allowed}, a plain scan of {patterns:?} says {scan}");
    }
}

// ---- Cursor ----

fn prefix_covers(prefix: &str, text: &str) -> bool {
    let mut words = text.split_whitespace();
    let prefix: Vec<&str> = prefix.split_whitespace().collect();
    !prefix.is_empty() && prefix.iter().all(|w| words.next() == Some(w))
}

fn check_terminal_settings(settings: &AutoRunSettings) {
    round_trip(settings);
    let mut commands: Vec<String> =
        ["ls", "git status && rm -rf x", "sudo ls", "echo $(id)", "rm -rf /", ""].iter().map(|s| (*s).to_owned()).collect();
    for entry in settings.command_allowlist.iter().chain(&settings.command_blocklist).take(8) {
        commands.push(entry.clone());
        commands.push(format!("{entry} x && ls"));
    }
    for command in commands {
        let decision = cursor::decide_terminal(&command, settings, None);
        if !decision.need_approval {
            assert!(
                matches!(decision.reason, Reason::Allowlisted | Reason::RunEverything | Reason::Sandboxed),
                "cursor ran {command:?} for reason {:?}",
                decision.reason
            );
        }
        if decision.reason == Reason::Allowlisted {
            assert_eq!(decision.approval_type, ApprovalType::Allowlist, "allowlisted but approval type {:?}", decision.approval_type);
        }
        let blocked = decision.sub_commands.iter().find(|c| settings.command_blocklist.iter().any(|b| prefix_covers(b, c)));
        if let Some(sub) = blocked {
            assert!(decision.need_approval, "cursor ran {command:?} although {sub:?} is blocklisted ({:?})", decision.reason);
        }
    }
}

fn check_admin_controls(controls: &AutoRunControls) {
    let user =
        cursor::migrate(&ComposerState { use_yolo_mode: true, yolo_command_allowlist: vec!["ls".into()], ..ComposerState::default() });
    let applied = cursor::apply_admin_controls(&user, controls);
    round_trip(&applied);
    if controls.enabled {
        assert!(applied.is_admin_controlled, "enabled controls must mark the settings admin-controlled");
        assert_eq!(
            (&applied.command_allowlist, &applied.command_blocklist, &applied.mcp_allowed_tools),
            (&controls.allowed, &controls.blocked, &controls.mcp_tool_allowlist),
            "the administrator's lists replace the user's"
        );
    } else {
        assert_eq!(applied, user, "disabled controls change nothing");
    }
    check_terminal_settings(&applied);
}

// ---- Roo ----

/// The seed's `isServerAllowedForMode`, plus `defaultEnabled` as docs/dialects.md states it.
fn roo_server_allowed(server: &str, mode: &ModeConfig, servers: &BTreeMap<String, roo::ServerSettings>) -> bool {
    let Some(r) = &mode.mcp_restrictions else { return servers.get(server).is_none_or(|s| s.default_enabled) };
    let listed = match &r.allowed_servers {
        Some(allowed) => allowed.iter().any(|s| s == server),
        None => servers.get(server).is_none_or(|s| s.default_enabled),
    };
    listed && !r.disallowed_servers.iter().flatten().any(|s| s == server)
}

/// The seed's `isToolAllowedForModeAndServer`, on top of the server check.
fn roo_tool_allowed(server: &str, tool: &str, mode: &ModeConfig, servers: &BTreeMap<String, roo::ServerSettings>) -> bool {
    let is = |t: &ToolRef| t.server_name == server && t.tool_name == tool;
    let r = mode.mcp_restrictions.clone().unwrap_or_default();
    roo_server_allowed(server, mode, servers)
        && r.allowed_tools.as_ref().is_none_or(|list| list.iter().any(is))
        && !r.disallowed_tools.iter().flatten().any(is)
}

/// A name an MCP entry holds literally: valid, and not the wildcard.
fn plain_name(name: &str, kind: NameKind) -> bool {
    name != "*" && validate_name(name, kind).is_ok()
}

fn check_roo(text: &str) {
    let options: RooModeOptions = match from_json("options", text) {
        Ok(options) => options,
        Err(error) => return check_input_error(&error),
    };
    round_trip(&options.mode);
    for settings in options.servers.values() {
        round_trip(settings);
    }
    let catalogue: Vec<roo::CatalogueServer> =
        options.servers.keys().map(|name| roo::CatalogueServer { name: name.clone(), tools: Vec::new() }).collect();
    let validation = api::validate_mode(&options.mode, &catalogue);
    assert_eq!(validation.ok, validation.errors.is_empty(), "validation ok disagrees with its errors");
    for p in validation.errors.iter().chain(&validation.warnings) {
        assert!(!p.message.is_empty() && p.path.is_some(), "a validation problem without message or path: {p:?}");
    }
    let mode = api::roo_mode(&options);
    let r = options.mode.mcp_restrictions.clone().unwrap_or_default();
    let mut servers: Vec<String> = vec!["docs-server".into(), "*".into()];
    servers.extend(r.allowed_servers.iter().flatten().cloned());
    servers.extend(r.disallowed_servers.iter().flatten().cloned());
    servers.extend(options.servers.keys().cloned());
    let mut pairs: Vec<(String, String)> = servers.iter().take(12).map(|s| (s.clone(), "search".to_owned())).collect();
    pairs.extend(
        r.allowed_tools.iter().flatten().chain(r.disallowed_tools.iter().flatten()).map(|t| (t.server_name.clone(), t.tool_name.clone())),
    );
    // Servers disabled by default become deny entries too; one an entry cannot hold fails closed.
    let disabled = options.servers.iter().filter(|(_, s)| !s.default_enabled).map(|(name, _)| name);
    let names_plain = r
        .allowed_servers
        .iter()
        .flatten()
        .chain(r.disallowed_servers.iter().flatten())
        .chain(disabled)
        .all(|s| plain_name(s, NameKind::Server))
        && r.allowed_tools
            .iter()
            .flatten()
            .chain(r.disallowed_tools.iter().flatten())
            .all(|t| plain_name(&t.server_name, NameKind::Server) && plain_name(&t.tool_name, NameKind::Tool));
    for server in servers.iter().take(12) {
        let seed = roo_server_allowed(server, &options.mode, &options.servers);
        let ours = mode.check_resource(server).is_ok();
        assert!(!ours || seed, "roo: the mode allows resources of {server:?}, the seed's rules do not ({r:?})");
        if names_plain && plain_name(server, NameKind::Server) {
            assert_eq!(ours, seed, "roo: resources of {server:?}: ours {ours}, the seed's {seed} ({r:?})");
        }
    }
    for (server, tool) in pairs.iter().take(24) {
        let seed = roo_tool_allowed(server, tool, &options.mode, &options.servers);
        let ours = mode.check_tool(server, tool).is_ok();
        assert!(!ours || seed, "roo: the mode allows {server:?}/{tool:?}, the seed's rules do not ({r:?})");
        if names_plain && plain_name(server, NameKind::Server) && plain_name(tool, NameKind::Tool) {
            assert_eq!(ours, seed, "roo: {server:?}/{tool:?}: ours {ours}, the seed's {seed} ({r:?})");
        }
    }
}

// ---- MCP settings ----

fn check_mcp_settings(settings: McpSettings) {
    let list = if settings.is_admin_controlled { settings.admin_mcp_allowed_tools.clone() } else { settings.mcp_allowed_tools.clone() };
    let policy = McpPolicy::new(settings);
    let mut pairs: Vec<(String, String)> = vec![("github".into(), "create_issue".into()), ("cursor-ide-browser".into(), "click".into())];
    pairs.extend(list.iter().take(8).filter_map(|e| e.split_once(':')).map(|(s, t)| (s.to_owned(), t.to_owned())));
    for (server, tool) in &pairs {
        let scan = list.iter().position(|e| entry_matches(server, tool, e));
        let valid = validate_name(server, NameKind::Server).is_ok() && validate_name(tool, NameKind::Tool).is_ok();
        assert_eq!(
            policy.is_allowlisted(server, tool),
            valid && scan.is_some(),
            "is_allowlisted({server:?}, {tool:?}) vs a plain scan of {list:?}"
        );
        for mode in [AutoRunMode::AskEveryTime, AutoRunMode::Yolo, AutoRunMode::FullYolo] {
            let decision = policy.decide(server, tool, mode);
            assert_eq!(decision.need_approval, policy.needs_approval(server, tool, mode), "decide and needs_approval disagree");
            match decision.reason {
                Reason::Allowlisted => assert_eq!(
                    decision.matched.as_ref().map(|m| m.index),
                    scan,
                    "{server:?}/{tool:?}: the matched entry is not the one a plain scan of {list:?} finds first"
                ),
                Reason::NotAllowlisted | Reason::NotInAdminAllowlist => {
                    assert!(scan.is_none() || !valid, "{server:?}/{tool:?} not allowlisted, but {list:?} has a matching entry")
                }
                _ => {}
            }
        }
    }
}
