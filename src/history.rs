//! Learning from what happened: a policy replayed over a history of calls, and the rules that
//! history never touched.
//!
//! A history is a list of calls, each with what happened to it then: the policy's outcome and,
//! for a call that asked, the answer. [`read_session_log`] reads it from toolgate's own session log
//! (JSON lines); other agents' transcripts are read into the same [`HistoryCall`]s. A line that
//! cannot be read is reported with its number, never dropped.

use crate::api::Problem;
use crate::policy::{Call, ListKind, Outcome, Policy, RuleRef};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub mod learn;
pub mod transcripts;

#[cfg(test)]
mod tests;

/// What happened to a call: it ran, it was refused, or it asked and nobody answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Happened {
    /// The policy allowed it.
    Ran,
    /// It asked, and someone allowed it.
    Approved,
    /// It asked, and someone refused it.
    Declined,
    /// The policy refused it.
    Refused,
    /// It asked, and no answer was logged.
    Unanswered,
}

impl Happened {
    /// Whether the call ran.
    pub fn ran(self) -> bool {
        matches!(self, Happened::Ran | Happened::Approved)
    }
}

/// One call of a history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct HistoryCall {
    /// The 1-based line of the history where the call is (0 when it came from elsewhere).
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub line: usize,
    /// The tool called.
    pub tool: String,
    /// Its inputs.
    pub inputs: Vec<String>,
    /// What happened to it.
    pub happened: Happened,
}

impl HistoryCall {
    /// The call as the evaluator takes it.
    pub fn call(&self) -> Call {
        Call { tool: self.tool.clone(), inputs: self.inputs.clone(), hook: None }
    }
}

/// A history, and the lines of it that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct History {
    /// The calls, in the order they were made.
    pub calls: Vec<HistoryCall>,
    /// Lines that were not read, each with its line number and why.
    pub unread: Vec<Problem>,
}

fn unread(line: usize, message: String) -> Problem {
    Problem { code: "unreadableLine".into(), message, path: None, line: Some(line), column: None }
}

/// Reads toolgate's session log (`session.logLines()`, JSON lines): each decision, with the answer
/// given to it in the same session, if any. Records other than decisions and answers are skipped
/// (they are not calls); a line that is not such a record is reported.
pub fn read_session_log(text: &str) -> History {
    let mut history = History::default();
    // (session, callId) → the call's index, for its answer.
    let mut asked: BTreeMap<(String, u64), usize> = BTreeMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let record: Value = match serde_json::from_str(raw) {
            Ok(record) => record,
            Err(e) => {
                history.unread.push(unread(line, format!("not a JSON record: {e}")));
                continue;
            }
        };
        let field = |name: &str| record.get(name).and_then(Value::as_str);
        let session = field("session").unwrap_or_default().to_owned();
        let call_id = record.get("callId").and_then(Value::as_u64);
        match (field("event"), call_id) {
            (Some("decision"), Some(call_id)) => {
                let tool = field("tool").map(str::to_owned);
                let inputs: Option<Vec<String>> = record.get("inputs").and_then(|v| serde_json::from_value(v.clone()).ok());
                let happened = match field("outcome") {
                    Some("allow") => Some(Happened::Ran),
                    Some("deny") => Some(Happened::Refused),
                    Some("confirm") => Some(Happened::Unanswered),
                    _ => None,
                };
                match (tool, inputs, happened) {
                    (Some(tool), Some(inputs), Some(happened)) => {
                        if happened == Happened::Unanswered {
                            asked.insert((session, call_id), history.calls.len());
                        }
                        history.calls.push(HistoryCall { line, tool, inputs, happened });
                    }
                    _ => history.unread.push(unread(line, "a decision record needs `tool`, `inputs` and `outcome`".into())),
                }
            }
            (Some("answer"), Some(call_id)) => {
                let answered = match field("outcome") {
                    Some("allow") => Happened::Approved,
                    Some("deny") => Happened::Declined,
                    _ => {
                        history.unread.push(unread(line, "an answer record needs `outcome` `allow` or `deny`".into()));
                        continue;
                    }
                };
                match asked.remove(&(session, call_id)).and_then(|at| history.calls.get_mut(at)) {
                    Some(call) => call.happened = answered,
                    None => history.unread.push(unread(line, format!("an answer to call {call_id}, whose decision is not in this log"))),
                }
            }
            (Some("grant" | "revoke" | "expire" | "end" | "policy"), _) => {}
            (Some(event), _) => history.unread.push(unread(line, format!("`{event}` is not a record of toolgate's session log"))),
            (None, _) => history.unread.push(unread(line, "a record needs an `event`".into())),
        }
    }
    history
}

/// The logs a history is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum HistoryFormat {
    /// toolgate's session log (`session.logLines()`).
    Session,
    /// A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`).
    ClaudeCode,
    /// A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
    Codex,
}

/// A log read as a history, with the format it was read as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReadHistory {
    /// The format it was read as.
    pub format: HistoryFormat,
    /// The calls, the lines not read, and the calls of tools toolgate does not decide.
    #[serde(flatten)]
    pub transcript: transcripts::Transcript,
}

/// The format of a log, from the first record that tells: toolgate's records have an `event`, a
/// Codex rollout's a `payload` (or, in rollouts older than that envelope, a response item's `type`
/// such as `function_call`), a Claude Code transcript's conversation lines a `type` of `user` or
/// `assistant` with a `message`. A log with no such record is read as a session log, which
/// reports each line it cannot read.
pub fn recognise(text: &str) -> HistoryFormat {
    let mut typed = false;
    for record in text.lines().filter_map(|line| serde_json::from_str::<serde_json::Map<String, Value>>(line).ok()) {
        if record.contains_key("event") {
            return HistoryFormat::Session;
        }
        if record.contains_key("payload") {
            return HistoryFormat::Codex;
        }
        match record.get("type").and_then(Value::as_str) {
            Some("user" | "assistant") if record.contains_key("message") => return HistoryFormat::ClaudeCode,
            Some("function_call" | "function_call_output" | "custom_tool_call" | "local_shell_call" | "reasoning") => {
                return HistoryFormat::Codex
            }
            Some(_) => typed = true,
            None => {}
        }
    }
    if typed {
        HistoryFormat::ClaudeCode
    } else {
        HistoryFormat::Session
    }
}

/// Reads a log of any of the [`HistoryFormat`]s; `None` recognises the format.
pub fn read_history(text: &str, format: Option<HistoryFormat>) -> ReadHistory {
    let format = format.unwrap_or_else(|| recognise(text));
    let transcript = match format {
        HistoryFormat::Session => transcripts::Transcript { history: read_session_log(text), ..Default::default() },
        HistoryFormat::ClaudeCode => transcripts::read_claude_code(text),
        HistoryFormat::Codex => transcripts::read_codex(text),
    };
    ReadHistory { format, transcript }
}

/// How a call's outcome changes under the replayed policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Change {
    /// It would run, where it was refused (by the policy or a person): the change to look at first.
    WouldAllowRefused,
    /// It would be refused, where it ran.
    WouldRefuseRan,
    /// It would ask, where it ran without asking.
    WouldAskRan,
    /// It would run without asking, where a person approved it: a prompt saved.
    WouldSavePrompt,
    /// It would ask, where it was refused outright.
    WouldAskRefused,
    /// It would be refused outright, where a person was asked.
    WouldRefuseAsked,
    /// It would run, where it asked and was never answered.
    WouldAllowUnanswered,
}

/// One call whose outcome would change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReplayedCall {
    /// The call, and what happened to it.
    #[serde(flatten)]
    pub call: HistoryCall,
    /// The replayed policy's outcome.
    pub now: Outcome,
    /// How that differs.
    pub change: Change,
    /// The rule that decided it now, if a rule did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub rule: Option<RuleRef>,
}

/// The changes one rule made (or, for `rule` absent, the defaults and gates made).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RuleChanges {
    /// The rule; absent for calls no rule decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub rule: Option<RuleRef>,
    /// How many calls changed, by how.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Partial<Record<Change, number>>"))]
    pub changes: BTreeMap<String, usize>,
}

/// What a policy would have done with a history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReplayReport {
    /// How many calls were replayed.
    pub calls: usize,
    /// How many calls would change, by how (`wouldAllowRefused`, `wouldSavePrompt`, …).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Partial<Record<Change, number>>"))]
    pub changes: BTreeMap<String, usize>,
    /// The calls that would change, in the history's order.
    pub changed: Vec<ReplayedCall>,
    /// The changes by the rule that decided them now.
    pub by_rule: Vec<RuleChanges>,
    /// One sentence per kind of change: "would have allowed 3 calls that were refused".
    pub summary: Vec<String>,
}

fn change_of(before: Happened, now: Outcome) -> Option<Change> {
    use Happened::*;
    Some(match (before, now) {
        (Declined | Refused, Outcome::Allow) => Change::WouldAllowRefused,
        (Ran | Approved, Outcome::Deny) => Change::WouldRefuseRan,
        (Ran, Outcome::Confirm) => Change::WouldAskRan,
        (Approved, Outcome::Allow) => Change::WouldSavePrompt,
        (Refused, Outcome::Confirm) => Change::WouldAskRefused,
        (Declined | Unanswered, Outcome::Deny) => Change::WouldRefuseAsked,
        (Unanswered, Outcome::Allow) => Change::WouldAllowUnanswered,
        _ => return None,
    })
}

fn change_name(change: Change) -> &'static str {
    match change {
        Change::WouldAllowRefused => "wouldAllowRefused",
        Change::WouldRefuseRan => "wouldRefuseRan",
        Change::WouldAskRan => "wouldAskRan",
        Change::WouldSavePrompt => "wouldSavePrompt",
        Change::WouldAskRefused => "wouldAskRefused",
        Change::WouldRefuseAsked => "wouldRefuseAsked",
        Change::WouldAllowUnanswered => "wouldAllowUnanswered",
    }
}

fn sentence(change: Change, n: usize) -> String {
    let calls = if n == 1 { "1 call".to_owned() } else { format!("{n} calls") };
    let (that, were) = if n == 1 { ("that", "was") } else { ("that", "were") };
    match change {
        Change::WouldAllowRefused => format!("would have allowed {calls} {that} {were} refused"),
        Change::WouldRefuseRan => format!("would have refused {calls} {that} ran"),
        Change::WouldAskRan => format!("would have asked for {calls} {that} ran without asking"),
        Change::WouldSavePrompt => format!("would have run {calls} a person approved, without asking"),
        Change::WouldAskRefused => format!("would have asked for {calls} {that} {were} refused outright"),
        Change::WouldRefuseAsked => format!("would have refused {calls} {that} asked"),
        Change::WouldAllowUnanswered => format!("would have allowed {calls} {that} asked and {were} never answered"),
    }
}

/// Decides every call of the history with `policy` and reports what would change.
pub fn replay(policy: &Policy, history: &[HistoryCall]) -> ReplayReport {
    let mut changed = Vec::new();
    for call in history {
        let decision = policy.decide_call(&call.call());
        if let Some(change) = change_of(call.happened, decision.outcome) {
            let rule = decision.rule.as_deref().filter(|r| r.list != ListKind::AlwaysAllow || decision.outcome == Outcome::Allow).cloned();
            changed.push(ReplayedCall { call: call.clone(), now: decision.outcome, change, rule });
        }
    }
    let mut counts: BTreeMap<Change, usize> = BTreeMap::new();
    let mut by_rule: Vec<RuleChanges> = Vec::new();
    for c in &changed {
        *counts.entry(c.change).or_default() += 1;
        let at = match by_rule.iter().position(|r| r.rule == c.rule) {
            Some(at) => at,
            None => {
                by_rule.push(RuleChanges { rule: c.rule.clone(), changes: BTreeMap::new() });
                by_rule.len() - 1
            }
        };
        if let Some(entry) = by_rule.get_mut(at) {
            *entry.changes.entry(change_name(c.change).to_owned()).or_default() += 1;
        }
    }
    ReplayReport {
        calls: history.len(),
        changes: counts.iter().map(|(c, n)| (change_name(*c).to_owned(), *n)).collect(),
        summary: counts.iter().map(|(c, n)| sentence(*c, *n)).collect(),
        changed,
        by_rule,
    }
}

/// The rules of `policy` that no call of the history met: neither decided a call nor allowed a
/// part of one. Rules of presets and layers the history's tools never reached are included.
pub fn unused_rules(policy: &Policy, history: &[HistoryCall]) -> Vec<RuleRef> {
    let mut used: Vec<RuleRef> = Vec::new();
    let mut note = |rule: &RuleRef| {
        if !used.contains(rule) {
            used.push(rule.clone());
        }
    };
    for call in history {
        let decision = policy.decide_call(&call.call());
        if let Some(rule) = decision.rule.as_deref() {
            note(rule);
        }
        for item in &decision.items {
            if let Some(rule) = item.allowed_by.as_deref() {
                note(rule);
            }
        }
    }
    every_rule(policy).into_iter().filter(|rule| !used.iter().any(|u| same_place(u, rule))).collect()
}

fn same_place(a: &RuleRef, b: &RuleRef) -> bool {
    a.layer == b.layer && a.tool == b.tool && a.list == b.list && a.index == b.index
}

/// Every rule the policy's spec writes, where it is (the importers' walk over a spec).
fn every_rule(policy: &Policy) -> Vec<RuleRef> {
    crate::import::rules_of(policy.spec())
        .into_iter()
        .filter_map(|(place, spec)| {
            Some(RuleRef {
                layer: place.layer,
                tool: place.tool,
                list: place.list?,
                index: place.index?,
                matcher: crate::policy::MatcherKind::of(spec),
                pattern: spec.text().to_owned(),
            })
        })
        .collect()
}
