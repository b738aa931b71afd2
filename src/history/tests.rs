//! Reading toolgate's session log, replaying a policy over it, and finding unused rules.

use super::*;
use crate::policy::PolicySpec;
use crate::session::grants::AnswerScope;
use crate::session::{Answer, Session, SessionOptions};
use serde_json::json;

fn spec(value: serde_json::Value) -> PolicySpec {
    serde_json::from_value(value).unwrap()
}

fn terminal(command: &str) -> Call {
    Call::new("terminal", &[command])
}

/// A session log made by a session: `ls` ran, `npm test` asked and was approved twice, `make`
/// asked and was declined, `curl` was refused, `cargo build` asked and was left unanswered.
fn session_log() -> String {
    let policy = spec(json!({
        "layers": [{ "name": "user", "kind": "user", "tools": { "terminal": {
            "alwaysAllow": [{ "prefix": "ls" }, { "prefix": "git status" }],
            "alwaysDeny": [{ "pattern": "^curl\\b" }] } } }],
        "defaultMode": "confirm"
    }));
    let s = Session::new(policy, &SessionOptions::default()).unwrap();
    let answer = |call_id, allow| Answer { call_id, allow: Some(allow), scope: AnswerScope::Once, ..Answer::default() };
    s.decide(&terminal("ls -la"), 1).unwrap();
    for now in [2, 3] {
        let d = s.decide(&terminal("npm test"), now).unwrap();
        s.answer(&answer(d.call_id, true), now).unwrap();
    }
    let d = s.decide(&terminal("make deploy"), 4).unwrap();
    s.answer(&answer(d.call_id, false), 4).unwrap();
    s.decide(&terminal("curl https://x"), 5).unwrap();
    s.decide(&terminal("cargo build"), 6).unwrap();
    s.log_lines(0).unwrap()
}

#[test]
fn a_session_log_reads_as_the_calls_and_what_happened_to_each() {
    let history = read_session_log(&session_log());
    assert_eq!(history.unread, vec![]);
    let calls: Vec<(&str, Happened)> = history.calls.iter().map(|c| (c.inputs[0].as_str(), c.happened)).collect();
    assert_eq!(
        calls,
        [
            ("ls -la", Happened::Ran),
            ("npm test", Happened::Approved),
            ("npm test", Happened::Approved),
            ("make deploy", Happened::Declined),
            ("curl https://x", Happened::Refused),
            ("cargo build", Happened::Unanswered),
        ]
    );
    assert_eq!(history.calls[0].line, 1, "each call says where it is");
}

#[test]
fn a_line_that_cannot_be_read_is_reported_with_its_number_and_the_rest_is_read() {
    let mut log = session_log();
    log.push_str(
        "{not json\n{\"event\":\"decision\",\"callId\":99}\n{\"event\":\"answer\",\"callId\":42,\"outcome\":\"allow\"}\n{\"x\":1}\n",
    );
    let history = read_session_log(&log);
    assert_eq!(history.calls.len(), 6);
    let lines: Vec<(usize, &str)> = history.unread.iter().map(|p| (p.line.unwrap(), p.message.as_str())).collect();
    let first = log.lines().count() - 3;
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0].0, first);
    assert!(lines[0].1.starts_with("not a JSON record"), "{lines:?}");
    assert!(lines[1].1.contains("needs `tool`, `inputs` and `outcome`"), "{lines:?}");
    assert!(lines[2].1.contains("whose decision is not in this log"), "{lines:?}");
    assert!(lines[3].1.contains("needs an `event`"), "{lines:?}");
}

#[test]
fn replaying_a_change_says_what_it_would_have_done_per_rule() {
    let history = read_session_log(&session_log()).calls;
    // The proposed policy allows npm and make, asks for ls, and no longer refuses curl.
    let proposed = Policy::new(spec(json!({
        "layers": [{ "name": "user", "kind": "user", "tools": { "terminal": {
            "alwaysAllow": [{ "prefix": "npm" }, { "prefix": "make" }, { "prefix": "curl" }],
            "alwaysConfirm": [{ "prefix": "ls" }] } } }],
        "defaultMode": "confirm"
    })));
    let report = replay(&proposed, &history);
    assert_eq!(report.calls, 6);
    let expected: BTreeMap<String, usize> =
        [("wouldAllowRefused", 2), ("wouldAskRan", 1), ("wouldSavePrompt", 2)].into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    assert_eq!(report.changes, expected);
    assert_eq!(
        report.summary,
        [
            "would have allowed 2 calls that were refused",
            "would have asked for 1 call that ran without asking",
            "would have run 2 calls a person approved, without asking"
        ]
    );
    type ByRule<'a> = Vec<(Option<&'a str>, Vec<(&'a str, usize)>)>;
    let by_rule: ByRule = report
        .by_rule
        .iter()
        .map(|r| (r.rule.as_ref().map(|r| r.pattern.as_str()), r.changes.iter().map(|(k, v)| (k.as_str(), *v)).collect()))
        .collect();
    assert_eq!(
        by_rule,
        [
            (Some("ls"), vec![("wouldAskRan", 1)]),
            (Some("npm"), vec![("wouldSavePrompt", 2)]),
            (Some("make"), vec![("wouldAllowRefused", 1)]),
            (Some("curl"), vec![("wouldAllowRefused", 1)]),
        ]
    );
    // The same policy replayed changes nothing.
    let same = Policy::new(spec(json!({
        "layers": [{ "name": "user", "kind": "user", "tools": { "terminal": {
            "alwaysAllow": [{ "prefix": "ls" }, { "prefix": "git status" }],
            "alwaysDeny": [{ "pattern": "^curl\\b" }] } } }],
        "defaultMode": "confirm"
    })));
    let report = replay(&same, &history);
    assert!(report.changed.is_empty() && report.summary.is_empty(), "{:?}", report.summary);
}

#[test]
fn unused_rules_are_those_no_call_met() {
    let history = read_session_log(&session_log()).calls;
    let policy = Policy::new(spec(json!({
        "layers": [{ "name": "user", "kind": "user", "tools": {
            "terminal": { "alwaysAllow": [{ "prefix": "ls" }, { "prefix": "git status" }], "alwaysDeny": [{ "pattern": "^curl\\b" }] },
            "edit_file": { "alwaysAllow": [{ "pattern": "^src/" }] } } }],
        "defaultMode": "confirm"
    })));
    let unused: Vec<(String, String)> = unused_rules(&policy, &history).into_iter().map(|r| (r.tool, r.pattern)).collect();
    assert_eq!(unused, [("edit_file".to_owned(), "^src/".to_owned()), ("terminal".to_owned(), "git status".to_owned())]);
}

/// A Claude Code transcript in this test's own words: the user approved `cargo test` three times
/// and `git diff` twice, edited two files of `src/`, rejected `git push --force`, and the agent
/// kept a to-do list.
fn claude_transcript() -> String {
    let mut lines = vec![json!({ "type": "summary", "summary": "a made-up session" })];
    let mut n = 0;
    let mut call = |lines: &mut Vec<serde_json::Value>, name: &str, input: serde_json::Value, result: &str, error: bool| {
        n += 1;
        let id = format!("toolu_{n}");
        lines.push(json!({ "type": "assistant", "message": { "role": "assistant", "content": [
            { "type": "tool_use", "id": id, "name": name, "input": input }] } }));
        lines.push(json!({ "type": "user", "message": { "role": "user", "content": [
            { "type": "tool_result", "tool_use_id": id, "content": result, "is_error": error }] } }));
    };
    for command in ["cargo test", "cargo test --lib", "cargo test -- --nocapture", "git diff", "git diff --stat"] {
        call(&mut lines, "Bash", json!({ "command": command, "description": "check" }), "ok", false);
    }
    call(&mut lines, "Edit", json!({ "file_path": "/home/ana/shop/src/cart.rs", "old_string": "a", "new_string": "b" }), "done", false);
    call(&mut lines, "Write", json!({ "file_path": "/home/ana/shop/src/pay/card.rs", "content": "x" }), "done", false);
    call(&mut lines, "TodoWrite", json!({ "todos": [] }), "ok", false);
    let rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
    call(&mut lines, "Bash", json!({ "command": "git push --force" }), rejected, true);
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    text.push_str("{\"type\": \"assistant\", \"message\": \n");
    text
}

/// A Codex rollout in this test's own words: `make check` run three times outside the sandbox
/// after the user approved it, `ls` in the sandbox, one escalation aborted.
fn codex_rollout() -> String {
    let mut lines = vec![json!({ "timestamp": "t", "type": "session_meta", "payload": { "id": "s" } })];
    let mut n = 0;
    let mut call = |lines: &mut Vec<serde_json::Value>, cmd: &str, escalated: bool, output: &str| {
        n += 1;
        let id = format!("call_{n}");
        let mut arguments = json!({ "cmd": cmd });
        if escalated {
            arguments["sandbox_permissions"] = json!("require_escalated");
            arguments["justification"] = json!("Run it outside the sandbox?");
        }
        lines.push(json!({ "timestamp": "t", "type": "response_item", "payload": {
            "type": "function_call", "name": "exec_command", "arguments": arguments.to_string(), "call_id": id } }));
        lines.push(json!({ "timestamp": "t", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": id, "output": output } }));
    };
    for cmd in ["make check", "make check V=1", "make check"] {
        call(&mut lines, cmd, true, "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nok\n");
    }
    call(&mut lines, "ls", false, "Process exited with code 0\nOutput:\n");
    call(&mut lines, "make deploy", true, "aborted by user after 3.2s");
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn other_agents_histories_teach_the_rules_a_person_would_expect() {
    let confirm = Policy::new(spec(json!({ "layers": [], "defaultMode": "confirm" })));
    let claude = read_history(&claude_transcript(), None);
    assert_eq!(claude.format, HistoryFormat::ClaudeCode);
    let unread: Vec<usize> = claude.transcript.history.unread.iter().filter_map(|p| p.line).collect();
    assert_eq!(unread, [claude_transcript().lines().count()], "the broken last line, by its number");
    assert_eq!(claude.transcript.skipped.get("TodoWrite"), Some(&1));
    let report = learn::learn(&confirm, &claude.transcript.history.calls, &learn::LearnOptions::default());
    let proposed: Vec<(&str, &str, usize)> = report.proposals.iter().map(|p| (p.tool.as_str(), p.display.as_str(), p.saves)).collect();
    assert_eq!(proposed, [("terminal", "cargo test", 3), ("edit_file", "/home/ana/shop/src/", 2), ("terminal", "git diff", 2)]);
    let proposed = Policy::new(report.policy.clone());
    assert_eq!(proposed.decide_call(&terminal("git push --force")).outcome, Outcome::Confirm, "the rejected push still asks");

    let codex = read_history(&codex_rollout(), None);
    assert_eq!(codex.format, HistoryFormat::Codex);
    let happened: Vec<(&str, Happened)> = codex.transcript.history.calls.iter().map(|c| (c.inputs[0].as_str(), c.happened)).collect();
    assert_eq!(
        happened,
        [
            ("make check", Happened::Approved),
            ("make check V=1", Happened::Approved),
            ("make check", Happened::Approved),
            ("ls", Happened::Ran),
            ("make deploy", Happened::Declined),
        ]
    );
    let report = learn::learn(&confirm, &codex.transcript.history.calls, &learn::LearnOptions::default());
    let proposed: Vec<&str> = report.proposals.iter().map(|p| p.display.as_str()).collect();
    assert_eq!(proposed, ["make check"], "{:?}", report.withheld);
    // The format can be named; a log read as the wrong one reports its lines rather than guessing.
    let forced = read_history(&codex_rollout(), Some(HistoryFormat::Session));
    assert!(forced.transcript.history.calls.is_empty());
    assert_eq!(forced.transcript.history.unread.len(), codex_rollout().lines().count());
}
