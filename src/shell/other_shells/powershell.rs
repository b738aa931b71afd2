//! PowerShell's command lines: its words, with `` ` `` escapes, `$(…)`/`@(…)` subexpressions,
//! splatting and typographic quotes and dashes it reads as ASCII ones, its call operator `&`,
//! and the commands that run text (`iex`, `Start-Process`…).
//!
//! Covered: `;`, `|`, newlines, `&&`, `||`, trailing `&`, `` ` `` continuations, comments;
//! `'…'` (`''`), `"…"` with `` ` `` escapes; the call operator `&`; `$var`, `$(…)`, `@(…)`,
//! `(…)`, `@splat` (hazards; the code inside is analysed); `>`, `>>`, `2>`, `*>`, `2>&1`,
//! `> $null`. Not vouched: `{…}` script blocks, `@{…}`, here-strings, `<#…#>`, `--%`, `<`,
//! keywords, statements that are expressions (`$x = …`, a quoted or `[type]` head),
//! typographic quotes, dashes and spaces (PowerShell reads them as `'`, `"`, `-`, blanks).

use super::{is_blank, Analyzer, Sep, SeparatorAhead};
use crate::shell::hazards::{Hazard, HazardKind};
use crate::shell::word::{is_name_char, Word};
use crate::shell::Context;

const PS_KEYWORDS: [&str; 35] = [
    "if",
    "elseif",
    "else",
    "switch",
    "foreach",
    "for",
    "while",
    "do",
    "until",
    "function",
    "filter",
    "workflow",
    "param",
    "begin",
    "process",
    "end",
    "try",
    "catch",
    "finally",
    "trap",
    "throw",
    "return",
    "break",
    "continue",
    "exit",
    "class",
    "enum",
    "using",
    "data",
    "dynamicparam",
    "configuration",
    "parallel",
    "sequence",
    "inlinescript",
    "hidden",
];

/// PowerShell commands that run text or other commands, or redefine what a name runs.
const PS_EXECUTING: [&str; 17] = [
    "iex",
    "invoke-expression",
    "icm",
    "invoke-command",
    "start-process",
    "saps",
    "start",
    "start-job",
    "sajb",
    "invoke-item",
    "ii",
    "add-type",
    "set-alias",
    "sal",
    "new-alias",
    "nal",
    "import-module",
];

fn is_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}')
}

fn is_double_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201C}' | '\u{201D}' | '\u{201E}')
}

fn is_typographic_dash(c: char) -> bool {
    matches!(c, '\u{2013}' | '\u{2014}' | '\u{2015}')
}

/// A PowerShell separator starting at `c` (followed by `next`), if any. `command_started` tells
/// its trailing `&` (run in the background) from its call operator.
pub(super) fn separator(c: char, next: Option<char>, command_started: bool) -> Option<SeparatorAhead> {
    match (c, next) {
        (';', _) => Some((1, Sep::Sequence, None)),
        ('&', Some('&')) | ('|', Some('|')) => Some((2, Sep::AndOr, None)),
        ('|', _) => Some((1, Sep::Pipe, None)),
        ('&', next) if command_started => {
            let glued = next.is_some_and(|n| !is_blank(n) && !matches!(n, '\n' | ';' | '|' | ')' | '}'));
            Some((1, Sep::Sequence, glued.then_some("PowerShell does not allow '&' inside a command")))
        }
        _ => None,
    }
}

impl Analyzer<'_> {
    pub(super) fn ps_word(&mut self) -> Word {
        let start = self.input.offset();
        let mut word = Word::at(start);
        if self.input.ahead("--%") {
            // Stop-parsing: the rest of the line goes to the program as it is.
            self.distrust("PowerShell's stop-parsing token '--%' is not analysed");
            while self.input.peek().is_some_and(|c| c != '\n' && c != '|') {
                if let Some(c) = self.input.bump() {
                    self.push_plain(&mut word, c);
                }
            }
            word.end = self.input.offset();
            return word;
        }
        while let Some(c) = self.input.peek() {
            let at_start = self.input.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '|' | '&' | ')' | '}' | '<' | '>') {
                break;
            }
            if c.is_whitespace() && !c.is_ascii() {
                break;
            }
            if c == '`' && matches!(self.input.peek_at(1), Some('\n' | '\r')) {
                break;
            }
            match c {
                c if is_single_quote(c) => {
                    if c != '\'' {
                        self.distrust("PowerShell reads a typographic quote as a quote");
                    }
                    self.input.bump();
                    self.doubled_quote_string(&mut word, is_single_quote);
                }
                c if is_double_quote(c) => {
                    if c != '"' {
                        self.distrust("PowerShell reads a typographic quote as a quote");
                    }
                    self.input.bump();
                    word.quoted = true;
                    self.ps_double(&mut word);
                }
                '`' => {
                    self.input.bump();
                    self.ps_backtick(&mut word);
                }
                '$' => self.ps_dollar(&mut word, false),
                '@' if at_start => self.ps_at(&mut word),
                '(' => {
                    if !at_start {
                        self.distrust("a '(' inside a PowerShell word is not analysed");
                    }
                    let at = self.input.offset();
                    self.input.bump();
                    self.substitution(&mut word, "subexpression", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("PowerShell script blocks are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                c if is_typographic_dash(c) => {
                    self.distrust("PowerShell reads a typographic dash as '-'");
                    self.input.bump();
                    word.text.push('-');
                }
                _ => {
                    self.input.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.input.offset();
        word
    }

    /// A backtick escape (after the backtick), outside or inside double quotes.
    fn ps_backtick(&mut self, word: &mut Word) {
        let decoded = match self.input.bump() {
            None => return,
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('0') => '\0',
            Some('a') => '\u{7}',
            Some('b') => '\u{8}',
            Some('e') => '\u{1b}',
            Some('f') => '\u{c}',
            Some('v') => '\u{b}',
            Some(c) => c,
        };
        if decoded.is_control() && !matches!(decoded, '\t' | '\n') {
            self.distrust("a backtick escape produces a control character");
        }
        word.text.push(decoded);
    }

    fn ps_double(&mut self, word: &mut Word) {
        loop {
            match self.input.peek() {
                None => {
                    self.distrust("a double quote is never closed");
                    return;
                }
                Some(c) if is_double_quote(c) => {
                    self.input.bump();
                    if self.input.peek().is_some_and(is_double_quote) {
                        self.input.bump();
                        word.text.push('"');
                    } else {
                        return;
                    }
                }
                Some('`') => {
                    self.input.bump();
                    self.ps_backtick(word);
                }
                Some('$') => self.ps_dollar(word, true),
                Some(c) => {
                    self.input.bump();
                    self.push_plain(word, c);
                }
            }
        }
    }

    fn ps_dollar(&mut self, word: &mut Word, in_quotes: bool) {
        let start = self.input.offset();
        match self.input.peek_at(1) {
            Some('(') => {
                self.input.pos += 2;
                self.substitution(word, "subexpression", start, Context::CommandSubstitution, ')');
            }
            Some('{') => {
                self.input.pos += 2;
                while self.input.peek().is_some_and(|c| c != '}') {
                    self.input.bump();
                }
                if self.input.bump().is_none() {
                    self.distrust("a '${' is never closed");
                }
                self.input.record(word, "variable", start);
            }
            Some(c) if is_name_char(c) || matches!(c, '?' | '^' | '$') => {
                self.input.pos += 2;
                if is_name_char(c) {
                    while self.input.peek().is_some_and(|c| is_name_char(c) || c == ':' || c == '?') {
                        self.input.bump();
                    }
                }
                if !in_quotes && matches!(self.input.peek(), Some('.' | '[')) {
                    self.distrust("PowerShell member access and indexing are not analysed");
                }
                self.input.record(word, "variable", start);
            }
            _ => {
                self.input.bump();
                word.text.push('$');
            }
        }
    }

    /// `@(…)`, `@{…}`, `@'…'@`, `@"…"@` and `@splat` at the start of a word.
    fn ps_at(&mut self, word: &mut Word) {
        let start = self.input.offset();
        match self.input.peek_at(1) {
            Some('(') => {
                self.input.pos += 2;
                self.substitution(word, "array subexpression", start, Context::CommandSubstitution, ')');
            }
            Some('{') => {
                self.distrust("PowerShell hashtables are not analysed");
                self.input.bump();
                self.block_body(word, Context::Group);
            }
            Some(q) if is_single_quote(q) || is_double_quote(q) => {
                self.distrust("PowerShell here-strings are not analysed");
                self.input.pos += 2;
                loop {
                    match self.input.bump() {
                        None => break,
                        Some('\n') if self.input.peek() == Some(q) && self.input.peek_at(1) == Some('@') => {
                            self.input.pos += 2;
                            break;
                        }
                        Some(_) => {}
                    }
                }
                self.input.record(word, "here-string", start);
            }
            Some(c) if is_name_char(c) => {
                self.input.bump();
                while self.input.peek().is_some_and(is_name_char) {
                    self.input.bump();
                }
                self.input.record(word, "splatting", start);
            }
            _ => {
                self.input.bump();
                word.text.push('@');
            }
        }
    }

    /// PowerShell's command word: keywords, expression statements, commands that run text or
    /// set the environment.
    pub(super) fn ps_check_head(&mut self, head: &Word, raw: &str, call_operator: bool, args: &[String], hazards: &mut Vec<Hazard>) {
        let lower = head.text.to_ascii_lowercase();
        let first = raw.chars().next();
        if !head.quoted && PS_KEYWORDS.contains(&lower.as_str()) {
            self.distrust(&format!("the PowerShell keyword '{}' is not analysed", head.text));
        }
        // After the call operator `&` any of these names the command to call.
        let expression = !call_operator
            && match first {
                Some('$' | '(' | '@' | '[' | '0'..='9') => true,
                Some(c) => is_single_quote(c) || is_double_quote(c) || (c == '-' && raw.len() > 1 && !raw.starts_with("--")),
                None => false,
            };
        if expression {
            self.distrust("PowerShell evaluates this statement as an expression, which is not analysed");
        }
        if PS_EXECUTING.contains(&lower.as_str()) {
            hazards.push(Hazard::new(
                HazardKind::ExecutingFlag,
                &head.text,
                "runs a command or code given as text, or changes what a name runs",
            ));
        }
        if matches!(lower.as_str(), "set-item" | "si" | "set-content" | "sc" | "new-item" | "ni")
            && args.iter().any(|a| a.to_ascii_lowercase().starts_with("env:"))
        {
            hazards.push(Hazard::new(HazardKind::EnvAssignment, &head.text, "sets an environment variable"));
        }
    }
}
