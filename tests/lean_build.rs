//! The core as the MCP entry ships it: without the `analysis` feature (no shell parser, no regex
//! or path matchers). It decides MCP and `tool.action` calls as the full core does (the seed's
//! MCP tests run in this build too, and a test in Node compares both builds on random calls);
//! what it cannot analyse, it never allows.
//!
//! Run: `cargo test --no-default-features --features mcp --test lean_build --test mcp_decision`.
#![cfg(not(feature = "analysis"))]
#![allow(clippy::unwrap_used)]

use toolgate::policy::{Call, Outcome, Policy, PolicySpec, Reason};

fn policy(spec: serde_json::Value) -> Policy {
    Policy::new(serde_json::from_value::<PolicySpec>(spec).unwrap())
}

fn decide(policy: &Policy, tool: &str, inputs: &[&str]) -> toolgate::policy::Decision {
    policy.decide_call(&Call::new(tool, inputs))
}

#[test]
fn a_command_line_is_never_allowed_unanalysed() {
    // Allowed by a prefix rule, a preset and the default in the full core; asked here.
    let open = policy(serde_json::json!({
        "catalogue": "cursor",
        "defaultMode": "allow",
        "presets": ["readOnlyCommands"],
        "layers": [{ "name": "user", "kind": "user", "tools": { "terminal": { "alwaysAllow": [{ "prefix": "ls" }] } } }],
    }));
    for line in ["ls", "ls -la", "rm -rf /", "echo $(id)", ""] {
        let d = decide(&open, "terminal", &[line]);
        assert_eq!((d.outcome, d.reason), (Outcome::Confirm, Reason::ParseFailed), "{line:?}: {}", d.message);
        assert!(d.message.contains("toolgate/engine"), "{}", d.message);
    }
    // A tool whose default refuses stays refused.
    let closed = policy(serde_json::json!({ "catalogue": "cursor", "defaultMode": "deny" }));
    assert_eq!(decide(&closed, "terminal", &["ls"]).outcome, Outcome::Deny);
}

#[test]
fn rules_of_the_text_kinds_are_invalid_and_their_tool_fails_closed() {
    let p = policy(serde_json::json!({
        "catalogue": "zed",
        "defaultMode": "confirm",
        "layers": [{ "name": "user", "kind": "user", "tools": {
            "fetch": { "alwaysAllow": [{ "domain": "example.com" }] },
            "read_file": { "alwaysDeny": [{ "pattern": "\\.env$" }], "defaultMode": "allow" },
        } }],
    }));
    let bad: Vec<_> = p.invalid_patterns().iter().map(|b| (b.tool.as_str(), b.error.as_str())).collect();
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad.iter().all(|(_, error)| error.contains("toolgate/engine")), "{bad:?}");
    // A deny rule that cannot be checked must not let the tool's default allow: every call is refused.
    for path in [".env", "README.md"] {
        let d = decide(&p, "read_file", &[path]);
        assert_eq!((d.outcome, d.reason), (Outcome::Deny, Reason::InvalidPattern), "{path}: {}", d.message);
    }
    // An allow rule that cannot be checked allows nothing: the default asks.
    assert_eq!(decide(&p, "fetch", &["https://example.com/"]).outcome, Outcome::Confirm);
}

/// Every text matcher kind (the build has no code for any of them) is refused the same way.
#[test]
fn every_text_matcher_kind_is_refused() {
    for (field, text) in [
        ("pattern", "^git\\b"),
        ("prefix", "git status"),
        ("glob", "git *"),
        ("tokens", "git status|log"),
        ("path", "src/**"),
        ("domain", "*.example.com"),
    ] {
        let p = policy(serde_json::json!({
            "catalogue": "zed",
            "layers": [{ "name": "user", "kind": "user", "tools": { "fetch": { "alwaysAllow": [{ field: text }] } } }],
        }));
        let bad: Vec<_> = p.invalid_patterns().iter().map(|b| b.error.as_str()).collect();
        assert_eq!(bad.len(), 1, "{field}: {bad:?}");
        assert!(bad[0].contains("toolgate/engine") && bad[0].contains(text), "{field}: {bad:?}");
    }
}

#[test]
fn mcp_entries_and_tool_actions_still_decide() {
    let p = policy(serde_json::json!({
        "catalogue": "cursor",
        "layers": [{ "name": "user", "kind": "user", "tools": { "mcp": { "alwaysAllow": [{ "mcp": "github:*" }] } } }],
    }));
    let d = decide(&p, "mcp", &["github", "create_issue"]);
    assert_eq!((d.outcome, d.reason), (Outcome::Allow, Reason::AllowRule), "{}", d.message);
    assert_eq!(decide(&p, "mcp", &["gitlab", "create_issue"]).outcome, Outcome::Confirm);

    let gasoline = policy(serde_json::json!({
        "catalogue": "gasoline",
        "layers": [{ "name": "allowlist", "kind": "user", "tools": { "gasoline": { "alwaysAllow": [{ "toolAction": "observe.*" }] } } }],
    }));
    assert_eq!(decide(&gasoline, "gasoline", &["OBSERVE", "logs"]).outcome, Outcome::Allow);
    assert_ne!(decide(&gasoline, "gasoline", &["interact", "click"]).outcome, Outcome::Allow);
}

#[test]
fn a_write_a_default_allows_asks_without_the_protected_path_list() {
    let open = policy(serde_json::json!({ "catalogue": "cursor", "defaultMode": "allow" }));
    for path in ["src/main.rs", ".vscode/settings.json"] {
        let d = decide(&open, "write_file", &[path]);
        assert_eq!((d.outcome, d.reason), (Outcome::Confirm, Reason::ProtectedPath), "{path}: {}", d.message);
        assert!(d.message.contains("toolgate/engine"), "{}", d.message);
    }
    // MCP calls are what this build decides, as the full core does.
    assert_eq!(decide(&open, "mcp", &["github", "create_issue"]).outcome, Outcome::Allow);
}
