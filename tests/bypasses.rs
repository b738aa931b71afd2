//! The table of published bypasses (`tests/fixtures/bypasses.json`), replayed natively: each row
//! is a call under one of the table's policies, with the outcome and reason it must have (the
//! guard it tests, not only an outcome some default would give), and the source that published it. `tests/js/bypasses.test.mjs`
//! replays the same rows through the package's bindings.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::Value;
use toolgate::policy::{Outcome, Policy, PolicySpec};

fn outcome(name: &str) -> Outcome {
    serde_json::from_value(Value::from(name)).unwrap_or_else(|e| panic!("`{name}` is no outcome: {e}"))
}

#[test]
fn every_published_bypass_is_held_and_every_benign_call_runs() {
    let table: Value = serde_json::from_str(include_str!("fixtures/bypasses.json")).unwrap();
    let policies: Vec<(String, Policy)> = table["policies"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, spec)| {
            let spec: PolicySpec = serde_json::from_value(spec.clone()).unwrap_or_else(|e| panic!("policy {name}: {e}"));
            (name.clone(), Policy::new(spec))
        })
        .collect();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 75, "the table shrank to {} rows", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        assert!(case["source"].as_str().is_some_and(|s| !s.is_empty()), "{name}: a row needs its source");
        let policy =
            &policies.iter().find(|(n, _)| n == case["policy"].as_str().unwrap()).unwrap_or_else(|| panic!("{name}: no such policy")).1;
        let inputs: Vec<String> = case["inputs"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
        let decision = policy.decide(case["tool"].as_str().unwrap(), &inputs);
        // A row names the guard it tests: an outcome alone could come from some other rule or default.
        let (expected, reason) = (case["outcome"].as_str(), case["reason"].as_str());
        let (Some(expected), Some(reason)) = (expected, reason) else { panic!("{name}: a row says `outcome` and `reason`") };
        let got = serde_json::to_value(decision.reason).unwrap();
        let wrong = decision.outcome != outcome(expected) || got != reason;
        if wrong {
            failures.push(format!("{name}: {inputs:?} → {:?} ({:?}) {}", decision.outcome, decision.reason, decision.message));
        }
    }
    assert!(failures.is_empty(), "{} of {} rows fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// Cursor's approval flow in run-everything mode keeps the seed's blocklist: each published
/// spelling of a blocklisted command, and each line whose program cannot be read, asks.
#[test]
fn cursors_blocklist_holds_in_run_everything_mode() {
    let table: Value = serde_json::from_str(include_str!("fixtures/bypasses.json")).unwrap();
    let cases = table["cursorCases"].as_array().unwrap();
    assert!(cases.len() >= 20, "the Cursor rows shrank to {}", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        assert!(case["source"].as_str().is_some_and(|s| !s.is_empty()), "{name}: a row needs its source");
        let settings: toolgate::cursor::settings::AutoRunSettings =
            serde_json::from_value(table["cursorSettings"][case["settings"].as_str().unwrap()].clone()).unwrap();
        let command = case["command"].as_str().unwrap();
        let decision = toolgate::cursor::terminal::decide_terminal(command, &settings, None);
        let reason = serde_json::to_value(decision.reason).unwrap();
        if decision.need_approval != case["needApproval"].as_bool().unwrap() || reason != case["reason"] {
            failures.push(format!("{name}: {command:?} → needApproval {} ({reason}) {}", decision.need_approval, decision.message));
        }
    }
    assert!(failures.is_empty(), "{} of {} rows fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
