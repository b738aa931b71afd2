//! Whether an MCP tool call needs the user's approval (seed 000, `m4c`).
//!
//! The branches run in the seed's order: invalid names, admin disable and the two
//! protections, browser tools, run-everything, ask-every-time, the allowlist, and
//! finally "ask, and offer to allowlist". [`McpPolicy::verdict`] is the one place
//! that order lives; the explained decision and the fast boolean both come from it.

use super::compiled::{CompiledAllowlist, InvalidEntry};
use super::name::{validate_name, NameError, NameKind};
use serde::{Deserialize, Serialize};

/// Server ids of the built-in browser (Playwright) tools, which have their own protection.
pub const BROWSER_SERVER_IDS: [&str; 2] = ["cursor-browser-extension", "cursor-ide-browser"];

/// The composer's auto-run mode, spelled as the seed spells it. (The MCP module declares its
/// TypeScript type through a wasm-bindgen string enum; the engine module through tsify.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(all(target_arch = "wasm32", feature = "engine"), derive(tsify::Tsify))]
pub enum AutoRunMode {
    /// Every call asks; the allowlist is not consulted.
    AskEveryTime,
    /// Calls in the allowlist run; others ask.
    Yolo,
    /// Everything runs (unless an administrator controls auto-run).
    FullYolo,
}

impl AutoRunMode {
    pub const NAMES: [&'static str; 3] = ["ask_every_time", "yolo", "full_yolo"];

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "ask_every_time" => Some(Self::AskEveryTime),
            "yolo" => Some(Self::Yolo),
            "full_yolo" => Some(Self::FullYolo),
            _ => None,
        }
    }
}

fn yes() -> bool {
    true
}

/// The settings `m4c` reads. Missing protections default to on (fail closed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpSettings {
    /// The user's `server:tool` entries (`composerState.mcpAllowedTools`).
    #[serde(default)]
    pub mcp_allowed_tools: Vec<String>,
    /// The team administrator's entries; the only list consulted when `isAdminControlled`.
    #[serde(default)]
    pub admin_mcp_allowed_tools: Vec<String>,
    /// Every MCP call asks while this is on. Default: true.
    #[serde(default = "yes")]
    pub mcp_tools_protection: bool,
    /// Every browser-tool call asks while this is on. Default: true.
    #[serde(default = "yes")]
    pub playwright_protection: bool,
    /// The administrator turned MCP auto-run off. Default: false.
    #[serde(default)]
    pub is_disabled_by_admin: bool,
    /// An administrator controls auto-run: the user's list is ignored. Default: false.
    #[serde(default)]
    pub is_admin_controlled: bool,
    /// The `mcp_allowlists` feature gate; when off, only `yoloMcpToolsDisabled` counts. Default: true.
    #[serde(default = "yes")]
    pub mcp_allowlists_enabled: bool,
    /// Legacy global toggle used when the gate is off. Default: true.
    #[serde(default = "yes")]
    pub yolo_mcp_tools_disabled: bool,
}

impl Default for McpSettings {
    fn default() -> Self {
        McpSettings {
            mcp_allowed_tools: Vec::new(),
            admin_mcp_allowed_tools: Vec::new(),
            mcp_tools_protection: true,
            playwright_protection: true,
            is_disabled_by_admin: false,
            is_admin_controlled: false,
            mcp_allowlists_enabled: true,
            yolo_mcp_tools_disabled: true,
        }
    }
}

/// Which branch of the decision applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum McpReason {
    InvalidName,
    DisabledByAdmin,
    BrowserProtection,
    McpProtection,
    BrowserToolAutoRun,
    RunEverything,
    AskEveryTime,
    Allowlisted,
    NotInAdminAllowlist,
    NotAllowlisted,
    LegacyProtection,
    LegacyAutoRun,
}

impl McpReason {
    pub fn needs_approval(self) -> bool {
        !matches!(
            self,
            McpReason::BrowserToolAutoRun
                | McpReason::RunEverything
                | McpReason::Allowlisted
                | McpReason::LegacyAutoRun
        )
    }
}

/// Which allowlist an entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum AllowlistSource {
    User,
    Admin,
}

/// The allowlist entry that allowed a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct MatchedEntry {
    pub list: AllowlistSource,
    pub index: usize,
    pub entry: String,
}

/// A tool the UI may offer to add to the user's allowlist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AllowlistCandidate {
    pub server: String,
    pub tool: String,
}

/// The explained result of `m4c`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpDecision {
    pub need_approval: bool,
    pub reason: McpReason,
    /// The reason in words, naming the setting or entry involved.
    pub message: String,
    /// The entry that allowed the call, when the allowlist did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<MatchedEntry>,
    /// What "Add to allowlist" would add; empty unless the call is merely not allowlisted.
    pub candidates_for_allowlist: Vec<AllowlistCandidate>,
    /// The invalid server or tool name, when that is the reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_error: Option<NameError>,
    /// Invalid entries of the consulted allowlist: they matched nothing.
    pub ignored_entries: Vec<InvalidEntry>,
}

/// The decision before it is explained: cheap to compute, no allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub reason: McpReason,
    pub matched: Option<(AllowlistSource, usize)>,
    pub name_error: Option<NameError>,
}

impl Verdict {
    fn of(reason: McpReason) -> Self {
        Verdict { reason, matched: None, name_error: None }
    }
}

/// MCP settings with both allowlists compiled: build once, decide many calls.
#[derive(Debug, Clone)]
pub struct McpPolicy {
    settings: McpSettings,
    user: CompiledAllowlist,
    admin: CompiledAllowlist,
}

impl McpPolicy {
    pub fn new(settings: McpSettings) -> Self {
        McpPolicy {
            user: CompiledAllowlist::new(&settings.mcp_allowed_tools),
            admin: CompiledAllowlist::new(&settings.admin_mcp_allowed_tools),
            settings,
        }
    }

    pub fn settings(&self) -> &McpSettings {
        &self.settings
    }

    /// The allowlist that counts: the administrator's when they control auto-run, else the user's.
    fn effective_allowlist(&self) -> (AllowlistSource, &CompiledAllowlist) {
        if self.settings.is_admin_controlled {
            (AllowlistSource::Admin, &self.admin)
        } else {
            (AllowlistSource::User, &self.user)
        }
    }

    /// Invalid entries of the allowlist that counts.
    pub fn invalid_entries(&self) -> &[InvalidEntry] {
        self.effective_allowlist().1.invalid_entries()
    }

    /// Whether the effective allowlist allows this call. Invalid names are never allowlisted.
    pub fn is_allowlisted(&self, server_id: &str, tool_name: &str) -> bool {
        validate_name(server_id, NameKind::Server).is_ok()
            && validate_name(tool_name, NameKind::Tool).is_ok()
            && self.effective_allowlist().1.first_match(server_id, tool_name).is_some()
    }

    /// The seed's decision order, in one place.
    pub fn verdict(&self, server_id: &str, tool_name: &str, mode: AutoRunMode) -> Verdict {
        let s = &self.settings;
        if let Err(error) = validate_name(server_id, NameKind::Server)
            .and_then(|()| validate_name(tool_name, NameKind::Tool))
        {
            return Verdict { reason: McpReason::InvalidName, matched: None, name_error: Some(error) };
        }
        // Seed: both auto-run flags read false while the administrator has disabled auto-run.
        let auto_run = !s.is_disabled_by_admin && mode != AutoRunMode::AskEveryTime;
        let run_everything = auto_run && mode == AutoRunMode::FullYolo;

        if !s.mcp_allowlists_enabled {
            return Verdict::of(if s.is_disabled_by_admin {
                McpReason::DisabledByAdmin
            } else if !auto_run {
                McpReason::AskEveryTime
            } else if s.yolo_mcp_tools_disabled {
                McpReason::LegacyProtection
            } else {
                McpReason::LegacyAutoRun
            });
        }

        let is_browser = BROWSER_SERVER_IDS.contains(&server_id);
        if s.is_disabled_by_admin {
            return Verdict::of(McpReason::DisabledByAdmin);
        }
        if is_browser {
            return Verdict::of(if s.playwright_protection {
                McpReason::BrowserProtection
            } else {
                McpReason::BrowserToolAutoRun
            });
        }
        if s.mcp_tools_protection {
            return Verdict::of(McpReason::McpProtection);
        }
        if run_everything && !s.is_admin_controlled {
            return Verdict::of(McpReason::RunEverything);
        }
        if !auto_run {
            return Verdict::of(McpReason::AskEveryTime);
        }
        let (source, list) = self.effective_allowlist();
        if let Some(index) = list.first_match(server_id, tool_name) {
            return Verdict { reason: McpReason::Allowlisted, matched: Some((source, index)), name_error: None };
        }
        Verdict::of(if s.is_admin_controlled {
            McpReason::NotInAdminAllowlist
        } else {
            McpReason::NotAllowlisted
        })
    }

    /// The fast path: only the boolean.
    pub fn needs_approval(&self, server_id: &str, tool_name: &str, mode: AutoRunMode) -> bool {
        self.verdict(server_id, tool_name, mode).reason.needs_approval()
    }

    /// The decision with its reason, the matching entry and allowlist candidates.
    pub fn decide(&self, server_id: &str, tool_name: &str, mode: AutoRunMode) -> McpDecision {
        let Verdict { reason, matched, name_error } = self.verdict(server_id, tool_name, mode);
        let matched = matched.and_then(|(list, index)| {
            let compiled = if list == AllowlistSource::Admin { &self.admin } else { &self.user };
            compiled.entry(index).map(|entry| MatchedEntry { list, index, entry: entry.to_owned() })
        });
        let consulted_list = matches!(
            reason,
            McpReason::Allowlisted | McpReason::NotAllowlisted | McpReason::NotInAdminAllowlist
        );
        let candidates_for_allowlist = if reason == McpReason::NotAllowlisted {
            vec![AllowlistCandidate { server: server_id.to_owned(), tool: tool_name.to_owned() }]
        } else {
            Vec::new()
        };
        McpDecision {
            need_approval: reason.needs_approval(),
            reason,
            message: self.message(reason, server_id, tool_name, matched.as_ref(), name_error.as_ref()),
            matched,
            candidates_for_allowlist,
            name_error,
            ignored_entries: if consulted_list { self.invalid_entries().to_vec() } else { Vec::new() },
        }
    }

    fn message(
        &self,
        reason: McpReason,
        server_id: &str,
        tool_name: &str,
        matched: Option<&MatchedEntry>,
        name_error: Option<&NameError>,
    ) -> String {
        let call = format!("{server_id}:{tool_name}");
        match reason {
            McpReason::InvalidName => match name_error {
                Some(error) => format!("{error}; a call with an invalid name always needs approval"),
                None => "invalid name; the call needs approval".to_owned(),
            },
            McpReason::DisabledByAdmin => "MCP auto-run is disabled by your administrator".to_owned(),
            McpReason::BrowserProtection => {
                "browser protection (playwrightProtection) is on: every browser tool call needs approval".to_owned()
            }
            McpReason::McpProtection => {
                "MCP tools protection (mcpToolsProtection) is on: every MCP tool call needs approval".to_owned()
            }
            McpReason::BrowserToolAutoRun => {
                "browser protection is off: browser tools run without consulting the allowlist".to_owned()
            }
            McpReason::RunEverything => "run-everything mode (full_yolo) runs every tool without approval".to_owned(),
            McpReason::AskEveryTime => "auto-run is off (ask_every_time): every call needs approval".to_owned(),
            McpReason::Allowlisted => match matched {
                Some(m) => format!(
                    "{call} is allowed by {} allowlist entry {} \"{}\"",
                    if m.list == AllowlistSource::Admin { "the administrator's" } else { "your" },
                    m.index,
                    m.entry
                ),
                None => format!("{call} is allowlisted"),
            },
            McpReason::NotInAdminAllowlist => format!(
                "{call} is not in the administrator's allowlist (your own allowlist is ignored while your team controls auto-run)"
            ),
            McpReason::NotAllowlisted => format!("{call} is not in the allowlist"),
            McpReason::LegacyProtection => {
                "the mcp_allowlists feature is off and MCP auto-run is disabled (yoloMcpToolsDisabled)".to_owned()
            }
            McpReason::LegacyAutoRun => {
                "the mcp_allowlists feature is off and MCP tools auto-run (yoloMcpToolsDisabled is off)".to_owned()
            }
        }
    }
}

/// One-shot `m4c`: compiles the settings and decides a single call.
pub fn decide_mcp(server_id: &str, tool_name: &str, settings: McpSettings, mode: AutoRunMode) -> McpDecision {
    McpPolicy::new(settings).decide(server_id, tool_name, mode)
}
