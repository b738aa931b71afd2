//! Nushell's command lines: its words, pipes and redirections, which Nushell reads unlike any
//! POSIX shell (`>` is a comparison, `e>|` a pipe, `(…)` a subexpression).
//!
//! Covered: `;`, `|`, newlines, `e>|`-style pipes; `'…'`, `"…"` with escapes, backtick
//! words, `r#'…'#`; `^cmd`; `(…)` subexpressions, `$"…"`/`$'…'` interpolation and `$var`
//! (hazards; the code inside is analysed); `o>`/`e>`/`o+e>` redirections, `save` (a
//! hazard). Not vouched: `{…}` blocks, closures and records, `[…]` lists, keywords (`let`,
//! `def`, `if`, `do`, `source`…), statements that are expressions (`$env.X = …`, a quoted
//! head), `&&`, `||`, `2>`, a `#` inside a word.

use super::{is_blank, Analyzer, Sep, SeparatorAhead};
use crate::shell::hazards::{Hazard, HazardKind};
use crate::shell::word::{is_name_char, is_name_start, Word};
use crate::shell::Context;

/// Nushell's redirection tokens (each a whole word), and whether they append.
const NU_REDIRECTS: [(&str, bool); 16] = [
    ("o>", false),
    ("out>", false),
    ("e>", false),
    ("err>", false),
    ("o+e>", false),
    ("e+o>", false),
    ("out+err>", false),
    ("err+out>", false),
    ("o>>", true),
    ("out>>", true),
    ("e>>", true),
    ("err>>", true),
    ("o+e>>", true),
    ("e+o>>", true),
    ("out+err>>", true),
    ("err+out>>", true),
];

/// Nushell tokens that pipe stderr (or both streams) to the next command.
const NU_PIPES: [&str; 6] = ["e>|", "err>|", "o+e>|", "e+o>|", "out+err>|", "err+out>|"];

const NU_KEYWORDS: [&str; 30] = [
    "alias",
    "const",
    "def",
    "def-env",
    "export",
    "export-env",
    "extern",
    "for",
    "hide",
    "hide-env",
    "if",
    "else",
    "let",
    "let-env",
    "loop",
    "match",
    "module",
    "mut",
    "overlay",
    "plugin",
    "return",
    "source",
    "source-env",
    "try",
    "catch",
    "use",
    "while",
    "do",
    "break",
    "continue",
];

impl Analyzer<'_> {
    /// Whether a Nushell token equal to `literal` starts here.
    fn nu_token_ahead(&self, literal: &str) -> bool {
        let n = literal.chars().count();
        self.input.ahead(literal) && self.input.peek_at(n).is_none_or(|c| is_blank(c) || matches!(c, '\n' | ';' | '|' | ')' | '}' | ']'))
    }

    /// Reads up to the closing `quote`, without escapes.
    fn plain_string(&mut self, word: &mut Word, quote: char) {
        word.quoted = true;
        loop {
            match self.input.bump() {
                None => {
                    self.distrust(&format!("a {quote} quote is never closed"));
                    return;
                }
                Some(c) if c == quote => return,
                Some(c) => self.push_plain(word, c),
            }
        }
    }

    pub(super) fn nu_word(&mut self) -> Word {
        let start = self.input.offset();
        let mut word = Word::at(start);
        if self.input.peek() == Some('r') && self.input.peek_at(1) == Some('#') {
            self.nu_raw_string(&mut word);
        }
        while let Some(c) = self.input.peek() {
            if is_blank(c) || matches!(c, '\n' | '|' | ';' | ')' | '}' | ']') {
                break;
            }
            match c {
                '\'' => {
                    self.input.bump();
                    self.plain_string(&mut word, '\'');
                }
                '`' => {
                    self.input.bump();
                    self.plain_string(&mut word, '`');
                }
                '"' => {
                    self.input.bump();
                    word.quoted = true;
                    self.backslash_quoted(&mut word);
                }
                '$' => self.nu_dollar(&mut word),
                '(' => {
                    let at = self.input.offset();
                    self.input.bump();
                    self.substitution(&mut word, "subexpression", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("Nushell blocks, closures and records are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                '[' => {
                    self.distrust("Nushell lists are not analysed");
                    let at = self.input.offset();
                    self.input.bump();
                    self.nested(Context::Group, ']');
                    word.text.push_str(&self.input.source(at, self.input.offset()));
                }
                '#' => {
                    self.distrust("Nushell versions differ on a '#' inside a word");
                    self.input.bump();
                    word.text.push('#');
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

    /// `r#'…'#` with any number of `#`.
    fn nu_raw_string(&mut self, word: &mut Word) {
        let mut hashes = 0;
        while self.input.peek_at(1 + hashes) == Some('#') {
            hashes += 1;
        }
        if self.input.peek_at(1 + hashes) != Some('\'') {
            return;
        }
        self.input.pos += 2 + hashes;
        word.quoted = true;
        let closing: String = std::iter::once('\'').chain(std::iter::repeat_n('#', hashes)).collect();
        loop {
            if self.input.peek().is_none() {
                self.distrust("a raw string is never closed");
                return;
            }
            if self.input.ahead(&closing) {
                self.input.pos += hashes + 1;
                return;
            }
            if let Some(c) = self.input.bump() {
                self.push_plain(word, c);
            }
        }
    }

    fn nu_dollar(&mut self, word: &mut Word) {
        let start = self.input.offset();
        match self.input.peek_at(1) {
            Some(quote @ ('"' | '\'')) => {
                // `$"…(expr)…"`: interpolation runs the code in parentheses.
                self.input.pos += 2;
                word.quoted = true;
                let mut runs_code = false;
                let mut literal = Word::at(start);
                loop {
                    match self.input.bump() {
                        None => {
                            self.distrust("an interpolated string is never closed");
                            break;
                        }
                        Some(c) if c == quote => break,
                        Some('\\') if quote == '"' => self.backslash_escape(&mut literal),
                        Some('(') => {
                            runs_code = true;
                            self.nested(Context::CommandSubstitution, ')');
                        }
                        Some(c) => self.push_plain(&mut literal, c),
                    }
                }
                if runs_code {
                    self.input.record(word, "string interpolation", start);
                } else {
                    // Without `(…)` the string is only text.
                    word.text.push_str(&literal.text);
                }
            }
            Some('(') => {
                self.input.pos += 2;
                self.substitution(word, "subexpression", start, Context::CommandSubstitution, ')');
            }
            Some(c) if is_name_start(c) || c.is_ascii_digit() => {
                self.input.bump();
                while self.input.peek().is_some_and(|c| is_name_char(c) || matches!(c, '-' | '.' | '?' | '!')) {
                    self.input.bump();
                }
                self.input.record(word, "variable", start);
            }
            _ => {
                self.input.bump();
                word.text.push('$');
            }
        }
    }

    /// A Nushell separator starting at `c` (followed by `next`), if any.
    pub(super) fn nu_separator(&self, c: char, next: Option<char>) -> Option<SeparatorAhead> {
        if c == ';' {
            return Some((1, Sep::Sequence, None));
        }
        if let Some(pipe) = NU_PIPES.iter().find(|p| self.nu_token_ahead(p)) {
            return Some((pipe.chars().count(), Sep::Pipe, None));
        }
        if let Some(pipe) = ["o>|", "out>|"].iter().find(|p| self.nu_token_ahead(p)) {
            return Some((pipe.chars().count(), Sep::Pipe, Some("Nushell rejects 'o>|'")));
        }
        if self.nu_token_ahead("&&") {
            return Some((2, Sep::AndOr, Some("Nushell has no '&&' (it uses ';' and 'and')")));
        }
        match (c, next) {
            ('|', Some('|')) => Some((2, Sep::AndOr, Some("Nushell has no '||' operator"))),
            ('|', _) => Some((1, Sep::Pipe, None)),
            _ => None,
        }
    }

    /// Nushell's command word: keywords, expression statements, commands that run or write.
    pub(super) fn nu_check_head(&mut self, head: &Word, first: Option<char>, args: &[String], hazards: &mut Vec<Hazard>) {
        if !head.quoted && NU_KEYWORDS.contains(&head.text.as_str()) {
            self.distrust(&format!("the Nushell keyword '{}' is not analysed", head.text));
        }
        if matches!(first, Some('$' | '(' | '[' | '{' | '\'' | '"' | '`' | '0'..='9')) {
            self.distrust("Nushell evaluates this statement as an expression, which is not analysed");
        }
        match head.text.as_str() {
            "run-external" => {
                hazards.push(Hazard::new(HazardKind::ExecutingFlag, "run-external", "run-external runs its arguments as a command"))
            }
            "load-env" | "with-env" => {
                hazards.push(Hazard::new(HazardKind::EnvAssignment, &head.text, "sets environment variables for what runs next"))
            }
            "save" => {
                let target = args.iter().find(|a| !a.starts_with('-')).cloned().unwrap_or_default();
                hazards.push(Hazard::new(HazardKind::OutputRedirect, &target, "save writes its input to a file"));
            }
            _ => {}
        }
    }

    /// Nushell's redirection here, consumed (see [`Analyzer::redirect_operator`]).
    pub(super) fn nu_redirect(&mut self) -> Option<(String, bool, bool)> {
        if let Some((token, _)) = NU_REDIRECTS.iter().find(|(t, _)| self.nu_token_ahead(t)) {
            self.input.pos += token.chars().count();
            return Some(((*token).to_owned(), true, true));
        }
        for (token, target) in [("2>&1", false), ("2>", true)] {
            if self.nu_token_ahead(token) {
                self.distrust(&format!("Nushell rejects '{token}'"));
                self.input.pos += token.chars().count();
                return Some((token.to_owned(), true, target));
            }
        }
        None
    }
}
