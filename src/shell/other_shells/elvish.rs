//! Elvish's command lines: its words, where `(…)` captures output, `^` continues a line and
//! `&opt=value` is an option.
//!
//! Covered: `;`, `|`, newlines, `^` line continuations, comments; `'…'` (`''`), `"…"` with
//! escapes; `$var` (hazard), `(…)` output capture (a substitution, analysed), `&opt=value`,
//! `e:cmd`, redirections with descriptors. Not vouched: `{…}` lambdas and braced lists, `[…]`,
//! keywords (`var`, `set`, `fn`, `if`, `use`…), `&&`, `||`, a word glued to `>` as its descriptor.

use super::{is_blank, is_name_char, Analyzer, Sep, SeparatorAhead, Word};
use crate::shell::hazards::{Hazard, HazardKind};
use crate::shell::Context;

const ELVISH_KEYWORDS: [&str; 15] =
    ["var", "set", "tmp", "del", "fn", "use", "if", "elif", "else", "while", "for", "try", "catch", "finally", "pragma"];

/// An Elvish separator starting at `c` (followed by `next`), if any.
pub(super) fn separator(c: char, next: Option<char>) -> Option<SeparatorAhead> {
    match (c, next) {
        (';', _) => Some((1, Sep::Sequence, None)),
        ('|', Some('|')) => Some((2, Sep::AndOr, Some("Elvish has no '||' operator"))),
        ('|', _) => Some((1, Sep::Pipe, None)),
        ('&', Some('&')) => Some((2, Sep::AndOr, Some("Elvish has no '&&' operator"))),
        _ => None,
    }
}

impl Analyzer<'_> {
    pub(super) fn elvish_word(&mut self) -> Word {
        let start = self.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.peek() {
            let at_start = self.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '|' | ')' | '}' | ']' | '<' | '>' | '#') {
                break;
            }
            if c == '&' && !at_start {
                break;
            }
            if c == '^' && matches!(self.peek_at(1), Some('\n' | '\r')) {
                break;
            }
            match c {
                '\'' => {
                    self.bump();
                    self.doubled_quote_string(&mut word, |q| q == '\'');
                }
                '"' => {
                    self.bump();
                    word.quoted = true;
                    loop {
                        match self.bump() {
                            None => {
                                self.distrust("a double quote is never closed");
                                break;
                            }
                            Some('"') => break,
                            Some('\\') => self.backslash_escape(&mut word),
                            Some(c) => self.push_plain(&mut word, c),
                        }
                    }
                }
                '$' => {
                    let at = self.offset();
                    self.bump();
                    if self.peek() == Some('@') {
                        self.bump();
                    }
                    let name_start = self.pos;
                    while self.peek().is_some_and(|c| is_name_char(c) || matches!(c, ':' | '-' | '~')) {
                        self.bump();
                    }
                    if self.pos == name_start {
                        self.distrust("a '$' has no variable name");
                    }
                    self.record(&mut word, "variable", at);
                }
                '(' => {
                    let at = self.offset();
                    self.bump();
                    self.substitution(&mut word, "output capture", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("Elvish lambdas and braced lists are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                '[' => {
                    self.distrust("Elvish lists, maps and indexing are not analysed");
                    let at = self.offset();
                    self.bump();
                    self.nested(Context::Group, ']');
                    word.text.push_str(&self.source(at, self.offset()));
                }
                '^' => {
                    self.distrust("Elvish rejects a '^' that does not end a line");
                    self.bump();
                    word.text.push('^');
                }
                _ => {
                    self.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.offset();
        word
    }

    /// Elvish's command word: keywords and commands that change the environment.
    pub(super) fn elvish_check_head(&mut self, head: &Word, hazards: &mut Vec<Hazard>) {
        if !head.quoted && ELVISH_KEYWORDS.contains(&head.text.as_str()) {
            self.distrust(&format!("the Elvish keyword '{}' is not analysed", head.text));
        }
        if matches!(head.text.as_str(), "set-env" | "unset-env") {
            hazards.push(Hazard::new(HazardKind::EnvAssignment, &head.text, "changes the environment of what runs next"));
        }
    }
}
