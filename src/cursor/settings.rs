//! Cursor's auto-run settings (Cursor's MCP allowlist and approval-flow designs): the composer-state defaults, the migration of
//! legacy settings, and team admin `AutoRunControls` turning into admin-controlled settings.

use crate::mcp::AutoRunMode;
use serde::{Deserialize, Serialize};

fn yes() -> bool {
    true
}

/// `composerState` as stored, with the design's defaults for anything missing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ComposerState {
    /// Auto-run is on (the legacy "YOLO mode" switch).
    #[serde(default)]
    pub use_yolo_mode: bool,
    /// A custom auto-run prompt; when non-empty, auto-run is turned off (custom prompts need review).
    #[serde(default)]
    pub yolo_prompt: String,
    /// With auto-run on, every command runs without consulting the allowlist.
    #[serde(default)]
    pub yolo_enable_run_everything: bool,
    /// Command prefixes that run without asking.
    #[serde(default)]
    pub yolo_command_allowlist: Vec<String>,
    /// Command prefixes that always ask.
    #[serde(default)]
    pub yolo_command_denylist: Vec<String>,
    /// MCP tools never auto-run (becomes MCP tools protection). Default: true.
    #[serde(default = "yes")]
    pub yolo_mcp_tools_disabled: bool,
    /// Deleting files asks even in auto-run (becomes delete protection). Default: false.
    #[serde(default)]
    pub yolo_delete_file_disabled: bool,
    /// Writing outside the workspace asks even in auto-run (becomes outside-workspace protection). Default: true.
    #[serde(default = "yes")]
    pub yolo_outside_workspace_disabled: bool,
    /// Writing dotfiles asks even in auto-run (becomes dotfile protection). Default: true.
    #[serde(default = "yes")]
    pub yolo_dot_files_disabled: bool,
    /// The user's MCP allowlist: `server:tool` entries.
    #[serde(default)]
    pub mcp_allowed_tools: Vec<String>,
    /// Every browser (Playwright) tool call asks. Default: true.
    #[serde(default = "yes")]
    pub playwright_protection: bool,
}

impl Default for ComposerState {
    /// The design's `defaultComposerState`.
    fn default() -> Self {
        ComposerState {
            use_yolo_mode: false,
            yolo_prompt: String::new(),
            yolo_enable_run_everything: false,
            yolo_command_allowlist: Vec::new(),
            yolo_command_denylist: Vec::new(),
            yolo_mcp_tools_disabled: true,
            yolo_delete_file_disabled: false,
            yolo_outside_workspace_disabled: true,
            yolo_dot_files_disabled: true,
            mcp_allowed_tools: Vec::new(),
            playwright_protection: true,
        }
    }
}

/// Team admin controls (protobuf `AutoRunControls`), as JSON with the protobuf field names
/// (lowerCamelCase, the protobuf JSON default, is accepted too).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AutoRunControls {
    /// The controls apply; when false they change nothing.
    pub enabled: bool,
    /// The administrator's command allowlist; it replaces the user's.
    pub allowed: Vec<String>,
    /// The administrator's command blocklist (prefixes that always ask); it replaces the user's.
    pub blocked: Vec<String>,
    /// Every MCP call asks (MCP tools protection).
    #[serde(alias = "disableMcpAutoRun")]
    pub disable_mcp_auto_run: bool,
    /// Deleting files asks, even in auto-run.
    #[serde(alias = "deleteFileProtection")]
    pub delete_file_protection: bool,
    /// Users may keep run-everything mode; without it, they fall back to the allowlist.
    #[serde(alias = "enableRunEverything")]
    pub enable_run_everything: bool,
    /// The administrator's MCP allowlist; it replaces the user's.
    #[serde(alias = "mcpToolAllowlist")]
    pub mcp_tool_allowlist: Vec<String>,
    /// What the administrator says about sandboxed auto-run, if anything.
    #[serde(alias = "sandboxingControls")]
    pub sandboxing_controls: Option<SandboxingControls>,
    /// Every browser-tool call asks.
    #[serde(alias = "browserProtection")]
    pub browser_protection: bool,
}

/// What the admin says about sandboxed auto-run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SandboxingControls {
    /// Commands run in a sandbox, so the allowlist need not vouch for them.
    #[serde(alias = "sandbox_enabled")]
    pub sandbox_enabled: bool,
}

/// The effective auto-run settings (what the design's settings reader returns), after migration and
/// admin controls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AutoRunSettings {
    /// The auto-run mode in force.
    pub mode: AutoRunMode,
    /// Command prefixes that run without asking (matched per sub-command on word boundaries).
    #[serde(default)]
    pub command_allowlist: Vec<String>,
    /// Command prefixes that always ask.
    #[serde(default)]
    pub command_blocklist: Vec<String>,
    /// Deleting a file (or running `rm`) asks, even in auto-run. Default: false.
    #[serde(default)]
    pub delete_file_protection: bool,
    /// Writing or deleting a dotfile asks, even in auto-run. Default: true.
    #[serde(default = "yes")]
    pub dot_files_protection: bool,
    /// Writing or deleting outside the workspace roots asks, even in auto-run. Default: true.
    #[serde(default = "yes")]
    pub outside_workspace_protection: bool,
    /// Every MCP tool call asks. Default: true.
    #[serde(default = "yes")]
    pub mcp_tools_protection: bool,
    /// Every browser (Playwright) tool call asks. Default: true.
    #[serde(default = "yes")]
    pub playwright_protection: bool,
    /// The MCP allowlist in force: `server:tool` entries.
    #[serde(default)]
    pub mcp_allowed_tools: Vec<String>,
    /// Commands run in a sandbox, so the allowlist need not vouch for them.
    #[serde(default)]
    pub sandbox_enabled: bool,
    /// A team administrator's controls are in force (their lists replace the user's).
    #[serde(default)]
    pub is_admin_controlled: bool,
    /// The administrator allows nothing, so auto-run is off and every call asks.
    #[serde(default)]
    pub is_disabled_by_admin: bool,
}

/// The design's migration: `useYoloMode` (off when a `yoloPrompt` is set), run-everything on top.
pub fn migrate(state: &ComposerState) -> AutoRunSettings {
    let auto_run = state.use_yolo_mode && state.yolo_prompt.trim().is_empty();
    let mode = match (auto_run, state.yolo_enable_run_everything) {
        (false, _) => AutoRunMode::AskEveryTime,
        (true, false) => AutoRunMode::Yolo,
        (true, true) => AutoRunMode::FullYolo,
    };
    AutoRunSettings {
        mode,
        command_allowlist: state.yolo_command_allowlist.clone(),
        command_blocklist: state.yolo_command_denylist.clone(),
        delete_file_protection: state.yolo_delete_file_disabled,
        dot_files_protection: state.yolo_dot_files_disabled,
        outside_workspace_protection: state.yolo_outside_workspace_disabled,
        mcp_tools_protection: state.yolo_mcp_tools_disabled,
        playwright_protection: state.playwright_protection,
        mcp_allowed_tools: state.mcp_allowed_tools.clone(),
        sandbox_enabled: false,
        is_admin_controlled: false,
        is_disabled_by_admin: false,
    }
}

/// Applies team admin controls: when enabled, the admin's lists replace the
/// user's, the admin's protections apply, run-everything needs the admin's permission, and
/// auto-run is disabled outright when the admin allows no commands, no MCP tools and no run-everything.
pub fn apply_admin_controls(user: &AutoRunSettings, controls: &AutoRunControls) -> AutoRunSettings {
    if !controls.enabled {
        return user.clone();
    }
    let disabled = controls.allowed.is_empty() && controls.mcp_tool_allowlist.is_empty() && !controls.enable_run_everything;
    let mode = match user.mode {
        AutoRunMode::FullYolo if !controls.enable_run_everything => AutoRunMode::Yolo,
        mode => mode,
    };
    AutoRunSettings {
        mode,
        command_allowlist: controls.allowed.clone(),
        command_blocklist: controls.blocked.clone(),
        delete_file_protection: controls.delete_file_protection,
        dot_files_protection: user.dot_files_protection,
        outside_workspace_protection: user.outside_workspace_protection,
        mcp_tools_protection: controls.disable_mcp_auto_run,
        playwright_protection: controls.browser_protection,
        mcp_allowed_tools: controls.mcp_tool_allowlist.clone(),
        sandbox_enabled: controls.sandboxing_controls.as_ref().is_some_and(|s| s.sandbox_enabled),
        is_admin_controlled: true,
        is_disabled_by_admin: disabled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_designs() {
        let s: ComposerState = serde_json::from_str("{}").unwrap();
        assert_eq!(s, ComposerState::default());
        assert!(!s.use_yolo_mode && s.yolo_mcp_tools_disabled && !s.yolo_delete_file_disabled);
        assert!(s.yolo_outside_workspace_disabled && s.yolo_dot_files_disabled && s.yolo_prompt.is_empty());
        assert_eq!(migrate(&s).mode, AutoRunMode::AskEveryTime);
    }

    #[test]
    fn migration_reads_use_yolo_mode_and_a_prompt_turns_auto_run_off() {
        let on = ComposerState { use_yolo_mode: true, ..ComposerState::default() };
        assert_eq!(migrate(&on).mode, AutoRunMode::Yolo);
        let prompted = ComposerState { yolo_prompt: "only safe things".into(), ..on.clone() };
        assert_eq!(migrate(&prompted).mode, AutoRunMode::AskEveryTime);
        let blank_prompt = ComposerState { yolo_prompt: "  ".into(), ..on.clone() };
        assert_eq!(migrate(&blank_prompt).mode, AutoRunMode::Yolo);
        let everything = ComposerState { yolo_enable_run_everything: true, ..on };
        assert_eq!(migrate(&everything).mode, AutoRunMode::FullYolo);
    }

    #[test]
    fn migration_maps_the_legacy_toggles_to_protections() {
        let s = ComposerState {
            yolo_mcp_tools_disabled: false,
            yolo_delete_file_disabled: true,
            yolo_dot_files_disabled: false,
            yolo_command_allowlist: vec!["git".into()],
            ..ComposerState::default()
        };
        let m = migrate(&s);
        assert!(!m.mcp_tools_protection && m.delete_file_protection && !m.dot_files_protection && m.outside_workspace_protection);
        assert_eq!(m.command_allowlist, vec!["git".to_owned()]);
    }

    #[test]
    fn admin_controls_replace_lists_and_protections() {
        let user = AutoRunSettings {
            command_allowlist: vec!["rm".into()],
            mcp_allowed_tools: vec!["*:*".into()],
            ..migrate(&ComposerState { use_yolo_mode: true, yolo_enable_run_everything: true, ..ComposerState::default() })
        };
        let controls: AutoRunControls = serde_json::from_str(r#"{"enabled":true,"allowed":["git"],"blocked":["curl"],"disable_mcp_auto_run":true,"delete_file_protection":true,"mcp_tool_allowlist":["docs:*"],"browser_protection":true}"#).unwrap();
        let s = apply_admin_controls(&user, &controls);
        assert!(s.is_admin_controlled && !s.is_disabled_by_admin);
        assert_eq!(
            (s.command_allowlist.clone(), s.command_blocklist.clone(), s.mcp_allowed_tools.clone()),
            (vec!["git".to_owned()], vec!["curl".to_owned()], vec!["docs:*".to_owned()])
        );
        assert!(s.mcp_tools_protection && s.delete_file_protection && s.playwright_protection);
        assert_eq!(s.mode, AutoRunMode::Yolo, "run-everything needs the admin's enable_run_everything");
        let allow_all = AutoRunControls { enable_run_everything: true, ..controls.clone() };
        assert_eq!(apply_admin_controls(&user, &allow_all).mode, AutoRunMode::FullYolo);
    }

    #[test]
    fn admin_disables_auto_run_when_nothing_is_allowed() {
        let user = migrate(&ComposerState { use_yolo_mode: true, ..ComposerState::default() });
        let s = apply_admin_controls(&user, &AutoRunControls { enabled: true, ..AutoRunControls::default() });
        assert!(s.is_disabled_by_admin);
        assert_eq!(apply_admin_controls(&user, &AutoRunControls::default()), user, "disabled controls change nothing");
        let camel: AutoRunControls =
            serde_json::from_str(r#"{"enabled":true,"enableRunEverything":true,"mcpToolAllowlist":["a:b"]}"#).unwrap();
        assert!(camel.enable_run_everything && camel.mcp_tool_allowlist.len() == 1);
    }
}
