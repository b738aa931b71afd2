//! Reading structured input (settings, lists) from JSON text, with errors that name the field.
//!
//! The JavaScript bindings hand values over as `JSON.stringify` text, which turns every
//! problem a JS value can have into one this module reports: a wrong type names its path
//! (`mcpAllowedTools[3]: expected a string`), and a lone surrogate, which would otherwise
//! be replaced by U+FFFD and could then match a different name, is refused.

use serde::de::DeserializeOwned;
use std::fmt;

/// Bad input: what was being read, where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// What the caller passed, e.g. `settings` or `list`.
    pub what: String,
    /// Path inside it, e.g. `mcpAllowedTools[3]`; empty for the value itself.
    pub path: String,
    /// What is wrong with the value.
    pub message: String,
    /// 1-based position in the text, when the input was text.
    pub line: Option<usize>,
    /// 1-based column in the text, with `line`.
    pub column: Option<usize>,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "{}: {}", self.what, self.message)
        } else if self.path.starts_with('[') {
            write!(f, "{}{}: {}", self.what, self.path, self.message)
        } else {
            write!(f, "{}.{}: {}", self.what, self.path, self.message)
        }
    }
}

impl std::error::Error for InputError {}

/// Parses JSON text into `T`, naming the offending field on failure.
pub fn from_json<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, InputError> {
    let error = |path: String, err: &serde_json::Error| InputError {
        what: what.to_owned(),
        path,
        message: describe(err),
        line: None,
        column: None,
    };
    if let Some(why) = crate::limits::settings_too_large(json) {
        return Err(InputError { what: what.to_owned(), path: String::new(), message: why, line: None, column: None });
    }
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| error(err.path().to_string(), err.inner()))?;
    deserializer.end().map_err(|err| error(String::new(), &err))?;
    Ok(value)
}

/// serde_json's message without its "at line 1 column 7" suffix, which means nothing for
/// a value that never was text to the caller; lone surrogates get a plain explanation.
fn describe(err: &serde_json::Error) -> String {
    let full = err.to_string();
    // serde_json says "unexpected end of hex escape" only after a leading surrogate.
    if full.contains("surrogate") || full.contains("end of hex escape") {
        return "string is not well-formed UTF-16 (it contains a lone surrogate)".to_owned();
    }
    match full.rfind(" at line ") {
        Some(cut) if err.line() > 0 => full.get(..cut).unwrap_or(&full).to_owned(),
        _ => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::McpSettings;

    #[test]
    fn names_the_path_of_a_wrong_type() {
        let err = from_json::<McpSettings>("settings", r#"{"mcpAllowedTools":["a:b",3]}"#).unwrap_err();
        assert_eq!(err.to_string(), "settings.mcpAllowedTools[1]: invalid type: integer `3`, expected a string");
    }

    #[test]
    fn refuses_unknown_fields_so_a_typo_cannot_drop_a_protection() {
        let err = from_json::<McpSettings>("settings", r#"{"isDisabledByAdmn":true}"#).unwrap_err();
        assert!(err.message.starts_with("unknown field `isDisabledByAdmn`"), "{err}");
    }

    #[test]
    fn refuses_lone_surrogates() {
        for text in [r#"["ok","\ud800x"]"#, r#"["ok","\udc00"]"#, r#"["ok","\ud800\u0041"]"#] {
            let err = from_json::<Vec<String>>("list", text).unwrap_err();
            assert_eq!(err.to_string(), "list[1]: string is not well-formed UTF-16 (it contains a lone surrogate)");
        }
    }

    #[test]
    fn a_well_formed_pair_is_fine() {
        assert_eq!(from_json::<Vec<String>>("list", r#"["\ud83d\ude00"]"#).unwrap(), vec!["😀".to_owned()]);
    }

    #[test]
    fn wrong_top_level_type_has_no_path() {
        let err = from_json::<Vec<String>>("list", "null").unwrap_err();
        assert_eq!(err.to_string(), "list: invalid type: null, expected a sequence");
    }
}
