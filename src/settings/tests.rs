use super::*;
use crate::api;
use crate::policy::{ChangeKey, Policy, Reason};
use serde_json::json;

fn settings(value: serde_json::Value) -> PageSettings {
    serde_json::from_value(value).unwrap()
}

fn context(value: serde_json::Value) -> PageContext {
    serde_json::from_value(value).unwrap()
}

fn paths(problems: &[Problem]) -> Vec<(&str, &str)> {
    problems.iter().map(|p| (p.code.as_str(), p.path.as_deref().unwrap_or_default())).collect()
}

#[test]
fn an_empty_draft_is_valid_and_reads_with_the_fail_closed_defaults() {
    let v = validate_json("{}", &PageContext::default());
    assert!(v.ok, "{:?}", v.errors);
    let read = v.settings.unwrap();
    assert_eq!(read.mcp.mode, AutoRunMode::Yolo);
    assert!(read.mcp.mcp_tools_protection && read.mcp.playwright_protection);
}

#[test]
fn a_draft_that_cannot_be_read_is_an_error_naming_its_path_not_a_panic() {
    let v = validate_json(r#"{"mcp":{"mcpAllowedTools":[3]}}"#, &PageContext::default());
    assert!(!v.ok);
    assert_eq!(v.errors[0].code, "invalidSettings");
    assert_eq!(v.errors[0].path.as_deref(), Some("mcp.mcpAllowedTools[0]"));
    assert!(v.settings.is_none());
    let v = validate_json(r#"{"mcp":{"mcpAllowedTool":[]}}"#, &PageContext::default());
    assert!(!v.ok, "a typo must not silently drop a setting");
    assert!(validate_json("not json", &PageContext::default()).errors[0].code.starts_with("invalid"));
}

#[test]
fn each_invalid_mcp_entry_is_an_error_at_its_index_with_the_exact_reason() {
    let s = settings(json!({ "mcp": { "mcpAllowedTools": ["github:*", "no separator", "a:b:c", "docs: "] } }));
    let v = validate(&s, &PageContext::default());
    assert_eq!(
        paths(&v.errors),
        vec![
            ("missingSeparator", "mcp.mcpAllowedTools[1]"),
            ("tooManySeparators", "mcp.mcpAllowedTools[2]"),
            ("nameOnlyWhitespace", "mcp.mcpAllowedTools[3]")
        ]
    );
    assert!(v.errors[0].message.contains("\"no separator\" is not a valid entry"), "{}", v.errors[0].message);
}

#[test]
fn entries_a_wildcard_already_covers_are_warnings_naming_the_wildcard() {
    let s = settings(json!({ "mcp": { "mcpAllowedTools": ["github:*", "github:create_issue", "github:*"] } }));
    let v = validate(&s, &PageContext::default());
    assert!(v.ok);
    assert_eq!(paths(&v.warnings), vec![("coveredByWildcard", "mcp.mcpAllowedTools[1]"), ("duplicate", "mcp.mcpAllowedTools[2]")]);
    assert_eq!(v.warnings[0].message, "\"github:create_issue\" is already allowed by \"github:*\" (entry 1)");
}

#[test]
fn under_admin_control_the_users_list_is_reported_as_ignored_and_the_admin_list_never_blocks_a_save() {
    let c = context(json!({ "admin": { "mcp": { "isAdminControlled": true, "adminMcpAllowedTools": ["docs:search", "broken"] } } }));
    let v = validate(&PageSettings::default(), &c);
    assert!(v.ok);
    assert_eq!(
        paths(&v.warnings),
        vec![("ignoredUnderAdminControl", "mcp.mcpAllowedTools"), ("missingSeparator", "context.admin.mcp.adminMcpAllowedTools[1]")]
    );
    let m = mcp_settings(&PageSettings::default(), &c);
    assert!(m.is_admin_controlled);
    assert_eq!(m.admin_mcp_allowed_tools, vec!["docs:search".to_owned(), "broken".to_owned()]);
}

#[test]
fn an_invalid_regex_is_an_error_at_its_rule_with_the_column_where_it_goes_wrong() {
    let s = settings(json!({ "rules": { "user": { "tools": { "terminal": {
        "alwaysAllow": [{ "pattern": "^ls\\b" }, { "pattern": "^git (status" }],
        "alwaysDeny": [{ "pattern": "a{2,1}" }]
    } } } } }));
    let v = validate(&s, &PageContext::default());
    assert_eq!(
        paths(&v.errors),
        vec![("invalidPattern", "rules.user.tools.terminal.alwaysAllow[1]"), ("invalidPattern", "rules.user.tools.terminal.alwaysDeny[0]")]
    );
    assert_eq!((v.errors[0].line, v.errors[0].column), (Some(1), Some(6)), "the unclosed group opens at column 6");
    assert!(v.errors[0].message.starts_with("\"^git (status\" is not a valid pattern at column 6: "), "{}", v.errors[0].message);
    assert_eq!(v.errors[1].column, Some(2));
}

#[test]
fn the_error_column_counts_characters_and_finds_what_the_engine_lacks() {
    assert_eq!(regex_error_column("é(x"), Some(2));
    assert_eq!(regex_error_column(")"), Some(1));
    assert_eq!(regex_error_column("ab\\pL"), Some(3), "regex-lite has no Unicode classes");
    assert!(crate::policy::rules::compile_rule(&RuleSpec::regex("ab\\pL", false)).is_err());
}

#[test]
fn rule_warnings_name_unknown_tools_empty_patterns_and_an_untrusted_project() {
    let s = settings(json!({ "rules": {
        "user": { "tools": { "my_tool": { "defaultMode": "allow" }, "mcp__github__create_issue": { "defaultMode": "allow" } } },
        "project": { "tools": { "terminal": { "alwaysAllow": [{ "pattern": "" }] } } }
    } }));
    let v = validate(&s, &context(json!({ "projectTrusted": false })));
    assert!(v.ok);
    assert_eq!(
        paths(&v.warnings),
        vec![
            ("unknownTool", "rules.user.tools.my_tool"),
            ("emptyPattern", "rules.project.tools.terminal.alwaysAllow[0]"),
            ("untrustedProject", "rules.project")
        ]
    );
}

#[test]
fn roo_conflicts_are_errors_and_unknown_names_warnings_at_the_mode() {
    let s = settings(json!({ "roo": { "modes": [
        { "slug": "code", "mcpRestrictions": { "allowedServers": ["docs", "ghost"], "disallowedServers": ["docs"] } },
        { "slug": "code" },
        { "slug": " " }
    ] } }));
    let c = context(json!({ "catalogue": { "servers": [{ "name": "docs", "tools": [{ "name": "search" }] }] } }));
    let v = validate(&s, &c);
    assert_eq!(v.errors.len(), 3, "{:?}", v.errors);
    assert!(v.errors.iter().any(|p| p.code == "conflict" && p.path.as_deref() == Some("roo.modes[0].mcpRestrictions.allowedServers[0]")));
    assert!(v.errors.iter().any(|p| p.code == "duplicateSlug" && p.path.as_deref() == Some("roo.modes[1].slug")));
    assert!(v.errors.iter().any(|p| p.code == "emptySlug" && p.path.as_deref() == Some("roo.modes[2].slug")));
    assert_eq!(paths(&v.warnings), vec![("unknownServer", "roo.modes[0].mcpRestrictions.allowedServers[1]")]);
}

#[test]
fn the_mode_preview_respects_default_enabled_and_the_restrictions() {
    let s = settings(json!({ "roo": { "modes": [
        { "slug": "code", "mcpRestrictions": { "disallowedTools": [{ "serverName": "docs", "toolName": "delete" }] } },
        { "slug": "admin", "mcpRestrictions": { "allowedServers": ["admin-server"] } }
    ] } }));
    let c = context(json!({ "catalogue": { "servers": [
        { "name": "docs", "tools": [{ "name": "search" }, { "name": "delete" }] },
        { "name": "admin-server", "defaultEnabled": false, "tools": [{ "name": "drop_db" }] }
    ] } }));
    let p = preview(&s, &c);
    let names = |m: &ModePreview| {
        m.servers
            .iter()
            .map(|s| format!("{}:{}", s.name, s.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(",")))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&p.modes[0]), vec!["docs:search"], "admin-server is off by default, docs:delete is disallowed");
    assert_eq!(names(&p.modes[1]), vec!["admin-server:drop_db"]);
    assert!(p.gasoline.is_some_and(|g| !g.enabled));
}

#[test]
fn gasoline_errors_carry_their_line_and_column_and_the_summary_is_the_servers() {
    let s = settings(json!({ "gasoline": { "yaml": "allowed_tools:\n  - observe.*\n  - \"obs*.x\"\n" } }));
    let v = validate(&s, &PageContext::default());
    assert_eq!(paths(&v.errors), vec![("invalidPattern", "gasoline.yaml")]);
    assert_eq!((v.errors[0].line, v.errors[0].column), (Some(3), Some(5)));
    assert!(preview(&s, &PageContext::default()).gasoline.is_none());
    let s = settings(json!({ "gasoline": { "yaml": "allowed_tools:\n  - observe.*\n  - interact.navigate\n" } }));
    assert_eq!(preview(&s, &PageContext::default()).gasoline.unwrap().message, "Allowlist enabled, 2 tools/actions permitted");
}

#[test]
fn the_rules_policy_is_zeds_with_the_managed_layer_above_the_users_and_an_untrusted_project() {
    let s = settings(json!({ "rules": {
        "user": { "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^cargo\\s+build(\\s|$)" }, { "pattern": "^curl\\b" }] } } },
        "project": { "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^make\\b" }] } } }
    } }));
    let c = context(
        json!({ "projectTrusted": false, "admin": { "managed": { "tools": { "terminal": { "alwaysDeny": [{ "pattern": "^curl\\b" }] } } } } }),
    );
    let policy = Policy::new(rules_policy(&s, &c));
    assert_eq!(
        policy.spec().layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
        vec!["zed-defaults", "managed", "user", "project"]
    );
    assert_eq!(policy.outcome("terminal", &["cargo build --release".into()]), Outcome::Allow);
    let curl = policy.decide("terminal", &["curl https://x".into()]);
    assert_eq!((curl.outcome, curl.reason), (Outcome::Deny, Reason::DenyRule));
    assert_eq!(curl.rule.as_ref().map(|r| r.layer.as_str()), Some("managed"));
    assert_eq!(policy.outcome("terminal", &["make".into()]), Outcome::Confirm, "the untrusted project cannot allow");
    assert_eq!(policy.outcome("terminal", &["cargo build $(evil)".into()]), Outcome::Deny, "Zed denies substitutions");
    let trusted = Policy::new(rules_policy(&s, &context(json!({}))));
    assert_eq!(trusted.outcome("terminal", &["make".into()]), Outcome::Allow);
}

#[test]
fn a_permission_button_writes_to_the_users_rules_and_changes_the_next_decision() {
    let s = PageSettings::default();
    let c = PageContext::default();
    let policy = Policy::new(rules_policy(&s, &c));
    assert_eq!(policy.outcome("terminal", &["cargo build".into()]), Outcome::Confirm);
    let options = api::permission_options(&policy, "terminal", &["cargo build".into()], None);
    let pattern = options.iter().find(|o| o.change.as_ref().is_some_and(|c| c.key == ChangeKey::AlwaysAllow)).unwrap();
    let changed = apply_change(&s, pattern.change.as_ref().unwrap()).unwrap();
    assert_eq!(changed.rules.user.tools["terminal"].always_allow.len(), 1);
    assert_eq!(Policy::new(rules_policy(&changed, &c)).outcome("terminal", &["cargo build".into()]), Outcome::Allow);
    let twice = apply_change(&changed, pattern.change.as_ref().unwrap()).unwrap();
    assert_eq!(twice, changed, "the same rule is not added twice");
    let managed = SettingsChange { layer: "managed".into(), ..pattern.change.clone().unwrap() };
    assert_eq!(apply_change(&s, &managed).unwrap_err()[0].code, "readOnlyLayer");
}

#[test]
fn the_page_lists_the_catalogues_tools_terminal_first() {
    let tools = page_tools(&context(json!({ "shell": "nushell" })));
    assert_eq!(tools[0].tool, "terminal");
    assert_eq!(tools[0].input, InputKind::Command { shell: Shell::Nushell });
    assert!(tools.iter().any(|t| t.tool == "move_path" && t.input == InputKind::PathPair));
    let names: Vec<_> = tools.iter().skip(1).map(|t| t.tool.clone()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn lint_findings_about_the_users_rules_are_warnings_at_the_rule_on_the_page() {
    let s = settings(json!({ "rules": {
        "user": { "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^git push\\b" }], "alwaysDeny": [{ "pattern": "^git\\b" }] } } },
        "project": { "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^bash\\b" }] } } },
    } }));
    let v = validate(&s, &PageContext::default());
    assert!(v.ok, "lint findings never block a save: {:?}", v.errors);
    let shadowed = v.warnings.iter().find(|w| w.code == "shadowedAllow").expect("the shadowed allow is reported");
    assert_eq!(shadowed.path.as_deref(), Some("rules.user.tools.terminal.alwaysAllow[0]"));
    assert!(shadowed.message.contains("^git\\b") && shadowed.message.contains("layer \"user\""), "{}", shadowed.message);
    assert!(paths(&v.warnings).contains(&("interpreterAllow", "rules.project.tools.terminal.alwaysAllow[0]")), "{:?}", paths(&v.warnings));
    assert!(v.warnings.iter().all(|w| !w.message.contains("layers[")), "spec paths are renamed to the page's: {:?}", v.warnings);
}

#[test]
fn zeds_default_rules_and_invalid_patterns_add_no_lint_warnings() {
    // Zed's shipped defaults are not the user's to fix; an invalid pattern is already an error.
    let with_defaults = context(json!({ "includeDefaults": true }));
    assert!(validate(&PageSettings::default(), &with_defaults).warnings.is_empty());
    let s = settings(json!({ "rules": { "user": { "tools": { "terminal": { "alwaysDeny": [{ "pattern": "(?=x)" }] } } } } }));
    let v = validate(&s, &PageContext::default());
    assert_eq!(paths(&v.errors), vec![("invalidPattern", "rules.user.tools.terminal.alwaysDeny[0]")]);
    assert!(v.warnings.is_empty(), "{:?}", v.warnings);
}
