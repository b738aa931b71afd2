//! The MCP allowlist API (Cursor's MCP allowlist design): the package's main entry. The
//! settings page's own module (feature `settings` without `mcp`) has the allowlist's editing
//! functions only: the decision, which runs through the one evaluator, is the main entry's.
// Parameters are named as JavaScript callers see them in the generated TypeScript.
#![allow(non_snake_case)]

use super::js_reader;
#[cfg(feature = "mcp")]
use super::pair_buffer::PairBuffer;
#[cfg(feature = "mcp")]
use super::{error, tape, to_ts_fixed};
use super::{string_arg, to_js, to_ts};
use crate::api;
use crate::mcp;
#[cfg(feature = "mcp")]
use crate::mcp::{AutoRunMode, McpSettings};
use tsify::Ts;
use wasm_bindgen::prelude::*;

#[cfg(feature = "mcp")]
/// Room for two names at the 256-unit limit; longer or non-ASCII names take the checked path.
const PAIR_CAPACITY: usize = 1024;

#[cfg(feature = "mcp")]
pub use auto_run_mode::JsAutoRunMode;

/// Holds [`JsAutoRunMode`] apart: wasm-bindgen gives a string enum a hidden `__Invalid` variant
/// and a public `from_js_value` that carry no docs, so `missing_docs` is off here alone.
#[cfg(feature = "mcp")]
#[allow(missing_docs)]
mod auto_run_mode {
    use wasm_bindgen::prelude::*;

    /// The auto-run mode as JavaScript passes it. A string enum costs no string conversion:
    /// the glue maps the string to a number, and anything else to an invalid marker.
    #[wasm_bindgen(js_name = AutoRunMode)]
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum JsAutoRunMode {
        /// `ask_every_time`: every call asks.
        AskEveryTime = "ask_every_time",
        /// `yolo`: calls in the allowlist run; others ask.
        Yolo = "yolo",
        /// `full_yolo`: everything runs, unless an administrator controls auto-run.
        FullYolo = "full_yolo",
    }
}

#[cfg(feature = "mcp")]
impl JsAutoRunMode {
    fn to_core(self) -> Option<AutoRunMode> {
        match self {
            JsAutoRunMode::AskEveryTime => Some(AutoRunMode::AskEveryTime),
            JsAutoRunMode::Yolo => Some(AutoRunMode::Yolo),
            JsAutoRunMode::FullYolo => Some(AutoRunMode::FullYolo),
            _ => None,
        }
    }
}

#[cfg(feature = "mcp")]
fn mode_arg(mode: JsAutoRunMode) -> Result<AutoRunMode, JsValue> {
    mode.to_core().ok_or_else(|| error(&format!("mode must be one of {}", AutoRunMode::NAMES.join(", "))))
}

/// Checks a server or tool name: non-empty, at most 256 characters, not only whitespace,
/// and no `:` or `*` unless it is exactly `*`. `kind` only words the message.
#[cfg(feature = "mcp")]
#[wasm_bindgen(js_name = validateName, unchecked_return_type = "{ ok: true } | { ok: false, errors: Problem[] }")]
pub fn validate_name(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    kind: Option<Ts<mcp::NameKind>>,
) -> Result<JsValue, JsValue> {
    let name = string_arg(&name, "name")?;
    let kind =
        kind.map(|k| k.js_value()).filter(|k| !k.is_undefined() && !k.is_null()).map(|k| js_reader::name_kind(&k, "kind")).transpose()?;
    to_js(&api::answer_json(&api::check_name(&name, kind)))
}

/// Builds the `server:tool` entry, checking both names.
#[cfg(feature = "mcp")]
#[wasm_bindgen(js_name = formatEntry, unchecked_return_type = "{ ok: true, entry: string } | { ok: false, errors: Problem[] }")]
pub fn format_entry(
    #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
) -> Result<JsValue, JsValue> {
    let serverId = string_arg(&serverId, "serverId")?;
    let toolName = string_arg(&toolName, "toolName")?;
    to_js(&api::answer_json(&api::format_entry(&serverId, &toolName)))
}

/// Parses a `server:tool` entry: exactly one `:` and two valid names (`"*"` for the wildcard).
#[wasm_bindgen(js_name = parseEntry, unchecked_return_type = "{ ok: true, serverId: string, toolName: string } | { ok: false, errors: Problem[] }")]
pub fn parse_entry(#[wasm_bindgen(unchecked_param_type = "string")] entry: JsValue) -> Result<JsValue, JsValue> {
    let entry = string_arg(&entry, "entry")?;
    to_js(&api::answer_json(&api::parse_entry(&entry)))
}

/// Whether one entry allows `toolName` on `serverId` (case-sensitive; invalid entries match nothing).
#[cfg(feature = "mcp")]
#[wasm_bindgen(js_name = entryMatches)]
pub fn entry_matches(
    #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] entry: JsValue,
) -> Result<bool, JsValue> {
    let serverId = string_arg(&serverId, "serverId")?;
    let toolName = string_arg(&toolName, "toolName")?;
    let entry = string_arg(&entry, "entry")?;
    Ok(mcp::entry_matches(&serverId, &toolName, &entry))
}

/// Adds `serverId:toolName` to a copy of `list`, unless it is invalid, present, or covered by a wildcard.
#[wasm_bindgen(js_name = addToAllowlist)]
pub fn add_to_allowlist(
    #[wasm_bindgen(unchecked_param_type = "string[]")] list: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
) -> Result<Ts<mcp::AddOutcome>, JsValue> {
    let list = js_reader::string_list(&list, "list")?;
    let serverId = string_arg(&serverId, "serverId")?;
    let toolName = string_arg(&toolName, "toolName")?;
    to_ts(&mcp::add_tool(&list, &serverId, &toolName))
}

/// Removes every copy of `entry` from a copy of `list`, and names a wildcard that still allows it.
#[wasm_bindgen(js_name = removeFromAllowlist)]
pub fn remove_from_allowlist(
    #[wasm_bindgen(unchecked_param_type = "string[]")] list: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] entry: JsValue,
) -> Result<Ts<mcp::RemoveOutcome>, JsValue> {
    let list = js_reader::string_list(&list, "list")?;
    let entry = string_arg(&entry, "entry")?;
    to_ts(&mcp::remove_entry(&list, &entry))
}

/// Drops duplicates and entries covered by a wildcard; reports invalid entries (kept in the list).
#[cfg(feature = "mcp")]
#[wasm_bindgen(js_name = normalizeAllowlist)]
pub fn normalize_allowlist(
    #[wasm_bindgen(unchecked_param_type = "string[]")] list: JsValue,
) -> Result<Ts<mcp::NormalizedAllowlist>, JsValue> {
    let list = js_reader::string_list(&list, "list")?;
    to_ts(&mcp::normalize(&list))
}

/// Options for [`split_tool_name`].
#[derive(Default, serde::Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SplitOptions {
    /// The server to report when the name is not an internal MCP name.
    #[serde(default)]
    pub fallback_server_id: Option<String>,
    /// Configured server ids; the longest that fits wins, so ids containing `_` split correctly.
    #[serde(default)]
    pub known_server_ids: Vec<String>,
}

/// Splits `mcp_<server>_<tool>` or `mcp__<server>__<tool>`; `knownServerIds` fixes ids containing `_`.
#[cfg(feature = "mcp")]
#[wasm_bindgen(js_name = splitToolName)]
pub fn split_tool_name(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    options: Option<Ts<SplitOptions>>,
) -> Result<Ts<mcp::SplitToolName>, JsValue> {
    let name = string_arg(&name, "name")?;
    let (fallback, known) = match options.map(|o| o.js_value()).filter(|o| !o.is_undefined() && !o.is_null()) {
        None => (None, Vec::new()),
        Some(options) => js_reader::split_options(&options, "options")?,
    };
    to_ts(&mcp::split_tool_name(&name, fallback.as_deref(), &known))
}

#[cfg(feature = "mcp")]
/// The MCP approval decision for one call. For many calls, build an `McpPolicy` once.
#[wasm_bindgen(js_name = decideMcp)]
pub fn decide_mcp(
    #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
    settings: Ts<McpSettings>,
    mode: JsAutoRunMode,
) -> Result<Ts<mcp::McpDecision>, JsValue> {
    let serverId = string_arg(&serverId, "serverId")?;
    let toolName = string_arg(&toolName, "toolName")?;
    let settings = js_reader::settings(&settings.js_value(), "settings")?;
    let mode = mode_arg(mode)?;
    to_ts_fixed(&mcp::decide_mcp(&serverId, &toolName, settings, mode), tape::mcp_decision_to_js)
}

/// MCP settings compiled once: decisions then cost the same whatever the allowlists' length.
#[cfg(feature = "mcp")]
#[derive(Debug)]
#[wasm_bindgen(js_name = McpPolicy)]
pub struct JsMcpPolicy {
    inner: mcp::McpPolicy,
    names: PairBuffer,
}

#[cfg(feature = "mcp")]
#[wasm_bindgen(js_class = McpPolicy)]
impl JsMcpPolicy {
    /// Compiles the settings. Throws, naming the field, if they are malformed.
    #[wasm_bindgen(constructor)]
    pub fn new(settings: Ts<McpSettings>) -> Result<JsMcpPolicy, JsValue> {
        let settings = js_reader::settings(&settings.js_value(), "settings")?;
        Ok(JsMcpPolicy { inner: mcp::McpPolicy::new(settings), names: PairBuffer::new(PAIR_CAPACITY) })
    }

    /// The explained decision: reason, message, matching entry, allowlist candidates.
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
        mode: JsAutoRunMode,
    ) -> Result<Ts<mcp::McpDecision>, JsValue> {
        // The names in one crossing (as `needsApproval`), checked before the mode as before.
        let decision = self.names.with_pair(&serverId, "serverId", &toolName, "toolName", |server, tool| {
            mode_arg(mode).map(|mode| self.inner.decide(server, tool, mode))
        })??;
        to_ts_fixed(&decision, tape::mcp_decision_to_js)
    }

    /// Only whether the call needs approval: the same decision as `decide`, for the hot path.
    #[wasm_bindgen(js_name = needsApproval)]
    pub fn needs_approval(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
        mode: JsAutoRunMode,
    ) -> Result<bool, JsValue> {
        let mode = mode_arg(mode)?;
        self.names.with_pair(&serverId, "serverId", &toolName, "toolName", |server, tool| self.inner.needs_approval(server, tool, mode))
    }

    /// Whether the allowlist that counts (the admin's when admin-controlled) allows the call.
    /// Invalid names are never allowlisted, even under `*:*`.
    #[wasm_bindgen(js_name = isAllowlisted)]
    pub fn is_allowlisted(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] serverId: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
    ) -> Result<bool, JsValue> {
        self.names.with_pair(&serverId, "serverId", &toolName, "toolName", |server, tool| self.inner.is_allowlisted(server, tool))
    }

    /// Invalid entries of the allowlist that counts; they match nothing.
    #[wasm_bindgen(getter = invalidEntries, unchecked_return_type = "InvalidEntry[]")]
    pub fn invalid_entries(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.invalid_entries())
    }
}
