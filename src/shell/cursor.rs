//! Where a shell's reader stands in the text it reads. The POSIX parser and the other shells'
//! readers walk their text the same way: a character at a time, copying expansions' source into
//! words and skipping the substitutions an outer shell already followed.

use super::word::Word;

/// The text being read, the reader's position in it, and where it sits in the caller's input.
pub(super) struct Cursor<'t> {
    pub(super) text: &'t str,
    /// `text.char_indices()`, so the reader can look ahead and step back by characters.
    pub(super) chars: Vec<(usize, char)>,
    /// Index into `chars` of the next character to read.
    pub(super) pos: usize,
    /// Byte span every item gets when the text is not the caller's input (a backtick body or a
    /// shell payload); `None` when spans are exact.
    pub(super) span_override: Option<(usize, usize)>,
    /// Byte ranges of `text` holding substitutions an outer shell already ran (see
    /// [`Word::followed`]): the reading shell sees their output, so they are not followed again.
    pub(super) followed_outside: Vec<(usize, usize)>,
}

/// `text.char_indices()` as a table, made in one allocation (`collect` grows it from a quarter
/// of the length) and, for the usual ASCII line, copied from the bytes without decoding UTF-8.
pub(super) fn char_table(text: &str) -> Vec<(usize, char)> {
    if text.is_ascii() {
        return text.bytes().enumerate().map(|(at, byte)| (at, char::from(byte))).collect();
    }
    let mut chars = Vec::with_capacity(text.len());
    chars.extend(text.char_indices());
    chars
}

impl<'t> Cursor<'t> {
    /// Reading `text` from its start; see [`Cursor::span_override`].
    pub(super) fn new(text: &'t str, span_override: Option<(usize, usize)>) -> Self {
        #[cfg(test)]
        crate::test_support::steps(text.len());
        Cursor { text, chars: char_table(text), pos: 0, span_override, followed_outside: Vec::new() }
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    /// Every character a reader looks at comes through here (tests count them).
    pub(super) fn peek_at(&self, ahead: usize) -> Option<char> {
        #[cfg(test)]
        crate::test_support::steps(1);
        self.chars.get(self.pos + ahead).map(|(_, c)| *c)
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    /// Byte offset of the next character (the text's length at its end).
    pub(super) fn offset(&self) -> usize {
        self.chars.get(self.pos).map_or(self.text.len(), |(i, _)| *i)
    }

    /// Whether the text continues with `literal`.
    pub(super) fn ahead(&self, literal: &str) -> bool {
        literal.chars().enumerate().all(|(i, c)| self.peek_at(i) == Some(c))
    }

    /// Moves past `literal` if the text continues with it.
    pub(super) fn eat(&mut self, literal: &str) -> bool {
        let matches = self.ahead(literal);
        if matches {
            self.pos += literal.chars().count();
        }
        matches
    }

    /// The text between two byte offsets (both always at character boundaries).
    pub(super) fn source(&self, start: usize, end: usize) -> String {
        #[cfg(test)]
        crate::test_support::steps(end.saturating_sub(start));
        self.text.get(start..end).unwrap_or_default().to_owned()
    }

    /// The byte span an item from `start` to `end` gets in the caller's input.
    pub(super) fn span(&self, start: usize, end: usize) -> (usize, usize) {
        self.span_override.unwrap_or((start, end))
    }

    /// Appends the source of the expansion from byte `start` to here to `word`, and records it.
    pub(super) fn record(&self, word: &mut Word, kind: &str, start: usize) {
        word.push_expansion(kind, self.source(start, self.offset()));
    }

    /// [`Self::record`] for a substitution that was followed (here or by an outer shell).
    pub(super) fn record_followed(&self, word: &mut Word, kind: &str, start: usize) {
        word.push_followed(kind, self.source(start, self.offset()));
    }

    /// At a substitution starting at byte `start` that an outer shell already followed: moves past
    /// it and returns true.
    pub(super) fn skip_followed(&mut self, start: usize) -> bool {
        let Some(&(_, end)) = self.followed_outside.iter().find(|(from, _)| *from == start) else { return false };
        self.pos = self.chars.partition_point(|(at, _)| *at < end);
        true
    }
}

#[cfg(test)]
mod tests {
    /// The table a reader walks is exactly `char_indices`, ASCII or not.
    #[test]
    fn char_table_is_char_indices() {
        let alphabet = ['a', ' ', '$', '\'', '\\', '\n', '\u{7f}', 'é', '€', '𝄞', '\u{85}'];
        for s in crate::test_support::random_strings(&alphabet, 5_000, 12, 0x2545_F491_4F6C_DD1D) {
            assert_eq!(super::char_table(&s), s.char_indices().collect::<Vec<_>>(), "{s:?}");
        }
    }
}
