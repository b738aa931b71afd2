//! Rules filed under a word (the command word a regex pins, a prefix's first word, a glob's
//! first word). The index is a prefilter: every candidate it returns is matched in full
//! afterwards. (Keying it by the word's hash instead of the word, with the hash computed while
//! the leading word is scanned, measured no faster by `bench/ab.mjs`, so the word it is.)

use rustc_hash::FxHashMap;

/// Rules by the word they are filed under, each list in policy order.
#[derive(Debug, Clone, Default)]
pub struct WordIndex {
    by_word: FxHashMap<Box<str>, Vec<usize>>,
}

impl WordIndex {
    /// Files rule `at` under `word`. Rules are filed in policy order, so each list stays sorted;
    /// a rule filed twice under one word is kept once.
    pub fn file(&mut self, word: &str, at: usize) {
        let list = self.by_word.entry(word.into()).or_default();
        if list.last() != Some(&at) {
            list.push(at);
        }
    }

    /// The rules filed under `word`, in policy order.
    pub fn candidates(&self, word: &str) -> &[usize] {
        self.by_word.get(word).map_or(&[], Vec::as_slice)
    }

    pub fn is_empty(&self) -> bool {
        self.by_word.is_empty()
    }
}
