use super::*;
use crate::policy::{ExampleInput, LayerSpec, RuleExamples, ToolRulesSpec};
use serde_json::json;

fn spec(value: serde_json::Value) -> PolicySpec {
    serde_json::from_value(value).unwrap()
}

fn terminal(lists: serde_json::Value) -> PolicySpec {
    spec(json!({ "layers": [{ "name": "user", "tools": { "terminal": lists } }] }))
}

fn allow(patterns: &[&str]) -> PolicySpec {
    let rules: Vec<_> = patterns.iter().map(|p| json!({ "pattern": p })).collect();
    terminal(json!({ "alwaysAllow": rules }))
}

fn codes(spec: PolicySpec) -> Vec<(LintCode, String)> {
    lint(spec).findings.into_iter().map(|f| (f.code, f.path)).collect()
}

fn only(spec: PolicySpec, code: LintCode) -> Finding {
    let findings: Vec<Finding> = lint(spec).findings.into_iter().filter(|f| f.code == code).collect();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    findings.into_iter().next().unwrap()
}

#[test]
fn an_invalid_pattern_names_its_place_and_character() {
    let f = only(allow(&[r"^ls\b", r"^git (status"]), LintCode::InvalidPattern);
    assert_eq!(f.path, "layers[0].tools.terminal.alwaysAllow[1]");
    assert_eq!(f.severity, FindingSeverity::Error);
    assert_eq!(f.column, Some(6));
    assert!(f.message.contains("at character 6"), "{}", f.message);
    let f = only(terminal(json!({ "alwaysDeny": [{ "pattern": "x", "prefix": "y" }] })), LintCode::InvalidPattern);
    assert_eq!(f.column, None);
    assert!(!lint(allow(&["("])).ok);
}

#[test]
fn look_around_and_back_references_name_the_peers_that_accept_them() {
    let f = only(allow(&[r"^git(?!\s+push)"]), LintCode::UnsupportedRegexFeature);
    assert!(f.message.contains("look-around") && f.message.contains("VS Code") && f.message.contains("Gemini CLI"), "{}", f.message);
    assert_eq!(f.column, Some(5));
    let f = only(terminal(json!({ "alwaysDeny": [{ "pattern": r"(rm)\s+\1" }] })), LintCode::UnsupportedRegexFeature);
    assert!(f.message.contains("back-reference"));
    // Not reported twice as an invalid pattern.
    assert!(codes(allow(&[r"(?<=x)y"])).iter().all(|(c, _)| *c != LintCode::InvalidPattern));
}

#[test]
fn a_duplicate_names_the_first_rule() {
    let s = spec(json!({ "layers": [
        { "name": "user", "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^ls\\b" }] } } },
        { "name": "project", "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^ls\\b" }] } } }
    ] }));
    let f = only(s, LintCode::DuplicateRule);
    assert_eq!(f.path, "layers[1].tools.terminal.alwaysAllow[0]");
    assert_eq!(f.related.as_deref(), Some("layers[0].tools.terminal.alwaysAllow[0]"));
    assert_eq!(f.severity, FindingSeverity::Info);
}

#[test]
fn an_allow_a_deny_covers_is_shadowed() {
    let s = terminal(json!({
        "alwaysDeny": [{ "pattern": r"^git\s+push" }],
        "alwaysAllow": [{ "pattern": r"^git\s+push\s+origin\b" }, { "pattern": r"^git\s+(status|push)\b" }]
    }));
    let f = only(s, LintCode::ShadowedAllow);
    assert_eq!(f.path, "layers[0].tools.terminal.alwaysAllow[0]");
    assert_eq!(f.related.as_deref(), Some("layers[0].tools.terminal.alwaysDeny[0]"));
    assert_eq!(f.input.as_deref(), Some("git push origin"));
    // MCP entries too, decided by the evaluator on the entry's own call.
    let s = spec(json!({ "catalogue": "cursor", "layers": [{ "name": "user", "tools": { "mcp": {
        "alwaysConfirm": [{ "mcp": "github:*" }], "alwaysAllow": [{ "mcp": "github:create_issue" }, { "mcp": "docs:*" }] } } }] }));
    let f = only(s, LintCode::ShadowedAllow);
    assert_eq!(f.path, "layers[0].tools.mcp.alwaysAllow[0]");
    assert!(f.message.contains("asks for"));
}

#[test]
fn allow_patterns_that_rendering_never_produces() {
    assert_eq!(only(allow(&[r"^ls && git status$"]), LintCode::AllowOperator).path, "layers[0].tools.terminal.alwaysAllow[0]");
    only(allow(&[r"^cat a\.txt\s*\|\s*grep x"]), LintCode::AllowOperator);
    only(allow(&[r"^echo 'hi'$"]), LintCode::AllowQuote);
    only(allow(&[r#"^grep "x" f$"#]), LintCode::AllowQuote);
    only(allow(&[r"^ls\s{2,}-la"]), LintCode::AllowRepeatedSpace);
    only(allow(&[r"^ls  -la$"]), LintCode::AllowRepeatedSpace);
    // `^ls$`-style anchoring at both ends is how rendered commands are matched: fine.
    assert_eq!(codes(allow(&[r"^ls$", r"^ls\b", r"^git\s+status(\s|$)", r"^(ls|pwd)$", r"^echo\s+a;b$|^pwd$"])), vec![]);
}

#[test]
fn unanchored_allows_are_over_broad() {
    let f = only(allow(&[r"git\s+status"]), LintCode::UnanchoredAllow);
    assert!(f.message.contains("anchor"));
    only(allow(&[r"^ls$|pwd"]), LintCode::UnanchoredAllow);
    let s = spec(json!({ "layers": [{ "name": "user", "tools": { "edit_file": { "alwaysAllow": [{ "pattern": "src/" }] } } }] }));
    only(s, LintCode::UnanchoredAllow);
    assert!(codes(allow(&[r"(?i)^ls\b"])).is_empty());
}

#[test]
fn a_bare_command_word_also_allows_its_dangerous_subcommands() {
    let f = only(allow(&[r"^git\b"]), LintCode::BroadAllow);
    assert_eq!(f.input.as_deref(), Some("git push --force"));
    assert!(f.message.contains("git push --force"));
    let s = terminal(json!({ "alwaysAllow": [{ "prefix": "kubectl" }] }));
    assert_eq!(only(s, LintCode::BroadAllow).input.as_deref(), Some("kubectl delete pod web-1"));
    // With the dangerous-commands preset, those calls ask: nothing to report.
    let mut with_preset = allow(&[r"^git\b"]);
    with_preset.presets = vec![Preset::DangerousCommands];
    assert!(codes(with_preset).is_empty());
    assert!(codes(allow(&[r"^git\s+(status|log)\b"])).is_empty());
}

#[test]
fn interpreters_and_wrappers_run_whatever_they_are_given() {
    for (pattern, word) in
        [(r"^python\b", "python"), (r"^bash\b", "bash"), (r"^env\b", "env"), (r"^xargs\b", "xargs"), (r"^sudo\b", "sudo")]
    {
        let f = only(allow(&[pattern]), LintCode::InterpreterAllow);
        assert!(f.message.contains(&format!("`{word}`")), "{pattern}: {}", f.message);
    }
    assert!(codes(allow(&[r"^python3\s+scripts/check\.py$", r"^env$"])).is_empty());
}

#[test]
fn a_deny_names_the_spelling_that_escapes_it() {
    for (pattern, escape) in [
        (r"rm\s+-rf", "rm -fr"),
        (r"rm\s+-(rf|fr)\b", "rm -r -f"),
        (r"rm\s+(-rf|-fr|-r\s+-f|-f\s+-r)(\s|$)", "rm --recursive --force"),
        (r"^rm\s+-rf\s+/", "rm -fr /"),
        (r"^git\s+push\s+--force", "git push -f"),
        (r"^chmod\s+-R\s", "chmod --recursive x"),
    ] {
        let f = only(terminal(json!({ "alwaysDeny": [{ "pattern": pattern }] })), LintCode::DenyEscapes);
        assert_eq!(f.input.as_deref(), Some(escape), "{pattern}");
        assert!(f.message.contains("denies"));
    }
    let f = only(terminal(json!({ "alwaysConfirm": [{ "pattern": r"git\s+clean\s+-fd" }] })), LintCode::DenyEscapes);
    assert_eq!(f.input.as_deref(), Some("git clean -df"));
    // Every spelling covered: nothing to report.
    let tight = r"^rm(\s+\S+)*\s+(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(\s|$)";
    assert!(codes(terminal(json!({ "alwaysDeny": [{ "pattern": tight }] }))).is_empty());
}

#[test]
fn failing_examples_are_findings_with_their_place_and_what_decided() {
    let mut s = terminal(json!({
        "alwaysDeny": [{ "pattern": r"^git\s+push\s+(-f|--force)(\s|$)" }],
        "alwaysAllow": [{ "pattern": r"^git\s+push\b", "examples": {
            "match": ["git push origin main", "git push --force"],
            "notMatch": ["git pull", "git push -u origin x"]
        } }]
    }));
    s.presets = vec![];
    let findings = lint(s).findings;
    let did_not: Vec<&Finding> = findings.iter().filter(|f| f.code == LintCode::ExampleDidNotMatch).collect();
    assert_eq!(did_not.len(), 1, "{findings:#?}");
    assert_eq!(did_not[0].path, "layers[0].tools.terminal.alwaysAllow[0].examples.match[1]");
    assert_eq!(did_not[0].related.as_deref(), Some("layers[0].tools.terminal.alwaysDeny[0]"));
    assert!(did_not[0].message.contains("denied by alwaysDeny rule 0"), "{}", did_not[0].message);
    let matched: Vec<&Finding> = findings.iter().filter(|f| f.code == LintCode::NotMatchExampleMatched).collect();
    assert_eq!(matched.len(), 1);
    assert_eq!(matched[0].path, "layers[0].tools.terminal.alwaysAllow[0].examples.notMatch[1]");
    assert_eq!(matched[0].input.as_deref(), Some("git push -u origin x"));
    assert!(matched[0].message.contains("allowed by this rule"), "{}", matched[0].message);
}

/// `Policy::new` records failures and still builds; a rule without examples costs nothing.
#[test]
fn self_tests_run_when_the_policy_is_built_and_never_fail_it() {
    let rule = RuleSpec {
        examples: RuleExamples {
            matches: vec![ExampleInput::One("npm test".into()), ExampleInput::One("npm run build".into())],
            not_match: vec![ExampleInput::Many(vec!["npm".into(), "publish".into()])],
        },
        ..RuleSpec::regex(r"^npm\s+test\b", false)
    };
    let layer = LayerSpec {
        name: "user".into(),
        tools: [("terminal".to_owned(), ToolRulesSpec { always_allow: vec![rule], ..ToolRulesSpec::default() })].into_iter().collect(),
        ..LayerSpec::default()
    };
    let policy = Policy::new(PolicySpec { layers: vec![layer], ..PolicySpec::default() });
    assert_eq!(policy.outcome("terminal", &["npm test".to_owned()]), Outcome::Allow);
    let failures = policy.example_failures();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].path(), "layers[0].tools.terminal.alwaysAllow[0].examples.match[1]");
    assert_eq!((failures[0].outcome, failures[0].reason), (Outcome::Confirm, Reason::GlobalDefault));
    assert!(failures[0].message().contains("asks by the global default"), "{}", failures[0].message());
    // The field is optional and left out when empty.
    let json = serde_json::to_value(&policy.spec().layers[0].tools["terminal"].always_allow[0]).unwrap();
    assert_eq!(json["examples"]["match"][0], json!("npm test"));
    assert_eq!(json["examples"]["notMatch"][0], json!(["npm", "publish"]));
    assert!(serde_json::to_value(RuleSpec::regex("x", false)).unwrap().get("examples").is_none());
    assert!(serde_json::from_value::<RuleSpec>(json!({ "pattern": "x", "examples": { "matches": [] } })).is_err());
    assert!(Policy::new(allow(&[r"^ls\b"])).example_failures().is_empty());
}

/// Every code is triggered by a test above; none fires on the shipped presets, whether copied in
/// as layers or included by name.
#[test]
fn the_shipped_presets_are_clean() {
    for preset in Preset::ALL {
        let copied = PolicySpec { layers: vec![presets::layer(preset)], ..PolicySpec::default() };
        let report = lint(copied);
        assert!(report.findings.is_empty(), "{}: {:#?}", preset.name(), report.findings);
        assert!(report.ok);
    }
    let both = PolicySpec { layers: Preset::ALL.map(presets::layer).to_vec(), ..PolicySpec::default() };
    assert!(lint(both).findings.is_empty());
    let included = PolicySpec { presets: Preset::ALL.to_vec(), ..PolicySpec::default() };
    assert!(lint(included).findings.is_empty());
}

#[test]
fn codes_and_severities_serialise_as_stable_names() {
    let names: Vec<String> = LintCode::ALL.iter().map(|c| serde_json::to_value(c).unwrap().as_str().unwrap().to_owned()).collect();
    assert_eq!(
        names,
        [
            "invalidPattern",
            "unsupportedRegexFeature",
            "duplicateRule",
            "shadowedAllow",
            "allowOperator",
            "allowQuote",
            "allowRepeatedSpace",
            "unanchoredAllow",
            "broadAllow",
            "interpreterAllow",
            "denyEscapes",
            "coveredAllow",
            "exampleDidNotMatch",
            "notMatchExampleMatched",
            "hiddenCharacters"
        ]
    );
    let f = only(allow(&[r"git\s+status"]), LintCode::UnanchoredAllow);
    let value = serde_json::to_value(&f).unwrap();
    assert_eq!(value["code"], json!("unanchoredAllow"));
    assert_eq!(value["severity"], json!("warning"));
    assert!(value.get("column").is_none());
}

#[test]
fn witnesses_are_strings_the_regex_matches() {
    assert_eq!(regex_witnesses(r"^git\s+push\b", false), vec!["git push"]);
    assert_eq!(regex_witnesses(r"^git\s+(status|log|diff)\b", false), vec!["git status", "git log", "git diff"]);
    assert_eq!(regex_witnesses(r"rm\s+-rf", false), vec!["rm -rf"]);
    assert!(regex_witnesses(r"^$", false).iter().all(String::is_empty));
    assert!(regex_witnesses("(", false).is_empty());
}

/// Nested counted repetitions do not make witnesses grow without bound.
#[test]
fn witnesses_stay_small_whatever_the_pattern() {
    let nested = format!("{}a{}", "(".repeat(40), "{8})".repeat(40));
    assert!(regex_witnesses(&nested, true).iter().all(|w| w.len() <= WITNESS_LENGTH));
    let report = lint(allow(&[&nested, &"(a|b)".repeat(200)]));
    assert!(report.findings.iter().all(|f| f.code != LintCode::AllowRepeatedSpace));
}

/// Every code has a trigger (the tests above show each one's details).
#[test]
fn every_code_is_triggered() {
    let spec = terminal(json!({
        "alwaysDeny": [{ "pattern": r"rm\s+-rf" }, { "pattern": r"^git\s+push" }],
        "alwaysAllow": [
            { "pattern": "(" }, { "pattern": r"^a(?=b)" }, { "pattern": r"^ls\b" }, { "pattern": r"^ls\b" },
            { "pattern": r"^git\s+push\s+origin\b" }, { "pattern": r"^ls && pwd$" }, { "pattern": r"^echo 'x'$" },
            { "pattern": r"^ls\s{2,}x" }, { "pattern": r"pwd" }, { "pattern": r"^kubectl\b" }, { "pattern": r"^sudo\b" }, { "glob": "ls" },
            { "pattern": r"^cat\b", "examples": { "match": ["head x"], "notMatch": ["cat x"] } },
            { "pattern": "^npm test$|(?x)#\u{202E}\n.*" }
        ]
    }));
    let found: std::collections::HashSet<LintCode> = lint(spec).findings.into_iter().map(|f| f.code).collect();
    for code in LintCode::ALL {
        assert!(found.contains(&code), "{code:?} not triggered");
    }
}

#[test]
fn each_codes_name_is_its_json_spelling() {
    for code in LintCode::ALL {
        assert_eq!(serde_json::to_value(code).unwrap(), serde_json::Value::String(code.name().into()));
    }
}

#[test]
fn an_allow_a_broader_allow_already_covers_can_go() {
    let claude = |globs: &[&str]| {
        let rules: Vec<_> = globs.iter().map(|g| json!({ "glob": g })).collect();
        terminal(json!({ "alwaysAllow": rules }))
    };
    // An exact command under a prefix, a longer prefix under a shorter one, in either order.
    let f = only(claude(&["npm test", "npm:*", "git status"]), LintCode::CoveredAllow);
    assert_eq!(
        (f.path.as_str(), f.related.as_deref()),
        ("layers[0].tools.terminal.alwaysAllow[0]", Some("layers[0].tools.terminal.alwaysAllow[1]"))
    );
    assert_eq!(f.severity, FindingSeverity::Info);
    assert!(f.message.contains("\"npm test\" allows is already allowed by \"npm:*\""), "{}", f.message);
    let found = lint(claude(&["npm run build:*", "npm *"])).findings;
    assert_eq!(found.iter().filter(|f| f.code == LintCode::CoveredAllow).count(), 1, "{found:#?}");
    // A regex covers an exact command it matches; a narrower prefix never covers a broader one.
    let mixed = terminal(json!({ "alwaysAllow": [{ "glob": "git status" }, { "pattern": "^git\\s+status\\b" }] }));
    assert_eq!(only(mixed, LintCode::CoveredAllow).path, "layers[0].tools.terminal.alwaysAllow[0]");
    assert_eq!(only(claude(&["npm test:*", "npm:*", "git"]), LintCode::CoveredAllow).path, "layers[0].tools.terminal.alwaysAllow[0]");
    // An exact MCP entry under the server's `*`.
    let mcp = spec(json!({ "layers": [{ "name": "user", "tools": { "mcp": { "alwaysAllow": [
        { "mcp": "github:create_issue" }, { "mcp": "github:*" }, { "mcp": "gitlab:create_issue" }] } } }] }));
    assert_eq!(only(mcp, LintCode::CoveredAllow).path, "layers[0].tools.mcp.alwaysAllow[0]");
    // An untrusted layer's allow rules are ignored, so they cover nothing in another layer.
    let untrusted = spec(json!({ "layers": [
        { "name": "user", "tools": { "terminal": { "alwaysAllow": [{ "glob": "npm test" }] } } },
        { "name": "project", "kind": "project", "trusted": false, "tools": { "terminal": { "alwaysAllow": [{ "glob": "npm:*" }] } } }] }));
    assert!(lint(untrusted).findings.iter().all(|f| f.code != LintCode::CoveredAllow));
    // Prefixes of different kinds are not compared (a token prefix reads quoted words).
    let kinds = terminal(json!({ "alwaysAllow": [{ "tokens": "git status" }, { "prefix": "git" }] }));
    assert!(lint(kinds).findings.iter().all(|f| f.code != LintCode::CoveredAllow));
}
