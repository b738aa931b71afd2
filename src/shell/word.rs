//! The word every shell's reader builds: its text after quote removal, where it stands in the
//! input, and the expansions and substitutions in it. The POSIX parser and the other shells'
//! readers build the same words, so rules meet every shell's commands alike.

/// A word after quote removal.
#[derive(Debug, Default)]
pub(super) struct Word {
    pub(super) text: String,
    /// Byte offset of the word's first character in the text being read.
    pub(super) start: usize,
    /// Byte offset just past the word.
    pub(super) end: usize,
    pub(super) quoted: bool,
    /// (kind, source text) of each expansion or substitution in the word.
    pub(super) expansions: Vec<(String, String)>,
    /// Byte ranges of `text` holding the verbatim source of substitutions already followed. When
    /// the word is (part of) a shell's payload they are the outer shell's, not the payload's, to run.
    pub(super) followed: Vec<(usize, usize)>,
}

impl Word {
    /// An empty word starting at byte `start`.
    pub(super) fn at(start: usize) -> Self {
        Word { start, end: start, ..Word::default() }
    }

    /// Appends an expansion's source text and records it as an expansion of `kind`.
    pub(super) fn push_expansion(&mut self, kind: &str, source: String) {
        self.text.push_str(&source);
        self.expansions.push((kind.to_owned(), source));
    }

    /// [`Self::push_expansion`] for a substitution that was followed (here or by an outer shell).
    pub(super) fn push_followed(&mut self, kind: &str, source: String) {
        let from = self.text.len();
        self.push_expansion(kind, source);
        self.followed.push((from, self.text.len()));
    }
}

/// Whether `c` can start a variable name.
pub(super) fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// Whether `c` can continue a variable name.
pub(super) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `name` is a variable name: a letter or `_`, then letters, digits or `_`.
pub(super) fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}
