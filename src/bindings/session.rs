//! The permission session in the engine API: `new Session(spec, options?)` in `toolgate/engine`.
// Parameters are named as JavaScript callers see them in the generated TypeScript.
#![allow(non_snake_case)]

use super::engine::{inputs_arg, ToolInput};
use super::{error, json_arg, optional_json_arg, string_arg, to_js, to_ts};
use crate::cursor::{self, ReviewKind, SessionAnswer};
use crate::policy::{Call, HookResult, PolicySpec};
use crate::session::grants::Grant;
use crate::session::{self, AnswerOutcome, ChildOptions, Persist, SessionDecision, SessionError, SessionOptions};
use tsify::Ts;
use wasm_bindgen::prelude::*;

/// When a session call happens, by the host's clock, and a hook's answer about the call.
#[derive(serde::Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecideOptions {
    /// The host's clock, in whole milliseconds (`Date.now()`): timed grants expire by it.
    pub now: u64,
    /// An external hook's answer about this call, if any.
    #[serde(default)]
    #[tsify(optional)]
    pub hook: Option<HookResult>,
}

/// A time or a duration out of range is a bad argument (a `TypeError`, as for any other);
/// what the session refuses to do is an `Error`.
fn session_error(e: SessionError) -> JsValue {
    match e {
        SessionError::InvalidTime(_) | SessionError::InvalidDuration { .. } => super::type_error(&e.to_string()),
        e => error(&e.to_string()),
    }
}

/// A whole, non-negative number no larger than JavaScript counts exactly.
fn whole_arg(value: f64, what: &str) -> Result<u64, JsValue> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= session::MAX_TIME_MS as f64 {
        Ok(value as u64)
    } else {
        Err(super::type_error(&format!("{what} must be a whole number of at least 0, got {value}")))
    }
}

/// `now` as the core takes it: the host's clock in whole milliseconds (`Date.now()`).
fn now_arg(now: f64) -> Result<u64, JsValue> {
    session::time_from_number(now).map_err(session_error)
}

/// A number field of an object argument as JavaScript holds it. Structured arguments are read
/// through `JSON.stringify`, which writes NaN and the infinities as `null`, and `null` reads as
/// "not given" (an hour, by default, for a duration): such numbers are checked here first.
fn number_field(value: &JsValue, field: &str) -> Option<f64> {
    if !value.is_object() {
        return None;
    }
    js_sys::Reflect::get(value, &JsValue::from_str(field)).ok().and_then(|v| v.as_f64())
}

/// A permission session: decides calls with a policy, remembers answers as grants with a scope
/// and a lifetime, logs what was decided, and caps child sessions by their parent.
#[wasm_bindgen(js_name = Session)]
pub struct JsSession {
    inner: session::Session,
}

#[wasm_bindgen(js_class = Session)]
impl JsSession {
    /// A session deciding with `spec` (a policy of any dialect: `policy.spec`).
    #[wasm_bindgen(constructor)]
    pub fn new(spec: Ts<PolicySpec>, options: Option<Ts<SessionOptions>>) -> Result<JsSession, JsValue> {
        let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
        let options = options.map(|o| o.js_value());
        if let Some(options) = &options {
            if let Some(ms) = number_field(options, "timedGrantMs") {
                session::duration_from_number("timedGrantMs", ms, None).map_err(session_error)?;
            }
            if let Some(capacity) = number_field(options, "logCapacity") {
                whole_arg(capacity, "options.logCapacity")?;
            }
        }
        let options: SessionOptions = optional_json_arg(options, "options")?.unwrap_or_default();
        Ok(JsSession { inner: session::Session::new(spec, &options).map_err(session_error)? })
    }

    /// Decides a call: the decision, the grants that allowed it, and for a call that asks, the
    /// answers its prompt may give and whether an automatic reviewer may give one.
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        input: Option<Ts<ToolInput>>,
        options: Ts<DecideOptions>,
    ) -> Result<Ts<SessionDecision>, JsValue> {
        let tool = string_arg(&tool, "tool")?;
        let inputs = inputs_arg(input.map(|i| i.js_value()))?;
        if let Some(now) = number_field(&options.js_value(), "now") {
            now_arg(now)?;
        }
        let options: DecideOptions = json_arg(&options.js_value(), "options")?;
        let decision = self.inner.decide(&Call { tool, inputs, hook: options.hook }, options.now).map_err(session_error)?;
        to_ts(&decision)
    }

    /// Takes the answer to a call that asked: whether it runs, the grant made, and what to persist.
    pub fn answer(&self, answer: Ts<SessionAnswer>, now: f64) -> Result<Ts<AnswerOutcome>, JsValue> {
        let now = now_arg(now)?;
        if let Some(ms) = number_field(&answer.js_value(), "durationMs") {
            session::duration_from_number("durationMs", ms, Some(now)).map_err(session_error)?;
        }
        let answer: SessionAnswer = json_arg(&answer.js_value(), "answer")?;
        to_ts(&self.inner.answer(&answer.into(), now).map_err(session_error)?)
    }

    /// Zed's permission buttons for a prompt that is waiting, as a view of its answers; answer
    /// with `{ callId, button }`.
    #[wasm_bindgen(js_name = permissionOptions, unchecked_return_type = "PermissionOption[]")]
    pub fn permission_options(&self, callId: f64) -> Result<JsValue, JsValue> {
        to_js(&self.inner.permission_options(whole_arg(callId, "callId")?).map_err(session_error)?)
    }

    /// Cursor's review options for a prompt that is waiting, as a view of its answers; answer
    /// with `{ callId, review }`.
    #[wasm_bindgen(js_name = reviewOptions, unchecked_return_type = "ReviewOption[]")]
    pub fn review_options(&self, callId: f64, kind: Ts<ReviewKind>) -> Result<JsValue, JsValue> {
        let kind: ReviewKind = json_arg(&kind.js_value(), "kind")?;
        to_js(&cursor::review_options(&self.inner, whole_arg(callId, "callId")?, kind).map_err(session_error)?)
    }

    /// The grants in force at `now`, oldest first.
    #[wasm_bindgen(unchecked_return_type = "Grant[]")]
    pub fn grants(&self, now: f64) -> Result<JsValue, JsValue> {
        let grants: Vec<Grant> = self.inner.grants(now_arg(now)?).map_err(session_error)?;
        to_js(&grants)
    }

    /// Revokes a grant; for a workspace or user grant, what the host must persist (else `undefined`).
    pub fn revoke(&self, id: String, now: f64) -> Result<Option<Ts<Persist>>, JsValue> {
        match self.inner.revoke(&id, now_arg(now)?).map_err(session_error)? {
            Some(persist) => to_ts(&persist).map(Some),
            None => Ok(None),
        }
    }

    /// Ends the session: its session and timed grants and unanswered prompts are gone.
    pub fn end(&self, now: f64) -> Result<(), JsValue> {
        self.inner.end(now_arg(now)?).map_err(session_error)
    }

    /// A child session for a sub-agent, never looser than this one.
    pub fn child(&self, options: Option<Ts<ChildOptions>>) -> Result<JsSession, JsValue> {
        let options: ChildOptions = optional_json_arg(options.map(|o| o.js_value()), "options")?.unwrap_or_default();
        Ok(JsSession { inner: self.inner.child(options).map_err(session_error)? })
    }

    /// Replaces the policy the session decides with (the host's settings changed) and re-checks
    /// every grant against it: returns the grants dropped (a workspace or user grant the new policy
    /// no longer holds; a whole-tool grant for a tool that can now be narrowed), each logged. When
    /// one is a workspace or user grant, save `session.spec`.
    #[wasm_bindgen(js_name = setPolicy, unchecked_return_type = "Grant[]")]
    pub fn set_policy(&self, spec: Ts<PolicySpec>, now: f64) -> Result<JsValue, JsValue> {
        let now = now_arg(now)?;
        let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
        let dropped: Vec<Grant> = self.inner.set_policy(spec, now).map_err(session_error)?;
        to_js(&dropped)
    }

    /// The log records kept, oldest first, and how many older ones were dropped.
    #[wasm_bindgen(unchecked_return_type = "{ records: LogRecord[], dropped: number }")]
    pub fn log(&self) -> Result<JsValue, JsValue> {
        let (records, dropped) = self.inner.log().map_err(session_error)?;
        to_js(&serde_json::json!({ "records": records, "dropped": dropped }))
    }

    /// The records after sequence number `after` (all by default), one JSON object per line.
    #[wasm_bindgen(js_name = logLines)]
    pub fn log_lines(&self, after: Option<f64>) -> Result<String, JsValue> {
        self.inner.log_lines(whole_arg(after.unwrap_or(0.0), "after")?).map_err(session_error)
    }

    /// The policy the session decides with: the host's, with workspace and user grants written in.
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> Result<Ts<PolicySpec>, JsValue> {
        to_ts(&self.inner.spec().map_err(session_error)?)
    }
}
