//! The tools around the engine, `toolgate/tools`: lint, other agents' rules in and out, and the
//! settings page's validator (`super::settings`). They carry a TOML parser and regex-syntax (for
//! the character where a pattern goes wrong), which a build that only decides does not need, so
//! they live in their own build (feature `tools`); it includes the whole engine API as well.

use super::engine::JsPolicy;
use super::{json_arg, optional_json_arg, to_js, to_ts};
use crate::api;
use crate::policy::PolicySpec;
use tsify::Ts;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(js_class = Policy)]
impl JsPolicy {
    /// Lint findings about the policy's rules, failing examples included: `{ code, severity, message, path, … }`.
    #[wasm_bindgen(getter, unchecked_return_type = "Finding[]")]
    pub fn findings(&self) -> Result<JsValue, JsValue> {
        to_js(&api::policy_findings(&self.inner))
    }
}

/// Lints a policy spec: `{ ok, findings }`, `ok` when no finding is an error.
#[wasm_bindgen]
pub fn lint(spec: Ts<PolicySpec>) -> Result<Ts<crate::lint::LintReport>, JsValue> {
    let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
    to_ts(&api::lint(spec))
}

/// The built-in protected paths (writes to them always ask): each entry's pattern, why, and source.
#[wasm_bindgen(js_name = protectedPathEntries, unchecked_return_type = "ProtectedPath[]")]
pub fn protected_path_entries() -> Result<JsValue, JsValue> {
    to_js(&crate::policy::protected::built_in_entries())
}

// ---------------------------------------------------------------------------------------
// Other agents' rules: import and export (src/import).

use crate::import::{ExportResult, ImportContext, ImportSource, PeerFormat};

/// Another agent's rules (Claude Code, Codex, VS Code, Cursor, Gemini CLI) read into one policy, with a
/// report of what every source rule became; or the problems that prevented it.
#[wasm_bindgen(js_name = importPolicy, unchecked_return_type = "{ ok: true, policy: PolicySpec, report: RuleReport[] } | { ok: false, errors: Problem[] }")]
pub fn import_policy(
    format: Ts<PeerFormat>,
    #[wasm_bindgen(unchecked_param_type = "ImportSource[]")] sources: JsValue,
    context: Option<Ts<ImportContext>>,
) -> Result<JsValue, JsValue> {
    let format: PeerFormat = json_arg(&format.js_value(), "format")?;
    let sources: Vec<ImportSource> = json_arg(&sources, "sources")?;
    let context: Option<ImportContext> = optional_json_arg(context.map(|c| c.js_value()), "context")?;
    to_js(&api::answer_json(&api::import_policy(format, &sources, &context.unwrap_or_default())))
}

/// A policy written in another agent's format: the files, and what could not be said.
#[wasm_bindgen(js_name = exportPolicy)]
pub fn export_policy(
    format: Ts<PeerFormat>,
    spec: Ts<PolicySpec>,
    context: Option<Ts<ImportContext>>,
) -> Result<Ts<ExportResult>, JsValue> {
    let format: PeerFormat = json_arg(&format.js_value(), "format")?;
    let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
    let context: Option<ImportContext> = optional_json_arg(context.map(|c| c.js_value()), "context")?;
    to_ts(&api::export_policy(format, &spec, &context.unwrap_or_default()))
}

// ---------------------------------------------------------------------------------------
// Learning from history (src/history).

use crate::history::{self, HistoryCall};

/// toolgate's session log (`session.logLines()`) read as a history: each call and what happened
/// to it; a line that cannot be read is in `unread`, with its number.
#[wasm_bindgen(js_name = readSessionLog)]
pub fn read_session_log(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<Ts<history::History>, JsValue> {
    let text = super::string_arg(&text, "text")?;
    to_ts(&history::read_session_log(&text))
}

/// What `spec` would have done with a history: the calls that would change, by how and by rule.
#[wasm_bindgen(js_name = replayHistory)]
pub fn replay_history(
    spec: Ts<PolicySpec>,
    #[wasm_bindgen(unchecked_param_type = "HistoryCall[]")] calls: JsValue,
) -> Result<Ts<history::ReplayReport>, JsValue> {
    let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
    let calls: Vec<HistoryCall> = json_arg(&calls, "calls")?;
    to_ts(&history::replay(&crate::policy::Policy::new(spec), &calls))
}

/// The rules of `spec` that no call of the history met.
#[wasm_bindgen(js_name = unusedRules, unchecked_return_type = "RuleRef[]")]
pub fn unused_rules(
    spec: Ts<PolicySpec>,
    #[wasm_bindgen(unchecked_param_type = "HistoryCall[]")] calls: JsValue,
) -> Result<JsValue, JsValue> {
    let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
    let calls: Vec<HistoryCall> = json_arg(&calls, "calls")?;
    to_js(&history::unused_rules(&crate::policy::Policy::new(spec), &calls))
}

/// Rules that would have let the calls a person approved run: each proposal with the calls it
/// covers and the prompts it saves, never one that lets a refused call of the history run or that
/// lint faults; the candidates withheld, with why; and `spec` with every proposal added.
#[wasm_bindgen(js_name = learnRules)]
pub fn learn_rules(
    spec: Ts<PolicySpec>,
    #[wasm_bindgen(unchecked_param_type = "HistoryCall[]")] calls: JsValue,
    options: Option<Ts<history::learn::LearnOptions>>,
) -> Result<Ts<history::learn::LearnReport>, JsValue> {
    let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
    let calls: Vec<HistoryCall> = json_arg(&calls, "calls")?;
    let options: Option<history::learn::LearnOptions> = optional_json_arg(options.map(|o| o.js_value()), "options")?;
    to_ts(&history::learn::learn(&crate::policy::Policy::new(spec), &calls, &options.unwrap_or_default()))
}

/// A log read as a history: toolgate's session log, a Claude Code transcript or a Codex rollout
/// (`format`, or recognised from its records when absent), in toolgate's tool names.
#[wasm_bindgen(js_name = readHistory)]
pub fn read_history(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    format: Option<Ts<history::HistoryFormat>>,
) -> Result<Ts<history::ReadHistory>, JsValue> {
    let text = super::string_arg(&text, "text")?;
    let format: Option<history::HistoryFormat> = optional_json_arg(format.map(|f| f.js_value()), "format")?;
    to_ts(&history::read_history(&text, format))
}
