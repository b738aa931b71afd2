//! Elvish's command lines: its words, where `(…)` captures output, `^` continues a line and
//! `&opt=value` is an option.
//!
//! Covered: `;`, `|`, newlines, `^` line continuations, comments; `'…'` (`''`), `"…"` with
//! escapes; `$var` (hazard), `(…)` output capture (a substitution, analysed), `&opt=value`,
//! `e:cmd`, redirections with descriptors. Not vouched: `{…}` lambdas and braced lists, `[…]`,
//! keywords (`var`, `set`, `fn`, `if`, `use`…), `&&`, `||`, a word glued to `>` as its descriptor.

use super::{is_blank, Analyzer, Sep, SeparatorAhead};
use crate::shell::hazards::{Hazard, HazardKind};
use crate::shell::word::{is_name_char, Word};
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
        let start = self.input.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.input.peek() {
            let at_start = self.input.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '|' | ')' | '}' | ']' | '<' | '>' | '#') {
                break;
            }
            if c == '&' && !at_start {
                break;
            }
            if c == '^' && matches!(self.input.peek_at(1), Some('\n' | '\r')) {
                break;
            }
            match c {
                '\'' => {
                    self.input.bump();
                    self.doubled_quote_string(&mut word, |q| q == '\'');
                }
                '"' => {
                    self.input.bump();
                    word.quoted = true;
                    self.backslash_quoted(&mut word);
                }
                '$' => {
                    let at = self.input.offset();
                    self.input.bump();
                    if self.input.peek() == Some('@') {
                        self.input.bump();
                    }
                    let name_start = self.input.pos;
                    while self.input.peek().is_some_and(|c| is_name_char(c) || matches!(c, ':' | '-' | '~')) {
                        self.input.bump();
                    }
                    if self.input.pos == name_start {
                        self.distrust("a '$' has no variable name");
                    }
                    self.input.record(&mut word, "variable", at);
                }
                '(' => {
                    let at = self.input.offset();
                    self.input.bump();
                    self.substitution(&mut word, "output capture", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("Elvish lambdas and braced lists are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                '[' => {
                    self.distrust("Elvish lists, maps and indexing are not analysed");
                    let at = self.input.offset();
                    self.input.bump();
                    self.nested(Context::Group, ']');
                    word.text.push_str(&self.input.source(at, self.input.offset()));
                }
                '^' => {
                    self.distrust("Elvish rejects a '^' that does not end a line");
                    self.input.bump();
                    word.text.push('^');
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
