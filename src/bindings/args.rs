//! Checking JavaScript arguments and building results: every binding goes through these, so a
//! wrong type is a `TypeError` that names the argument, a lone surrogate never reaches the core,
//! and results are plain objects.
// The settings page's glue alone (feature `webview`) uses a few of these.
#![cfg_attr(not(any(feature = "mcp", feature = "engine", feature = "settings")), allow(dead_code))]

#[cfg(any(feature = "engine", feature = "settings"))]
use crate::input::from_json;
#[cfg(any(feature = "engine", feature = "settings"))]
use serde::de::DeserializeOwned;
use serde::Serialize;
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// A JavaScript string, seen through the one method js-sys does not bind.
    #[wasm_bindgen(extends = js_sys::JsString)]
    type CheckedString;

    /// `String.prototype.isWellFormed` (ES2024): false when the string has a lone surrogate.
    #[wasm_bindgen(method, js_name = isWellFormed)]
    fn is_well_formed(this: &CheckedString) -> bool;
}

pub(crate) fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

pub(crate) fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

fn describe_type(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else if js_sys::Array::is_array(value) {
        "an array".to_owned()
    } else {
        value.js_typeof().as_string().unwrap_or_else(|| "an unknown value".to_owned())
    }
}

/// A string argument, refused unless it is a well-formed JavaScript string.
///
/// One crossing in the common case: `as_string` both checks the type and copies. A lone
/// surrogate always decodes to U+FFFD, so only a string containing U+FFFD costs a second
/// call to tell a real U+FFFD from a replaced surrogate.
pub(crate) fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    let Some(text) = value.as_string() else {
        return Err(type_error(&format!("{what} must be a string, got {}", describe_type(value))));
    };
    if text.contains(char::REPLACEMENT_CHARACTER) && !value.unchecked_ref::<CheckedString>().is_well_formed() {
        return Err(type_error(&format!("{what} is not well-formed UTF-16 (it contains a lone surrogate)")));
    }
    Ok(text)
}

/// A structured argument, read through `JSON.stringify` so every problem is named. (The MCP
/// entry reads its few shapes with `js_reader` instead, without serde_json's deserializer.)
#[cfg(any(feature = "engine", feature = "settings"))]
pub(crate) fn json_arg<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    if value.is_undefined() {
        return Err(type_error(&format!("{what} is required, got undefined")));
    }
    let text = js_sys::JSON::stringify(value)
        .map_err(|e| {
            let reason = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "it cannot be converted to JSON".to_owned());
            type_error(&format!("{what} could not be read: {reason}"))
        })?
        .as_string()
        .ok_or_else(|| type_error(&format!("{what} must be JSON-like data, got {}", describe_type(value))))?;
    from_json(what, &text).map_err(|e| type_error(&e.to_string()))
}

/// An optional structured argument: `undefined` and `null` mean absent.
#[cfg(any(feature = "engine", feature = "settings"))]
pub(crate) fn optional_json_arg<T: DeserializeOwned>(value: Option<JsValue>, what: &str) -> Result<Option<T>, JsValue> {
    match value.filter(|v| !v.is_undefined() && !v.is_null()) {
        Some(v) => json_arg(&v, what).map(Some),
        None => Ok(None),
    }
}

/// `{ ok: true, <key>: value }`, for answers that carry a compiled object.
#[cfg(feature = "engine")]
pub(crate) fn ok_with(key: &str, value: JsValue) -> JsValue {
    let answer = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&answer, &"ok".into(), &JsValue::TRUE);
    let _ = js_sys::Reflect::set(&answer, &key.into(), &value);
    answer.into()
}

/// Converts a result to a plain JS value (objects, arrays, strings, numbers, booleans) through
/// the tape. Every result type has a JSON form, so this fails only on a value with none (bytes),
/// which no result holds: then it throws rather than hand back something else.
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    super::tape::to_js(value).ok_or_else(unconvertible)
}

fn unconvertible() -> JsValue {
    error("toolgate could not convert its result into a JavaScript value")
}

pub(crate) fn to_ts<T: Serialize + tsify::Tsify>(value: &T) -> Result<Ts<T>, JsValue> {
    to_js(value).map(Ts::new_unchecked)
}

/// [`to_ts`] for a hot result with a fixed-shape writer of its own (`tape::decision_to_js`,
/// `tape::mcp_decision_to_js`).
#[cfg(any(feature = "mcp", feature = "engine"))]
pub(crate) fn to_ts_fixed<T: tsify::Tsify>(value: &T, fixed: fn(&T) -> Option<JsValue>) -> Result<Ts<T>, JsValue> {
    fixed(value).map(Ts::new_unchecked).ok_or_else(unconvertible)
}
