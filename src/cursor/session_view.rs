//! Cursor's review as a view of a session's prompt: the options Cursor shows for a call that is
//! waiting, drawn from the answers the session offers, and an answer given as one of them read
//! as the session's own (allow or not, and for how long).

use super::review::{ReviewKind, ReviewOption};
use crate::policy::OptionKind;
use crate::session::grants::{AnswerScope, Answerer};
use crate::session::{Answer, Session, SessionError, ViewAnswer};
use serde::Deserialize;

impl ReviewOption {
    /// What the option means to a session: `run` (and `accept`, `switchToDefaultAgentMode`)
    /// allows once, `skip` and `rejectAndTellWhatToDoDifferently` refuse, `allowlistCommands`
    /// and `allowlistTool` are the `user` grant.
    pub fn meaning(self) -> ViewAnswer {
        let (allow, scope) = match self {
            ReviewOption::Run | ReviewOption::Accept | ReviewOption::SwitchToDefaultAgentMode => (true, AnswerScope::Once),
            ReviewOption::Skip | ReviewOption::RejectAndTellWhatToDoDifferently => (false, AnswerScope::Once),
            ReviewOption::AllowlistCommands | ReviewOption::AllowlistTool => (true, AnswerScope::User),
        };
        ViewAnswer { allow, scope }
    }
}

/// Cursor's review options for a prompt that is waiting, as a view of its answers, in the order
/// Cursor shows them for `kind`; the allowlist option where the session offers the `user` grant.
/// Answer with `review`.
pub fn review_options(session: &Session, call_id: u64, kind: ReviewKind) -> Result<Vec<ReviewOption>, SessionError> {
    use ReviewOption::*;
    let lasting = session.waiting_options(call_id)?.iter().any(|o| o.allow && o.scope == AnswerScope::User);
    Ok(match kind {
        ReviewKind::Terminal => {
            [Run, Skip, RejectAndTellWhatToDoDifferently].into_iter().chain(lasting.then_some(AllowlistCommands)).collect()
        }
        ReviewKind::Mcp => [Run, Skip, RejectAndTellWhatToDoDifferently].into_iter().chain(lasting.then_some(AllowlistTool)).collect(),
        ReviewKind::Edit => vec![Accept, RejectAndTellWhatToDoDifferently, Skip, SwitchToDefaultAgentMode],
    })
}

/// An answer to a call that asked, as a host sends it: in the session's own terms, as Zed's
/// permission button, or as Cursor's review option.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename = "Answer", rename_all = "camelCase", deny_unknown_fields)]
// Its name in JavaScript and in serde's messages stays the one hosts know: `Answer`.
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(rename = "Answer"))]
pub struct SessionAnswer {
    /// The decision's `callId`.
    pub call_id: u64,
    /// Allow or refuse. Give this, or `review`, or `button`.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub allow: Option<bool>,
    /// Cursor's review option, read as the session's answer: `run` (and `accept`,
    /// `switchToDefaultAgentMode`) allows once, `skip` and `rejectAndTellWhatToDoDifferently`
    /// refuse, `allowlistCommands` and `allowlistTool` are the `user` grant.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub review: Option<ReviewOption>,
    /// Zed's permission button, read as the session's answer: `allowOnce`, `denyOnce`,
    /// `alwaysAllowPattern` (the `user` grant), `alwaysAllowTool` (the `user` grant of a tool
    /// that cannot be narrowed; never offered for a command tool).
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub button: Option<OptionKind>,
    /// For how long, with `allow`; `once` unless set. A refusal is always once.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub scope: AnswerScope,
    /// For a timed answer: how long, instead of the option's duration. A whole number of
    /// milliseconds, at least 1, such that the grant ends (`now` plus this) by 2^53 − 1.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub duration_ms: Option<u64>,
    /// Who answered; `user` unless set. A `hook` may only refuse (`allow: false`, once); a
    /// `reviewer` answers once, and only a call whose `review.reviewable` says so.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub by: Answerer,
}

impl From<SessionAnswer> for Answer {
    fn from(a: SessionAnswer) -> Self {
        Answer {
            call_id: a.call_id,
            allow: a.allow,
            view: a.review.map(ReviewOption::meaning),
            button: a.button,
            scope: a.scope,
            duration_ms: a.duration_ms,
            by: a.by,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Call, Outcome, PolicySpec};
    use crate::session::SessionOptions;
    use serde_json::json;

    fn terminal(command: &str) -> Call {
        Call { tool: "terminal".into(), inputs: vec![command.into()], hook: None }
    }

    /// Everything asks; `npm publish` has a confirm rule, so no grant can lift it.
    fn session() -> Session {
        let spec: PolicySpec = serde_json::from_value(json!({
            "layers": [{ "name": "user", "kind": "user", "tools": { "terminal": {
                "alwaysConfirm": [{ "pattern": "^npm\\s+publish\\b" }] } } }],
            "defaultMode": "confirm"
        }))
        .unwrap();
        Session::new(spec, &SessionOptions::default()).unwrap()
    }

    fn answer(value: serde_json::Value) -> Answer {
        serde_json::from_value::<SessionAnswer>(value).unwrap().into()
    }

    /// Cursor's review options are a view of a waiting prompt's answers, and answering with one
    /// is answering the session.
    #[test]
    fn cursors_review_is_a_view_of_the_session() {
        let s = session();
        let d = s.decide(&terminal("cargo build"), 2).unwrap();
        assert_eq!(
            review_options(&s, d.call_id, ReviewKind::Terminal).unwrap(),
            [ReviewOption::Run, ReviewOption::Skip, ReviewOption::RejectAndTellWhatToDoDifferently, ReviewOption::AllowlistCommands]
        );
        assert_eq!(review_options(&s, d.call_id, ReviewKind::Mcp).unwrap().last(), Some(&ReviewOption::AllowlistTool));
        let skip = s.answer(&answer(json!({ "callId": d.call_id, "review": "skip" })), 3).unwrap();
        assert!(!skip.run);
        let d = s.decide(&terminal("cargo build"), 4).unwrap();
        let allowlisted = s.answer(&answer(json!({ "callId": d.call_id, "review": "allowlistCommands" })), 5).unwrap();
        assert_eq!(allowlisted.grant.map(|g| g.scope), Some(AnswerScope::User));
        assert_eq!(s.decide(&terminal("cargo build"), 6).unwrap().decision.outcome, Outcome::Allow);

        // Where no grant is offered, the review offers no lasting answer.
        let d = s.decide(&terminal("npm publish"), 7).unwrap();
        assert!(!review_options(&s, d.call_id, ReviewKind::Terminal).unwrap().contains(&ReviewOption::AllowlistCommands));
        // An answer says one thing.
        let both = answer(json!({ "callId": d.call_id, "allow": true, "review": "run" }));
        assert_eq!(s.answer(&both, 8).unwrap_err(), SessionError::Unclear);
        assert_eq!(review_options(&s, 999, ReviewKind::Edit).unwrap_err(), SessionError::UnknownCall(999));
    }

    #[test]
    fn every_review_option_means_what_cursor_does_with_it() {
        use ReviewOption::*;
        let once = |allow| ViewAnswer { allow, scope: AnswerScope::Once };
        for (option, meaning) in [
            (Run, once(true)),
            (Accept, once(true)),
            (SwitchToDefaultAgentMode, once(true)),
            (Skip, once(false)),
            (RejectAndTellWhatToDoDifferently, once(false)),
            (AllowlistCommands, ViewAnswer { allow: true, scope: AnswerScope::User }),
            (AllowlistTool, ViewAnswer { allow: true, scope: AnswerScope::User }),
        ] {
            assert_eq!(option.meaning(), meaning, "{option:?}");
        }
    }
}
