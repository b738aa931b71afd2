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
    serde_json::from_str(json).map_err(|err| error(path_of_error(json, &err), &err))
}

/// The path (`layers[0].tools.terminal`, `[3]`, `.` for the whole value) of the value an error
/// of `serde_json::from_str` is about. serde_json says where in the text it stopped, not which
/// field it was reading, so the path is read back from the text up to there: one small scanner
/// instead of a path-tracking deserializer compiled again for every input type.
pub fn path_of_error(json: &str, err: &serde_json::Error) -> String {
    if err.line() == 0 {
        return ".".to_owned();
    }
    // serde_json's column counts the bytes of the line up to and including the last one it read,
    // or, for a syntax error, the byte it could not accept (which is then not part of the path).
    let line_start: usize = json.split_inclusive('\n').take(err.line() - 1).map(str::len).sum();
    let end = (line_start + err.column()).saturating_sub(usize::from(err.is_syntax()));
    let mut frames = frames_through(json.as_bytes(), end);
    // Text that ends where an array's next element should begin is an error about the array.
    let last = json.as_bytes().get(..end).and_then(|read| read.iter().rev().find(|b| !b.is_ascii_whitespace()));
    if err.is_eof() && matches!(last, Some(b'[' | b',')) && matches!(frames.last(), Some(Frame::Array(_))) {
        frames.pop();
    }
    // `{"variant": …}` is how JSON spells an enum's variant: a name it does not know is an error
    // about the enum's field, not about a field named like the variant.
    if let (Some(Frame::Object(Some(key))), Some(rest)) = (frames.last(), err.to_string().strip_prefix("unknown variant `")) {
        if rest.strip_prefix(key.as_str()).is_some_and(|after| after.starts_with('`')) {
            frames.pop();
        }
    }
    path_of(&frames)
}

/// The key or index the scanner is at in one open object or array.
enum Frame {
    /// In an object: the current key, once read.
    Object(Option<String>),
    /// In an array: the current element's index.
    Array(usize),
}

/// The open containers after reading `json[..end]`, each at its current key or index. serde_json
/// stops just before a value of the wrong type, on the last byte of a bad string, number or key,
/// or on the `}` / `]` that ends a value missing a field or an element: in each case the
/// innermost open containers name the value. (Inside an internally tagged enum, which serde reads
/// as a whole first, it stops after the object that holds it: the path names that object.)
fn frames_through(json: &[u8], end: usize) -> Vec<Frame> {
    let head = json.get(..end).unwrap_or(json);
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while let Some(&b) = head.get(i) {
        match b {
            b'"' => {
                let start = i;
                i += 1;
                while let Some(&c) = head.get(i) {
                    match c {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                // A string where an object awaits a key is the key (an unknown field stops on it).
                if let Some(Frame::Object(key @ None)) = stack.last_mut() {
                    *key = Some(decode_key(head.get(start..i.min(head.len())).unwrap_or_default()));
                }
            }
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key)) => *key = None,
                Some(Frame::Array(index)) => *index += 1,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    stack
}

/// `layers[0].tools.terminal`, or `.` for the value itself (serde_path_to_error's spelling).
fn path_of(frames: &[Frame]) -> String {
    let mut path = String::new();
    for frame in frames {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None) => {}
            Frame::Array(index) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

/// A key as written between its quotes (`raw` starts at the opening quote), its escapes decoded.
fn decode_key(raw: &[u8]) -> String {
    let mut quoted = raw.to_vec();
    quoted.push(b'"');
    serde_json::from_slice::<String>(&quoted).unwrap_or_else(|_| String::from_utf8_lossy(raw.get(1..).unwrap_or_default()).into_owned())
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

// serde_path_to_error is a native dev-dependency, like the other test oracles.
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod path_oracle {
    //! `path_of_error` against serde_path_to_error, which tracks the path while deserialising.
    use super::*;
    use serde_json::{json, Value};

    fn oracle<T: DeserializeOwned>(json: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(json);
        match serde_path_to_error::deserialize::<_, T>(&mut de) {
            Ok(_) => de.end().err().map(|_| ".".to_owned()),
            Err(e) => Some(e.path().to_string()),
        }
    }

    fn ours<T: DeserializeOwned>(json: &str) -> Option<String> {
        serde_json::from_str::<T>(json).err().map(|e| path_of_error(json, &e))
    }

    /// Every place in a value: the path to it as a list of keys and indices.
    fn places(value: &Value, here: Vec<Value>, out: &mut Vec<Vec<Value>>) {
        out.push(here.clone());
        match value {
            Value::Object(map) => map.iter().for_each(|(k, v)| places(v, [here.clone(), vec![json!(k)]].concat(), out)),
            Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| places(v, [here.clone(), vec![json!(i)]].concat(), out)),
            _ => {}
        }
    }

    fn at<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
        path.iter().fold(value, |v, step| match step {
            Value::String(k) => &mut v[k.as_str()],
            other => &mut v[other.as_u64().unwrap() as usize],
        })
    }

    fn mutate(below: &mut impl FnMut(usize) -> usize, value: &Value) -> Value {
        let mut out = value.clone();
        let mut all = Vec::new();
        places(value, Vec::new(), &mut all);
        let place = all[below(all.len())].clone();
        let target = at(&mut out, &place);
        let replacements = [
            json!(1),
            json!(-2.5),
            json!("x"),
            json!(true),
            json!(null),
            json!([]),
            json!([1]),
            json!({}),
            json!({"zz": 1}),
            json!(["a", 2]),
        ];
        match (below(3), &mut *target) {
            (0, Value::Object(map)) => {
                map.insert(["bogus", "kind", "é\"x"][below(3)].to_owned(), json!(1));
            }
            (1, Value::Object(map)) if !map.is_empty() => {
                let key = map.keys().nth(below(map.len())).unwrap().clone();
                map.remove(&key);
            }
            (1, Value::Array(items)) if !items.is_empty() => {
                items.pop();
            }
            _ => *target = replacements[below(replacements.len())].clone(),
        }
        out
    }

    /// Compares both on mutations of `valid`, compact and pretty-printed; returns (errors, exact).
    /// Inside the internally tagged `when` of a gate and the values of `toolKinds` the path may
    /// name the object that holds the bad value, and nothing else may differ.
    fn compare<T: DeserializeOwned>(below: &mut impl FnMut(usize) -> usize, valid: Value, rounds: usize) -> (usize, usize) {
        let (mut errors, mut exact) = (0, 0);
        for _ in 0..rounds {
            let bad = mutate(below, &valid);
            for text in [bad.to_string(), serde_json::to_string_pretty(&bad).unwrap()] {
                let (got, expected) = (ours::<T>(&text), oracle::<T>(&text));
                assert_eq!(got.is_some(), expected.is_some(), "{text}");
                let (Some(got), Some(expected)) = (got, expected) else { continue };
                errors += 1;
                if got == expected {
                    exact += 1;
                    continue;
                }
                let rest = expected.strip_prefix(got.as_str()).unwrap_or_else(|| panic!("{got} is not a prefix of {expected}: {text}"));
                let holder = rest.starts_with(".when") || (got == "toolKinds" && rest.starts_with('.'));
                assert!(holder, "{got} instead of {expected}: {text}");
            }
        }
        (errors, exact)
    }

    #[test]
    fn truncated_and_malformed_text_gets_the_tracked_path_too() {
        for text in [
            "",
            " ",
            "\n",
            "x",
            "\nx",
            "[",
            "[1,",
            "[\"a\",\n",
            "{",
            "{\"mcpAllowedTools\":",
            "{\"mcpAllowedTools\":[\"a\",",
            "{\"a\\\"b",
            "{}x",
            "{}\n\nx",
            "{\"mcpAllowedTools\":[\"\\ud800\"]}",
        ] {
            let (got, expected) = (ours::<crate::mcp::McpSettings>(text), oracle::<crate::mcp::McpSettings>(text));
            // Where the text ends inside a key the oracle names an unknown segment (`?`).
            if expected.as_deref().is_some_and(|path| path.ends_with('?')) {
                assert!(got.is_some(), "{text:?}");
            } else {
                assert_eq!(got, expected, "{text:?}");
            }
        }
    }

    #[test]
    fn the_path_read_back_from_the_text_is_the_tracked_path() {
        let mut below = crate::test_support::random_below(0x2545_f491_4f6c_dd1d);
        let mcp = json!({"mcpAllowedTools": ["a:b", "c:*"], "adminMcpAllowedTools": ["x:y"], "mcpToolsProtection": false});
        let spec = json!({
            "catalogue": "cursor",
            "defaultMode": "confirm",
            "layers": [
                {"name": "user", "kind": "user", "tools": {"terminal": {"alwaysAllow": [{"pattern": "^ls\\b"}, {"prefix": "git status"}],
                    "alwaysDeny": [{"pattern": "rm", "caseSensitive": true}], "defaultMode": "allow"}}},
                {"name": "project", "kind": "project", "trusted": false, "tools": {"mcp": {"alwaysAllow": [{"mcp": "github:*"}]}}},
            ],
            "gates": [{"when": {"kind": "runs", "program": "sudo"}, "outcome": "confirm", "reason": "sudo"},
                      {"when": {"kind": "outsideRoots", "roots": ["/w"]}, "outcome": "deny", "reason": "outsideWorkspace", "tools": ["edit_file"]}],
            "toolKinds": {"run": {"kind": "command", "shell": "posix"}},
            "presets": ["readOnlyCommands"],
        });
        let (errors, exact) = compare::<crate::mcp::McpSettings>(&mut below, mcp, 400);
        assert!(errors > 500 && exact == errors, "{exact} of {errors}");
        let (errors, exact) = compare::<Vec<String>>(&mut below, json!(["a", "b", "c"]), 100);
        assert!(errors > 100 && exact == errors, "{exact} of {errors}");
        let (errors, exact) = compare::<crate::policy::PolicySpec>(&mut below, spec, 1500);
        assert!(errors > 2000 && exact * 10 > errors * 8, "{exact} of {errors}");
    }
}
