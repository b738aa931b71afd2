//! The texts a result tape has already sent to JavaScript, by id (see `bindings::tape`).
//!
//! A text is found by its hash and confirmed by comparing it with the kept copy. Two texts with
//! the same hash are both correct: the second is not kept and is sent in full each time.

use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;

/// Texts up to this many bytes are kept.
pub(crate) const MAX_KEPT_TEXT: usize = 128;
/// How many texts are kept before the table starts again from id 0.
const MAX_KEPT_TEXTS: usize = 1024;

/// What to send for a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// Sent before under this id.
    Known(u32),
    /// Kept now under this id: send it with the id.
    New(u32),
    /// Not kept (too long, the table is full, or its hash is another text's): send it alone.
    Alone,
}

#[derive(Debug, Default)]
pub(crate) struct KeptTexts {
    /// Id by the text's hash.
    ids: FxHashMap<u64, u32>,
    /// The text of each id.
    texts: Vec<Box<str>>,
}

impl KeptTexts {
    /// Before a result is written: a full table starts again from id 0 (the reader overwrites
    /// each id's text as it is sent anew). Returns the mark to [`KeptTexts::truncate`] to if the
    /// result is not sent.
    pub fn begin_result(&mut self) -> usize {
        if self.texts.len() >= MAX_KEPT_TEXTS {
            self.clear();
        }
        self.texts.len()
    }

    /// Forgets every text, as the reader's table starts again from id 0.
    fn clear(&mut self) {
        self.ids.clear();
        self.texts.clear();
    }

    /// Forgets the texts kept after the first `len` (a result that was not sent).
    pub fn truncate(&mut self, len: usize) {
        self.texts.truncate(len);
        self.ids.retain(|_, id| (*id as usize) < len);
    }

    /// Looks `text` up, keeping it if it is new and there is room.
    pub fn find_or_keep(&mut self, text: &str) -> Kept {
        if text.len() > MAX_KEPT_TEXT {
            return Kept::Alone;
        }
        let hash = hash_of(text);
        if let Some(&id) = self.ids.get(&hash) {
            let same = self.texts.get(id as usize).is_some_and(|kept| **kept == *text);
            return if same { Kept::Known(id) } else { Kept::Alone };
        }
        if self.texts.len() >= MAX_KEPT_TEXTS {
            return Kept::Alone;
        }
        let Ok(id) = u32::try_from(self.texts.len()) else { return Kept::Alone };
        self.ids.insert(hash, id);
        self.texts.push(text.into());
        Kept::New(id)
    }
}

fn hash_of(text: &str) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_below;

    /// Against a plain model (a list of the kept texts, searched in order): every text comes back
    /// as the id the model gives it, across the size limit, a full table starting again, and
    /// truncation.
    #[test]
    fn ids_agree_with_a_plain_list() {
        let mut below = random_below(0x7E87);
        let pool: Vec<String> = (0..1500).map(|i| format!("{i}{}", "x".repeat(below(140)))).collect();
        let (mut table, mut model) = (KeptTexts::default(), Vec::<String>::new());
        let mut restarts = 0;
        for round in 0..20_000 {
            let text = &pool[below(pool.len())];
            if round % 997 == 0 {
                let keep = below(model.len() + 1);
                table.truncate(keep);
                model.truncate(keep);
            }
            // Each lookup as its own result: a full table starts again.
            if model.len() >= MAX_KEPT_TEXTS {
                model.clear();
                restarts += 1;
            }
            assert_eq!(table.begin_result(), model.len(), "round {round}");
            let expected = match model.iter().position(|t| t == text) {
                Some(id) => Kept::Known(id as u32),
                None if text.len() > MAX_KEPT_TEXT || model.len() >= MAX_KEPT_TEXTS => Kept::Alone,
                None => {
                    model.push(text.clone());
                    Kept::New(model.len() as u32 - 1)
                }
            };
            assert_eq!(table.find_or_keep(text), expected, "round {round}: {text:?}");
            assert_eq!(table.texts.len(), model.len());
        }
        assert!(restarts > 0, "the table filled up and started again");
    }

    /// A text whose hash is already another's is never taken for it.
    #[test]
    fn a_hash_shared_with_another_text_sends_the_text_alone() {
        let mut table = KeptTexts::default();
        assert_eq!(table.find_or_keep("first"), Kept::New(0));
        // Two texts with one hash cannot be found by search here; file one under another's hash.
        let id = table.ids.remove(&hash_of("first")).unwrap_or_default();
        table.ids.insert(hash_of("second"), id);
        assert_eq!(table.find_or_keep("second"), Kept::Alone);
        assert_eq!(table.find_or_keep("second"), Kept::Alone, "never kept under the other's id");
    }
}
