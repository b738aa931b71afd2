//! JSON with comments and trailing commas, the text of Zed's, VS Code's, Cursor's, Gemini CLI's
//! and Claude Code's settings files.
//!
//! The comments and trailing commas are blanked to spaces and the rest is read by the same
//! serde_json as every other input, instead of by a second JSON parser: that parser was 3% of the
//! engine's `.wasm` (gzipped). Blanking replaces byte for byte and keeps every line break, so serde_json's
//! line and column still point into the text the user wrote.

use serde_json::{Map, Value};

/// Why a settings text could not be read, and where (1-based; the column counts characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsoncError {
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl std::fmt::Display for JsoncError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

impl std::error::Error for JsoncError {}

/// Reads a settings text. A text with no value at all (empty, or only comments) or `null` is an
/// empty object, as an editor treats a settings file it has just created.
pub fn parse(text: &str) -> Result<Value, JsoncError> {
    let json = blank_comments_and_trailing_commas(text)?;
    if json.bytes().all(|b| b.is_ascii_whitespace()) {
        return Ok(Value::Object(Map::new()));
    }
    let value: Value = serde_json::from_str(&json).map_err(|e| {
        let message = e.to_string();
        // serde_json appends the position to its message; it is reported in its own fields.
        let message = match message.rfind(" at line ") {
            Some(at) => message.get(..at).unwrap_or(&message).to_owned(),
            None => message,
        };
        error_at(text, e.line(), e.column(), message)
    })?;
    Ok(if value.is_null() { Value::Object(Map::new()) } else { value })
}

/// The error at serde_json's position (line, then 1-based byte column), with the column counted
/// in characters of the user's line.
fn error_at(text: &str, line: usize, byte_column: usize, message: String) -> JsoncError {
    let line_text = text.split('\n').nth(line.saturating_sub(1)).unwrap_or("");
    let before = byte_column.saturating_sub(1).min(line_text.len());
    let chars = line_text.char_indices().take_while(|(at, _)| *at < before).count();
    JsoncError { message, line: line.max(1), column: chars + 1 }
}

/// The text with each comment, each trailing comma and a leading byte order mark replaced by
/// spaces (line breaks kept). An unterminated block comment is an error where it starts.
fn blank_comments_and_trailing_commas(text: &str) -> Result<String, JsoncError> {
    let mut bytes = text.as_bytes().to_vec();
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.iter_mut().take(3).for_each(|b| *b = b' ');
    }
    // The last byte outside strings and comments that is not white space, and where it is.
    let mut last: Option<(u8, usize)> = None;
    let mut previous_before_comma: Option<u8> = None;
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => {
                at = end_of_string(&bytes, at);
                last = Some((b'"', at.saturating_sub(1)));
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                let end = bytes.iter().skip(at).position(|&c| c == b'\n' || c == b'\r').map_or(bytes.len(), |n| at + n);
                blank(&mut bytes, at, end);
                at = end;
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let Some(length) = bytes.get(at + 2..).and_then(|rest| rest.windows(2).position(|w| w == b"*/")) else {
                    let (line, column) = position_of(text, at);
                    return Err(JsoncError { message: "unterminated block comment".to_owned(), line, column });
                };
                let end = at + 2 + length + 2;
                blank(&mut bytes, at, end);
                at = end;
                continue;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            b']' | b'}' => {
                // A comma right after a value and right before the bracket is a trailing comma.
                if let (Some((b',', comma)), Some(before)) = (last, previous_before_comma) {
                    if !matches!(before, b'[' | b'{' | b',' | b':') {
                        blank(&mut bytes, comma, comma + 1);
                    }
                }
                previous_before_comma = None;
                last = Some((b, at));
            }
            _ => {
                if b == b',' {
                    previous_before_comma = last.map(|(c, _)| c);
                }
                last = Some((b, at));
            }
        }
        at += 1;
    }
    // Only ASCII bytes were replaced, each by a space, at ASCII positions or over whole comments.
    String::from_utf8(bytes).map_err(|_| JsoncError { message: "the text is not UTF-8".to_owned(), line: 1, column: 1 })
}

/// The index just past the string starting at `start` (its closing quote), or the end of the
/// text when it is unterminated (serde_json then says so).
fn end_of_string(bytes: &[u8], start: usize) -> usize {
    let mut at = start + 1;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Replaces `bytes[from..to]` by spaces, keeping line breaks.
fn blank(bytes: &mut [u8], from: usize, to: usize) {
    for b in bytes.iter_mut().take(to).skip(from) {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// The 1-based line and character column of byte `at`.
fn position_of(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    (before.matches('\n').count() + 1, before.get(line_start..).map_or(0, |l| l.chars().count()) + 1)
}

// The oracle, jsonc-parser, is a native-only dev-dependency.
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests;
