//! Rules filed under a word (the command word a regex pins, a prefix's first word, a glob's
//! first word), keyed by the word's hash rather than the word.
//!
//! The index is a prefilter: every candidate it returns is matched in full afterwards, so two
//! words with one hash only add a candidate, never change an answer. Keying by a `u64` spares
//! each look-up the map's own hashing of a string and the comparison of its bytes, and a
//! case-insensitive index hashes the word folded as it reads it, with no lowercased copy.

use rustc_hash::FxHashMap;

/// Rules by the hash of the word they are filed under, each list in policy order.
#[derive(Debug, Clone, Default)]
pub struct WordIndex {
    by_hash: FxHashMap<u64, Vec<usize>>,
}

/// A word's hash: [`hash_step`] over its bytes, ASCII-lowercased when `fold` is set, so the
/// folded hash of a word is the hash of its lowercase form.
pub fn word_hash(word: &str, fold: bool) -> u64 {
    word.bytes().fold(0, |hash, byte| hash_step(hash, if fold { byte.to_ascii_lowercase() } else { byte }))
}

/// One byte of [`word_hash`] (FxHash's step), for scans that hash a word as they find it.
#[inline]
pub fn hash_step(hash: u64, byte: u8) -> u64 {
    (hash.rotate_left(5) ^ u64::from(byte)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

impl WordIndex {
    /// Files rule `at` under the word with hash `hash`. Rules are filed in policy order, so each
    /// list stays sorted; a rule filed twice under one hash is kept once.
    pub fn file(&mut self, hash: u64, at: usize) {
        let list = self.by_hash.entry(hash).or_default();
        if list.last() != Some(&at) {
            list.push(at);
        }
    }

    /// The rules filed under words with hash `hash`, in policy order.
    pub fn candidates(&self, hash: u64) -> &[usize] {
        self.by_hash.get(&hash).map_or(&[], Vec::as_slice)
    }

    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The folded hash is the hash of the lowercase form, for every mix of cases; hashing without
    /// folding tells the cases apart.
    #[test]
    fn the_folded_hash_is_the_hash_of_the_lowercase_word() {
        let alphabet = ["a", "B", "z", "Z", "_", "0", "é", "-", "Q"];
        let mut next = crate::test_support::random_below(0x5eed_0a51);
        for _ in 0..5000 {
            let word: String = (0..next(10)).map(|_| alphabet[next(alphabet.len())]).collect();
            let lower = word.to_ascii_lowercase();
            assert_eq!(word_hash(&word, true), word_hash(&lower, false), "{word:?}");
            if lower != word {
                assert_ne!(word_hash(&word, false), word_hash(&lower, false), "{word:?}");
            }
        }
    }

    #[test]
    fn a_rule_is_listed_once_per_hash_and_lists_keep_policy_order() {
        let mut index = WordIndex::default();
        let git = word_hash("git", false);
        for at in [0, 3, 3, 7] {
            index.file(git, at);
        }
        index.file(word_hash("npm", false), 5);
        assert_eq!(index.candidates(git), &[0, 3, 7]);
        assert_eq!(index.candidates(word_hash("npm", false)), &[5]);
        assert_eq!(index.candidates(word_hash("cargo", false)), &[] as &[usize]);
        assert!(!index.is_empty() && WordIndex::default().is_empty());
    }
}
