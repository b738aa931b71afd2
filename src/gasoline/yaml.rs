//! The YAML of an allowlist file, read by yaml-rust2's event parser, with what an allowlist has no
//! use for refused by name.
//!
//! Anchors, aliases, tags, block scalars and a second document are valid YAML, but an allowlist is
//! one mapping of one list of short strings: a file that uses them was not written for this reader,
//! so loading it fails, naming the construct and where it is, and the previous list stays.

use yaml_rust2::parser::{Event as YamlEvent, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Where a token starts: 1-based line and 1-based column, counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl From<&Marker> for Position {
    fn from(mark: &Marker) -> Self {
        Position { line: mark.line(), column: mark.col() + 1 }
    }
}

/// What the document holds, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    MappingStart,
    MappingEnd,
    SequenceStart,
    SequenceEnd,
    /// A plain or quoted value, escapes resolved: `true` or `1` are their text.
    Scalar(String),
    /// Always last: the text goes on with a construct an allowlist does not use. An error, unless
    /// the events before it already are one.
    Unsupported(String),
}

/// A syntax error, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub at: Position,
    pub message: String,
}

const NOT_SUPPORTED: &str = "are not supported in an allowlist file";

/// Reads the events of `text`, a leading byte order mark aside (yaml-rust2 would take it for text).
///
/// The whole text is read or nothing is: a control character is refused before the parser runs
/// (yaml-rust2 takes a NUL for the end of the text, so a NUL after `allowed_tools:` would read as
/// no list, which allows everything, while an editor shows the list after it), and the parser
/// must end where the text does.
pub fn read(text: &str) -> Result<Vec<(Event, Position)>, Invalid> {
    let src = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some((c, at)) = first_control_character(src) {
        let message = format!("control character U+{:04X} is not allowed; only tab, line feed and carriage return are", u32::from(c));
        return Err(Invalid { at, message });
    }
    let mut parser = Parser::new_from_str(src).keep_tags(true);
    let mut events = Vec::new();
    // Where each open collection starts, so a bracket left open is reported where it opens, not at
    // the end of the file where the parser notices.
    let mut open: Vec<Position> = Vec::new();
    let mut documents = 0usize;
    loop {
        let (event, mark) = match parser.next_token() {
            Ok(next) => next,
            Err(e) => return Err(syntax_error(src, e.marker(), e.info(), open.last())),
        };
        let at = Position::from(&mark);
        let refuse = |construct: &str| Ok((Event::Unsupported(format!("{construct} {NOT_SUPPORTED}")), at));
        let next: Result<(Event, Position), Invalid> = match event {
            YamlEvent::StreamEnd if mark.index() < src.chars().count() => {
                return Err(Invalid { at, message: "the parser stopped before the end of the text".into() })
            }
            YamlEvent::StreamEnd => return Ok(events),
            YamlEvent::StreamStart | YamlEvent::DocumentEnd | YamlEvent::Nothing => continue,
            YamlEvent::DocumentStart => {
                documents += 1;
                if documents == 1 {
                    continue;
                }
                refuse("several documents (`---`)")
            }
            YamlEvent::Alias(_) => refuse("aliases (*)"),
            YamlEvent::Scalar(_, _, anchor, _) | YamlEvent::SequenceStart(anchor, _) | YamlEvent::MappingStart(anchor, _)
                if anchor != 0 =>
            {
                refuse("anchors (&)")
            }
            YamlEvent::Scalar(_, _, _, Some(_)) | YamlEvent::SequenceStart(_, Some(_)) | YamlEvent::MappingStart(_, Some(_)) => {
                refuse("tags (!)")
            }
            YamlEvent::Scalar(_, TScalarStyle::Literal | TScalarStyle::Folded, _, _) => refuse("block scalars (| and >)"),
            YamlEvent::Scalar(value, ..) => Ok((Event::Scalar(value), at)),
            YamlEvent::SequenceStart(..) => {
                open.push(at);
                Ok((Event::SequenceStart, at))
            }
            YamlEvent::MappingStart(..) => {
                open.push(at);
                Ok((Event::MappingStart, at))
            }
            YamlEvent::SequenceEnd => {
                open.pop();
                Ok((Event::SequenceEnd, at))
            }
            YamlEvent::MappingEnd => {
                open.pop();
                Ok((Event::MappingEnd, at))
            }
        };
        let (event, at) = next?;
        let stop = matches!(event, Event::Unsupported(_));
        events.push((event, at));
        if stop {
            return Ok(events);
        }
    }
}

/// The first character YAML does not allow in its text (a C0 or C1 control character other
/// than tab, line feed and carriage return, or DEL), and where it is, counted as the parser
/// counts: a line ends at a line feed, a carriage return and line feed, or a lone carriage return.
fn first_control_character(src: &str) -> Option<(char, Position)> {
    let (mut line, mut column) = (1, 1);
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => (line, column) = (line + 1, 1),
            '\r' if chars.peek() != Some(&'\n') => (line, column) = (line + 1, 1),
            '\r' | '\t' => column += 1,
            c if c.is_control() => return Some((c, Position { line, column })),
            _ => column += 1,
        }
    }
    None
}

/// The parser's error. Where the parser only noticed the problem at the end of the text, it is
/// moved to the `[` or `{` left open, or else to the end of the last line that has text, so it
/// never points past what the user wrote.
fn syntax_error(src: &str, mark: &Marker, why: &str, innermost: Option<&Position>) -> Invalid {
    let written = src.trim_end();
    let at = Position::from(mark);
    let last_line = written.lines().count();
    let past_the_end = at.line > last_line || written.chars().count() <= mark.index();
    if !past_the_end {
        return Invalid { at, message: why.to_owned() };
    }
    let opener = innermost.and_then(|open| {
        let c = written.lines().nth(open.line.checked_sub(1)?)?.chars().nth(open.column.checked_sub(1)?)?;
        matches!(c, '[' | '{').then_some((c, *open))
    });
    match opener {
        Some((c, open)) => Invalid { at: open, message: format!("`{c}` is not closed ({why})") },
        None => {
            let column = written.lines().last().map_or(0, |line| line.chars().count()) + 1;
            Invalid { at: Position { line: last_line.max(1), column }, message: why.to_owned() }
        }
    }
}

#[cfg(test)]
mod tests;
