use super::*;
use crate::policy::{ListKind, Outcome, Policy, Reason};
use crate::shell::Shell;

/// Seed 002's example user settings, verbatim (comments, trailing commas, and the fork-bomb
/// pattern that is not a valid regex).
const SEED_USER: &str = r#"{
  "agent": {
    "tool_permissions": {
      "tools": {
        "terminal": {
          "default_mode": "confirm",
          "always_deny": [
            { "pattern": "rm\\s+-rf\\s+(/|\\.\\.|\"|~|\\*)" },
            { "pattern": "rm\\s+-rf\\s*$" },
            { "pattern": "> /dev/sd" },
            { "pattern": "mkfs\\." },
            { "pattern": "dd\\s+if=/dev/(zero|random)" },
            { "pattern": ":(){ :|:& };:" },
            { "pattern": "/etc/passwd" },
          ],
          "always_confirm": [
            { "pattern": "rm\\s" },
            { "pattern": "git\\s+push\\s+(-f|--force)" },
            { "pattern": "DROP\\s+TABLE", "case_sensitive": true },
            { "pattern": "sudo\\s" },
          ],
          "always_allow": [
            { "pattern": "^cargo\\s+(build|test|check|clippy|run)" },
            { "pattern": "^ls(\\s|$)" },
            { "pattern": "^git\\s+(status|log|diff|branch|show)" },
          ],
        },
        "edit_file": {
          "default_mode": "confirm",
          "always_deny": [
            { "pattern": "\\.env($|\\.)" },
            { "pattern": "secrets?/" },
          ],
        },
        "fetch": {
          "default_mode": "confirm",
          "always_allow": [
            { "pattern": "^https://docs\\.rs" },
          ],
        },
        // Third-party tools: simple default_mode, no regex
        "mcp__filesystem__read_file": {
          "default_mode": "allow", // Trust this MCP tool
        },
        "custom_deploy_tool": {
          "default_mode": "deny", // Block this custom tool entirely
        },
      },
    },
  },
}"#;

const SEED_PROJECT: &str = r#"{
  "agent": {
    "tool_permissions": {
      "tools": {
        "terminal": {
          "always_allow": [
            { "pattern": "^make\\s" },
          ],
          "always_confirm": [
            { "pattern": "terraform\\s+apply" },
          ],
        },
        "edit_file": {
          "default_mode": "allow", // Trust edits in this repo
        },
      },
    },
  },
}"#;

fn policy(user: Option<&str>, project: Option<&str>) -> Policy {
    Policy::new(policy_from_settings(user, project, true).unwrap())
}

fn fixed_user() -> String {
    SEED_USER.replace(r#":(){ :|:& };:"#, r#":\\(\\)\\{ :\\|:& \\};:"#)
}

fn decide(p: &Policy, tool: &str, input: &str) -> crate::policy::Decision {
    p.decide(tool, &[input.to_owned()])
}

#[test]
fn the_seed_user_file_verbatim_blocks_the_terminal_because_of_its_invalid_pattern() {
    let p = policy(Some(SEED_USER), None);
    let d = decide(&p, "terminal", "ls");
    assert_eq!((d.outcome, d.reason), (Outcome::Deny, Reason::InvalidPattern));
    let bad = &p.invalid_patterns()[0];
    assert_eq!(
        (bad.layer.as_str(), bad.tool.as_str(), bad.list, bad.index, bad.pattern.as_str()),
        ("user", "terminal", ListKind::AlwaysDeny, 5, ":(){ :|:& };:")
    );
    // Other tools are unaffected.
    assert_eq!(decide(&p, "edit_file", "src/main.rs").outcome, Outcome::Confirm);
}

#[test]
fn decides_like_zed_with_user_and_project_layers() {
    let p = policy(Some(&fixed_user()), Some(SEED_PROJECT));
    let cases = [
        ("terminal", "cargo build --release", Outcome::Allow),
        ("terminal", "ls -la && git status", Outcome::Allow),
        ("terminal", "make all", Outcome::Allow),
        ("terminal", "cargo build && rm -rf target", Outcome::Confirm),
        ("terminal", "git push --force", Outcome::Confirm),
        ("terminal", "sudo apt update", Outcome::Confirm),
        ("terminal", "terraform apply", Outcome::Confirm),
        ("terminal", "psql -c 'DROP TABLE users'", Outcome::Confirm),
        ("terminal", "psql -c 'drop table users'", Outcome::Confirm),
        ("terminal", "rm -rf ~/x", Outcome::Deny),
        ("terminal", "cat /etc/passwd", Outcome::Deny),
        ("terminal", ":(){ :|:& };:", Outcome::Deny),
        ("terminal", "mkfs.ext4 /dev/sda1", Outcome::Deny),
        ("terminal", "echo $HOME", Outcome::Deny),
        ("terminal", "python x.py", Outcome::Confirm),
        ("edit_file", "src/main.rs", Outcome::Allow),
        ("edit_file", ".env.local", Outcome::Deny),
        ("edit_file", "src/../.env", Outcome::Deny),
        ("fetch", "https://docs.rs/regex", Outcome::Allow),
        ("fetch", "https://example.com", Outcome::Confirm),
        ("mcp__filesystem__read_file", "", Outcome::Allow),
        ("custom_deploy_tool", "", Outcome::Deny),
        ("read_file", "x", Outcome::Confirm),
    ];
    for (tool, input, expected) in cases {
        let d = decide(&p, tool, input);
        assert_eq!(d.outcome, expected, "{tool} {input:?}: {}", d.message);
    }
    assert_eq!(decide(&p, "terminal", "echo $HOME").reason, Reason::Substitution);
}

#[test]
fn the_shipped_defaults_deny_dangerous_commands_and_can_be_left_out() {
    let p = policy(Some(r#"{"agent":{"tool_permissions":{"default":"allow"}}}"#), None);
    for command in ["mkfs.ext4 /dev/sda", "dd if=/dev/zero of=/dev/sda", "echo x > /dev/sda", ":(){ :|:& };:", "rm -rf /tmp/x"] {
        let d = decide(&p, "terminal", command);
        assert_eq!(d.outcome, Outcome::Deny, "{command}");
        assert_eq!(d.rule.map(|r| r.layer.clone()).as_deref(), Some(DEFAULTS_LAYER), "{command}");
    }
    let bare = Policy::new(policy_from_settings(Some(r#"{"agent":{"tool_permissions":{"default":"allow"}}}"#), None, false).unwrap());
    assert_eq!(decide(&bare, "terminal", "mkfs.ext4 /dev/sda").outcome, Outcome::Allow);
    // The hard-coded rules stay either way.
    assert_eq!(decide(&bare, "terminal", "rm -rf /").reason, Reason::HardcodedDeny);
}

#[test]
fn global_default_and_tool_default_spellings() {
    let p = policy(
        Some(
            r#"{"agent":{"tool_permissions":{"default":"deny","tools":{"fetch":{"default":"allow"},"web_search":{"default_mode":"confirm"}}}}}"#,
        ),
        None,
    );
    assert_eq!(decide(&p, "fetch", "https://x").outcome, Outcome::Allow);
    assert_eq!(decide(&p, "web_search", "q").outcome, Outcome::Confirm);
    assert_eq!(decide(&p, "read_file", "x").outcome, Outcome::Deny);
    // A project default overrides the user's.
    let p =
        policy(Some(r#"{"agent":{"tool_permissions":{"default":"deny"}}}"#), Some(r#"{"agent":{"tool_permissions":{"default":"allow"}}}"#));
    assert_eq!(decide(&p, "read_file", "x").outcome, Outcome::Allow);
}

#[test]
fn legacy_always_allow_tool_actions() {
    let p = policy(Some(r#"{"agent":{"always_allow_tool_actions":true}}"#), None);
    assert_eq!(decide(&p, "terminal", "make").outcome, Outcome::Allow);
    assert_eq!(decide(&p, "terminal", "mkfs.ext4 /dev/sda").outcome, Outcome::Deny);
}

#[test]
fn bad_settings_are_errors_naming_the_place() {
    let err = policy_from_settings(Some("{ \"agent\": { \"tool_permissions\": [ }"), None, true).unwrap_err();
    assert!(err.to_string().starts_with("user settings: "), "{err}");
    assert!(err.to_string().contains("line 1"), "{err}");
    let err =
        policy_from_settings(None, Some(r#"{"agent":{"tool_permissions":{"tools":{"terminal":{"always_allow":[{"pattern":3}]}}}}}"#), true)
            .unwrap_err();
    assert_eq!(err.path, "agent.tool_permissions.tools.terminal.always_allow[0].pattern");
    assert!(err.to_string().starts_with("project settings.agent.tool_permissions"), "{err}");
    let err = policy_from_settings(Some(r#"{"agent":{"tool_permissions":{"default":"sometimes"}}}"#), None, true).unwrap_err();
    assert!(err.message.contains("unknown variant `sometimes`"), "{err}");
    // Empty files and files without agent settings are fine.
    assert!(policy_from_settings(Some(""), Some("// nothing\n{}"), true).is_ok());
}

#[test]
fn applying_options_writes_zed_settings_without_touching_the_input() {
    let p = policy(Some(&fixed_user()), None);
    let options = p.permission_options("terminal", &["npm test".to_owned()], USER_LAYER);
    let settings = parse_settings("user", &fixed_user()).unwrap();
    let pattern_change = options.iter().find_map(|o| o.change.clone().filter(|c| c.key == ChangeKey::AlwaysAllow)).unwrap();
    let updated = apply_change(&settings, &pattern_change).unwrap();
    assert_ne!(updated, settings);
    let allow = &updated["agent"]["tool_permissions"]["tools"]["terminal"]["always_allow"];
    assert_eq!(allow.as_array().unwrap().last().unwrap(), &json!({"pattern": "^npm\\s+test(\\s|$)"}));
    assert_eq!(apply_change(&updated, &pattern_change).unwrap(), updated, "no duplicate");
    // The updated settings now allow the call.
    let text = serde_json::to_string(&updated).unwrap();
    assert_eq!(decide(&policy(Some(&text), None), "terminal", "npm test").outcome, Outcome::Allow);

    let tool_change = options[0].change.clone().unwrap();
    let updated = apply_change(&json!({}), &tool_change).unwrap();
    assert_eq!(updated, json!({"agent":{"tool_permissions":{"tools":{"terminal":{"default":"allow"}}}}}));
    let err = apply_change(&json!({"agent": {"tool_permissions": 3}}), &tool_change).unwrap_err();
    assert_eq!(err, "cannot write the change: \"agent.tool_permissions\" is not an object");
}

fn with_shell(user: &str, shell: Shell) -> PolicySpec {
    policy_from_sources(&ZedSources { user: Some(user.to_owned()), shell: Some(shell), ..ZedSources::default() }).unwrap()
}

#[test]
fn shells_that_cannot_be_parsed_refuse_allow_rules_but_keep_deny_rules() {
    let user = fixed_user();
    let d = Policy::new(with_shell(&user, Shell::Unknown)).decide("terminal", &["ls".to_owned()]);
    assert_eq!((d.outcome, d.reason), (Outcome::Deny, Reason::UnsupportedShell));
    let no_allow =
        r#"{"agent":{"tool_permissions":{"tools":{"terminal":{"default":"allow","always_confirm":[{"pattern":"Remove-Item"}]}}}}}"#;
    let p = Policy::new(with_shell(no_allow, Shell::PowerShell));
    assert_eq!(decide(&p, "terminal", "Get-ChildItem").outcome, Outcome::Allow);
    assert_eq!(decide(&p, "terminal", "Remove-Item -Recurse x").outcome, Outcome::Confirm);
    assert_eq!(decide(&p, "terminal", "format c:").outcome, Outcome::Deny);
}
