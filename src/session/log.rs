//! The decision log: one record per decision, answer, grant, revocation and expiry, bounded, and
//! written as JSON lines for a file or an output channel.
//!
//! A record holds the call as the agent made it (tool and inputs) and what toolgate made of it;
//! nothing else. A call's inputs can themselves be secret (a token in a command line): the log
//! holds whatever the call held, so it deserves the care the agent's own transcript gets.

use super::grants::{AnswerScope, Answerer, GrantRef};
use crate::policy::{DefaultSource, Outcome, Reason, RuleRef};
use serde::Serialize;
use std::collections::VecDeque;

/// What a record is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum LogEvent {
    /// A call was decided.
    Decision,
    /// Someone answered a call that asked.
    Answer,
    /// A grant was made.
    Grant,
    /// A grant was revoked.
    Revoke,
    /// A grant's time ran out.
    Expire,
    /// The session ended: its session and timed grants are gone.
    End,
    /// The host replaced the policy the session decides with.
    Policy,
}

/// One record of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LogRecord {
    /// Position in the session's log, from 1; a gap means older records were dropped.
    pub seq: u64,
    /// The host's clock when it happened (milliseconds, as the host passed it).
    pub at: u64,
    /// The session it happened in (a child session's name includes its parent's).
    pub session: String,
    /// What it is about.
    pub event: LogEvent,
    /// The call it is about, for decisions and answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub call_id: Option<u64>,
    /// The tool called.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub tool: Option<String>,
    /// The call's inputs, as the agent gave them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub inputs: Option<Vec<String>>,
    /// The decision's outcome, or the answer's (`allow` or `deny`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub outcome: Option<Outcome>,
    /// The gate or default that decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub reason: Option<Reason>,
    /// The rule that decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub rule: Option<RuleRef>,
    /// Where the deciding default came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub default_source: Option<DefaultSource>,
    /// The grant that decided, was made, revoked or expired.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub grant: Option<GrantRef>,
    /// For an answer: who gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub by: Option<Answerer>,
    /// For an answer: for how long it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub scope: Option<AnswerScope>,
    /// A parent session was stricter than this one's own policy and decided.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub capped_by_parent: bool,
}

impl LogRecord {
    /// A record of `event` with nothing else filled in.
    pub(super) fn new(event: LogEvent, at: u64, session: &str) -> Self {
        LogRecord {
            seq: 0,
            at,
            session: session.to_owned(),
            event,
            call_id: None,
            tool: None,
            inputs: None,
            outcome: None,
            reason: None,
            rule: None,
            default_source: None,
            grant: None,
            by: None,
            scope: None,
            capped_by_parent: false,
        }
    }
}

/// The newest records, at most `capacity` of them.
#[derive(Debug, Clone)]
pub struct DecisionLog {
    records: VecDeque<LogRecord>,
    capacity: usize,
    next_seq: u64,
    dropped: u64,
}

impl DecisionLog {
    /// An empty log keeping at most `capacity` records (at least one).
    pub fn new(capacity: usize) -> Self {
        DecisionLog { records: VecDeque::new(), capacity: capacity.max(1), next_seq: 1, dropped: 0 }
    }

    /// Appends a record, numbering it, and drops the oldest when full.
    pub fn push(&mut self, mut record: LogRecord) {
        record.seq = self.next_seq;
        self.next_seq += 1;
        if self.records.len() >= self.capacity {
            self.records.pop_front();
            self.dropped += 1;
        }
        self.records.push_back(record);
    }

    /// The records kept, oldest first.
    pub fn records(&self) -> impl Iterator<Item = &LogRecord> {
        self.records.iter()
    }

    /// How many records it keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many records were dropped to stay within the capacity.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The records after `seq` (all with 0), one JSON object per line.
    pub fn json_lines(&self, after: u64) -> String {
        let mut out = String::new();
        for record in self.records.iter().filter(|r| r.seq > after) {
            if let Ok(line) = serde_json::to_string(record) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }
}
