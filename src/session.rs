//! A permission session: what an agent extension keeps around the one evaluator while an agent
//! works.
//!
//! Built from a policy of any dialect, a session decides calls, offers the answers a prompt may
//! give, takes the answer, and says what the host must persist. It keeps:
//!
//! - **grants** with a scope and a lifetime ([`grants`]): once, for the session, until a time,
//!   for the workspace, always. A grant is an allow rule of the one model, so it can never lift
//!   what an allow rule cannot: a deny or confirm rule of any layer, a hard-coded denial, a
//!   protected path, a hazard. It is only offered where it would let the call run, and never
//!   where a managed layer's default asked.
//! - **a decision log** ([`log`]): one record per decision, answer, grant, revocation and expiry.
//! - **child sessions** for sub-agents: a child decides with its own policy and grants, and then
//!   no looser than each of its ancestors does at that moment.
//! - **the reviewer hand-off**: whether an automatic reviewer may answer a prompt. Refusals,
//!   protected paths, a managed layer's questions, rules that did not compile and rules marked
//!   `human: true` are for a person;
//!   a reviewer answers one call and makes no grant. A hook may only refuse.
//!
//! The host passes the clock (`now`, in milliseconds) to every call, so a session is
//! deterministic: timed grants expire when the host's clock passes them, and tests need no waiting.
//!
//! A call that fails changes nothing: each method checks all of its input first (times and
//! expiries within [`MAX_TIME_MS`], an answer the prompt offered, who may give it), and only then
//! makes its changes, none of which can fail. Even the expiry of timed grants waits for a call that
//! succeeds. `tests::failing_calls` makes calls fail at every point before the changes and
//! compares the session before and after.

pub mod grants;
pub mod log;
#[cfg(test)]
mod tests;

use crate::policy::{
    Call, Decision, DefaultSource, LayerKind, LayerSpec, ListKind, OptionKind, Outcome, PermissionOption, Policy, PolicySpec, Reason,
    RuleRef, RuleSpec, SettingsChange,
};
use grants::{AnswerScope, Answerer, Grant, GrantRef, GrantRules, GRANT_LAYER_PREFIX};
use log::{DecisionLog, LogEvent, LogRecord};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

/// How long "Allow for an hour" lasts unless the host says otherwise.
pub const DEFAULT_TIMED_GRANT_MS: u64 = 60 * 60 * 1000;
/// The latest time a session keeps, in milliseconds: 2^53 − 1, the largest whole number a
/// JavaScript number holds exactly. A `now` past it, or a grant that would expire past it, could
/// not be handed back to the host as it is, so it is refused where it comes in.
pub const MAX_TIME_MS: u64 = (1 << 53) - 1;
/// How many log records a session keeps unless the host says otherwise.
pub const DEFAULT_LOG_CAPACITY: usize = 1000;
/// How many unanswered prompts a session remembers; the oldest is forgotten first.
const MAX_PENDING: usize = 256;

/// How a session is set up.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SessionOptions {
    /// The layer "Always allow" writes to: `user` unless set.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub user_layer: Option<String>,
    /// The layer "Always allow in this workspace" writes to: `project` unless set.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub workspace_layer: Option<String>,
    /// How many log records to keep (the oldest go first): 1000 unless set.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub log_capacity: Option<usize>,
    /// The session's name in its log records: `session` unless set.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub name: Option<String>,
    /// How long the timed answer lasts, in milliseconds: one hour unless set. A whole number from
    /// 1 to 2^53 − 1; where `now` plus this would end later than 2^53 − 1, the timed answer is not
    /// offered.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub timed_grant_ms: Option<u64>,
}

/// How a child session for a sub-agent is set up.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ChildOptions {
    /// The child's own policy, to be narrower than its parent's; the parent's policy unless set.
    /// Whatever it says, the child is never looser than its parent.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub policy: Option<PolicySpec>,
    /// Start with copies of the parent's session and timed grants (by default the child asks
    /// for what the parent was granted; the parent's grants still bound it).
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub inherit_grants: bool,
    /// The child's name in log records, after its parent's: `<parent>/<name>`.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub name: Option<String>,
}

/// One answer a prompt may give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AnswerOption {
    /// Allow or refuse.
    pub allow: bool,
    /// For how long.
    pub scope: AnswerScope,
    /// The button's text: "Allow once", "Allow `npm test` for this session", "Deny".
    pub label: String,
    /// For a timed answer: how long it lasts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub duration_ms: Option<u64>,
    /// For a grant: what it allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub grant: Option<GrantRules>,
}

/// Whether an automatic reviewer may answer a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReviewHandOff {
    /// True when a reviewer may answer it (once).
    pub reviewable: bool,
    /// Why, in a sentence.
    pub why: String,
}

/// A session's decision about one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SessionDecision {
    /// The id to answer it by.
    pub call_id: u64,
    /// The evaluator's decision: this session's own, or an ancestor's where that was stricter.
    pub decision: Decision,
    /// The grants that allowed parts of the call, with their scope and expiry.
    pub granted_by: Vec<GrantRef>,
    /// An ancestor session was stricter, and `decision` is its.
    pub capped_by_parent: bool,
    /// For a call that asks: the answers the prompt may give.
    pub options: Vec<AnswerOption>,
    /// Whether an automatic reviewer may answer.
    pub review: ReviewHandOff,
}

/// An answer to a call that asked, in the session's own terms or in one of its views' (Zed's
/// permission buttons, a product's review options read as an allow and a scope). The JavaScript
/// API reads it from the host's object, where a product's option stands under its own name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// The decision's `callId`.
    pub call_id: u64,
    /// Allow or refuse. Give this, or `view`, or `button`.
    pub allow: Option<bool>,
    /// An option of a product's own view of the prompt, by what it means.
    pub view: Option<ViewAnswer>,
    /// Zed's permission button, read as the session's answer: `allowOnce`, `denyOnce`,
    /// `alwaysAllowPattern` (the `user` grant), `alwaysAllowTool` (the `user` grant of a tool
    /// that cannot be narrowed; never offered for a command tool).
    pub button: Option<OptionKind>,
    /// For how long, with `allow`; `once` unless set. A refusal is always once.
    pub scope: AnswerScope,
    /// For a timed answer: how long, instead of the option's duration. A whole number of
    /// milliseconds, at least 1, such that the grant ends (`now` plus this) by 2^53 − 1.
    pub duration_ms: Option<u64>,
    /// Who answered; `user` unless set. A `hook` may only refuse (`allow: false`, once); a
    /// `reviewer` answers once, and only a call whose `review.reviewable` says so.
    pub by: Answerer,
}

/// What an option of a product's own view of a prompt means to the session: allow or not, and
/// for how long. The view names its options; the session only needs their meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewAnswer {
    /// Allow or refuse.
    pub allow: bool,
    /// For how long.
    pub scope: AnswerScope,
}

impl Answer {
    /// Allow or not, and for how long: from `allow` and `scope`, or from a view's option or
    /// Zed's button read as the session's answers.
    fn meaning(&self) -> Result<(bool, AnswerScope), SessionError> {
        match (self.allow, self.view, self.button) {
            (Some(allow), None, None) => Ok((allow, self.scope)),
            (None, Some(view), None) => Ok((view.allow, view.scope)),
            (None, None, Some(button)) => Ok(match button {
                OptionKind::AllowOnce => (true, AnswerScope::Once),
                OptionKind::DenyOnce => (false, AnswerScope::Once),
                OptionKind::AlwaysAllowPattern | OptionKind::AlwaysAllowTool => (true, AnswerScope::User),
            }),
            _ => Err(SessionError::Unclear),
        }
    }
}

/// What the host must write for a workspace or user grant (or its revocation).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Persist {
    /// The layer that changed.
    pub layer: String,
    /// The changes made (for a grant), the same a permission option carries: apply them to the
    /// product's own settings with `applyZedSettingsChange` and the like.
    pub changes: Vec<SettingsChange>,
    /// The session's policy with the change made: save it, or rebuild from it.
    pub spec: PolicySpec,
}

/// What an answer did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AnswerOutcome {
    /// Whether the call runs now.
    pub run: bool,
    /// The grant made, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub grant: Option<Grant>,
    /// What the host must persist, for a workspace or user grant.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub persist: Option<Persist>,
}

/// A request the session cannot carry out; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionError {
    /// No prompt with this id is waiting (answered already, never asked, or forgotten).
    UnknownCall(u64),
    /// The answer is not one the prompt offered.
    NotOffered {
        /// The answer's scope.
        scope: AnswerScope,
        /// The scopes the prompt offered for allowing.
        offered: Vec<AnswerScope>,
    },
    /// An automatic reviewer may not answer this prompt.
    NotReviewable(String),
    /// A reviewer answered for longer than this call.
    ReviewerGrant,
    /// A refusal for longer than this call (deny rules are for the policy).
    LastingRefusal,
    /// A time that is not a whole number of milliseconds from 0 to [`MAX_TIME_MS`] (as given).
    InvalidTime(String),
    /// A duration that is not a whole number of milliseconds from 1 to `latest`, the longest that
    /// still ends by [`MAX_TIME_MS`].
    InvalidDuration {
        /// The field it was given in: `durationMs` or `timedGrantMs`.
        field: &'static str,
        /// The value as given.
        got: String,
        /// The longest duration allowed here.
        latest: u64,
    },
    /// A hook answered "allow": a hook may refuse, never lift a prompt.
    HookAllow,
    /// A fault a test injected (see [`checkpoint`]).
    #[cfg(test)]
    Injected,
    /// No grant with this id is in force.
    UnknownGrant(String),
    /// The session is in use by a call that has not returned (a callback re-entered it).
    Busy,
    /// An answer must say `allow`, or give a `review` option, or a `button`: exactly one.
    Unclear,
    /// Zed's tool-wide button for a call whose grant is narrower (what it would allow).
    NotWholeTool(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::UnknownCall(id) => write!(f, "no call {id} is waiting for an answer (answered already, or never asked)"),
            SessionError::NotOffered { scope, offered } => {
                let offered: Vec<&str> = offered.iter().map(|s| scope_name(*s)).collect();
                write!(f, "`{}` was not offered for this call; it offered: {}", scope_name(*scope), offered.join(", "))
            }
            SessionError::NotReviewable(why) => write!(f, "an automatic reviewer may not answer this call: {why}"),
            SessionError::ReviewerGrant => write!(f, "an automatic reviewer answers one call (`once`); only a person grants for longer"),
            SessionError::LastingRefusal => {
                write!(f, "a refusal holds for this call only (`once`); to refuse such calls from now on, add a deny rule")
            }
            SessionError::InvalidTime(got) => {
                write!(f, "`now` must be a whole number of milliseconds from 0 to {MAX_TIME_MS} (2^53 - 1), such as Date.now(); got {got}")
            }
            SessionError::InvalidDuration { field, got, latest } => write!(
                f,
                "`{field}` must be a whole number of milliseconds from 1 to {latest}, so that a grant ends by {MAX_TIME_MS} \
                 (2^53 - 1); got {got}"
            ),
            SessionError::HookAllow => {
                write!(f, "a hook may refuse a call that asks (`allow: false`), never allow it: only a person lifts a prompt")
            }
            #[cfg(test)]
            SessionError::Injected => write!(f, "a fault injected by a test"),
            SessionError::UnknownGrant(id) => write!(f, "no grant `{id}` is in force"),
            SessionError::Busy => write!(f, "the session is already handling a call"),
            SessionError::NotWholeTool(narrow) => {
                write!(f, "the whole tool is not offered for this call: a lasting answer allows {narrow} only")
            }
            SessionError::Unclear => write!(f, "an answer gives exactly one of `allow`, `review` (Cursor's option) or `button` (Zed's)"),
        }
    }
}

impl std::error::Error for SessionError {}

/// Where a call may still fail: before it changes anything. Tests make a call fail at each such
/// point in turn and check that the session is as it was.
fn checkpoint() -> Result<(), SessionError> {
    #[cfg(test)]
    if tests::faults::trip() {
        return Err(SessionError::Injected);
    }
    Ok(())
}

/// `now`, refused past [`MAX_TIME_MS`].
fn check_now(now: u64) -> Result<u64, SessionError> {
    if now <= MAX_TIME_MS {
        Ok(now)
    } else {
        Err(SessionError::InvalidTime(now.to_string()))
    }
}

/// The one rule for a duration: a whole number of milliseconds, at least 1, that ends by
/// [`MAX_TIME_MS`] counted from `now` (from 0 where no time is given, as for `timedGrantMs`).
pub fn check_duration(field: &'static str, ms: u64, now: Option<u64>) -> Result<u64, SessionError> {
    let latest = MAX_TIME_MS.saturating_sub(now.unwrap_or(0));
    if (1..=latest).contains(&ms) {
        Ok(ms)
    } else {
        Err(SessionError::InvalidDuration { field, got: ms.to_string(), latest })
    }
}

/// [`check_duration`] for a JavaScript number as given, before JSON could turn NaN or an
/// infinity into `null` (which would read as "no duration").
pub fn duration_from_number(field: &'static str, value: f64, now: Option<u64>) -> Result<u64, SessionError> {
    let latest = MAX_TIME_MS.saturating_sub(now.unwrap_or(0));
    if value.is_finite() && value.fract() == 0.0 && value >= 1.0 && value <= latest as f64 {
        Ok(value as u64)
    } else {
        Err(SessionError::InvalidDuration { field, got: number_text(value), latest })
    }
}

/// `now` from a JavaScript number as given: a whole number of milliseconds from 0 to [`MAX_TIME_MS`].
pub fn time_from_number(value: f64) -> Result<u64, SessionError> {
    if value.is_finite() && value.fract() == 0.0 && value >= 0.0 && value <= MAX_TIME_MS as f64 {
        Ok(value as u64)
    } else {
        Err(SessionError::InvalidTime(number_text(value)))
    }
}

/// A number as JavaScript writes it: `NaN`, `Infinity`, `1.5`, `100000000000000000`.
fn number_text(value: f64) -> String {
    match value {
        v if v.is_nan() => "NaN".into(),
        v if v == f64::INFINITY => "Infinity".into(),
        v if v == f64::NEG_INFINITY => "-Infinity".into(),
        v => v.to_string(),
    }
}

fn scope_name(scope: AnswerScope) -> &'static str {
    match scope {
        AnswerScope::Once => "once",
        AnswerScope::Session => "session",
        AnswerScope::Timed => "timed",
        AnswerScope::Workspace => "workspace",
        AnswerScope::User => "user",
    }
}

/// A prompt waiting for its answer.
#[derive(Debug, Clone)]
struct Pending {
    call_id: u64,
    call: Call,
    options: Vec<AnswerOption>,
    review: ReviewHandOff,
}

/// One session's own state; children hold their ancestors' through [`Session::parent`].
#[derive(Debug)]
struct State {
    name: String,
    user_layer: String,
    workspace_layer: String,
    timed_grant_ms: u64,
    /// A child offers no workspace or user grants: those belong to the session that owns the
    /// settings.
    is_child: bool,
    /// The policy as the host gave it, with workspace and user grants written in.
    base: PolicySpec,
    grants: Vec<Grant>,
    /// `base` with a layer per session or timed grant.
    policy: Policy,
    log: DecisionLog,
    pending: VecDeque<Pending>,
    next_call: u64,
    next_grant: u64,
}

impl State {
    fn new(name: String, base: PolicySpec, options: &SessionOptions, grants: Vec<Grant>, is_child: bool) -> Self {
        let policy = Policy::new(with_grant_layers(&base, &grants));
        let next_grant = grants.len() as u64 + 1;
        State {
            name,
            user_layer: options.user_layer.clone().unwrap_or_else(|| "user".into()),
            workspace_layer: options.workspace_layer.clone().unwrap_or_else(|| "project".into()),
            timed_grant_ms: options.timed_grant_ms.unwrap_or(DEFAULT_TIMED_GRANT_MS),
            is_child,
            base,
            grants,
            policy,
            log: DecisionLog::new(options.log_capacity.unwrap_or(DEFAULT_LOG_CAPACITY)),
            pending: VecDeque::new(),
            next_call: 1,
            next_grant,
        }
    }

    fn rebuild(&mut self) {
        self.policy = Policy::new(with_grant_layers(&self.base, &self.grants));
    }

    fn record(&mut self, event: LogEvent, at: u64) -> LogRecord {
        LogRecord::new(event, at, &self.name)
    }

    /// The policy as it stands at `now`, without changing anything: this session's, or, where a
    /// grant's time has passed, one without that grant (the grant itself goes when a call on this
    /// session succeeds).
    fn policy_at(&self, now: u64) -> Cow<'_, Policy> {
        if self.grants.iter().all(|g| g.holds_at(now)) {
            return Cow::Borrowed(&self.policy);
        }
        let held: Vec<Grant> = self.grants.iter().filter(|g| g.holds_at(now)).cloned().collect();
        Cow::Owned(Policy::new(with_grant_layers(&self.base, &held)))
    }

    /// Drops the grants whose time has passed, logging each.
    fn expire(&mut self, now: u64) {
        let (held, expired): (Vec<Grant>, Vec<Grant>) = std::mem::take(&mut self.grants).into_iter().partition(|g| g.holds_at(now));
        self.grants = held;
        if expired.is_empty() {
            return;
        }
        for grant in &expired {
            let mut record = self.record(LogEvent::Expire, now);
            record.grant = Some(grant.reference());
            self.log.push(record);
        }
        self.rebuild();
    }

    /// The grant a rule of the decision belongs to, if any.
    fn grant_of(&self, rule: &RuleRef) -> Option<&Grant> {
        if let Some(id) = rule.layer.strip_prefix(GRANT_LAYER_PREFIX) {
            return self.grants.iter().find(|g| g.id == id);
        }
        let spec = rule_spec_at(&self.base, rule)?;
        self.grants
            .iter()
            .find(|g| g.layer.as_deref() == Some(rule.layer.as_str()) && g.allows.tool == rule.tool && g.allows.rules.contains(spec))
    }

    /// The grants that allowed parts of a decision.
    fn granted_by(&self, decision: &Decision) -> Vec<GrantRef> {
        let mut found: Vec<GrantRef> = Vec::new();
        let mut add = |grant: Option<&Grant>| {
            if let Some(grant) = grant {
                if !found.iter().any(|g| g.id == grant.id) {
                    found.push(grant.reference());
                }
            }
        };
        if decision.outcome == Outcome::Allow {
            for item in &decision.items {
                add(item.allowed_by.as_deref().and_then(|rule| self.grant_of(rule)));
            }
            add(decision.rule.as_deref().and_then(|rule| self.grant_of(rule)));
            if let Some(DefaultSource::Tool { layer }) = &decision.default_source {
                let id = layer.strip_prefix(GRANT_LAYER_PREFIX);
                add(id.and_then(|id| self.grants.iter().find(|g| g.id == id)));
                add(self.grants.iter().find(|g| g.allows.whole_tool && g.layer.as_deref() == Some(layer.as_str())));
            }
        }
        found
    }

    /// What a grant for this call would allow: the decision's suggestions, or the whole tool
    /// where its input cannot be narrowed. `None` where neither applies.
    fn grant_rules(&self, call: &Call, decision: &Decision) -> Option<GrantRules> {
        if !decision.suggestions.is_empty() {
            let display = decision.suggestions.iter().map(|s| format!("`{}`", s.display)).collect::<Vec<_>>().join(", ");
            let rules = decision.suggestions.iter().map(|s| s.rule_spec()).collect();
            return Some(GrantRules { tool: call.tool.clone(), rules, whole_tool: false, display });
        }
        grants::granted_whole(self.policy.input_kind(&call.tool)).then(|| GrantRules {
            tool: call.tool.clone(),
            rules: Vec::new(),
            whole_tool: true,
            display: format!("`{}`", crate::visible::visible(&call.tool)),
        })
    }

    /// Whether the default that decided is a managed layer's: no grant may lift it.
    fn managed_default(&self, decision: &Decision) -> bool {
        let layer = match &decision.default_source {
            Some(DefaultSource::Tool { layer }) => Some(layer),
            Some(DefaultSource::Global { layer }) => layer.as_ref(),
            None => None,
        };
        layer.is_some_and(|name| self.base.layers.iter().any(|l| &l.name == name && l.kind == LayerKind::Managed))
    }

    /// The answers a prompt about this call offers at `now`. The timed answer is offered only
    /// where it would end by [`MAX_TIME_MS`].
    fn options(&self, call: &Call, decision: &Decision, capped: bool, now: u64) -> Vec<AnswerOption> {
        let once = |allow: bool, label: &str| AnswerOption {
            allow,
            scope: AnswerScope::Once,
            label: label.to_owned(),
            duration_ms: None,
            grant: None,
        };
        let mut options = vec![once(true, "Allow once")];
        // Reading a secret file, or a call holding characters a person cannot see, is approved
        // once or not at all: no lasting grant is offered.
        let only_once = decision.approvable_only_once(&call.inputs);
        let candidate = if capped || only_once || self.managed_default(decision) { None } else { self.grant_rules(call, decision) };
        if let Some(rules) = candidate {
            let mut scopes = vec![AnswerScope::Session];
            if check_duration("timedGrantMs", self.timed_grant_ms, Some(now)).is_ok() {
                scopes.push(AnswerScope::Timed);
            }
            if !self.is_child {
                scopes.extend([AnswerScope::Workspace, AnswerScope::User]);
            }
            for scope in scopes {
                if self.would_allow(call, &rules, scope) {
                    options.push(AnswerOption {
                        allow: true,
                        scope,
                        label: self.label(scope, &rules.display),
                        duration_ms: (scope == AnswerScope::Timed).then_some(self.timed_grant_ms),
                        grant: Some(rules.clone()),
                    });
                }
            }
        }
        options.push(once(false, "Deny"));
        options
    }

    fn label(&self, scope: AnswerScope, display: &str) -> String {
        let display = crate::visible::visible(display);
        match scope {
            AnswerScope::Once => "Allow once".into(),
            AnswerScope::Session => format!("Allow {display} for this session"),
            AnswerScope::Timed => format!("Allow {display} for {}", duration_text(self.timed_grant_ms)),
            AnswerScope::Workspace => format!("Always allow {display} in this workspace"),
            AnswerScope::User => format!("Always allow {display}"),
        }
    }

    /// Whether granting `rules` for `scope` would let this very call run: a grant is only offered
    /// where it would (an untrusted workspace layer, a confirm rule, a hazard or a protected path
    /// would still ask).
    fn would_allow(&self, call: &Call, rules: &GrantRules, scope: AnswerScope) -> bool {
        let spec = match scope {
            AnswerScope::Once => return true,
            AnswerScope::Session | AnswerScope::Timed => {
                let mut spec = with_grant_layers(&self.base, &self.grants);
                spec.layers.push(rules.layer("candidate"));
                spec
            }
            AnswerScope::Workspace | AnswerScope::User => {
                let mut base = self.base.clone();
                for change in rules.changes(self.layer_for(scope)) {
                    apply_to_layer(&mut base, &change, scope);
                }
                with_grant_layers(&base, &self.grants)
            }
        };
        Policy::new(spec).outcome_of(call) == Outcome::Allow
    }

    fn layer_for(&self, scope: AnswerScope) -> &str {
        if scope == AnswerScope::Workspace {
            &self.workspace_layer
        } else {
            &self.user_layer
        }
    }
}

/// `change` applied to `spec`, creating a missing workspace layer as a project layer.
fn apply_to_layer(spec: &mut PolicySpec, change: &SettingsChange, scope: AnswerScope) {
    if scope == AnswerScope::Workspace && !spec.layers.iter().any(|l| l.name == change.layer) {
        spec.layers.push(LayerSpec { name: change.layer.clone(), kind: LayerKind::Project, ..LayerSpec::default() });
    }
    spec.apply(change);
}

/// `base` with a layer per session or timed grant, after its own layers.
fn with_grant_layers(base: &PolicySpec, grants: &[Grant]) -> PolicySpec {
    let mut spec = base.clone();
    spec.layers.extend(grants.iter().filter(|g| g.layer.is_none()).map(|g| g.allows.layer(&g.id)));
    spec
}

/// Whether `layer` of `spec` still holds what a workspace or user grant wrote.
fn still_written(spec: &PolicySpec, layer: &str, allows: &GrantRules) -> bool {
    let Some(rules) = spec.layers.iter().find(|l| l.name == layer).and_then(|l| l.tools.get(&allows.tool)) else { return false };
    if allows.whole_tool {
        return rules.default_mode == Some(Outcome::Allow);
    }
    allows.rules.iter().all(|rule| rules.always_allow.contains(rule))
}

/// The rule a decision names, as the spec writes it.
fn rule_spec_at<'s>(spec: &'s PolicySpec, rule: &RuleRef) -> Option<&'s RuleSpec> {
    let tools = &spec.layers.iter().find(|l| l.name == rule.layer)?.tools;
    let rules = tools.get(&rule.tool)?;
    let list = match rule.list {
        ListKind::AlwaysAllow => &rules.always_allow,
        ListKind::AlwaysDeny => &rules.always_deny,
        ListKind::AlwaysConfirm => &rules.always_confirm,
    };
    list.get(rule.index)
}

/// `1 hour`, `90 minutes`, `2 days`, `30 seconds`.
fn duration_text(ms: u64) -> String {
    let plural = |n: u64, unit: &str| if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") };
    const MINUTE: u64 = 60_000;
    const HOUR: u64 = 60 * MINUTE;
    const DAY: u64 = 24 * HOUR;
    match ms {
        ms if ms >= DAY && ms % DAY == 0 => plural(ms / DAY, "day"),
        ms if ms >= HOUR && ms % HOUR == 0 => plural(ms / HOUR, "hour"),
        ms if ms >= MINUTE && ms % MINUTE == 0 => plural(ms / MINUTE, "minute"),
        ms if ms >= 1000 && ms % 1000 == 0 => plural(ms / 1000, "second"),
        ms => format!("{ms} ms"),
    }
}

/// Whether an automatic reviewer may answer `decision` about `call`, made by `policy`.
fn hand_off(call: &Call, decision: &Decision, policy: &Policy) -> ReviewHandOff {
    let no = |why: &str| ReviewHandOff { reviewable: false, why: why.to_owned() };
    match decision.outcome {
        Outcome::Allow => return no("the call runs without asking"),
        Outcome::Deny => return no("a refusal is final; no one is asked"),
        Outcome::Confirm => {}
    }
    if decision.reason == Reason::ProtectedPath || decision.protected_path.is_some() || policy.protected_write(call).is_some() {
        return no("it writes to a protected path; only a person may approve that");
    }
    if decision.reason == Reason::InvalidPattern {
        return no("a rule for this tool did not compile; only a person may approve until it is fixed");
    }
    // An administrator's question is for a person: a managed layer's confirm rule or default.
    let managed = |layer: &str| policy.spec().layers.iter().any(|l| l.name == layer && l.kind == LayerKind::Managed);
    let managed_rule = decision.rule.as_deref().is_some_and(|r| r.list != ListKind::AlwaysAllow && managed(&r.layer));
    let managed_default = match &decision.default_source {
        Some(DefaultSource::Tool { layer }) | Some(DefaultSource::Global { layer: Some(layer) }) => managed(layer),
        _ => false,
    };
    if managed_rule || managed_default {
        return no("a managed layer asks; only a person may approve");
    }
    let human = decision.rule.as_deref().and_then(|rule| rule_spec_at(policy.spec(), rule)).is_some_and(|rule| rule.human);
    if human {
        return no("the rule that asked is marked `human`: only a person may approve");
    }
    ReviewHandOff { reviewable: true, why: "an automatic reviewer may answer this call once".into() }
}

/// A permission session (see the module documentation). Cloning it gives another handle to the
/// same session.
///
/// ```
/// use toolgate::policy::{Call, Outcome, PolicySpec};
/// use toolgate::session::grants::AnswerScope;
/// use toolgate::session::{Answer, Session, SessionOptions};
///
/// let spec: PolicySpec = serde_json::from_str(r#"{ "layers": [{ "name": "user" }], "defaultMode": "confirm" }"#).unwrap();
/// let session = Session::new(spec, &SessionOptions::default()).unwrap();
/// let call = Call::new("terminal", &["npm test"]);
/// let asked = session.decide(&call, 1_000).unwrap();
/// assert_eq!(asked.decision.outcome, Outcome::Confirm);
///
/// let hour = Answer { call_id: asked.call_id, allow: Some(true), scope: AnswerScope::Timed, ..Answer::default() };
/// let grant = session.answer(&hour, 1_000).unwrap().grant.unwrap();
/// assert_eq!(grant.expires_at, Some(1_000 + 3_600_000));
/// assert_eq!(session.decide(&call, 2_000).unwrap().decision.outcome, Outcome::Allow);
/// assert_eq!(session.decide(&call, 1_000 + 3_600_000).unwrap().decision.outcome, Outcome::Confirm);
/// ```
#[derive(Debug, Clone)]
pub struct Session {
    state: Rc<RefCell<State>>,
    parent: Option<Box<Session>>,
}

impl Session {
    /// A session deciding with `spec`; an error where `options.timedGrantMs` breaks the rule for
    /// durations ([`check_duration`]).
    pub fn new(spec: PolicySpec, options: &SessionOptions) -> Result<Self, SessionError> {
        if let Some(ms) = options.timed_grant_ms {
            check_duration("timedGrantMs", ms, None)?;
        }
        let name = options.name.clone().unwrap_or_else(|| "session".into());
        Ok(Session { state: Rc::new(RefCell::new(State::new(name, spec, options, Vec::new(), false))), parent: None })
    }

    /// A child session for a sub-agent: never looser than this one.
    pub fn child(&self, options: ChildOptions) -> Result<Session, SessionError> {
        let state = self.state.try_borrow().map_err(|_| SessionError::Busy)?;
        let base = options.policy.unwrap_or_else(|| state.base.clone());
        let grants = if options.inherit_grants { state.grants.iter().filter(|g| g.layer.is_none()).cloned().collect() } else { Vec::new() };
        let name = format!("{}/{}", state.name, options.name.as_deref().unwrap_or("child"));
        let settings = SessionOptions {
            user_layer: Some(state.user_layer.clone()),
            workspace_layer: Some(state.workspace_layer.clone()),
            log_capacity: Some(state.log_capacity()),
            name: None,
            timed_grant_ms: Some(state.timed_grant_ms),
        };
        let child = State::new(name, base, &settings, grants, true);
        Ok(Session { state: Rc::new(RefCell::new(child)), parent: Some(Box::new(self.clone())) })
    }

    /// Decides a call at `now`, logs it, and for a call that asks, remembers it for its answer.
    pub fn decide(&self, call: &Call, now: u64) -> Result<SessionDecision, SessionError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| SessionError::Busy)?;
        check_now(now)?;
        checkpoint()?;
        let ceiling = match &self.parent {
            Some(parent) => parent.strictest(call, now, state.policy_at(now).outcome_of(call))?,
            None => None,
        };
        checkpoint()?;
        // Nothing fails from here on.
        state.expire(now);
        let own = state.policy.decide_call(call);
        let capped_by_parent = ceiling.is_some();
        let (decision, review) = match ceiling {
            Some(found) => found,
            None => {
                let review = hand_off(call, &own, &state.policy);
                (own, review)
            }
        };
        let granted_by = if capped_by_parent { Vec::new() } else { state.granted_by(&decision) };
        let options = if decision.outcome == Outcome::Confirm { state.options(call, &decision, capped_by_parent, now) } else { Vec::new() };
        let call_id = state.next_call;
        state.next_call += 1;
        if decision.outcome == Outcome::Confirm {
            if state.pending.len() >= MAX_PENDING {
                state.pending.pop_front();
            }
            state.pending.push_back(Pending { call_id, call: call.clone(), options: options.clone(), review: review.clone() });
        }
        let mut record = state.record(LogEvent::Decision, now);
        record.call_id = Some(call_id);
        record.tool = Some(call.tool.clone());
        record.inputs = Some(call.inputs.clone());
        record.outcome = Some(decision.outcome);
        record.reason = Some(decision.reason);
        record.rule = decision.rule.as_deref().cloned();
        record.default_source = decision.default_source.clone();
        record.grant = granted_by.first().cloned();
        record.capped_by_parent = capped_by_parent;
        state.log.push(record);
        Ok(SessionDecision { call_id, decision, granted_by, capped_by_parent, options, review })
    }

    /// The strictest decision of this session and its ancestors at `now`, when stricter than
    /// `than`, with its reviewer hand-off. Ancestors' grants bound the child, as they stand at
    /// `now`; nothing changes in any of them (each expires its own grants on its own calls).
    fn strictest(&self, call: &Call, now: u64, than: Outcome) -> Result<Option<(Decision, ReviewHandOff)>, SessionError> {
        let mut found: Option<(Decision, ReviewHandOff)> = None;
        let mut at = Some(self);
        while let Some(session) = at {
            let state = session.state.try_borrow().map_err(|_| SessionError::Busy)?;
            checkpoint()?;
            let policy = state.policy_at(now);
            let bound = found.as_ref().map_or(than, |(d, _)| d.outcome);
            if policy.outcome_of(call) > bound {
                let decision = policy.decide_call(call);
                let review = hand_off(call, &decision, &policy);
                found = Some((decision, review));
            }
            drop(policy);
            drop(state);
            at = session.parent.as_deref();
        }
        Ok(found)
    }

    /// Takes the answer to a call that asked. On an error nothing changes: the prompt is still
    /// waiting, and nothing is granted or logged.
    pub fn answer(&self, answer: &Answer, now: u64) -> Result<AnswerOutcome, SessionError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| SessionError::Busy)?;
        check_now(now)?;
        if let Some(ms) = answer.duration_ms {
            check_duration("durationMs", ms, Some(now))?;
        }
        let at = state.pending.iter().position(|p| p.call_id == answer.call_id).ok_or(SessionError::UnknownCall(answer.call_id))?;
        let pending = state.pending.get(at).cloned().ok_or(SessionError::UnknownCall(answer.call_id))?;
        let (allow, scope) = answer.meaning()?;
        checkpoint()?;
        // In the approval flow hooks come from, a hook's "allow" never lifts a prompt.
        if answer.by == Answerer::Hook && allow {
            return Err(SessionError::HookAllow);
        }
        if answer.by == Answerer::Reviewer && !pending.review.reviewable {
            return Err(SessionError::NotReviewable(pending.review.why.clone()));
        }
        if scope != AnswerScope::Once {
            if answer.by == Answerer::Reviewer {
                return Err(SessionError::ReviewerGrant);
            }
            if !allow {
                return Err(SessionError::LastingRefusal);
            }
        }
        let not_offered =
            || SessionError::NotOffered { scope, offered: pending.options.iter().filter(|o| o.allow).map(|o| o.scope).collect() };
        let option = pending.options.iter().find(|o| o.allow == allow && o.scope == scope).cloned().ok_or_else(not_offered)?;
        // Zed's tool-wide button is the user grant only where that grant is the whole tool.
        if answer.button == Some(OptionKind::AlwaysAllowTool) {
            if let Some(narrow) = option.grant.as_ref().filter(|g| !g.whole_tool) {
                return Err(SessionError::NotWholeTool(narrow.display.clone()));
            }
        }
        let duration = match scope {
            AnswerScope::Timed => Some(check_duration("durationMs", answer.duration_ms.or(option.duration_ms).unwrap_or(0), Some(now))?),
            _ => None,
        };
        checkpoint()?;
        // Nothing fails from here on.
        state.expire(now);
        state.pending.remove(at);
        let mut record = state.record(LogEvent::Answer, now);
        record.call_id = Some(pending.call_id);
        record.tool = Some(pending.call.tool.clone());
        record.inputs = Some(pending.call.inputs.clone());
        record.outcome = Some(if allow { Outcome::Allow } else { Outcome::Deny });
        record.by = Some(answer.by);
        record.scope = Some(scope);
        state.log.push(record);

        let Some(allows) = option.grant.filter(|_| scope != AnswerScope::Once) else {
            return Ok(AnswerOutcome { run: allow, grant: None, persist: None });
        };
        let id = format!("g{}", state.next_grant);
        state.next_grant += 1;
        let mut grant = Grant { id, allows, scope, granted_at: now, expires_at: None, by: answer.by, layer: None };
        let mut persist = None;
        match scope {
            AnswerScope::Timed => grant.expires_at = duration.map(|d| now.saturating_add(d)),
            AnswerScope::Workspace | AnswerScope::User => {
                let layer = state.layer_for(scope).to_owned();
                let changes = grant.allows.changes(&layer);
                for change in &changes {
                    apply_to_layer(&mut state.base, change, scope);
                }
                grant.layer = Some(layer.clone());
                persist = Some(Persist { layer, changes, spec: state.base.clone() });
            }
            AnswerScope::Once | AnswerScope::Session => {}
        }
        state.grants.push(grant.clone());
        state.rebuild();
        let mut record = state.record(LogEvent::Grant, now);
        record.call_id = Some(pending.call_id);
        record.tool = Some(grant.allows.tool.clone());
        record.grant = Some(grant.reference());
        record.by = Some(answer.by);
        record.scope = Some(scope);
        state.log.push(record);
        Ok(AnswerOutcome { run: true, grant: Some(grant), persist })
    }

    /// Zed's permission buttons for a prompt that is waiting, as a view of its answers: "Allow",
    /// "Always allow `X`" where the session offers the `user` grant (the tool's own button where
    /// that grant is the whole tool), "Deny". Answer with `button`.
    pub fn permission_options(&self, call_id: u64) -> Result<Vec<PermissionOption>, SessionError> {
        let state = self.state.try_borrow().map_err(|_| SessionError::Busy)?;
        let pending = state.pending.iter().find(|p| p.call_id == call_id).ok_or(SessionError::UnknownCall(call_id))?;
        let button = |kind, label: String| PermissionOption { kind, label, pattern: None, change: None };
        let mut buttons = vec![button(OptionKind::AllowOnce, "Allow".into())];
        let always = pending.options.iter().find(|o| o.allow && o.scope == AnswerScope::User).and_then(|o| o.grant.as_ref());
        if let Some(grant) = always {
            let kind = if grant.whole_tool { OptionKind::AlwaysAllowTool } else { OptionKind::AlwaysAllowPattern };
            let mut option = button(kind, format!("Always allow {}", grant.display));
            option.pattern = grant.rules.first().map(|r| r.text().to_owned());
            // One rule, one change (several travel with the answer's `persist`).
            let mut changes = grant.changes(&state.user_layer);
            option.change = if changes.len() == 1 { changes.pop() } else { None };
            buttons.push(option);
        }
        buttons.push(button(OptionKind::DenyOnce, "Deny".into()));
        Ok(buttons)
    }

    /// The answers a prompt that is waiting offers: what a product's view of the prompt (its
    /// own buttons or review options) is drawn from.
    pub fn waiting_options(&self, call_id: u64) -> Result<Vec<AnswerOption>, SessionError> {
        let state = self.state.try_borrow().map_err(|_| SessionError::Busy)?;
        let pending = state.pending.iter().find(|p| p.call_id == call_id).ok_or(SessionError::UnknownCall(call_id))?;
        Ok(pending.options.clone())
    }

    /// The grants in force at `now`, oldest first.
    pub fn grants(&self, now: u64) -> Result<Vec<Grant>, SessionError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| SessionError::Busy)?;
        check_now(now)?;
        checkpoint()?;
        state.expire(now);
        Ok(state.grants.clone())
    }

    /// Revokes a grant; for a workspace or user grant, what the host must persist.
    pub fn revoke(&self, id: &str, now: u64) -> Result<Option<Persist>, SessionError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| SessionError::Busy)?;
        check_now(now)?;
        let at =
            state.grants.iter().position(|g| g.id == id && g.holds_at(now)).ok_or_else(|| SessionError::UnknownGrant(id.to_owned()))?;
        checkpoint()?;
        // Nothing fails from here on.
        let grant = state.grants.remove(at);
        state.expire(now);
        let persist = grant.layer.clone().map(|layer| {
            grant.allows.remove_from(&mut state.base, &layer);
            Persist { layer, changes: Vec::new(), spec: state.base.clone() }
        });
        state.rebuild();
        let mut record = state.record(LogEvent::Revoke, now);
        record.tool = Some(grant.allows.tool.clone());
        record.grant = Some(grant.reference());
        state.log.push(record);
        Ok(persist)
    }

    /// Ends the session: its session and timed grants and unanswered prompts are gone (workspace
    /// and user grants are the host's settings now).
    pub fn end(&self, now: u64) -> Result<(), SessionError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| SessionError::Busy)?;
        check_now(now)?;
        checkpoint()?;
        state.grants.retain(|g| g.layer.is_some());
        state.pending.clear();
        state.rebuild();
        let record = state.record(LogEvent::End, now);
        state.log.push(record);
        Ok(())
    }

    /// Replaces the policy the session decides with (the host's settings changed), keeping its
    /// prompts and log, and re-checks every grant against it; returns the grants dropped, each
    /// logged as revoked:
    ///
    /// - a workspace or user grant whose rules the new policy no longer holds in its layer (the
    ///   user removed them);
    /// - a grant that no longer [fits](GrantRules::fits) its tool as the new policy reads it: a
    ///   whole-tool grant for a tool that can now be narrowed (an opaque tool that is now a command
    ///   tool would otherwise allow every command). A workspace or user one is also taken back out
    ///   of [`Session::spec`], which the host then saves.
    pub fn set_policy(&self, spec: PolicySpec, now: u64) -> Result<Vec<Grant>, SessionError> {
        let mut state = self.state.try_borrow_mut().map_err(|_| SessionError::Busy)?;
        check_now(now)?;
        checkpoint()?;
        // Nothing fails from here on.
        state.base = spec;
        let base = state.base.clone();
        let (written, mut dropped): (Vec<Grant>, Vec<Grant>) = std::mem::take(&mut state.grants)
            .into_iter()
            .partition(|g| g.layer.as_deref().is_none_or(|layer| still_written(&base, layer, &g.allows)));
        // The tools' input kinds do not depend on the grants: one compiled policy tells them all.
        let reads = Policy::new(with_grant_layers(&base, &written));
        let (kept, misfits): (Vec<Grant>, Vec<Grant>) = written.into_iter().partition(|g| g.allows.fits(reads.input_kind(&g.allows.tool)));
        state.grants = kept;
        if misfits.is_empty() {
            state.policy = reads;
        } else {
            for grant in &misfits {
                if let Some(layer) = &grant.layer {
                    grant.allows.remove_from(&mut state.base, layer);
                }
            }
            state.rebuild();
        }
        dropped.extend(misfits);
        let record = state.record(LogEvent::Policy, now);
        state.log.push(record);
        for grant in &dropped {
            let mut record = state.record(LogEvent::Revoke, now);
            record.tool = Some(grant.allows.tool.clone());
            record.grant = Some(grant.reference());
            state.log.push(record);
        }
        Ok(dropped)
    }

    /// The log records kept, oldest first, and how many were dropped before them.
    pub fn log(&self) -> Result<(Vec<LogRecord>, u64), SessionError> {
        let state = self.state.try_borrow().map_err(|_| SessionError::Busy)?;
        Ok((state.log.records().cloned().collect(), state.log.dropped()))
    }

    /// The records after `seq` (all with 0) as JSON lines, for a file or an output channel.
    pub fn log_lines(&self, after: u64) -> Result<String, SessionError> {
        let state = self.state.try_borrow().map_err(|_| SessionError::Busy)?;
        Ok(state.log.json_lines(after))
    }

    /// The policy the session decides with now: the host's, with workspace and user grants
    /// written in (session and timed grants are not part of it).
    pub fn spec(&self) -> Result<PolicySpec, SessionError> {
        let state = self.state.try_borrow().map_err(|_| SessionError::Busy)?;
        Ok(state.base.clone())
    }
}

impl State {
    fn log_capacity(&self) -> usize {
        self.log.capacity()
    }
}
