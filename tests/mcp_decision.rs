//! Every branch of the seed's MCP approval decision, in the seed's order.

use toolgate::mcp::decision::{AllowlistSource, BROWSER_SERVER_IDS};
use toolgate::mcp::{decide_mcp, AutoRunMode, McpPolicy, McpSettings};
use toolgate::policy::Reason as McpReason;
use AutoRunMode::{AskEveryTime, FullYolo, Yolo};

/// Protections off and the gate on: the settings under which the allowlist matters.
fn open(list: &[&str]) -> McpSettings {
    McpSettings {
        mcp_allowed_tools: list.iter().map(|s| s.to_string()).collect(),
        mcp_tools_protection: false,
        playwright_protection: false,
        ..McpSettings::default()
    }
}

fn reason(settings: &McpSettings, server: &str, tool: &str, mode: AutoRunMode) -> McpReason {
    decide_mcp(server, tool, settings.clone(), mode).reason
}

#[test]
fn invalid_names_always_need_approval_even_in_run_everything() {
    let s = open(&["*:*"]);
    for (server, tool) in [("", "t"), ("s", ""), ("a:b", "t"), ("s", "t*"), ("  ", "t"), ("s", &"x".repeat(257))] {
        let d = decide_mcp(server, tool, s.clone(), FullYolo);
        assert!(d.need_approval, "{server:?}/{tool:?}");
        assert_eq!(d.reason, McpReason::InvalidName);
        assert!(d.name_error.is_some());
        assert!(d.candidates_for_allowlist.is_empty());
    }
}

#[test]
fn invalid_name_message_says_which_side_and_why() {
    let d = decide_mcp("git:hub", "t", open(&[]), Yolo);
    assert!(d.message.starts_with("server name must not contain ':'"), "{}", d.message);
}

#[test]
fn admin_disabled_needs_approval_in_every_mode() {
    let s = McpSettings { is_disabled_by_admin: true, ..open(&["*:*"]) };
    for mode in [AskEveryTime, Yolo, FullYolo] {
        let d = decide_mcp("github", "x", s.clone(), mode);
        assert!(d.need_approval);
        assert_eq!(d.reason, McpReason::DisabledByAdmin);
        assert!(d.candidates_for_allowlist.is_empty());
    }
}

#[test]
fn mcp_protection_needs_approval_even_when_allowlisted_or_run_everything() {
    let s = McpSettings { mcp_tools_protection: true, ..open(&["github:*"]) };
    assert_eq!(reason(&s, "github", "x", Yolo), McpReason::McpProtection);
    assert_eq!(reason(&s, "github", "x", FullYolo), McpReason::McpProtection);
    assert!(decide_mcp("github", "x", s, FullYolo).need_approval);
}

#[test]
fn mcp_protection_defaults_to_on() {
    let s = McpSettings { mcp_allowed_tools: vec!["github:*".into()], ..McpSettings::default() };
    assert_eq!(reason(&s, "github", "x", Yolo), McpReason::McpProtection);
}

#[test]
fn browser_tools_follow_their_own_protection_not_mcp_protection() {
    for server in BROWSER_SERVER_IDS {
        // Browser protection on: approval, whatever MCP protection and the allowlist say.
        let s = McpSettings { playwright_protection: true, mcp_tools_protection: false, ..open(&["*:*"]) };
        let d = decide_mcp(server, "browser_navigate", s, FullYolo);
        assert!(d.need_approval);
        assert_eq!(d.reason, McpReason::BrowserProtection);

        // Browser protection off: runs without the allowlist, even with MCP protection on and in ask mode.
        let s = McpSettings { playwright_protection: false, mcp_tools_protection: true, ..open(&[]) };
        let d = decide_mcp(server, "browser_navigate", s, AskEveryTime);
        assert!(!d.need_approval);
        assert_eq!(d.reason, McpReason::BrowserToolAutoRun);
    }
}

#[test]
fn browser_protection_does_not_apply_to_other_servers() {
    let s = McpSettings { playwright_protection: true, ..open(&["github:*"]) };
    assert_eq!(reason(&s, "github", "x", Yolo), McpReason::Allowlisted);
    // Similar-looking ids are ordinary servers.
    assert_eq!(reason(&s, "Cursor-ide-browser", "x", Yolo), McpReason::NotAllowlisted);
}

#[test]
fn admin_disable_wins_over_browser_tools() {
    let s = McpSettings { is_disabled_by_admin: true, ..open(&[]) };
    assert_eq!(reason(&s, "cursor-ide-browser", "x", FullYolo), McpReason::DisabledByAdmin);
}

#[test]
fn run_everything_runs_without_the_allowlist() {
    let d = decide_mcp("github", "delete_repo", open(&[]), FullYolo);
    assert!(!d.need_approval);
    assert_eq!(d.reason, McpReason::RunEverything);
    assert!(d.matched.is_none());
}

#[test]
fn ask_every_time_ignores_the_allowlist() {
    let d = decide_mcp("github", "x", open(&["*:*"]), AskEveryTime);
    assert!(d.need_approval);
    assert_eq!(d.reason, McpReason::AskEveryTime);
    assert!(d.candidates_for_allowlist.is_empty());
}

#[test]
fn allowlist_mode_runs_allowlisted_tools_and_names_the_entry() {
    let d = decide_mcp("github", "create_issue", open(&["docs:*", "github:create_issue"]), Yolo);
    assert!(!d.need_approval);
    assert_eq!(d.reason, McpReason::Allowlisted);
    let m = d.matched.unwrap();
    assert_eq!((m.list, m.index, m.entry.as_str()), (AllowlistSource::User, 1, "github:create_issue"));
    assert!(d.message.contains("\"github:create_issue\""));
}

#[test]
fn each_wildcard_form_allowlists() {
    for entry in ["github:*", "*:create_issue", "*:*"] {
        assert_eq!(reason(&open(&[entry]), "github", "create_issue", Yolo), McpReason::Allowlisted, "{entry}");
    }
}

#[test]
fn not_allowlisted_asks_and_offers_the_tool_as_a_candidate() {
    let d = decide_mcp("github", "delete_repo", open(&["github:create_issue", "*:search"]), Yolo);
    assert!(d.need_approval);
    assert_eq!(d.reason, McpReason::NotAllowlisted);
    assert_eq!(d.candidates_for_allowlist.len(), 1);
    assert_eq!(d.candidates_for_allowlist[0].server, "github");
    assert_eq!(d.candidates_for_allowlist[0].tool, "delete_repo");
}

#[test]
fn invalid_entries_match_nothing_and_are_reported() {
    let d = decide_mcp("github", "x", open(&["github", "github:x:y"]), Yolo);
    assert_eq!(d.reason, McpReason::NotAllowlisted);
    let ignored: Vec<usize> = d.ignored_entries.iter().map(|e| e.index).collect();
    assert_eq!(ignored, vec![0, 1]);
}

#[test]
fn admin_controlled_uses_only_the_admin_list() {
    let s = McpSettings { is_admin_controlled: true, admin_mcp_allowed_tools: vec!["docs:*".into()], ..open(&["github:*"]) };
    // The user's own entry does not count.
    let d = decide_mcp("github", "x", s.clone(), Yolo);
    assert!(d.need_approval);
    assert_eq!(d.reason, McpReason::NotInAdminAllowlist);
    assert!(d.candidates_for_allowlist.is_empty(), "adding to the user's list would change nothing");
    // The admin's entry does.
    let d = decide_mcp("docs", "search", s, Yolo);
    assert!(!d.need_approval);
    assert_eq!(d.matched.unwrap().list, AllowlistSource::Admin);
}

#[test]
fn run_everything_does_not_bypass_admin_control() {
    let s = McpSettings { is_admin_controlled: true, admin_mcp_allowed_tools: vec!["docs:*".into()], ..open(&[]) };
    assert_eq!(reason(&s, "github", "x", FullYolo), McpReason::NotInAdminAllowlist);
    assert_eq!(reason(&s, "docs", "x", FullYolo), McpReason::Allowlisted);
    // And ask-every-time still asks under admin control.
    assert_eq!(reason(&s, "docs", "x", AskEveryTime), McpReason::AskEveryTime);
}

#[test]
fn legacy_path_when_the_gate_is_off_only_reads_the_toggle() {
    let legacy = |disabled: bool| McpSettings {
        mcp_allowlists_enabled: false,
        yolo_mcp_tools_disabled: disabled,
        // These would decide the new path; the legacy path ignores them.
        mcp_tools_protection: true,
        mcp_allowed_tools: vec!["*:*".into()],
        ..McpSettings::default()
    };
    let d = decide_mcp("github", "x", legacy(true), Yolo);
    assert_eq!((d.need_approval, d.reason), (true, McpReason::LegacyProtection));
    assert!(d.matched.is_none() && d.candidates_for_allowlist.is_empty());
    let d = decide_mcp("github", "x", legacy(false), Yolo);
    assert_eq!((d.need_approval, d.reason), (false, McpReason::LegacyAutoRun));
    // Auto-run off and admin disable still ask.
    assert_eq!(reason(&legacy(false), "github", "x", AskEveryTime), McpReason::AskEveryTime);
    let s = McpSettings { is_disabled_by_admin: true, ..legacy(false) };
    assert_eq!(reason(&s, "github", "x", FullYolo), McpReason::DisabledByAdmin);
    // Invalid names still ask.
    assert_eq!(reason(&legacy(false), "a:b", "x", Yolo), McpReason::InvalidName);
}

#[test]
fn the_fast_boolean_agrees_with_the_explained_decision() {
    let settings = [
        open(&["github:*", "*:search"]),
        McpSettings { is_admin_controlled: true, admin_mcp_allowed_tools: vec!["docs:*".into()], ..open(&["github:*"]) },
        McpSettings { mcp_allowlists_enabled: false, yolo_mcp_tools_disabled: false, ..open(&[]) },
        McpSettings::default(),
    ];
    for s in settings {
        let policy = McpPolicy::new(s);
        for server in ["github", "docs", "other", "cursor-ide-browser", "a:b"] {
            for tool in ["x", "search"] {
                for mode in [AskEveryTime, Yolo, FullYolo] {
                    let d = policy.decide(server, tool, mode);
                    assert_eq!(policy.needs_approval(server, tool, mode), d.need_approval);
                }
            }
        }
    }
}

#[test]
fn is_allowlisted_never_passes_an_invalid_name_even_under_a_global_wildcard() {
    let policy = McpPolicy::new(open(&["*:*"]));
    assert!(policy.is_allowlisted("github", "x"));
    assert!(!policy.is_allowlisted("a:b", "x"));
    assert!(!policy.is_allowlisted("github", ""));
}
