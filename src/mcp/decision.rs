//! The MCP approval decision (Cursor's MCP allowlist design): whether an MCP tool call needs the user's approval.
//!
//! A translation: the settings become a policy — the allowlist that counts as MCP-entry rules,
//! the branches (invalid names, admin disable, the two protections, browser tools,
//! run-everything, ask-every-time, the allowlist, "ask, and offer to allowlist") as gates in the
//! seed's order — decided by the one evaluator. [`McpDecision`] is Cursor's view of it.

use super::compiled::{CompiledAllowlist, InvalidEntry};
use crate::policy::catalogue::CURSOR_MCP;
use crate::policy::matchers::mcp_name::{validate_name, NameError, NameKind};
use crate::policy::{
    CatalogueName, Condition, Decision, Gate, LayerKind, LayerSpec, Outcome, Policy, PolicySpec, Reason, RuleSpec, ToolRulesSpec,
};
use serde::{Deserialize, Serialize};

/// Server ids of the built-in browser (Playwright) tools, which have their own protection.
pub const BROWSER_SERVER_IDS: [&str; 2] = ["cursor-browser-extension", "cursor-ide-browser"];

/// The composer's auto-run mode, spelled as the seed spells it. (The MCP module declares its
/// TypeScript type through a wasm-bindgen string enum; the engine module through tsify; a module
/// with both, the settings page's, through the string enum alone.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(all(target_arch = "wasm32", feature = "engine", not(feature = "mcp")), derive(tsify::Tsify))]
pub enum AutoRunMode {
    /// Every call asks; the allowlist is not consulted.
    AskEveryTime,
    /// Calls in the allowlist run; others ask.
    Yolo,
    /// Everything runs (unless an administrator controls auto-run).
    FullYolo,
}

impl AutoRunMode {
    /// The modes' names as settings and JavaScript spell them, in declaration order.
    pub const NAMES: [&'static str; 3] = ["ask_every_time", "yolo", "full_yolo"];

    /// The mode a name spells, or `None` for any other string.
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

/// The settings the MCP approval decision reads. Missing protections default to on (fail closed).
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

/// Which allowlist an entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum AllowlistSource {
    /// The user's `mcpAllowedTools`.
    User,
    /// The team administrator's list.
    Admin,
}

/// The allowlist entry that allowed a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct MatchedEntry {
    /// Which allowlist the entry is in.
    pub list: AllowlistSource,
    /// Position of the entry in that list.
    pub index: usize,
    /// The entry as written.
    pub entry: String,
}

/// A tool the UI may offer to add to the user's allowlist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AllowlistCandidate {
    /// The server id the entry would name.
    pub server: String,
    /// The tool name the entry would name.
    pub tool: String,
}

/// Cursor's view of an MCP approval decision.
///
/// JavaScript receives it through `bindings::tape::mcp_decision_to_js`, which writes it field by
/// field: a new field goes there too (a wasm test fails until it does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct McpDecision {
    /// Whether the user must approve the call.
    pub need_approval: bool,
    /// The gate that decided: a protection, the mode, or the allowlist.
    pub reason: Reason,
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

/// The layer the user's allowlist becomes.
pub const USER_LAYER: &str = "user";
/// The layer the administrator's allowlist becomes.
pub const ADMIN_LAYER: &str = "admin";

/// The design's branches, in its order, as gates of a policy over Cursor's `mcp` tool.
fn gates(s: &McpSettings, mode: AutoRunMode) -> Vec<Gate> {
    // Seed: both auto-run flags read false while the administrator has disabled auto-run.
    let auto_run = !s.is_disabled_by_admin && mode != AutoRunMode::AskEveryTime;
    let run_everything = auto_run && mode == AutoRunMode::FullYolo;
    let gate = |when, outcome, reason, message: &str| {
        Gate { message: Some(message.to_owned()), ..Gate::new(when, outcome, reason) }.for_tools(&[CURSOR_MCP])
    };
    let ask = |when, reason, message: &str| gate(when, Outcome::Confirm, reason, message);
    let mut gates = vec![ask(Condition::InvalidName, Reason::InvalidName, "{detail}; a call with an invalid name always needs approval")];
    if !s.mcp_allowlists_enabled {
        gates.push(if s.is_disabled_by_admin {
            ask(Condition::Always, Reason::DisabledByAdmin, "MCP auto-run is disabled by your administrator")
        } else if !auto_run {
            ask(Condition::Always, Reason::AskEveryTime, "auto-run is off (ask_every_time): every call needs approval")
        } else if s.yolo_mcp_tools_disabled {
            ask(
                Condition::Always,
                Reason::LegacyProtection,
                "the mcp_allowlists feature is off and MCP auto-run is disabled (yoloMcpToolsDisabled)",
            )
        } else {
            gate(
                Condition::Always,
                Outcome::Allow,
                Reason::LegacyAutoRun,
                "the mcp_allowlists feature is off and MCP tools auto-run (yoloMcpToolsDisabled is off)",
            )
        });
        return gates;
    }
    if s.is_disabled_by_admin {
        gates.push(ask(Condition::Always, Reason::DisabledByAdmin, "MCP auto-run is disabled by your administrator"));
    }
    let browser = Condition::Server { ids: BROWSER_SERVER_IDS.iter().map(|s| (*s).to_owned()).collect() };
    gates.push(if s.playwright_protection {
        ask(browser, Reason::BrowserProtection, "browser protection (playwrightProtection) is on: every browser tool call needs approval")
    } else {
        gate(
            browser,
            Outcome::Allow,
            Reason::BrowserToolAutoRun,
            "browser protection is off: browser tools run without consulting the allowlist",
        )
    });
    if s.mcp_tools_protection {
        gates.push(ask(
            Condition::Always,
            Reason::McpProtection,
            "MCP tools protection (mcpToolsProtection) is on: every MCP tool call needs approval",
        ));
    }
    if run_everything && !s.is_admin_controlled {
        gates.push(gate(
            Condition::Always,
            Outcome::Allow,
            Reason::RunEverything,
            "run-everything mode (full_yolo) runs every tool without approval",
        ));
    }
    if !auto_run {
        gates.push(ask(Condition::Always, Reason::AskEveryTime, "auto-run is off (ask_every_time): every call needs approval"));
    }
    let whose = if s.is_admin_controlled { "the administrator's" } else { "your" };
    gates.push(gate(
        Condition::AllowRules,
        Outcome::Allow,
        Reason::Allowlisted,
        &format!("{{item}} is allowed by {whose} allowlist entry {{index}} \"{{entry}}\""),
    ));
    gates.push(if s.is_admin_controlled {
        ask(
            Condition::Always,
            Reason::NotInAdminAllowlist,
            "{item} is not in the administrator's allowlist (your own allowlist is ignored while your team controls auto-run)",
        )
    } else {
        ask(Condition::Always, Reason::NotAllowlisted, "{item} is not in the allowlist")
    });
    gates
}

/// The policy the MCP settings mean in one auto-run mode: the list that counts (the
/// administrator's when they control auto-run) as MCP-entry allow rules, the rest as gates.
pub fn mcp_policy(settings: &McpSettings, mode: AutoRunMode) -> PolicySpec {
    let (layer, list) = if settings.is_admin_controlled {
        (ADMIN_LAYER, &settings.admin_mcp_allowed_tools)
    } else {
        (USER_LAYER, &settings.mcp_allowed_tools)
    };
    let rules = ToolRulesSpec { always_allow: list.iter().map(RuleSpec::mcp).collect(), ..ToolRulesSpec::default() };
    let kind = if settings.is_admin_controlled { LayerKind::Managed } else { LayerKind::User };
    PolicySpec {
        layers: vec![LayerSpec {
            name: layer.into(),
            kind,
            tools: [(CURSOR_MCP.to_owned(), rules)].into_iter().collect(),
            ..LayerSpec::default()
        }],
        catalogue: CatalogueName::Cursor,
        gates: Some(gates(settings, mode)),
        ..PolicySpec::default()
    }
}

/// MCP settings compiled for each auto-run mode: build once, decide many calls.
#[derive(Debug, Clone)]
pub struct McpPolicy {
    settings: McpSettings,
    user: CompiledAllowlist,
    admin: CompiledAllowlist,
    /// One policy per mode, in [`AutoRunMode::NAMES`] order.
    policies: [Policy; 3],
}

impl McpPolicy {
    /// Compiles the settings once, for every auto-run mode.
    pub fn new(settings: McpSettings) -> Self {
        let policies =
            [AutoRunMode::AskEveryTime, AutoRunMode::Yolo, AutoRunMode::FullYolo].map(|mode| Policy::new(mcp_policy(&settings, mode)));
        McpPolicy {
            user: CompiledAllowlist::new(&settings.mcp_allowed_tools),
            admin: CompiledAllowlist::new(&settings.admin_mcp_allowed_tools),
            settings,
            policies,
        }
    }

    /// The settings the policy was built from.
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

    fn policy(&self, mode: AutoRunMode) -> &Policy {
        let [ask, yolo, full] = &self.policies;
        match mode {
            AutoRunMode::AskEveryTime => ask,
            AutoRunMode::Yolo => yolo,
            AutoRunMode::FullYolo => full,
        }
    }

    /// Runs `f` on the call's names as the evaluator's inputs, in two strings reused from call
    /// to call: two new strings per call were a tenth of the instructions of `needs_approval`.
    fn with_inputs<R>(server_id: &str, tool_name: &str, f: impl FnOnce(&[String]) -> R) -> R {
        thread_local! {
            static INPUTS: std::cell::RefCell<[String; 2]> = const { std::cell::RefCell::new([String::new(), String::new()]) };
        }
        INPUTS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut inputs) => {
                let [server, tool] = &mut *inputs;
                server.clear();
                server.push_str(server_id);
                tool.clear();
                tool.push_str(tool_name);
                f(&*inputs)
            }
            Err(_) => f(&[server_id.to_owned(), tool_name.to_owned()]),
        })
    }

    /// The core decision for a call.
    pub fn decide_core(&self, server_id: &str, tool_name: &str, mode: AutoRunMode) -> Decision {
        Self::with_inputs(server_id, tool_name, |inputs| self.policy(mode).decide(CURSOR_MCP, inputs))
    }

    /// The boolean: whether the call needs approval.
    pub fn needs_approval(&self, server_id: &str, tool_name: &str, mode: AutoRunMode) -> bool {
        Self::with_inputs(server_id, tool_name, |inputs| self.policy(mode).outcome(CURSOR_MCP, inputs)) != Outcome::Allow
    }

    /// Cursor's view of the decision: reason, the matching entry and allowlist candidates.
    pub fn decide(&self, server_id: &str, tool_name: &str, mode: AutoRunMode) -> McpDecision {
        // The core's suggestions are left out: Cursor's answer carries its own candidates.
        let decision = Self::with_inputs(server_id, tool_name, |inputs| self.policy(mode).decide_without_suggestions(CURSOR_MCP, inputs));
        let reason = decision.reason;
        let matched = decision.rule.as_ref().filter(|_| reason == Reason::Allowlisted).map(|rule| MatchedEntry {
            list: if rule.layer == ADMIN_LAYER { AllowlistSource::Admin } else { AllowlistSource::User },
            index: rule.index,
            entry: rule.pattern.clone(),
        });
        let consulted_list = matches!(reason, Reason::Allowlisted | Reason::NotAllowlisted | Reason::NotInAdminAllowlist);
        let candidates_for_allowlist = if reason == Reason::NotAllowlisted {
            vec![AllowlistCandidate { server: server_id.to_owned(), tool: tool_name.to_owned() }]
        } else {
            Vec::new()
        };
        let name_error = if reason == Reason::InvalidName {
            validate_name(server_id, NameKind::Server).and_then(|()| validate_name(tool_name, NameKind::Tool)).err()
        } else {
            None
        };
        McpDecision {
            need_approval: decision.outcome != Outcome::Allow,
            reason,
            message: decision.message,
            matched,
            candidates_for_allowlist,
            name_error,
            ignored_entries: if consulted_list { self.invalid_entries().to_vec() } else { Vec::new() },
        }
    }
}

/// The MCP approval decision in one shot: compiles the settings and decides a single call.
pub fn decide_mcp(server_id: &str, tool_name: &str, settings: McpSettings, mode: AutoRunMode) -> McpDecision {
    McpPolicy::new(settings).decide(server_id, tool_name, mode)
}
