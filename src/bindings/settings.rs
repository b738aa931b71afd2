//! The settings page's document in `toolgate/tools` and in the page's own module: what the webview and the extension host
//! share, so a draft the page shows as valid is the draft the host accepts, and a call is decided
//! in the host exactly as the page previewed it. See [`crate::settings`].

use super::{json_arg, optional_json_arg, to_js, to_ts};
use crate::api;
#[cfg(feature = "engine")]
use crate::mcp::McpSettings;
#[cfg(feature = "engine")]
use crate::policy::{PolicySpec, SettingsChange};
use crate::settings::{self, PageContext, PageSettings, SettingsPreview, SettingsValidation};
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn context_arg(context: Option<Ts<PageContext>>) -> Result<PageContext, JsValue> {
    Ok(optional_json_arg(context.map(|c| c.js_value()), "context")?.unwrap_or_default())
}

fn unreadable(message: String) -> SettingsValidation {
    let problem = api::Problem { code: "invalidSettings".into(), message, path: None, line: None, column: None };
    SettingsValidation { ok: false, errors: vec![problem], warnings: Vec::new(), settings: None }
}

/// The page's own module reports lint's findings only through the tools' module (see
/// [`settings::validate_json_without_lint`]).
#[cfg(feature = "tools")]
use settings::validate_json;
#[cfg(not(feature = "tools"))]
use settings::validate_json_without_lint as validate_json;

/// Validates a draft of the settings page: `{ ok, errors, warnings, settings? }`, each problem
/// at the entry it concerns. The draft is untrusted data (it comes from a webview message), so
/// anything wrong with it is an error in the answer, never a throw; `context` is the host's and
/// a malformed one throws a `TypeError`.
#[wasm_bindgen(js_name = validateSettings)]
pub fn validate_settings(
    #[wasm_bindgen(unchecked_param_type = "unknown")] draft: JsValue,
    context: Option<Ts<PageContext>>,
) -> Result<Ts<SettingsValidation>, JsValue> {
    let context = context_arg(context)?;
    let answer = if draft.is_undefined() {
        unreadable("settings: expected an object, got undefined".into())
    } else {
        match js_sys::JSON::stringify(&draft) {
            Ok(text) => match text.as_string() {
                Some(text) => validate_json(&text, &context),
                None => unreadable("settings: expected an object".into()),
            },
            Err(e) => {
                let reason = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
                unreadable(format!("settings could not be read: {reason}"))
            }
        }
    };
    to_ts(&answer)
}

/// What each section would report: Gasoline's summary and each Roo mode's catalogue.
#[wasm_bindgen(js_name = settingsPreview)]
pub fn settings_preview(settings: Ts<PageSettings>, context: Option<Ts<PageContext>>) -> Result<Ts<SettingsPreview>, JsValue> {
    let settings: PageSettings = json_arg(&settings.js_value(), "settings")?;
    to_ts(&settings::preview(&settings, &context_arg(context)?))
}

/// The policy the tool rules mean (Zed's switches over the managed, user and project layers):
/// `new Policy(settingsPolicy(settings, context))` decides as the page's "Try a call" does.
// What "Try a call" decides with: in the modules that decide, not the page's validator.
#[cfg(feature = "engine")]
#[wasm_bindgen(js_name = settingsPolicy)]
pub fn settings_policy(settings: Ts<PageSettings>, context: Option<Ts<PageContext>>) -> Result<Ts<PolicySpec>, JsValue> {
    let settings: PageSettings = json_arg(&settings.js_value(), "settings")?;
    to_ts(&settings::rules_policy(&settings, &context_arg(context)?))
}

/// The settings Cursor's MCP decision reads (`new McpPolicy(…)` in the main entry), from the
/// user's MCP section and the administrator's state.
// What "Try a call" decides with: in the modules that decide, not the page's validator.
#[cfg(feature = "engine")]
#[wasm_bindgen(js_name = settingsMcp)]
pub fn settings_mcp(settings: Ts<PageSettings>, context: Option<Ts<PageContext>>) -> Result<Ts<McpSettings>, JsValue> {
    let settings: PageSettings = json_arg(&settings.js_value(), "settings")?;
    to_ts(&settings::mcp_settings(&settings, &context_arg(context)?))
}

/// A copy of the settings with a permission option's change applied to the user's or the
/// project's rules; a change to another layer comes back as `{ ok: false, errors }`.
// A permission option's change: offered where calls are decided, not by the page's validator.
#[cfg(feature = "engine")]
#[wasm_bindgen(js_name = applySettingsChange, unchecked_return_type = "{ ok: true, settings: PageSettings } | { ok: false, errors: Problem[] }")]
pub fn apply_settings_change(settings: Ts<PageSettings>, change: Ts<SettingsChange>) -> Result<JsValue, JsValue> {
    let settings: PageSettings = json_arg(&settings.js_value(), "settings")?;
    let change: SettingsChange = json_arg(&change.js_value(), "change")?;
    let answer = settings::apply_change(&settings, &change).map(|settings| serde_json::json!({ "settings": settings }));
    to_js(&api::answer_json(&answer))
}

/// The tools the page's rules apply to (Zed's catalogue, the terminal first), with their input kinds.
#[wasm_bindgen(js_name = settingsTools, unchecked_return_type = "PageTool[]")]
pub fn settings_tools(context: Option<Ts<PageContext>>) -> Result<JsValue, JsValue> {
    to_js(&settings::page_tools(&context_arg(context)?))
}
