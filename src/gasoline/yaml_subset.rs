//! The YAML that allowlist files are written in, read by hand instead of by yaml-rust2 (88 KB of
//! the engine's `.wasm` for a file this small).
//!
//! It reads block and flow mappings and lists of one-line plain and quoted values, with comments,
//! and reports them as yaml-rust2's events would, at yaml-rust2's positions, so `read_patterns`
//! reads a file as before. Anything else YAML has (anchors, tags, block scalars, values over
//! several lines, a second document…) stops it with an "is not supported" error at the construct:
//! the load fails and the previous list stays, but a file is never read differently (except that
//! a leading byte order mark is skipped, where yaml-rust2 took it for text). The tests check this
//! against yaml-rust2 on random texts.

/// Where a token starts: 1-based line and 1-based column, counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// What the document holds, in order, as a YAML parser reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    MappingStart,
    MappingEnd,
    SequenceStart,
    SequenceEnd,
    /// A plain or quoted value, escapes resolved: `true` or `1` are their text.
    Scalar(String),
    /// Always last: the text goes on with something this reader does not read. An error, unless
    /// the events before it already are one (yaml-rust2 would have found that one first).
    Unsupported(String),
}

/// A syntax error, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub at: Position,
    pub message: String,
}

/// Reads the events of `text`, a leading byte order mark aside.
pub fn read(text: &str) -> Result<Vec<(Event, Position)>, Invalid> {
    let src = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader { src, m: Mark { at: 0, line: 1, col: 0 }, events: Vec::new(), seen_brace: false };
    match reader.document() {
        Ok(()) => {}
        Err(Halt::Unsupported(at, why)) => reader.events.push((Event::Unsupported(why), at)),
        Err(Halt::Invalid(at, message)) => return Err(Invalid { at, message }),
    }
    Ok(reader.events)
}

const NOT_SUPPORTED: &str = " not supported in an allowlist file";
const TABS: &str = "tabs are not supported in an allowlist file except in quotes, in comments and at the end of a line";
const CONTINUED: &str = "values continued on the next line are not supported in an allowlist file";
const KEY_COLLECTION: &str = "keys that are lists or mappings are not supported in an allowlist file";
const NESTED: &str = "lists and mappings inside a list item or under a key are not supported in an allowlist file";
const PAIR_HERE: &str = "a `key: value` pair is not allowed here";
const AFTER_VALUE: &str = "unexpected text after the value";
const INDENTED: &str = "this line is indented more than the line before allows";
const COMMENT_SPACE: &str = "a comment needs a space before `#`";
/// How deep `[ ]` and `{ }` may nest (yaml-rust2 stops at 255).
const MAX_DEPTH: usize = 64;

/// Why reading stopped: a syntax error, or a construct this reader does not read.
enum Halt {
    Invalid(Position, String),
    Unsupported(Position, String),
}

type Step<T = ()> = Result<T, Halt>;

/// What the next line that is not blank or a comment starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    End,
    /// `---` or `...` at the start of the line.
    Marker,
    /// Content after this many spaces.
    At(usize),
}

/// Where the reader is.
#[derive(Clone, Copy)]
struct Mark {
    at: usize,
    line: usize,
    /// 0-based, in characters.
    col: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Seq,
    Map,
    /// A `key: value` pair written directly in a list, `[a: b]`: a mapping of its own.
    Pair,
}

/// What the innermost `[ ]` or `{ }` takes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Entry,
    AfterEntry,
    Key,
    AfterKey,
    Value,
    AfterValue,
}

/// An open `[` or `{`, and where its current entry's events start (a `:` may make it a pair's key).
#[derive(Clone, Copy)]
struct Frame {
    kind: Kind,
    want: Want,
    open: Position,
    entry: usize,
    entry_at: Position,
    entry_line: usize,
}

fn blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn line_end(b: u8) -> bool {
    b == b'\n' || b == b'\r' || b == 0
}

fn blank_or_end(b: u8) -> bool {
    blank(b) || line_end(b)
}

fn flow_char(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | b'{' | b'}')
}

struct Reader<'a> {
    src: &'a str,
    m: Mark,
    events: Vec<(Event, Position)>,
    /// Whether a `{` came before: yaml-rust2 then puts a `[a: b]` pair's mapping at `a`, not after the `:`.
    seen_brace: bool,
}

impl Reader<'_> {
    /// The byte `ahead` bytes on, or 0 past the end (the text has no NUL).
    fn byte(&self, ahead: usize) -> u8 {
        self.src.as_bytes().get(self.m.at + ahead).copied().unwrap_or(0)
    }

    fn pos(&self) -> Position {
        Position { line: self.m.line, column: self.m.col + 1 }
    }

    /// Moves one byte on; a column is a character, counted at its first byte.
    fn bump(&mut self) {
        if let Some(&b) = self.src.as_bytes().get(self.m.at) {
            self.m.at += 1;
            if b == b'\n' {
                self.m.line += 1;
                self.m.col = 0;
            } else if b & 0xC0 != 0x80 {
                self.m.col += 1;
            }
        }
    }

    fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    fn push(&mut self, event: Event, at: Position) {
        self.events.push((event, at));
    }

    fn invalid<T>(&self, why: &str) -> Step<T> {
        Err(Halt::Invalid(self.pos(), why.to_owned()))
    }

    fn unsupported<T>(&self, why: &str) -> Step<T> {
        Err(Halt::Unsupported(self.pos(), why.to_owned()))
    }

    /// `---` or `...` then a blank or the line's end, at the start of a line.
    fn at_marker(&self, c: u8) -> bool {
        self.m.col == 0 && self.byte(0) == c && self.byte(1) == c && self.byte(2) == c && blank_or_end(self.byte(3))
    }

    /// A `- ` list entry.
    fn at_entry(&self) -> bool {
        self.byte(0) == b'-' && blank_or_end(self.byte(1))
    }

    /// A `:` that ends a key in block context.
    fn at_colon(&self) -> bool {
        self.byte(0) == b':' && blank_or_end(self.byte(1))
    }

    /// Whether a `#` here starts a comment: YAML wants a blank (or a line start) before it.
    fn after_blank(&self) -> bool {
        self.m.at.checked_sub(1).and_then(|i| self.src.as_bytes().get(i)).is_none_or(|&b| blank(b) || b == b'\n' || b == b'\r')
    }

    /// Skips spaces, and tabs when only a comment or the line's end follows them.
    fn skip_space(&mut self) -> Step<bool> {
        let mut k = 0;
        let mut tab = None;
        while blank(self.byte(k)) {
            if self.byte(k) == b'\t' && tab.is_none() {
                tab = Some(k);
            }
            k += 1;
        }
        if let Some(tab) = tab {
            if !line_end(self.byte(k)) && self.byte(k) != b'#' {
                self.bump_n(tab);
                return self.unsupported(TABS);
            }
        }
        self.bump_n(k);
        Ok(k > 0)
    }

    fn skip_comment(&mut self) {
        if self.byte(0) == b'#' {
            while !line_end(self.byte(0)) {
                self.bump();
            }
        }
    }

    fn line_break(&mut self) -> Step {
        match (self.byte(0), self.byte(1)) {
            (b'\r', b'\n') => self.bump_n(2),
            (b'\n', _) => self.bump(),
            (b'\r', _) => return self.unsupported("a carriage return without a line feed is not supported in an allowlist file"),
            _ => {}
        }
        Ok(())
    }

    /// Skips blanks and a comment to the next line; false, stopping there, if something else comes first.
    fn finish_line(&mut self) -> Step<bool> {
        self.skip_space()?;
        if self.byte(0) == b'#' && self.after_blank() {
            self.skip_comment();
        }
        if !line_end(self.byte(0)) {
            return Ok(false);
        }
        self.line_break()?;
        Ok(true)
    }

    /// From a line's start, skips blank and comment lines and the next line's indentation.
    fn next_line(&mut self) -> Step<Line> {
        loop {
            let mut spaces = 0;
            while self.byte(spaces) == b' ' {
                spaces += 1;
            }
            let mut k = spaces;
            while blank(self.byte(k)) {
                k += 1;
            }
            let first = self.byte(k);
            if first == b'#' || line_end(first) {
                self.bump_n(k);
                self.skip_comment();
                if self.m.at >= self.src.len() {
                    return Ok(Line::End);
                }
                self.line_break()?;
                continue;
            }
            self.bump_n(spaces);
            if k > spaces {
                return self.unsupported(TABS);
            }
            if self.at_marker(b'-') || self.at_marker(b'.') {
                return Ok(Line::Marker);
            }
            return Ok(Line::At(spaces));
        }
    }

    fn document(&mut self) -> Step {
        if let Some(nul) = self.src.bytes().position(|b| b == 0) {
            self.bump_n(nul);
            return self.unsupported("NUL characters are not supported in an allowlist file");
        }
        let mut line = self.next_line()?;
        if line == Line::At(0) && self.byte(0) == b'%' {
            return self.unsupported("directives (%) are not supported in an allowlist file");
        }
        if line == Line::Marker && self.byte(0) == b'-' {
            self.bump_n(3);
            if !self.finish_line()? {
                return self.unsupported("text on the `---` line is not supported in an allowlist file");
            }
            line = self.next_line()?;
        }
        match line {
            Line::End | Line::Marker => self.end_of_document(line),
            Line::At(indent) => self.top(indent),
        }
    }

    /// After the document's value: only comments, and one `...` line.
    fn end_of_document(&mut self, mut line: Line) -> Step {
        if line == Line::Marker && self.byte(0) == b'.' {
            self.bump_n(3);
            if !self.finish_line()? {
                return self.invalid("only a comment may follow `...` on its line");
            }
            line = self.next_line()?;
        }
        match line {
            Line::End => Ok(()),
            Line::Marker if self.byte(0) == b'-' => self.unsupported("a second document (`---`) is not supported in an allowlist file"),
            _ => self.unsupported("text after the end of the document is not supported in an allowlist file"),
        }
    }

    /// The document's value: a mapping (what an allowlist is), a list or a value.
    fn top(&mut self, indent: usize) -> Step {
        let at = self.pos();
        match self.byte(0) {
            b'-' if blank_or_end(self.byte(1)) => {
                self.push(Event::SequenceStart, at);
                self.unsupported(NESTED)
            }
            b'[' | b'{' => {
                let one_line = self.whole_flow(-1)?;
                // A `:` after it would make it a key: nothing is reported before that is known.
                if let Err(halt) = self.skip_space() {
                    self.events.clear();
                    return Err(halt);
                }
                if self.at_colon() {
                    if !one_line {
                        return self.invalid(PAIR_HERE);
                    }
                    self.events.insert(0, (Event::MappingStart, self.pos()));
                    return self.unsupported(KEY_COLLECTION);
                }
                self.after_top_value()
            }
            _ => {
                let (value, at, _) = self.scalar(false)?;
                self.skip_space()?;
                if self.at_colon() {
                    return self.block_mapping(indent, value, at);
                }
                self.push(Event::Scalar(value), at);
                self.after_top_value()
            }
        }
    }

    /// yaml-rust2 ends the document at anything after a top-level value and ignores the rest: not read here.
    fn after_top_value(&mut self) -> Step {
        if !self.finish_line()? {
            return self.unsupported("text after the end of the document is not supported in an allowlist file");
        }
        let line = self.next_line()?;
        self.end_of_document(line)
    }

    /// A block mapping whose keys start at column `indent`, from the first key's `:`.
    fn block_mapping(&mut self, indent: usize, mut key: String, mut key_at: Position) -> Step {
        self.push(Event::MappingStart, self.pos());
        let line = loop {
            self.push(Event::Scalar(key), key_at);
            self.bump();
            match self.block_value(indent)? {
                Line::At(n) if n == indent => (key, key_at) = self.block_key()?,
                line => break line,
            }
        };
        self.push(Event::MappingEnd, self.pos());
        match line {
            // yaml-rust2 ends the document there and ignores the rest.
            Line::At(_) => self.unsupported("a line indented less than the first key is not supported in an allowlist file"),
            _ => self.end_of_document(line),
        }
    }

    /// A key after the first, up to its `:`.
    fn block_key(&mut self) -> Step<(String, Position)> {
        let at = self.pos();
        match self.byte(0) {
            b'-' if blank_or_end(self.byte(1)) => self.invalid("a list item where a key was expected"),
            b'[' | b'{' => {
                self.push(if self.byte(0) == b'[' { Event::SequenceStart } else { Event::MappingStart }, at);
                self.unsupported(KEY_COLLECTION)
            }
            _ => {
                let (key, at, _) = self.scalar(false)?;
                self.skip_space()?;
                if !self.at_colon() {
                    return self.invalid("expected `:` after the key");
                }
                Ok((key, at))
            }
        }
    }

    /// The value of a key at column `indent`, from after its `:`; returns the line after it.
    fn block_value(&mut self, indent: usize) -> Step<Line> {
        self.skip_space()?;
        if !self.finish_line()? {
            return self.value_here(indent, true);
        }
        let line = self.next_line()?;
        match line {
            Line::At(n) if n >= indent && self.at_entry() => self.block_sequence(n, indent),
            Line::At(n) if n > indent => self.value_here(indent, false),
            _ => {
                self.push(Event::Scalar(String::new()), self.pos());
                Ok(line)
            }
        }
    }

    /// A value written here, on its key's line or on a more indented line below.
    fn value_here(&mut self, indent: usize, same_line: bool) -> Step<Line> {
        if self.at_entry() {
            return self.invalid("a list cannot start on the line of its key");
        }
        let plain = self.block_node(indent, !same_line)?;
        match self.next_line()? {
            Line::At(n) if n > indent && plain => self.unsupported(CONTINUED),
            Line::At(n) if n > indent => self.invalid(INDENTED),
            line => Ok(line),
        }
    }

    /// `- ` items at column `indent`, under a key at column `parent`; returns the line after them.
    fn block_sequence(&mut self, indent: usize, parent: usize) -> Step<Line> {
        self.push(Event::SequenceStart, self.pos());
        loop {
            let dash = self.pos();
            self.bump();
            self.skip_space()?;
            let plain = match self.byte(0) {
                b'#' | b'\n' | b'\r' | 0 => {
                    return Err(Halt::Unsupported(
                        dash,
                        "a `-` without its value on the same line is not supported in an allowlist file".to_owned(),
                    ))
                }
                b'-' if blank_or_end(self.byte(1)) => {
                    self.push(Event::SequenceStart, self.pos());
                    return self.unsupported(NESTED);
                }
                _ => self.block_node(indent, true)?,
            };
            match self.next_line()? {
                Line::At(n) if n == indent && self.at_entry() => {}
                Line::At(n) if n > indent && plain => return self.unsupported(CONTINUED),
                Line::At(n) if n > indent => return self.invalid(INDENTED),
                Line::At(n) if n > parent => return self.invalid("this line's indentation matches neither the `-` items nor the keys"),
                line => {
                    self.push(Event::SequenceEnd, self.pos());
                    return Ok(line);
                }
            }
        }
    }

    /// A list item or a key's value (a list or mapping in brackets, or a value) and the rest of
    /// its line; returns whether it is a plain value. A `key: value` after it, where `pair` allows
    /// one, is a mapping: its start is reported, at the `:`, as yaml-rust2 reports it.
    fn block_node(&mut self, indent: usize, pair: bool) -> Step<bool> {
        let first = self.events.len();
        let (scalar, one_line) =
            if matches!(self.byte(0), b'[' | b'{') { (None, self.whole_flow(indent as isize)?) } else { (Some(self.scalar(false)?), true) };
        // Nothing is reported until it is known whether a `:` follows.
        if let Err(halt) = self.skip_space() {
            self.events.truncate(first);
            return Err(halt);
        }
        if self.at_colon() {
            if !pair || !one_line {
                return self.invalid(PAIR_HERE);
            }
            self.events.truncate(first);
            self.push(Event::MappingStart, self.pos());
            return self.unsupported(NESTED);
        }
        let plain = match scalar {
            Some((value, at, plain)) => {
                self.push(Event::Scalar(value), at);
                plain
            }
            None => false,
        };
        if !self.finish_line()? {
            return self.invalid(AFTER_VALUE);
        }
        Ok(plain)
    }

    /// A plain or quoted value: its text, where it starts, and whether it is plain.
    fn scalar(&mut self, flow: bool) -> Step<(String, Position, bool)> {
        let at = self.pos();
        let (c, next) = (self.byte(0), self.byte(1));
        let construct = match c {
            b'"' | b'\'' => return Ok((self.quoted(c)?, at, false)),
            b'&' => "anchors (&) are",
            b'*' => "aliases (*) are",
            b'!' => "tags (!) are",
            b'|' | b'>' if !flow => "block scalars (| and >) are",
            b'%' | b'@' | b'`' | b'|' | b'>' => {
                return Err(Halt::Unsupported(at, format!("a plain value beginning with `{}` is{NOT_SUPPORTED}; quote it", char::from(c))))
            }
            b'?' if blank_or_end(next) => "complex keys (?) are",
            b':' if blank_or_end(next) || flow && flow_char(next) => "empty keys are",
            b'-' if blank_or_end(next) => return self.invalid("`- ` list items are not allowed inside `[ ]` or `{ }`"),
            b'-' if flow && flow_char(next) => return self.invalid("a value cannot start with `-` followed by `,`, `[`, `]`, `{` or `}`"),
            b',' | b'[' | b']' | b'{' | b'}' | b'#' => return Err(Halt::Invalid(at, format!("unexpected `{}`", char::from(c)))),
            _ => return Ok((self.plain(flow)?, at, true)),
        };
        Err(Halt::Unsupported(at, format!("{construct}{NOT_SUPPORTED}")))
    }

    /// A plain value on this line: it ends at ` #`, at `: ` (in `[ ]` and `{ }` also at `,[]{}` and
    /// `:` before them) and at the line's end; blanks before its end are not part of it.
    fn plain(&mut self, flow: bool) -> Step<String> {
        let start = self.m.at;
        let mut end = start;
        loop {
            let c = self.byte(0);
            if line_end(c) || (flow && flow_char(c)) {
                break;
            }
            if c == b':' && (blank_or_end(self.byte(1)) || flow && flow_char(self.byte(1))) {
                break;
            }
            if blank(c) {
                let mut k = 0;
                let mut tab = None;
                while blank(self.byte(k)) {
                    if self.byte(k) == b'\t' && tab.is_none() {
                        tab = Some(k);
                    }
                    k += 1;
                }
                let (d, e) = (self.byte(k), self.byte(k + 1));
                if line_end(d) || d == b'#' || flow && flow_char(d) || d == b':' && (blank_or_end(e) || flow && flow_char(e)) {
                    break;
                }
                if let Some(tab) = tab {
                    self.bump_n(tab);
                    return self.unsupported(TABS);
                }
                self.bump_n(k);
                if flow && d == b'-' && flow_char(e) {
                    return self.invalid("a word cannot start with `-` followed by `,`, `[`, `]`, `{` or `}`");
                }
                continue;
            }
            self.bump();
            end = self.m.at;
        }
        // A blank run before the end stays unread: the reader is at `end`.
        Ok(self.src.get(start..end).unwrap_or_default().to_owned())
    }

    /// A `"double"` or `'single'` quoted value on one line, escapes resolved.
    fn quoted(&mut self, quote: u8) -> Step<String> {
        let open = self.pos();
        self.bump();
        let mut out = String::new();
        loop {
            let c = self.byte(0);
            if c == 0 {
                return Err(Halt::Invalid(open, "the quoted value is not closed".to_owned()));
            }
            if c == b'\n' || c == b'\r' {
                return Err(Halt::Unsupported(
                    open,
                    "quoted values over several lines are not supported in an allowlist file (or is the closing quote missing?)".to_owned(),
                ));
            }
            if c == quote {
                self.bump();
                if quote == b'\'' && self.byte(0) == b'\'' {
                    out.push('\'');
                    self.bump();
                    continue;
                }
                return Ok(out);
            }
            if blank(c) {
                let mut k = 0;
                while blank(self.byte(k)) {
                    k += 1;
                }
                if line_end(self.byte(k)) {
                    // Blanks before a line break fold into the next line: it goes on there or is unclosed.
                    self.bump_n(k);
                    continue;
                }
            }
            if c == b'\\' && quote == b'"' {
                out.push(self.escape()?);
                continue;
            }
            let Some(ch) = self.src.get(self.m.at..).and_then(|rest| rest.chars().next()) else {
                return Err(Halt::Invalid(open, "the quoted value is not closed".to_owned()));
            };
            out.push(ch);
            self.bump_n(ch.len_utf8());
        }
    }

    /// The character a `\` escape in a double-quoted value stands for (YAML 1.2's escapes).
    fn escape(&mut self) -> Step<char> {
        let digits = match self.byte(1) {
            b'x' => 2,
            b'u' => 4,
            b'U' => 8,
            b'\n' | b'\r' => {
                return self.unsupported("quoted values over several lines are not supported in an allowlist file");
            }
            e => {
                let c = match e {
                    b'0' => '\0',
                    b'a' => '\x07',
                    b'b' => '\x08',
                    b't' | b'\t' => '\t',
                    b'n' => '\n',
                    b'v' => '\x0b',
                    b'f' => '\x0c',
                    b'r' => '\r',
                    b'e' => '\x1b',
                    b' ' => ' ',
                    b'"' => '"',
                    b'/' => '/',
                    b'\\' => '\\',
                    b'N' => '\u{85}',
                    b'_' => '\u{a0}',
                    b'L' => '\u{2028}',
                    b'P' => '\u{2029}',
                    _ => return self.invalid("unknown escape after `\\` in a double-quoted value"),
                };
                self.bump_n(2);
                return Ok(c);
            }
        };
        let mut code = 0u32;
        for k in 0..digits {
            let Some(digit) = char::from(self.byte(2 + k)).to_digit(16) else {
                return self.invalid("expected hexadecimal digits after `\\x`, `\\u` or `\\U`");
            };
            code = code << 4 | digit;
        }
        let Some(c) = char::from_u32(code) else {
            return self.invalid("the escape is not a Unicode character");
        };
        self.bump_n(2 + digits);
        Ok(c)
    }

    /// Where a plain value that ended at a line's end goes on, inside `[ ]` or `{ }`: how many bytes on.
    fn continued_in_flow(&self) -> Option<usize> {
        let mut k = 0;
        let mut line_start = None;
        loop {
            match self.byte(k) {
                b' ' | b'\t' => {}
                b'\n' | b'\r' => line_start = Some(k + 1),
                _ => break,
            }
            k += 1;
        }
        let (d, e) = (self.byte(k), self.byte(k + 1));
        let marker = line_start == Some(k)
            && (d == b'-' || d == b'.')
            && self.byte(k + 1) == d
            && self.byte(k + 2) == d
            && blank_or_end(self.byte(k + 3));
        let ends = d == 0 || d == b'#' || flow_char(d) || d == b':' && (blank_or_end(e) || flow_char(e)) || marker;
        line_start.filter(|_| !ends).map(|_| k)
    }

    /// Skips blanks, line breaks and comments between tokens inside `[ ]` or `{ }`.
    fn flow_space(&mut self, block: isize) -> Step {
        loop {
            match self.byte(0) {
                b' ' => self.bump(),
                // yaml-rust2's rules for tabs inside an indented block are not worth following.
                b'\t' if block >= 0 => {
                    self.skip_space()?;
                }
                b'\t' => self.bump(),
                b'\n' | b'\r' => self.line_break()?,
                b'#' => self.skip_comment(),
                _ => return Ok(()),
            }
        }
    }

    /// After `[`, `{`, `,`, `]` or `}`, yaml-rust2 wants a blank before a comment.
    fn no_comment_here(&self) -> Step {
        if self.byte(0) == b'#' {
            return self.invalid(COMMENT_SPACE);
        }
        Ok(())
    }

    fn open(&mut self, stack: &mut Vec<Frame>) -> Step {
        let at = self.pos();
        if stack.len() >= MAX_DEPTH {
            return self.unsupported("lists and mappings nested more than 64 deep are not supported in an allowlist file");
        }
        let map = self.byte(0) == b'{';
        self.seen_brace |= map;
        self.push(if map { Event::MappingStart } else { Event::SequenceStart }, at);
        let (kind, want) = if map { (Kind::Map, Want::Key) } else { (Kind::Seq, Want::Entry) };
        stack.push(Frame { kind, want, open: at, entry: 0, entry_at: at, entry_line: 0 });
        self.bump();
        self.no_comment_here()
    }

    /// A `[ ]` or `{ }` collection inside a block at column `block` (-1 at the top), from its
    /// opening bracket; returns whether it closes on the line it opens on.
    fn flow(&mut self, block: isize) -> Step<bool> {
        let first_line = self.m.line;
        // yaml-rust2 wants tokens at least at `block + 1`, or at `block` once a plain value was read.
        let mut min_col = block + 1;
        // Right after a quoted value or (on its line) a closing bracket, `:` needs no blank after it.
        let (mut after_quote, mut close_line) = (false, None);
        let mut stack = Vec::new();
        self.open(&mut stack)?;
        while let Some(&top) = stack.last() {
            self.flow_space(block)?;
            let (c, next) = (self.byte(0), self.byte(1));
            if c == 0 {
                return Err(Halt::Invalid(top.open, format!("`{}` is not closed", if top.kind == Kind::Map { '{' } else { '[' })));
            }
            if self.at_marker(b'-') || self.at_marker(b'.') {
                return self.invalid("a document marker inside `[ ]` or `{ }`");
            }
            if (self.m.col as isize) < min_col {
                return self.invalid("this line is indented less than the `[ ]` or `{ }` it is in allows");
            }
            let colon = c == b':' && (blank_or_end(next) || flow_char(next) || after_quote || close_line == Some(self.m.line));
            (after_quote, close_line) = (false, None);
            let set = |stack: &mut Vec<Frame>, want| {
                if let Some(top) = stack.last_mut() {
                    top.want = want;
                }
            };
            match (top.want, c) {
                (Want::Value, b',' | b'}' | b']') => {
                    self.push(Event::Scalar(String::new()), self.pos());
                    set(&mut stack, Want::AfterValue);
                }
                (Want::AfterKey, b',' | b'}') => {
                    self.push(Event::Scalar(String::new()), self.pos());
                    set(&mut stack, Want::AfterValue);
                }
                (Want::AfterValue, b',' | b']') if top.kind == Kind::Pair => {
                    self.push(Event::MappingEnd, self.pos());
                    stack.pop();
                }
                (Want::AfterEntry, b',') | (Want::AfterValue, b',') => {
                    self.bump();
                    set(&mut stack, if top.kind == Kind::Seq { Want::Entry } else { Want::Key });
                    self.no_comment_here()?;
                }
                (Want::Entry | Want::AfterEntry, b']') | (Want::Key | Want::AfterValue, b'}') if c == b']' || top.kind == Kind::Map => {
                    self.push(if c == b']' { Event::SequenceEnd } else { Event::MappingEnd }, self.pos());
                    self.bump();
                    stack.pop();
                    self.no_comment_here()?;
                    close_line = Some(self.m.line);
                }
                (Want::AfterKey, b':') if colon => {
                    self.bump();
                    set(&mut stack, Want::Value);
                    self.after_colon()?;
                }
                (Want::AfterEntry, b':') if colon => {
                    if self.m.line != top.entry_line && !self.seen_brace {
                        return self.invalid("inside `[ ]`, a key's `:` must be on the key's line");
                    }
                    self.bump();
                    let at = if self.seen_brace { top.entry_at } else { self.pos() };
                    self.events.insert(top.entry.min(self.events.len()), (Event::MappingStart, at));
                    stack.push(Frame { kind: Kind::Pair, want: Want::Value, ..top });
                    self.after_colon()?;
                }
                (Want::Entry | Want::Key | Want::Value, _) => {
                    let after = match top.want {
                        Want::Entry => Want::AfterEntry,
                        Want::Key => Want::AfterKey,
                        _ => Want::AfterValue,
                    };
                    set(&mut stack, after);
                    if top.want == Want::Entry {
                        if let Some(top) = stack.last_mut() {
                            (top.entry, top.entry_at, top.entry_line) = (self.events.len(), self.pos(), self.m.line);
                        }
                    }
                    if colon {
                        return if top.want == Want::Value {
                            self.invalid("unexpected `:`")
                        } else {
                            self.unsupported("empty keys are not supported in an allowlist file")
                        };
                    }
                    if c == b'[' || c == b'{' {
                        self.open(&mut stack)?;
                        continue;
                    }
                    if c == b',' || c == b']' || c == b'}' {
                        return self.invalid(&format!("unexpected `{}`", char::from(c)));
                    }
                    let quoted = c == b'"' || c == b'\'';
                    if !quoted && (self.m.col as isize) <= block {
                        return self.invalid("this line is indented less than the `[ ]` or `{ }` it is in allows");
                    }
                    if !quoted {
                        min_col = min_col.min(block);
                    }
                    let (value, at, _) = self.scalar(true)?;
                    self.push(Event::Scalar(value), at);
                    if quoted {
                        self.after_quoted()?;
                        after_quote = true;
                    } else if let Some(k) = self.continued_in_flow() {
                        self.bump_n(k);
                        return self.unsupported(CONTINUED);
                    }
                }
                _ => {
                    return self.invalid(match top.kind {
                        Kind::Seq | Kind::Pair => "expected `,` or `]`",
                        Kind::Map if top.want == Want::AfterKey => "expected `:`, `,` or `}`",
                        Kind::Map => "expected `,` or `}`",
                    })
                }
            }
        }
        Ok(self.m.line == first_line)
    }

    /// A `[ ]` or `{ }` collection, or none of its events if it stops at something unsupported:
    /// its start would not be what yaml-rust2 reports if a `:` after it makes it a key.
    fn whole_flow(&mut self, block: isize) -> Step<bool> {
        let first = self.events.len();
        let read = self.flow(block);
        if let Err(Halt::Unsupported(..)) = read {
            self.events.truncate(first);
        }
        read
    }

    /// After a `:` inside `[ ]` or `{ }`.
    fn after_colon(&mut self) -> Step {
        if self.byte(0) == b'#' {
            return self.unsupported("a comment right after `:` is not supported in an allowlist file");
        }
        if self.byte(0) == b'\t' {
            let mut k = 0;
            while self.byte(k) == b'\t' {
                k += 1;
            }
            let d = self.byte(k);
            if d == b'-' || d.is_ascii_alphanumeric() || d == b'_' {
                return self.invalid("`:` must be followed by a space");
            }
        }
        Ok(())
    }

    /// After a quoted value inside `[ ]` or `{ }`: only `,`, `]`, `}`, `:`, a comment or the line's end.
    fn after_quoted(&mut self) -> Step {
        let spaced = self.skip_space()?;
        match self.byte(0) {
            b'#' if !spaced => self.invalid(COMMENT_SPACE),
            b',' | b']' | b'}' | b':' | b'#' => Ok(()),
            c if line_end(c) => Ok(()),
            _ => self.invalid(AFTER_VALUE),
        }
    }
}

// The oracle, yaml-rust2, is a native-only dev-dependency.
#[cfg(test)]
#[cfg(not(target_arch = "wasm32"))]
mod tests;
