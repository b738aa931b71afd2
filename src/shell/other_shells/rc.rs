//! Plan 9 rc's command lines: its words, `` `{…} `` substitutions, `|[2]` pipes and `>[2=1]`
//! redirections, and the keywords whose parenthesised part is a command list.
//!
//! Covered: `;`, `&`, `&&`, `||`, `|`, `|[2]`, newlines, `\` continuations, comments; `'…'`
//! (`''`); `$var`, `$#var`, `` `{…} `` and `<{…}`/`>{…}` (hazards; analysed); `{…}` groups;
//! `>`, `>>`, `<`, `>[2=1]`; `name=value` prefixes. Not vouched: `(…)` lists, `^` joining
//! separate words, keywords (`if`, `for`, `while`, `switch`, `fn`, `not`), here-documents.

use super::{is_blank, Analyzer, Sep, SeparatorAhead, MAX_DEPTH};
use crate::shell::word::{is_name_char, Word};
use crate::shell::{Context, SubCommand};

/// rc keywords whose parenthesised part is a command list (`if(test -f x) rm x`).
pub(super) const RC_CONDITIONS: [&str; 4] = ["if", "while", "for", "switch"];

pub(super) const RC_KEYWORDS: [&str; 4] = ["fn", "not", "case", "else"];

impl Analyzer<'_> {
    /// Whether an rc line continuation (`\` and a newline) starts `ahead` characters on.
    pub(super) fn rc_continuation_at(&self, ahead: usize) -> bool {
        self.input.peek_at(ahead) == Some('\\') && self.input.peek_at(ahead + 1) == Some('\n')
    }

    /// The first character from `ahead` on that is neither a blank nor an rc line continuation.
    pub(super) fn rc_after_blanks(&self, mut ahead: usize) -> Option<char> {
        loop {
            match self.input.peek_at(ahead)? {
                ' ' | '\t' | '\r' => ahead += 1,
                '\\' if self.rc_continuation_at(ahead) => ahead += 2,
                other => return Some(other),
            }
        }
    }

    /// rc's `>`, `>>`, `<`, `<<`, with `[2]`, `[2=1]` or `[2=]` descriptors.
    pub(super) fn rc_redirect(&mut self) -> Option<(String, bool, bool)> {
        let c = self.input.peek()?;
        if !matches!(c, '<' | '>') || self.input.peek_at(1) == Some('{') {
            return None;
        }
        let mut op = String::from(c);
        self.input.bump();
        if self.input.peek() == Some(c) {
            op.push(c);
            self.input.bump();
        }
        if op == "<<" {
            self.distrust("rc here-documents are not analysed");
        }
        let mut duplicate = false;
        if self.input.peek() == Some('[') {
            let mut descriptor = String::from("[");
            self.input.bump();
            while let Some(d) = self.input.peek().filter(|d| d.is_ascii_digit() || *d == '=') {
                descriptor.push(d);
                self.input.bump();
            }
            if self.input.peek() == Some(']') {
                self.input.bump();
                descriptor.push(']');
            } else {
                self.distrust("an rc redirection's descriptor list is malformed");
            }
            duplicate = descriptor.contains('=');
            op.push_str(&descriptor);
        }
        if duplicate {
            return Some((op, false, false));
        }
        let writes = c == '>';
        Some((op, writes, true))
    }

    pub(super) fn rc_word(&mut self) -> Word {
        let start = self.input.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.input.peek() {
            let at_start = self.input.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '&' | '|' | ')' | '{' | '}' | '#') {
                break;
            }
            if c == '\\' && self.input.peek_at(1) == Some('\n') {
                break;
            }
            if matches!(c, '<' | '>') {
                if at_start && self.input.peek_at(1) == Some('{') {
                    // `<{…}` / `>{…}`: process substitution.
                    self.input.pos += 2;
                    self.substitution(&mut word, "process substitution", start, Context::ProcessSubstitution, '}');
                    continue;
                }
                break;
            }
            match c {
                '\'' => {
                    self.input.bump();
                    self.doubled_quote_string(&mut word, |q| q == '\'');
                }
                '`' => self.rc_backquote(&mut word),
                '$' => {
                    let at = self.input.offset();
                    self.input.bump();
                    if matches!(self.input.peek(), Some('#' | '"')) {
                        self.input.bump();
                    }
                    while self.input.peek() == Some('$') {
                        self.input.bump();
                    }
                    let name_start = self.input.pos;
                    while self.input.peek().is_some_and(|c| is_name_char(c) || c == '*') {
                        self.input.bump();
                    }
                    if self.input.pos == name_start {
                        self.distrust("a '$' has no variable name");
                    }
                    if self.input.peek() == Some('(') {
                        // `$x(1 2)`: a subscript list.
                        let mut subscript = Word::at(self.input.offset());
                        self.rc_list(&mut subscript);
                        word.expansions.append(&mut subscript.expansions);
                    }
                    self.input.record(&mut word, "variable", at);
                }
                '(' if !word.quoted && RC_CONDITIONS.contains(&word.text.as_str()) => break,
                '(' => {
                    self.distrust("rc lists are not analysed");
                    self.rc_list(&mut word);
                }
                '^' => {
                    // A free caret joins its neighbours; where a word ends (a blank, an operator, a
                    // closer, a redirection) it has nothing to join.
                    self.input.bump();
                    let word_ends = |n: char| is_blank(n) || matches!(n, '\n' | ';' | '&' | '|' | '#' | ')' | '{' | '}' | '<' | '>');
                    if at_start
                        || self.input.peek().is_none_or(word_ends)
                        || (self.input.peek() == Some('\\') && self.input.peek_at(1) == Some('\n'))
                    {
                        self.distrust("an rc '^' joins separate words, which is not analysed");
                    }
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

    /// `` `{cmd} ``, `` ``(ifs){cmd} ``, or Byron rc's `` `cmd ``.
    fn rc_backquote(&mut self, word: &mut Word) {
        let start = self.input.offset();
        if self.input.peek_at(1) == Some('{') {
            self.input.pos += 2;
            self.substitution(word, "command substitution", start, Context::CommandSubstitution, '}');
            return;
        }
        self.input.bump();
        if self.input.peek() == Some('`') {
            self.input.bump();
            self.distrust("rc's ``(separators){…} substitution is not analysed");
            if self.input.peek() == Some('(') {
                let mut separators = Word::at(self.input.offset());
                self.rc_list(&mut separators);
            }
        }
        if self.input.peek() == Some('{') {
            self.input.bump();
            self.nested(Context::CommandSubstitution, '}');
        } else {
            self.distrust("rc's `command substitution without braces is not analysed");
            if self.depth < MAX_DEPTH {
                self.depth += 1;
                let at = self.input.offset();
                let inner = self.rc_word();
                self.depth -= 1;
                if !inner.text.is_empty() {
                    let span = self.input.span(at, inner.end);
                    self.items.push(SubCommand::from_blank_separated(&inner.text, Context::CommandSubstitution, span, self.shell));
                }
            }
        }
        self.input.record(word, "command substitution", start);
    }

    /// `(a b c)`: the words of an rc list, appended to `word` joined by spaces.
    fn rc_list(&mut self, word: &mut Word) {
        self.input.bump();
        if self.depth >= MAX_DEPTH {
            self.distrust("commands are nested too deeply to follow");
            self.nested(Context::Group, ')');
            return;
        }
        self.depth += 1;
        let mut first = true;
        loop {
            self.skip_blanks();
            match self.input.peek() {
                None => {
                    self.distrust("a '(' is never closed");
                    break;
                }
                Some(')') => {
                    self.input.bump();
                    break;
                }
                Some('\n') => {
                    self.input.bump();
                }
                Some(c) => {
                    let before = self.input.pos;
                    let mut inner = self.rc_word();
                    if self.input.pos == before {
                        self.distrust(&format!("'{c}' cannot appear in an rc list"));
                        self.input.bump();
                        continue;
                    }
                    if !first {
                        word.text.push(' ');
                    }
                    first = false;
                    word.text.push_str(&inner.text);
                    word.quoted |= inner.quoted;
                    word.expansions.append(&mut inner.expansions);
                }
            }
        }
        self.depth -= 1;
    }

    /// An rc separator starting at `c` (followed by `next`), if any.
    pub(super) fn rc_separator(&self, c: char, next: Option<char>) -> Option<SeparatorAhead> {
        match (c, next) {
            (';', _) => Some((1, Sep::Sequence, None)),
            ('&', Some('&')) | ('|', Some('|')) => Some((2, Sep::AndOr, None)),
            ('&', _) => Some((1, Sep::Sequence, None)),
            ('|', Some('[')) => {
                // `|[2]` or `|[2=1]`: a pipe of other descriptors.
                let mut n = 2;
                while self.input.peek_at(n).is_some_and(|c| c.is_ascii_digit() || c == '=') {
                    n += 1;
                }
                if self.input.peek_at(n) == Some(']') {
                    Some((n + 1, Sep::Pipe, None))
                } else {
                    Some((1, Sep::Pipe, Some("an rc pipe's descriptor list is malformed")))
                }
            }
            ('|', _) => Some((1, Sep::Pipe, None)),
            _ => None,
        }
    }
}
