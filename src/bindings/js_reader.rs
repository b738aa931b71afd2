//! The MCP entry's structured arguments — settings, allowlists, a name kind, split options —
//! read straight from JavaScript values.
//!
//! Everything else goes through `JSON.stringify` and serde_json (`json_arg`), whose deserializer
//! and error formatting (floats included) weigh about a quarter of a module this small. These few
//! shapes are read here instead, with serde's words for what is wrong and the same paths
//! (`settings.mcpAllowedTools[2]: invalid type: integer `5`, expected a string`). What JSON would
//! leave out is left out: `undefined` and functions as absent fields, and as `null` in arrays. Two
//! things differ on purpose: an object is read by its own enumerable fields (a `toJSON` method is
//! not called), and settings given as an array are refused (serde reads a struct from a sequence
//! by position). A wasm test compares this reader with the serde one on random values.

use super::{string_arg, type_error};
use crate::mcp::{McpSettings, NameKind};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// What a value is, in serde's words (`integer `5``, `string "x"`, `sequence`, `map`).
fn unexpected(value: &JsValue) -> String {
    if let Some(b) = value.as_bool() {
        return format!("boolean `{b}`");
    }
    if let Some(n) = value.as_f64() {
        // JSON writes NaN and the infinities as null; serde_json reads whole numbers as integers.
        return if !n.is_finite() {
            "null".to_owned()
        } else if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
            format!("integer `{}`", n as i64)
        } else {
            // JavaScript writes the number: no float formatting in this module.
            let text = js_sys::Number::unchecked_from_js_ref(value).to_string_with_radix(10).map(String::from).unwrap_or_default();
            format!("floating point `{text}`")
        };
    }
    if value.is_string() {
        let quoted = js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()).unwrap_or_default();
        return format!("string {quoted}");
    }
    if absent(value) || value.is_null() {
        "null".to_owned()
    } else if value.is_bigint() {
        "BigInt".to_owned()
    } else if Array::is_array(value) {
        "sequence".to_owned()
    } else {
        "map".to_owned()
    }
}

/// What JSON would leave out of an object: `undefined`, functions and symbols.
fn absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_function() || value.is_symbol()
}

/// What JSON writes as `null`: null itself, NaN and the infinities.
fn json_null(value: &JsValue) -> bool {
    value.is_null() || value.as_f64().is_some_and(|n| !n.is_finite())
}

fn invalid(path: &str, value: &JsValue, expected: &str) -> JsValue {
    type_error(&format!("{path}: invalid type: {}, expected {expected}", unexpected(value)))
}

fn read_bool(value: &JsValue, path: &str) -> Result<bool, JsValue> {
    value.as_bool().ok_or_else(|| invalid(path, value, "a boolean"))
}

fn read_string(value: &JsValue, path: &str) -> Result<String, JsValue> {
    if !value.is_string() {
        return Err(invalid(path, value, "a string"));
    }
    string_arg(value, path).map_err(|_| type_error(&format!("{path}: string is not well-formed UTF-16 (it contains a lone surrogate)")))
}

/// An argument that must be given, as `json_arg` words it.
fn required(value: &JsValue, path: &str) -> Result<(), JsValue> {
    if value.is_undefined() {
        return Err(type_error(&format!("{path} is required, got undefined")));
    }
    Ok(())
}

/// A list of strings: `list`, `settings.mcpAllowedTools`.
pub fn string_list(value: &JsValue, path: &str) -> Result<Vec<String>, JsValue> {
    required(value, path)?;
    let Some(array) = value.dyn_ref::<Array>() else {
        return Err(invalid(path, value, "a sequence"));
    };
    (0..array.length()).map(|i| read_string(&array.get(i), &format!("{path}[{i}]"))).collect()
}

/// The object's own enumerable fields that JSON would write, in its order (the order serde meets
/// them in, so the first problem reported is the same).
fn fields(value: &JsValue, path: &str, expected: &str) -> Result<Vec<(String, JsValue)>, JsValue> {
    if !value.is_object() || Array::is_array(value) || value.is_function() {
        return Err(invalid(path, value, expected));
    }
    let keys = Object::keys(value.unchecked_ref::<Object>());
    let mut present = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let field = Reflect::get(value, &key).map_err(|e| type_error(&format!("{path} could not be read: {}", describe_error(&e))))?;
        if !absent(&field) {
            present.push((key.as_string().unwrap_or_default(), field));
        }
    }
    Ok(present)
}

fn unknown(path: &str, name: &str, names: &[&str]) -> JsValue {
    type_error(&format!("{path}.{name}: unknown field `{name}`, expected {}", one_of(names)))
}

fn describe_error(error: &JsValue) -> String {
    error.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_else(|| "a getter threw".to_owned())
}

/// serde's list of expected names: `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", quoted.join(", ")),
    }
}

const SETTINGS_FIELDS: [&str; 8] = [
    "mcpAllowedTools",
    "adminMcpAllowedTools",
    "mcpToolsProtection",
    "playwrightProtection",
    "isDisabledByAdmin",
    "isAdminControlled",
    "mcpAllowlistsEnabled",
    "yoloMcpToolsDisabled",
];

/// Cursor's MCP settings; missing fields take their defaults (protections on).
pub fn settings(value: &JsValue, path: &str) -> Result<McpSettings, JsValue> {
    required(value, path)?;
    let mut settings = McpSettings::default();
    let mut size = 2;
    for (name, field) in fields(value, path, "struct McpSettings")? {
        let at = format!("{path}.{name}");
        size += name.len() + 4;
        match name.as_str() {
            "mcpAllowedTools" => settings.mcp_allowed_tools = string_list(&field, &at)?,
            "adminMcpAllowedTools" => settings.admin_mcp_allowed_tools = string_list(&field, &at)?,
            "mcpToolsProtection" => settings.mcp_tools_protection = read_bool(&field, &at)?,
            "playwrightProtection" => settings.playwright_protection = read_bool(&field, &at)?,
            "isDisabledByAdmin" => settings.is_disabled_by_admin = read_bool(&field, &at)?,
            "isAdminControlled" => settings.is_admin_controlled = read_bool(&field, &at)?,
            "mcpAllowlistsEnabled" => settings.mcp_allowlists_enabled = read_bool(&field, &at)?,
            "yoloMcpToolsDisabled" => settings.yolo_mcp_tools_disabled = read_bool(&field, &at)?,
            _ => return Err(unknown(path, &name, &SETTINGS_FIELDS)),
        }
    }
    // The same budget as settings read as JSON text, counted as that text would be (at least).
    size += settings.mcp_allowed_tools.iter().chain(&settings.admin_mcp_allowed_tools).map(|e| e.len() + 3).sum::<usize>();
    if size > crate::limits::MAX_SETTINGS_BYTES {
        return Err(type_error(&format!(
            "{path} is at least {size} bytes as JSON; toolgate reads settings of at most {} bytes (4 MiB)",
            crate::limits::MAX_SETTINGS_BYTES
        )));
    }
    Ok(settings)
}

/// `"server"` or `"tool"`.
pub fn name_kind(value: &JsValue, path: &str) -> Result<NameKind, JsValue> {
    match value.as_string().as_deref() {
        Some("server") => Ok(NameKind::Server),
        Some("tool") => Ok(NameKind::Tool),
        Some(other) => Err(type_error(&format!("{path}: unknown variant `{other}`, expected `server` or `tool`"))),
        None => Err(invalid(path, value, "enum NameKind")),
    }
}

/// `splitToolName`'s options: a fallback server id (a string or null) and known server ids.
pub fn split_options(value: &JsValue, path: &str) -> Result<(Option<String>, Vec<String>), JsValue> {
    let (mut fallback, mut known) = (None, Vec::new());
    for (name, field) in fields(value, path, "struct SplitOptions")? {
        let at = format!("{path}.{name}");
        match name.as_str() {
            "fallbackServerId" => fallback = if json_null(&field) { None } else { Some(read_string(&field, &at)?) },
            "knownServerIds" => known = string_list(&field, &at)?,
            _ => return Err(unknown(path, &name, &["fallbackServerId", "knownServerIds"])),
        }
    }
    Ok((fallback, known))
}
