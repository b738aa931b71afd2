//! The session: each scope and lifetime, revocation, the log, child sessions, and what no grant
//! or reviewer can lift.

use super::grants::{AnswerScope, Answerer};
use super::log::LogEvent;
use super::*;
use crate::policy::{Call, HookResult, Outcome, PolicySpec, Reason};
use serde_json::json;

const HOUR: u64 = 3_600_000;

fn spec(value: serde_json::Value) -> PolicySpec {
    serde_json::from_value(value).unwrap()
}

/// A user who allowed `ls` and `git status`, with a managed deny on `curl`, a confirm rule on
/// `git push` that only a person may approve, and a project layer; everything else asks.
fn policy() -> PolicySpec {
    spec(json!({
        "layers": [
            { "name": "managed", "kind": "managed", "tools": {
                "terminal": { "alwaysDeny": [{ "pattern": "^curl\\b" }] },
                "admin_tool": { "defaultMode": "confirm" } } },
            { "name": "user", "kind": "user", "tools": { "terminal": {
                "alwaysAllow": [{ "prefix": "ls" }, { "pattern": "^git\\s+status\\b" }],
                "alwaysConfirm": [{ "pattern": "^git\\s+push\\b", "human": true }, { "pattern": "^npm\\s+publish\\b" }] } } },
            { "name": "project", "kind": "project", "tools": {} }
        ],
        "defaultMode": "confirm",
        "toolKinds": { "my_tool": { "kind": "opaque" }, "admin_tool": { "kind": "opaque" } }
    }))
}

fn terminal(command: &str) -> Call {
    Call { tool: "terminal".into(), inputs: vec![command.into()], hook: None }
}

fn session() -> Session {
    Session::new(policy(), &SessionOptions::default()).unwrap()
}

/// Faults a test injects: the `n`th [`super::checkpoint`] a call passes fails.
pub(super) mod faults {
    use std::cell::Cell;

    thread_local! {
        static COUNTDOWN: Cell<Option<u32>> = const { Cell::new(None) };
    }

    /// Makes the checkpoint after `n` more pass fail (`None`: none does).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn arm(n: Option<u32>) {
        COUNTDOWN.with(|c| c.set(n));
    }

    /// Whether this checkpoint fails.
    pub fn trip() -> bool {
        COUNTDOWN.with(|c| match c.get() {
            Some(0) => {
                c.set(None);
                true
            }
            Some(n) => {
                c.set(Some(n - 1));
                false
            }
            None => false,
        })
    }
}

fn scopes(decision: &SessionDecision) -> Vec<(bool, AnswerScope)> {
    decision.options.iter().map(|o| (o.allow, o.scope)).collect()
}

fn answer(call_id: u64, scope: AnswerScope) -> Answer {
    Answer { call_id, allow: Some(true), scope, ..Answer::default() }
}

const EVERY_SCOPE: [(bool, AnswerScope); 6] = [
    (true, AnswerScope::Once),
    (true, AnswerScope::Session),
    (true, AnswerScope::Timed),
    (true, AnswerScope::Workspace),
    (true, AnswerScope::User),
    (false, AnswerScope::Once),
];

#[test]
fn a_prompt_offers_every_scope_with_the_narrow_rule_it_would_grant() {
    let s = session();
    let d = s.decide(&terminal("npm test"), 0).unwrap();
    assert_eq!(d.decision.outcome, Outcome::Confirm);
    assert_eq!(scopes(&d), EVERY_SCOPE);
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Allow once",
            "Allow `npm test` for this session",
            "Allow `npm test` for 1 hour",
            "Always allow `npm test` in this workspace",
            "Always allow `npm test`",
            "Deny"
        ]
    );
    let grant = d.options.get(1).and_then(|o| o.grant.clone()).unwrap();
    assert!(!grant.whole_tool, "a command tool is never granted whole");
    assert_eq!(grant.rules, vec![RuleSpec::regex(r"^npm\s+test(\s|$)", false)]);
    assert!(d.review.reviewable, "{}", d.review.why);
}

#[test]
fn once_runs_this_call_and_the_next_one_asks_again() {
    let s = session();
    let d = s.decide(&terminal("npm test"), 0).unwrap();
    let out = s.answer(&answer(d.call_id, AnswerScope::Once), 1).unwrap();
    assert!(out.run && out.grant.is_none() && out.persist.is_none());
    assert_eq!(s.decide(&terminal("npm test"), 2).unwrap().decision.outcome, Outcome::Confirm);
    assert!(s.grants(3).unwrap().is_empty());
    let err = s.answer(&answer(d.call_id, AnswerScope::Once), 4).unwrap_err();
    assert_eq!(err, SessionError::UnknownCall(d.call_id), "an answer is taken once");
}

#[test]
fn a_session_grant_stops_the_asking_for_what_it_names_until_the_session_ends() {
    let s = session();
    let d = s.decide(&terminal("npm test"), 0).unwrap();
    let grant = s.answer(&answer(d.call_id, AnswerScope::Session), 10).unwrap().grant.unwrap();
    assert_eq!((grant.id.as_str(), grant.scope, grant.expires_at, grant.granted_at), ("g1", AnswerScope::Session, None, 10));

    let again = s.decide(&terminal("npm test -- --watch"), 20).unwrap();
    assert_eq!(again.decision.outcome, Outcome::Allow);
    assert_eq!(again.granted_by.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), ["g1"]);
    assert_eq!(again.decision.rule.as_ref().map(|r| r.layer.as_str()), Some("grant:g1"), "the decision names the grant's layer");
    assert_eq!(s.decide(&terminal("npm install"), 30).unwrap().decision.outcome, Outcome::Confirm, "the grant is narrow");
    // Combined with a rule: both parts allowed, the grant named.
    let both = s.decide(&terminal("ls && npm test"), 40).unwrap();
    assert_eq!((both.decision.outcome, both.granted_by.len()), (Outcome::Allow, 1));

    s.end(50).unwrap();
    assert_eq!(s.decide(&terminal("npm test"), 60).unwrap().decision.outcome, Outcome::Confirm, "never outlives the session");
    assert!(s.grants(70).unwrap().is_empty());
}

#[test]
fn a_timed_grant_stops_at_its_time_by_the_hosts_clock() {
    let s = session();
    let d = s.decide(&terminal("cargo build"), 1_000).unwrap();
    let grant = s.answer(&answer(d.call_id, AnswerScope::Timed), 2_000).unwrap().grant.unwrap();
    assert_eq!(grant.expires_at, Some(2_000 + HOUR));
    let at = |now| s.decide(&terminal("cargo build --release"), now).unwrap();
    assert_eq!(at(2_000 + HOUR - 1).decision.outcome, Outcome::Allow);
    assert_eq!(at(2_000 + HOUR - 1).granted_by.first().and_then(|g| g.expires_at), Some(2_000 + HOUR), "says when it expires");
    assert_eq!(at(2_000 + HOUR).decision.outcome, Outcome::Confirm);
    let (records, _) = s.log().unwrap();
    assert!(records.iter().any(|r| r.event == LogEvent::Expire && r.grant.as_ref().is_some_and(|g| g.id == grant.id)));

    // A duration of the answer's own, and none at all.
    let d = s.decide(&terminal("make"), 0).unwrap();
    let zero = Answer { duration_ms: Some(0), ..answer(d.call_id, AnswerScope::Timed) };
    let err = s.answer(&zero, 0).unwrap_err();
    assert_eq!(err, SessionError::InvalidDuration { field: "durationMs", got: "0".into(), latest: MAX_SAFE });
    let five = Answer { duration_ms: Some(5 * 60_000), ..answer(d.call_id, AnswerScope::Timed) };
    assert_eq!(s.answer(&five, 100).unwrap().grant.and_then(|g| g.expires_at), Some(100 + 5 * 60_000));
}

#[test]
fn workspace_and_user_grants_are_written_to_their_layer_for_the_host_to_persist() {
    for (scope, layer) in [(AnswerScope::Workspace, "project"), (AnswerScope::User, "user")] {
        let s = session();
        let d = s.decide(&terminal("npm test"), 0).unwrap();
        let out = s.answer(&answer(d.call_id, scope), 1).unwrap();
        let persist = out.persist.unwrap();
        assert_eq!(persist.layer, layer);
        assert_eq!(persist.changes.len(), 1);
        let written = persist.spec.layers.iter().find(|l| l.name == layer).unwrap();
        assert!(written.tools["terminal"].always_allow.contains(&RuleSpec::regex(r"^npm\s+test(\s|$)", false)), "{scope:?}");
        assert_eq!(Policy::new(persist.spec.clone()).outcome_of(&terminal("npm test")), Outcome::Allow);
        let grant = out.grant.unwrap();
        assert_eq!(grant.layer.as_deref(), Some(layer));
        let again = s.decide(&terminal("npm test"), 2).unwrap();
        assert_eq!(again.decision.outcome, Outcome::Allow);
        assert_eq!(again.granted_by.first().map(|g| g.scope), Some(scope), "the persisted rule is still named as the grant");
        s.end(3).unwrap();
        assert_eq!(s.decide(&terminal("npm test"), 4).unwrap().decision.outcome, Outcome::Allow, "it outlives the session");

        let revoked = s.revoke(&grant.id, 5).unwrap().unwrap();
        assert!(!revoked.spec.layers.iter().find(|l| l.name == layer).unwrap().tools["terminal"]
            .always_allow
            .iter()
            .any(|r| r.pattern.as_deref() == Some(r"^npm\s+test(\s|$)")));
        assert_eq!(s.decide(&terminal("npm test"), 6).unwrap().decision.outcome, Outcome::Confirm);
    }
}

#[test]
fn grants_are_listed_and_revocable() {
    let s = session();
    for (n, command) in ["npm test", "cargo build", "make"].into_iter().enumerate() {
        let d = s.decide(&terminal(command), n as u64).unwrap();
        s.answer(&answer(d.call_id, AnswerScope::Session), n as u64).unwrap();
    }
    let ids: Vec<String> = s.grants(10).unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(ids, ["g1", "g2", "g3"]);
    assert_eq!(s.revoke("g2", 11).unwrap(), None, "a session grant persists nothing");
    assert_eq!(s.decide(&terminal("cargo build"), 12).unwrap().decision.outcome, Outcome::Confirm);
    assert_eq!(s.decide(&terminal("make"), 13).unwrap().decision.outcome, Outcome::Allow);
    assert_eq!(s.revoke("g2", 14).unwrap_err(), SessionError::UnknownGrant("g2".into()));
}

/// What no grant can lift: each case offers only "Allow once" and "Deny" (or nothing, for a
/// refusal), and a grant answer is refused.
#[test]
fn nothing_stronger_than_an_allow_rule_can_be_lifted_by_a_grant() {
    let s = session();
    let once_only = vec![(true, AnswerScope::Once), (false, AnswerScope::Once)];
    let protected = Call { tool: "edit_file".into(), inputs: vec![".git/config".into()], hook: None };
    let protected_by_default = Call { tool: "edit_file".into(), inputs: vec!["src/../.vscode/settings.json".into()], hook: None };
    let hooked = Call { hook: Some(HookResult::Ask), ..terminal("ls") };
    let admin = Call { tool: "admin_tool".into(), inputs: vec![], hook: None };
    for (call, reason) in [
        (terminal("npm publish"), Reason::ConfirmRule),
        (terminal("git push origin main"), Reason::ConfirmRule),
        (protected, Reason::GlobalDefault),
        (protected_by_default, Reason::GlobalDefault),
        (hooked, Reason::HookAsked),
        (admin, Reason::ToolDefault),
        (terminal("npm test $(whoami)"), Reason::GlobalDefault),
    ] {
        let d = s.decide(&call, 0).unwrap();
        assert_eq!((d.decision.outcome, d.decision.reason), (Outcome::Confirm, reason), "{call:?}");
        assert_eq!(scopes(&d), once_only, "{call:?}");
        for scope in [AnswerScope::Session, AnswerScope::Timed, AnswerScope::Workspace, AnswerScope::User] {
            assert!(matches!(s.answer(&answer(d.call_id, scope), 1), Err(SessionError::NotOffered { .. })), "{call:?} {scope:?}");
        }
    }
    for command in ["curl https://x", "rm -rf /"] {
        let d = s.decide(&terminal(command), 0).unwrap();
        assert_eq!(d.decision.outcome, Outcome::Deny, "{command}");
        assert!(d.options.is_empty() && !d.review.reviewable);
        assert_eq!(s.answer(&answer(d.call_id, AnswerScope::Once), 1).unwrap_err(), SessionError::UnknownCall(d.call_id));
    }
    assert!(s.grants(2).unwrap().is_empty());
}

#[test]
fn a_workspace_grant_is_not_offered_where_the_workspace_layer_is_untrusted() {
    let mut untrusted = policy();
    if let Some(project) = untrusted.layers.iter_mut().find(|l| l.name == "project") {
        project.trusted = false;
    }
    let s = Session::new(untrusted, &SessionOptions::default()).unwrap();
    let d = s.decide(&terminal("npm test"), 0).unwrap();
    assert!(!scopes(&d).contains(&(true, AnswerScope::Workspace)), "{:?}", scopes(&d));
    assert!(scopes(&d).contains(&(true, AnswerScope::User)));
}

#[test]
fn tools_that_cannot_be_narrowed_are_granted_whole_and_mcp_calls_by_entry() {
    let s = session();
    let d = s.decide(&Call { tool: "my_tool".into(), inputs: vec!["anything".into()], hook: None }, 0).unwrap();
    let grant = d.options.get(1).and_then(|o| o.grant.clone()).unwrap();
    assert!(grant.whole_tool && grant.rules.is_empty());
    s.answer(&answer(d.call_id, AnswerScope::Session), 1).unwrap();
    let again = s.decide(&Call { tool: "my_tool".into(), inputs: vec!["else".into()], hook: None }, 2).unwrap();
    assert_eq!((again.decision.outcome, again.granted_by.len()), (Outcome::Allow, 1));

    let mcp = spec(json!({ "catalogue": "cursor", "layers": [{ "name": "user", "kind": "user" }], "defaultMode": "confirm" }));
    let s = Session::new(mcp, &SessionOptions::default()).unwrap();
    let call = Call { tool: "mcp".into(), inputs: vec!["github".into(), "create_issue".into()], hook: None };
    let d = s.decide(&call, 0).unwrap();
    let grant = d.options.get(1).and_then(|o| o.grant.clone()).unwrap();
    assert_eq!(grant.rules, vec![RuleSpec::mcp("github:create_issue")]);
}

#[test]
fn only_reviewable_prompts_go_to_a_reviewer_and_a_reviewer_answers_once() {
    let s = session();
    let human = s.decide(&terminal("git push origin main"), 0).unwrap();
    assert!(!human.review.reviewable && human.review.why.contains("human"), "{}", human.review.why);
    let reviewer = |call_id, scope| Answer { by: Answerer::Reviewer, ..answer(call_id, scope) };
    assert!(matches!(s.answer(&reviewer(human.call_id, AnswerScope::Once), 1), Err(SessionError::NotReviewable(_))));
    let protected = s.decide(&Call { tool: "edit_file".into(), inputs: vec![".git/config".into()], hook: None }, 0).unwrap();
    assert!(!protected.review.reviewable);
    let administered = s.decide(&Call { tool: "admin_tool".into(), inputs: vec![], hook: None }, 0).unwrap();
    assert!(!administered.review.reviewable && administered.review.why.contains("managed"), "{}", administered.review.why);

    let d = s.decide(&terminal("npm test"), 2).unwrap();
    assert!(d.review.reviewable);
    assert_eq!(s.answer(&reviewer(d.call_id, AnswerScope::Session), 3).unwrap_err(), SessionError::ReviewerGrant);
    let out = s.answer(&reviewer(d.call_id, AnswerScope::Once), 4).unwrap();
    assert!(out.run && out.grant.is_none());
    let (records, _) = s.log().unwrap();
    let last = records.last().unwrap();
    assert_eq!((last.event, last.by, last.call_id), (LogEvent::Answer, Some(Answerer::Reviewer), Some(d.call_id)));
}

#[test]
fn the_log_records_each_decision_and_answer_in_order_as_json_lines() {
    let s = Session::new(policy(), &SessionOptions { name: Some("agent".into()), ..SessionOptions::default() }).unwrap();
    let d = s.decide(&terminal("npm test"), 100).unwrap();
    s.answer(&answer(d.call_id, AnswerScope::Session), 200).unwrap();
    s.decide(&terminal("npm test"), 300).unwrap();
    s.decide(&terminal("curl x"), 400).unwrap();
    let d = s.decide(&terminal("make"), 500).unwrap();
    s.answer(&Answer { allow: Some(false), ..answer(d.call_id, AnswerScope::Once) }, 600).unwrap();
    s.revoke("g1", 700).unwrap();

    let lines = s.log_lines(0).unwrap();
    let records: Vec<serde_json::Value> = lines.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary: Vec<(u64, &str, Option<&str>, u64)> = records
        .iter()
        .map(|r| (r["seq"].as_u64().unwrap(), r["event"].as_str().unwrap(), r["outcome"].as_str(), r["at"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        summary,
        [
            (1, "decision", Some("confirm"), 100),
            (2, "answer", Some("allow"), 200),
            (3, "grant", None, 200),
            (4, "decision", Some("allow"), 300),
            (5, "decision", Some("deny"), 400),
            (6, "decision", Some("confirm"), 500),
            (7, "answer", Some("deny"), 600),
            (8, "revoke", None, 700),
        ]
    );
    let first = &records[0];
    assert_eq!(first["session"], "agent");
    assert_eq!(first["tool"], "terminal");
    assert_eq!(first["inputs"], json!(["npm test"]));
    assert_eq!(first["reason"], "globalDefault");
    assert_eq!(records[3]["grant"]["id"], "g1", "the decision says which grant allowed it");
    assert_eq!(records[3]["rule"]["layer"], "grant:g1");
    assert_eq!(records[4]["rule"]["layer"], "managed");
    assert_eq!(records[6]["by"], "user");
    assert_eq!(s.log_lines(6).unwrap().lines().count(), 2, "only the records after a sequence number");
}

#[test]
fn the_log_keeps_its_newest_records_within_its_capacity() {
    let s = Session::new(policy(), &SessionOptions { log_capacity: Some(3), ..SessionOptions::default() }).unwrap();
    for n in 0..5u64 {
        s.decide(&terminal("ls"), n).unwrap();
    }
    let (records, dropped) = s.log().unwrap();
    assert_eq!(records.iter().map(|r| r.seq).collect::<Vec<_>>(), [3, 4, 5]);
    assert_eq!(dropped, 2);
}

#[test]
fn a_child_is_capped_by_its_parent_and_does_not_inherit_grants_unless_asked() {
    let parent = session();
    let d = parent.decide(&terminal("npm test"), 0).unwrap();
    parent.answer(&answer(d.call_id, AnswerScope::Session), 1).unwrap();

    let child = parent.child(ChildOptions { name: Some("tests".into()), ..ChildOptions::default() }).unwrap();
    let asked = child.decide(&terminal("npm test"), 2).unwrap();
    assert_eq!(asked.decision.outcome, Outcome::Confirm, "the parent's grant is not the child's");
    assert!(!scopes(&asked).contains(&(true, AnswerScope::Workspace)), "a child writes no settings");
    assert!(scopes(&asked).contains(&(true, AnswerScope::Session)));
    assert_eq!(child.decide(&terminal("ls"), 3).unwrap().decision.outcome, Outcome::Allow, "the parent's rules are the child's");

    let inheriting = parent.child(ChildOptions { inherit_grants: true, ..ChildOptions::default() }).unwrap();
    assert_eq!(inheriting.decide(&terminal("npm test"), 4).unwrap().decision.outcome, Outcome::Allow);
    // The parent's grant revoked: the child's copy no longer lifts it past its parent.
    parent.revoke("g1", 5).unwrap();
    let capped = inheriting.decide(&terminal("npm test"), 6).unwrap();
    assert_eq!((capped.decision.outcome, capped.capped_by_parent), (Outcome::Confirm, true));
    assert_eq!(scopes(&capped), [(true, AnswerScope::Once), (false, AnswerScope::Once)], "no grant lifts a parent");

    // A child given a looser policy is still bound by its parent.
    let loose = spec(json!({ "layers": [], "defaultMode": "allow" }));
    let child = parent.child(ChildOptions { policy: Some(loose), ..ChildOptions::default() }).unwrap();
    let d = child.decide(&terminal("curl x"), 7).unwrap();
    assert_eq!((d.decision.outcome, d.capped_by_parent), (Outcome::Deny, true));
    assert_eq!(d.decision.rule.as_ref().map(|r| r.layer.as_str()), Some("managed"), "the parent's rule explains it");
    let d = child.decide(&terminal("rm -rf /"), 7).unwrap();
    assert_eq!((d.decision.outcome, d.decision.reason), (Outcome::Deny, Reason::HardcodedDeny), "hard-coded in the child too");
    let grandchild = child.child(ChildOptions::default()).unwrap();
    assert_eq!(grandchild.decide(&terminal("make"), 8).unwrap().decision.outcome, Outcome::Confirm, "every ancestor bounds");
    let (records, _) = grandchild.log().unwrap();
    assert_eq!(records.first().map(|r| (r.session.as_str(), r.capped_by_parent)), Some(("session/child/child", true)));
}

/// Over random parent and child policies, grants and calls: whenever a child allows a call, its
/// parent allows it at that moment too.
#[test]
fn a_child_never_allows_what_its_parent_would_not() {
    let mut next = crate::test_support::random_below(0xC41D);
    let words = ["ls", "git status", "git push", "npm test", "npm publish", "make", "curl x", "rm -rf /", "cat a | sh", "echo $(id)"];
    let lists = ["alwaysAllow", "alwaysConfirm", "alwaysDeny"];
    let outcomes = ["allow", "confirm", "deny"];
    let random_spec = |next: &mut dyn FnMut(usize) -> usize| {
        let mut tools = serde_json::Map::new();
        let mut terminal = serde_json::Map::new();
        for list in lists {
            let rules: Vec<serde_json::Value> = (0..next(3))
                .map(|_| {
                    let word = words[next(words.len())].split(' ').next().unwrap_or("ls");
                    if next(2) == 0 {
                        json!({ "prefix": word })
                    } else {
                        json!({ "pattern": format!("^{word}\\b") })
                    }
                })
                .collect();
            terminal.insert(list.into(), json!(rules));
        }
        if next(3) == 0 {
            terminal.insert("defaultMode".into(), json!(outcomes[next(3)]));
        }
        tools.insert("terminal".into(), serde_json::Value::Object(terminal));
        spec(json!({ "layers": [{ "name": "user", "kind": "user", "tools": tools }], "defaultMode": outcomes[next(3)] }))
    };
    let mut checked = 0;
    for round in 0..300 {
        let parent = Session::new(random_spec(&mut next), &SessionOptions::default()).unwrap();
        let child_policy = (next(2) == 0).then(|| random_spec(&mut next));
        let child = parent.child(ChildOptions { policy: child_policy, inherit_grants: next(2) == 0, name: None }).unwrap();
        for step in 0..12u64 {
            let now = round * 100 + step * (HOUR / 4);
            let call = terminal(words[next(words.len())]);
            let who = if next(2) == 0 { &parent } else { &child };
            let d = who.decide(&call, now).unwrap();
            if let Some(option) = d.options.get(next(d.options.len().max(1))) {
                let _ =
                    who.answer(&Answer { call_id: d.call_id, allow: Some(option.allow), scope: option.scope, ..Answer::default() }, now);
            }
            if next(6) == 0 {
                if let Some(g) = parent.grants(now).unwrap().first() {
                    parent.revoke(&g.id, now).unwrap();
                }
            }
            let probe = terminal(words[next(words.len())]);
            let c = child.decide(&probe, now).unwrap().decision.outcome;
            let p = parent.decide(&probe, now).unwrap().decision.outcome;
            assert!(c >= p, "round {round} step {step}: the child says {c:?} and the parent {p:?} to {probe:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 3600);
}

#[test]
fn a_new_policy_keeps_the_sessions_grants_and_drops_persisted_ones_it_no_longer_holds() {
    let s = session();
    let d = s.decide(&terminal("npm test"), 0).unwrap();
    s.answer(&answer(d.call_id, AnswerScope::Session), 0).unwrap();
    let d = s.decide(&terminal("cargo build"), 1).unwrap();
    let user_grant = s.answer(&answer(d.call_id, AnswerScope::User), 1).unwrap();
    // The host saved the user grant's spec: the same policy comes back, and both grants hold.
    s.set_policy(user_grant.persist.unwrap().spec, 2).unwrap();
    assert_eq!(s.grants(3).unwrap().len(), 2);
    assert_eq!(s.decide(&terminal("cargo build"), 3).unwrap().decision.outcome, Outcome::Allow);
    // The user then removed the rule in their settings: the grant it was is gone; the session's stays.
    s.set_policy(policy(), 4).unwrap();
    let left: Vec<AnswerScope> = s.grants(5).unwrap().into_iter().map(|g| g.scope).collect();
    assert_eq!(left, [AnswerScope::Session]);
    assert_eq!(s.decide(&terminal("npm test"), 6).unwrap().decision.outcome, Outcome::Allow);
    assert_eq!(s.decide(&terminal("cargo build"), 7).unwrap().decision.outcome, Outcome::Confirm);
    let (records, _) = s.log().unwrap();
    assert!(records.iter().any(|r| r.event == LogEvent::Policy));
    assert!(records.iter().any(|r| r.event == LogEvent::Revoke && r.at == 4));
}

/// Zed's buttons are a view of a waiting prompt's answers, and answering in their terms (or by a
/// view option's meaning) is answering the session.
#[test]
fn zeds_buttons_and_view_answers_answer_the_session() {
    use crate::policy::OptionKind;
    let s = session();
    let d = s.decide(&terminal("npm test"), 0).unwrap();
    let buttons = s.permission_options(d.call_id).unwrap();
    let kinds: Vec<(OptionKind, &str)> = buttons.iter().map(|b| (b.kind, b.label.as_str())).collect();
    assert_eq!(
        kinds,
        [(OptionKind::AllowOnce, "Allow"), (OptionKind::AlwaysAllowPattern, "Always allow `npm test`"), (OptionKind::DenyOnce, "Deny")]
    );
    assert_eq!(buttons[1].change.as_ref().and_then(|c| c.rule.clone()), Some(RuleSpec::regex(r"^npm\s+test(\s|$)", false)));
    let tool_wide = Answer { call_id: d.call_id, button: Some(OptionKind::AlwaysAllowTool), ..Answer::default() };
    assert_eq!(s.answer(&tool_wide, 1).unwrap_err(), SessionError::NotWholeTool("`npm test`".into()), "never the whole terminal");
    let out = s.answer(&Answer { call_id: d.call_id, button: Some(OptionKind::AlwaysAllowPattern), ..Answer::default() }, 1).unwrap();
    assert_eq!((out.grant.map(|g| g.scope), out.persist.map(|p| p.layer)), (Some(AnswerScope::User), Some("user".to_owned())));

    let view = |call_id, allow, scope| Answer { call_id, view: Some(ViewAnswer { allow, scope }), ..Answer::default() };
    let d = s.decide(&terminal("cargo build"), 2).unwrap();
    assert!(s.waiting_options(d.call_id).unwrap().iter().any(|o| o.allow && o.scope == AnswerScope::User));
    assert!(!s.answer(&view(d.call_id, false, AnswerScope::Once), 3).unwrap().run);
    let d = s.decide(&terminal("cargo build"), 4).unwrap();
    assert_eq!(s.answer(&view(d.call_id, true, AnswerScope::User), 5).unwrap().grant.map(|g| g.scope), Some(AnswerScope::User));
    assert_eq!(s.decide(&terminal("cargo build"), 6).unwrap().decision.outcome, Outcome::Allow);

    // Where no grant is offered, no view offers a lasting answer.
    let d = s.decide(&terminal("npm publish"), 7).unwrap();
    assert_eq!(s.permission_options(d.call_id).unwrap().len(), 2);
    assert!(!s.waiting_options(d.call_id).unwrap().iter().any(|o| o.allow && o.scope == AnswerScope::User));
    // An answer says one thing.
    let both = Answer { allow: Some(true), ..view(d.call_id, true, AnswerScope::Once) };
    assert_eq!(s.answer(&both, 8).unwrap_err(), SessionError::Unclear);
    assert_eq!(s.answer(&Answer { call_id: d.call_id, ..Answer::default() }, 8).unwrap_err(), SessionError::Unclear);
}

/// A grant for a script runner names the script: approving `npm run lint` for the session, an
/// hour, the workspace or always leaves `npm run deploy:prod` asking; so for the other runners.
#[test]
fn a_script_runners_grant_names_the_script_it_runs() {
    for (approved, same, other) in [
        ("npm run lint", "npm run lint -- --fix", "npm run deploy:prod"),
        ("pnpm run lint", "pnpm run lint", "pnpm run deploy"),
        ("yarn run lint", "yarn run lint --fix", "yarn run deploy"),
        ("bun run dev", "bun run dev --hot", "bun run deploy"),
        ("npx prettier --check .", "npx prettier --write x", "npx eslint ."),
        ("uv run pytest -q", "uv run pytest", "uv run deploy.py"),
        ("python -m pytest tests", "python -m pytest", "python -m http.server"),
        ("cargo run --bin server", "cargo run --bin server -- --port 1", "cargo run --bin migrate"),
        ("docker compose run web", "docker compose run web sh", "docker compose run db"),
        ("make test", "make test V=1", "make deploy"),
    ] {
        for scope in [AnswerScope::Session, AnswerScope::Timed, AnswerScope::Workspace, AnswerScope::User] {
            let s = session();
            let d = s.decide(&terminal(approved), 0).unwrap();
            let offered = d.options.iter().find(|o| o.scope == scope).unwrap_or_else(|| panic!("{approved}: {scope:?} is offered"));
            let grant = offered.grant.clone().unwrap();
            assert!(
                grant.display.contains(approved.split(' ').take(3).collect::<Vec<_>>().join(" ").as_str())
                    || grant.display.contains(approved.split(' ').nth(1).unwrap()),
                "{approved}: {}",
                grant.display
            );
            s.answer(&answer(d.call_id, scope), 1).unwrap();
            assert_eq!(s.decide(&terminal(same), 2).unwrap().decision.outcome, Outcome::Allow, "{approved} then {same}");
            assert_eq!(s.decide(&terminal(other), 3).unwrap().decision.outcome, Outcome::Confirm, "{approved} then {other}");
        }
    }
}

/// Reading a secret file is approved once or not at all: its prompt offers no lasting answer, no
/// grant or rule for its directory covers it, and Zed's buttons offer no "always".
#[test]
fn reading_a_secret_offers_no_lasting_grant_and_no_directory_covers_it() {
    let spec = spec(json!({
        "host": { "home": "/home/u", "cwd": "/repo" },
        "layers": [{ "name": "user", "kind": "user", "tools": {
            "read_file": { "alwaysAllow": [{ "path": "/home/u/.ssh/**" }, { "path": "**", "root": "/repo" }] },
            "terminal": { "alwaysAllow": [{ "pattern": "^cat\\b" }] } } }],
        "defaultMode": "confirm"
    }));
    let s = Session::new(spec.clone(), &SessionOptions::default()).unwrap();
    let read = |path: &str| Call { tool: "read_file".into(), inputs: vec![path.into()], hook: None };
    for call in [
        read("/home/u/.ssh/id_rsa"),
        read("/repo/.env.production"),
        read("/home/u/.netrc"),
        terminal("cat ~/.ssh/id_rsa"),
        terminal("cat /repo/server.pem"),
    ] {
        let d = s.decide(&call, 0).unwrap();
        assert_eq!(d.decision.outcome, Outcome::Confirm, "{call:?}: a rule for its directory does not cover a secret");
        assert_eq!(scopes(&d), [(true, AnswerScope::Once), (false, AnswerScope::Once)], "{call:?}");
        let buttons = crate::policy::Policy::new(spec.clone()).permission_options(&call.tool, &call.inputs, "user");
        assert!(buttons.iter().all(|b| b.change.is_none()), "{call:?}: {buttons:?}");
    }
    assert_eq!(s.decide(&read("/repo/src/main.rs"), 1).unwrap().decision.outcome, Outcome::Allow, "other files stay covered");
    // A rule that names the file covers it.
    let named = spec_with_rule(&spec, json!({ "path": "/home/u/.ssh/id_rsa" }));
    assert_eq!(crate::policy::Policy::new(named).outcome("read_file", &["/home/u/.ssh/id_rsa".to_owned()]), Outcome::Allow);
}

/// A call holding a character a person cannot see, or one that reorders what is shown, is
/// approved once or not at all: the prompt shows what it holds, but a lasting answer would keep
/// allowing what the person could not read.
#[test]
fn a_call_holding_hidden_characters_offers_no_lasting_answer() {
    let spec = spec(json!({ "host": { "home": "/home/u", "cwd": "/repo" }, "defaultMode": "confirm" }));
    let s = Session::new(spec.clone(), &SessionOptions::default()).unwrap();
    let policy = crate::policy::Policy::new(spec);
    let read = |path: &str| Call { tool: "read_file".into(), inputs: vec![path.into()], hook: None };
    for call in
        [read("/repo/src/\u{202E}sr.niam"), read("/repo/src/a\u{200B}.rs"), terminal("ls \u{202E}fr- mr"), terminal("npm test\u{2066}")]
    {
        let d = s.decide(&call, 0).unwrap();
        assert_eq!(scopes(&d), [(true, AnswerScope::Once), (false, AnswerScope::Once)], "{call:?}");
        let buttons = policy.permission_options(&call.tool, &call.inputs, "user");
        assert!(buttons.iter().all(|b| b.change.is_none()), "{call:?}: {buttons:?}");
    }
    // The same calls written plainly keep their lasting answers.
    for call in [read("/repo/src/main.rs"), terminal("ls -rf")] {
        let d = s.decide(&call, 0).unwrap();
        assert!(d.options.iter().any(|o| o.scope == AnswerScope::Session), "{call:?}: {:?}", d.options);
        assert!(policy.permission_options(&call.tool, &call.inputs, "user").iter().any(|b| b.change.is_some()), "{call:?}");
    }
}

fn spec_with_rule(base: &PolicySpec, rule: serde_json::Value) -> PolicySpec {
    let mut value = serde_json::to_value(base).unwrap();
    value["layers"][0]["tools"]["read_file"]["alwaysAllow"].as_array_mut().unwrap().insert(0, rule);
    serde_json::from_value(value).unwrap()
}

/// No prompt offers a home directory, `/`, or a directory directly under the root.
#[test]
fn no_offer_names_a_home_directory_or_the_roots_children() {
    let spec = spec(json!({ "host": { "home": "/home/u" }, "defaultMode": "confirm" }));
    let s = Session::new(spec.clone(), &SessionOptions::default()).unwrap();
    let policy = crate::policy::Policy::new(spec);
    for path in ["/home/u/notes.txt", "/etc/hosts", "/tmp/x", "/Users/u/x.txt", "C:\\Users\\u\\x.txt", "~/x.txt"] {
        let call = Call { tool: "read_file".into(), inputs: vec![path.into()], hook: None };
        let d = s.decide(&call, 0).unwrap();
        assert!(d.options.iter().all(|o| o.grant.is_none()), "{path}: {:?}", d.options);
        let buttons = policy.permission_options("read_file", &call.inputs, "user");
        assert!(buttons.iter().all(|b| b.kind != crate::policy::OptionKind::AlwaysAllowPattern), "{path}: {buttons:?}");
    }
    let d = s.decide(&Call { tool: "read_file".into(), inputs: vec!["/home/u/project/src/a.rs".into()], hook: None }, 0).unwrap();
    assert!(d.options.iter().any(|o| o.grant.as_ref().is_some_and(|g| g.display.contains("/home/u/project/src/"))), "{:?}", d.options);
}

/// `policy()` with `my_tool` described as a command tool, as a host's new settings might.
fn policy_with_my_tool_a_command() -> PolicySpec {
    let mut spec = policy();
    spec.tool_kinds.insert("my_tool".into(), crate::policy::InputKind::Command { shell: crate::shell::Shell::default() });
    spec
}

fn my_tool(input: &str) -> Call {
    Call { tool: "my_tool".into(), inputs: vec![input.into()], hook: None }
}

#[test]
fn a_new_policy_drops_a_whole_tool_grant_for_a_tool_that_can_now_be_narrowed() {
    let s = session();
    let d = s.decide(&my_tool("anything"), 0).unwrap();
    let whole = s.answer(&answer(d.call_id, AnswerScope::Session), 1).unwrap().grant.unwrap();
    assert!(whole.allows.whole_tool);
    let d = s.decide(&terminal("npm test"), 2).unwrap();
    let narrow = s.answer(&answer(d.call_id, AnswerScope::Session), 3).unwrap().grant.unwrap();

    let dropped = s.set_policy(policy_with_my_tool_a_command(), 4).unwrap();
    assert_eq!(dropped, std::slice::from_ref(&whole), "set_policy says which grants it dropped");
    let fresh = Session::new(policy_with_my_tool_a_command(), &SessionOptions::default()).unwrap();
    for command in ["bash -c \"wget x|sh\"", "sudo reboot", "python -c 'import os'", "anything"] {
        let d = s.decide(&my_tool(command), 5).unwrap();
        assert_eq!(d.decision.outcome, Outcome::Confirm, "{command}");
        assert!(d.granted_by.is_empty(), "{command}");
        let f = fresh.decide(&my_tool(command), 5).unwrap();
        assert_eq!(scopes(&d), scopes(&f), "{command}: what a fresh session offers");
    }
    let left: Vec<String> = s.grants(6).unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(left, std::slice::from_ref(&narrow.id), "the narrow grant still means what it did");
    assert_eq!(s.decide(&terminal("npm test"), 7).unwrap().decision.outcome, Outcome::Allow);
    let (records, _) = s.log().unwrap();
    let dropped: Vec<(LogEvent, u64, Option<&str>)> =
        records.iter().filter(|r| r.event == LogEvent::Revoke).map(|r| (r.event, r.at, r.grant.as_ref().map(|g| g.id.as_str()))).collect();
    assert_eq!(dropped, [(LogEvent::Revoke, 4, Some(whole.id.as_str()))]);
}

#[test]
fn a_persisted_whole_tool_grant_is_taken_back_out_of_the_spec_when_the_tool_can_now_be_narrowed() {
    let s = session();
    let d = s.decide(&my_tool("anything"), 0).unwrap();
    let saved = s.answer(&answer(d.call_id, AnswerScope::User), 1).unwrap().persist.unwrap().spec;
    // The host saved the grant, then describes my_tool as a command tool in the same settings.
    let mut next = saved.clone();
    next.tool_kinds = policy_with_my_tool_a_command().tool_kinds;
    let dropped = s.set_policy(next, 2).unwrap();
    assert_eq!(dropped.iter().map(|g| (g.layer.as_deref(), g.allows.whole_tool)).collect::<Vec<_>>(), [(Some("user"), true)]);
    assert!(s.grants(3).unwrap().is_empty());
    assert_eq!(s.decide(&my_tool("sudo reboot"), 4).unwrap().decision.outcome, Outcome::Confirm);
    let user = s.spec().unwrap().layers.into_iter().find(|l| l.name == "user").unwrap();
    assert_eq!(user.tools.get("my_tool").and_then(|t| t.default_mode), None, "the session's spec no longer allows the whole tool");
}

#[test]
fn a_new_policy_drops_rules_of_a_kind_that_no_longer_narrows_the_tool() {
    let mcp = |kinds: serde_json::Value| {
        spec(json!({ "catalogue": "cursor", "layers": [{ "name": "user", "kind": "user" }], "defaultMode": "confirm", "toolKinds": kinds }))
    };
    let s = Session::new(mcp(json!({})), &SessionOptions::default()).unwrap();
    let call = Call { tool: "mcp".into(), inputs: vec!["github".into(), "create_issue".into()], hook: None };
    let d = s.decide(&call, 0).unwrap();
    let grant = s.answer(&answer(d.call_id, AnswerScope::Session), 1).unwrap().grant.unwrap();
    assert_eq!(grant.allows.rules, vec![RuleSpec::mcp("github:create_issue")]);
    assert!(s.set_policy(mcp(json!({})), 2).unwrap().is_empty(), "read the same way, the entry still fits");
    let dropped = s.set_policy(mcp(json!({ "mcp": { "kind": "opaque" } })), 3).unwrap();
    assert_eq!(dropped.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(), [grant.id.as_str()], "an MCP entry narrows no opaque input");
}

const MAX_SAFE: u64 = (1 << 53) - 1;

/// What a session keeps, to compare before and after a call.
fn snapshot(s: &Session) -> String {
    let state = s.state.borrow();
    let pending: Vec<_> = state.pending.iter().map(|p| (p.call_id, &p.call, &p.options, &p.review)).collect();
    format!(
        "{:#?}",
        (&state.grants, pending, &state.log, &state.base, state.next_call, state.next_grant, state.policy.spec(), state.timed_grant_ms)
    )
}

#[test]
fn a_timed_answer_whose_expiry_passes_two_to_the_53_changes_nothing() {
    let s = session();
    let now = 1_000;
    let d = s.decide(&terminal("npm test"), now).unwrap();
    let before = snapshot(&s);
    for duration in [0, 100_000_000_000_000_000, MAX_SAFE, MAX_SAFE - now + 1, MAX_SAFE + 1, u64::MAX] {
        let timed = Answer { duration_ms: Some(duration), ..answer(d.call_id, AnswerScope::Timed) };
        let err = s.answer(&timed, now).unwrap_err();
        assert_eq!(err, SessionError::InvalidDuration { field: "durationMs", got: duration.to_string(), latest: MAX_SAFE - now });
        assert_eq!(snapshot(&s), before, "{duration}: nothing changed");
    }
    // The prompt is still there, and the latest expiry a session keeps is 2^53 - 1.
    let longest = Answer { duration_ms: Some(MAX_SAFE - now), ..answer(d.call_id, AnswerScope::Timed) };
    assert_eq!(s.answer(&longest, now).unwrap().grant.and_then(|g| g.expires_at), Some(MAX_SAFE));
    // A time past 2^53 - 1 is refused by every method that takes one, and changes nothing.
    let before = snapshot(&s);
    for at in [MAX_SAFE + 1, u64::MAX] {
        assert!(s.decide(&terminal("make"), at).is_err());
        assert!(s.grants(at).is_err());
        assert!(s.revoke("g1", at).is_err());
        assert!(s.end(at).is_err());
        assert!(s.set_policy(policy(), at).is_err());
        assert_eq!(snapshot(&s), before, "{at}");
    }
}

#[test]
fn a_timed_grant_length_out_of_range_is_refused_when_the_session_is_made() {
    for ms in [0, MAX_SAFE + 1, 100_000_000_000_000_000, u64::MAX] {
        let options = SessionOptions { timed_grant_ms: Some(ms), ..SessionOptions::default() };
        let err = Session::new(policy(), &options).unwrap_err();
        assert_eq!(err, SessionError::InvalidDuration { field: "timedGrantMs", got: ms.to_string(), latest: MAX_SAFE });
    }
    // The longest is taken, and a prompt offers it only where it would end by 2^53 - 1.
    let s = Session::new(policy(), &SessionOptions { timed_grant_ms: Some(MAX_SAFE), ..SessionOptions::default() }).unwrap();
    assert!(scopes(&s.decide(&terminal("make"), 0).unwrap()).contains(&(true, AnswerScope::Timed)));
    assert_eq!(
        scopes(&s.decide(&terminal("make"), 1).unwrap()),
        [
            (true, AnswerScope::Once),
            (true, AnswerScope::Session),
            (true, AnswerScope::Workspace),
            (true, AnswerScope::User),
            (false, AnswerScope::Once)
        ]
    );
}

#[test]
fn a_hook_never_lifts_a_prompt_nor_grants_and_may_refuse() {
    use crate::policy::OptionKind;
    let s = session();
    let hook = |answer: Answer| Answer { by: Answerer::Hook, ..answer };
    let protected = Call { tool: "edit_file".into(), inputs: vec![".git/config".into()], hook: None };
    let admin = Call { tool: "admin_tool".into(), inputs: vec![], hook: None };
    for call in [terminal("npm test"), terminal("git push origin main"), protected, admin, my_tool("x")] {
        let d = s.decide(&call, 0).unwrap();
        assert_eq!(d.decision.outcome, Outcome::Confirm, "{call:?}");
        let before = snapshot(&s);
        let mut allowing: Vec<Answer> =
            EVERY_SCOPE.iter().filter(|(allow, _)| *allow).map(|&(_, scope)| answer(d.call_id, scope)).collect();
        allowing.push(Answer { call_id: d.call_id, view: Some(ViewAnswer { allow: true, scope: AnswerScope::Once }), ..Answer::default() });
        allowing.push(Answer { call_id: d.call_id, view: Some(ViewAnswer { allow: true, scope: AnswerScope::User }), ..Answer::default() });
        allowing.push(Answer { call_id: d.call_id, button: Some(OptionKind::AllowOnce), ..Answer::default() });
        allowing.push(Answer { call_id: d.call_id, button: Some(OptionKind::AlwaysAllowTool), ..Answer::default() });
        for a in allowing {
            assert_eq!(s.answer(&hook(a.clone()), 1).unwrap_err(), SessionError::HookAllow, "{call:?} {a:?}");
            assert_eq!(snapshot(&s), before, "{call:?} {a:?}");
        }
        let refused = s.answer(&hook(Answer { allow: Some(false), ..answer(d.call_id, AnswerScope::Once) }), 2).unwrap();
        assert!(!refused.run && refused.grant.is_none());
    }
    assert!(s.grants(3).unwrap().is_empty());
    let (records, _) = s.log().unwrap();
    let by_hook: Vec<Option<Outcome>> = records.iter().filter(|r| r.by == Some(Answerer::Hook)).map(|r| r.outcome).collect();
    assert_eq!(by_hook, [Some(Outcome::Deny); 5]);
}

#[cfg(not(target_arch = "wasm32"))]
mod failing_calls {
    //! Over random sessions and calls, some of them bad (unknown ids, answers not offered,
    //! durations and times out of range, answers only a person may give) and some made to fail
    //! at a random checkpoint: a call that fails leaves the session (and its parent) exactly as
    //! it was, and a twin session that never saw the failing calls is the same session.
    use super::*;
    use proptest::prelude::*;

    const COMMANDS: [&str; 6] = ["npm test", "cargo build", "git push origin main", "ls", "curl x", "make"];
    const TIMES: [u64; 4] = [MAX_SAFE - 10, MAX_SAFE + 1, u64::MAX, 100_000_000_000_000_000];
    const DURATIONS: [Option<u64>; 8] =
        [None, Some(0), Some(1), Some(HOUR), Some(MAX_SAFE), Some(MAX_SAFE + 1), Some(100_000_000_000_000_000), Some(u64::MAX)];

    #[derive(Debug, Clone)]
    enum Step {
        Decide { command: usize, opaque: bool },
        Answer { pick: usize, allow: bool, scope: usize, duration: usize, by: usize },
        Revoke { pick: usize },
        Grants,
        End,
        SetPolicy { command_tool: bool },
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            3 => (0..COMMANDS.len(), any::<bool>()).prop_map(|(command, opaque)| Step::Decide { command, opaque }),
            4 => (0..8usize, any::<bool>(), 0..5usize, 0..DURATIONS.len(), 0..3usize)
                .prop_map(|(pick, allow, scope, duration, by)| Step::Answer { pick, allow, scope, duration, by }),
            1 => (0..4usize).prop_map(|pick| Step::Revoke { pick }),
            1 => Just(Step::Grants),
            1 => Just(Step::End),
            1 => any::<bool>().prop_map(|command_tool| Step::SetPolicy { command_tool }),
        ]
    }

    /// A time: mostly forward in steps of minutes to hours (so timed grants expire), sometimes
    /// one out of range.
    fn time() -> impl Strategy<Value = (u64, Option<usize>)> {
        (0..3 * HOUR, prop::option::weighted(0.15, 0..TIMES.len()))
    }

    /// Runs a step on a session (on its child with `on_child`): the result as text, or the error.
    fn run(s: &Session, step: &Step, now: u64, ids: &[u64]) -> Result<String, SessionError> {
        let pick = |n: usize| ids.get(ids.len().saturating_sub(1 + n)).copied().unwrap_or(999);
        match step {
            Step::Decide { command, opaque } => {
                let call = if *opaque { my_tool(COMMANDS[*command]) } else { terminal(COMMANDS[*command]) };
                s.decide(&call, now).map(|d| format!("{d:?}"))
            }
            Step::Answer { pick: n, allow, scope, duration, by } => {
                let scope =
                    [AnswerScope::Once, AnswerScope::Session, AnswerScope::Timed, AnswerScope::Workspace, AnswerScope::User][*scope];
                let by = [Answerer::User, Answerer::Hook, Answerer::Reviewer][*by];
                let a =
                    Answer { call_id: pick(*n), allow: Some(*allow), scope, duration_ms: DURATIONS[*duration], by, ..Answer::default() };
                s.answer(&a, now).map(|o| format!("{o:?}"))
            }
            Step::Revoke { pick } => s.revoke(&format!("g{}", pick + 1), now).map(|p| format!("{p:?}")),
            Step::Grants => s.grants(now).map(|g| format!("{g:?}")),
            Step::End => s.end(now).map(|()| String::new()),
            Step::SetPolicy { command_tool } => {
                let spec = if *command_tool { policy_with_my_tool_a_command() } else { policy() };
                s.set_policy(spec, now).map(|r| format!("{r:?}"))
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
        #[test]
        fn a_call_that_fails_leaves_the_session_as_it_was(
            steps in proptest::collection::vec((step(), time(), any::<bool>(), prop::option::weighted(0.3, 0..5u32)), 1..40),
        ) {
            let options = SessionOptions { timed_grant_ms: Some(HOUR / 2), log_capacity: Some(50), ..SessionOptions::default() };
            let (a, b) = (Session::new(policy(), &options).unwrap(), Session::new(policy(), &options).unwrap());
            let (a_child, b_child) = (a.child(ChildOptions::default()).unwrap(), b.child(ChildOptions::default()).unwrap());
            let (mut ids, mut child_ids) = (Vec::new(), Vec::new());
            let mut clock = 0u64;
            for (n, (step, (forward, out_of_range), on_child, fault)) in steps.iter().enumerate() {
                clock += forward;
                let now = out_of_range.map_or(clock, |i| TIMES[i]);
                let (on_a, on_b, known) = if *on_child { (&a_child, &b_child, &mut child_ids) } else { (&a, &b, &mut ids) };
                let before = (snapshot(&a), snapshot(&a_child));
                faults::arm(*fault);
                let result = run(on_a, step, now, known);
                faults::arm(None);
                match result {
                    Err(e) => {
                        prop_assert_eq!(&(snapshot(&a), snapshot(&a_child)), &before, "step {} {:?} at {} (fault {:?}) failed ({}) and changed the session", n, step, now, fault, e);
                    }
                    Ok(result) => {
                        let twin = run(on_b, step, now, known);
                        prop_assert_eq!(twin.as_ref(), Ok(&result), "step {} {:?} at {}", n, step, now);
                        if let Step::Decide { .. } = step {
                            known.push(on_a.log().map(|(r, _)| r.last().and_then(|r| r.call_id).unwrap_or(0)).unwrap_or(0));
                        }
                    }
                }
                prop_assert_eq!(snapshot(&a), snapshot(&b), "step {} {:?}: the twin differs", n, step);
                prop_assert_eq!(snapshot(&a_child), snapshot(&b_child), "step {} {:?}: the twin's child differs", n, step);
            }
        }
    }
}
