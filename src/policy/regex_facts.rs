//! What every match of a regex rule must have, read from regex-syntax's parse of the pattern:
//! the leading words it pins (for the word index) and a literal it contains (for the prefilter).
//!
//! These facts let a rule be skipped without running it, so each must hold for *every* match,
//! or a deny rule would silently never fire. They are read from the parsed form, never from the
//! pattern's text, and anything the analysis does not model (a construct it does not know, a
//! pattern regex-syntax reads differently from regex-lite or cannot read) yields no fact: the
//! rule is then run against every item. Tests compare rule sets built on these facts with
//! regex-lite's own `is_match` over random patterns and texts.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// At most this many pinned words per rule; a pattern spelling out more is left unindexed.
const MAX_PINNED_WORDS: usize = 16;

/// The facts about one pattern.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegexFacts {
    /// Every match starts at the start of the text with one of these ASCII words, followed by
    /// the end or a character that is no ASCII word character: the text's leading word is one of
    /// them. Empty when the pattern pins none.
    pub pinned: Vec<String>,
    /// An ASCII literal every match contains.
    pub required: Option<String>,
}

/// Reads the facts of `pattern`; a pattern regex-syntax cannot read has none.
///
/// Parsed case-sensitively whatever the rule says: a case-insensitive rule's literals then come
/// out as literals, which the caller folds (regex-lite's case folding is ASCII-only, so a
/// folded match contains the folded literal). Parsed without Unicode, as regex-lite reads
/// `\w`, `\s`, `\d` and `\b`: ASCII-only. Bytes that are not ASCII are never part of a fact,
/// since `\xE9` is one byte here and the character `é` in regex-lite.
pub fn regex_facts(pattern: &str) -> RegexFacts {
    // regex-lite has no class set operations and refuses them; regex-syntax would read them.
    if ["&&", "--", "~~"].iter().any(|op| pattern.contains(op)) && pattern.contains('[') {
        return RegexFacts::default();
    }
    let parsed = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).nest_limit(64).build().parse(pattern);
    let Ok(hir) = parsed else { return RegexFacts::default() };
    let pinned = pinned_words(&hir).unwrap_or_default().into_iter().filter_map(|w| String::from_utf8(w).ok()).collect();
    let required = Some(required_literal(&hir)).filter(|l| !l.is_empty()).and_then(|l| String::from_utf8(l).ok());
    RegexFacts { pinned, required }
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// At most this many steps of the search for pinned words: a pattern of nested alternations
/// beyond it pins none.
const PINNED_WORD_STEPS: usize = 256;

/// The words every match of `hir` starts with at the start of the text, or `None`.
fn pinned_words(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let mut steps = PINNED_WORD_STEPS;
    let mut words = from_start(&[hir], &mut steps)?;
    // Alternatives that differ after the word (`^ls(\s|$)`) pin it twice.
    let mut seen = Vec::with_capacity(words.len());
    words.retain(|word| {
        !seen.contains(word) && {
            seen.push(word.clone());
            true
        }
    });
    Some(words)
}

/// `parts` in sequence, each alternative of an alternation followed by the rest, until the start
/// of the text is asserted; then the words that follow it.
fn from_start(parts: &[&Hir], steps: &mut usize) -> Option<Vec<Vec<u8>>> {
    *steps = steps.checked_sub(1)?;
    let (first, rest) = parts.split_first()?;
    match first.kind() {
        HirKind::Look(Look::Start) => after_start(Vec::new(), rest, steps),
        HirKind::Capture(capture) => from_start(&[&[&*capture.sub], rest].concat(), steps),
        HirKind::Concat(inner) => from_start(&[inner.iter().collect(), rest.to_vec()].concat(), steps),
        HirKind::Alternation(branches) => each_branch(branches, rest, steps, from_start),
        _ => None,
    }
}

/// The union of what `then` finds for each branch followed by `rest`, or `None` if one finds
/// nothing or there are too many words.
fn each_branch(
    branches: &[Hir],
    rest: &[&Hir],
    steps: &mut usize,
    mut then: impl FnMut(&[&Hir], &mut usize) -> Option<Vec<Vec<u8>>>,
) -> Option<Vec<Vec<u8>>> {
    let mut words = Vec::new();
    for branch in branches {
        words.extend(then(&[&[branch], rest].concat(), steps)?);
        if words.len() > MAX_PINNED_WORDS {
            return None;
        }
    }
    Some(words)
}

/// The words `parts` spell out after `word` (the word characters read so far), each followed by
/// the end of the text or a character that is no word character on every match.
fn after_start(word: Vec<u8>, parts: &[&Hir], steps: &mut usize) -> Option<Vec<Vec<u8>>> {
    *steps = steps.checked_sub(1)?;
    let pinned = |word: Vec<u8>| (!word.is_empty()).then(|| vec![word]);
    match parts.split_first().map(|(first, rest)| (first.kind(), rest)) {
        Some((HirKind::Literal(literal), rest)) => {
            let word_len = literal.0.iter().take_while(|b| is_word(**b)).count();
            let word = [word.as_slice(), literal.0.get(..word_len).unwrap_or_default()].concat();
            match word_len < literal.0.len() {
                // The literal goes on with a character that is no word character.
                true => pinned(word),
                false => after_start(word, rest, steps),
            }
        }
        Some((HirKind::Capture(capture), rest)) => after_start(word, &[&[&*capture.sub], rest].concat(), steps),
        Some((HirKind::Concat(inner), rest)) => after_start(word, &[inner.iter().collect(), rest.to_vec()].concat(), steps),
        Some((HirKind::Alternation(branches), rest)) => {
            each_branch(branches, rest, steps, |parts, steps| after_start(word.clone(), parts, steps))
        }
        _ => match next_char(parts.iter().copied()) {
            (false, false) => pinned(word),
            _ => None,
        },
    }
}

/// Where a match of `parts`, starting right after a word character, can take the text: whether
/// its first character can be a word character, and whether it can end without consuming
/// anything or passing an assertion that the next character is none (so what follows decides).
fn next_char<'h>(parts: impl IntoIterator<Item = &'h Hir>) -> (bool, bool) {
    let mut consumes_word = false;
    for part in parts {
        let (word, open) = next_char_of(part);
        consumes_word |= word;
        if !open {
            return (consumes_word, false);
        }
    }
    (consumes_word, true)
}

fn next_char_of(hir: &Hir) -> (bool, bool) {
    match hir.kind() {
        HirKind::Empty => (false, true),
        HirKind::Literal(literal) => match literal.0.first() {
            Some(first) => (is_word(*first), false),
            None => (false, true),
        },
        HirKind::Class(class) => (class_has_word_char(class), false),
        // After a word character, each of these means the next character is none or no word character.
        HirKind::Look(
            Look::End
            | Look::EndLF
            | Look::EndCRLF
            | Look::WordAscii
            | Look::WordEndAscii
            | Look::WordEndHalfAscii
            | Look::WordUnicode
            | Look::WordEndUnicode
            | Look::WordEndHalfUnicode,
        ) => (false, false),
        // Any other assertion only removes matches.
        HirKind::Look(_) => (false, true),
        HirKind::Capture(capture) => next_char_of(&capture.sub),
        HirKind::Repetition(repetition) => {
            let (word, open) = next_char_of(&repetition.sub);
            (word, open || repetition.min == 0)
        }
        HirKind::Concat(parts) => next_char(parts),
        HirKind::Alternation(branches) => {
            branches.iter().map(next_char_of).fold((false, false), |(word, open), (w, o)| (word || w, open || o))
        }
    }
}

fn class_has_word_char(class: &Class) -> bool {
    let words = [(b'0', b'9'), (b'A', b'Z'), (b'a', b'z'), (b'_', b'_')];
    let overlaps = |start: u32, end: u32| words.iter().any(|(lo, hi)| start <= u32::from(*hi) && u32::from(*lo) <= end);
    match class {
        Class::Unicode(set) => set.ranges().iter().any(|r| overlaps(u32::from(r.start()), u32::from(r.end()))),
        Class::Bytes(set) => set.ranges().iter().any(|r| overlaps(u32::from(r.start()), u32::from(r.end()))),
    }
}

/// The longest ASCII literal every match of `hir` contains (empty when there is none).
fn required_literal(hir: &Hir) -> Vec<u8> {
    match hir.kind() {
        HirKind::Literal(literal) => longest(ascii_runs(&literal.0)),
        HirKind::Capture(capture) => required_literal(&capture.sub),
        HirKind::Repetition(repetition) if repetition.min > 0 => required_literal(&repetition.sub),
        HirKind::Concat(parts) => {
            let mut best = Vec::new();
            let mut run = Vec::new();
            for part in parts {
                match part.kind() {
                    // Consecutive literals are contiguous in every match.
                    HirKind::Literal(literal) => {
                        for &byte in literal.0.iter() {
                            if byte.is_ascii() {
                                run.push(byte);
                            } else {
                                keep_longer(&mut best, std::mem::take(&mut run));
                            }
                        }
                    }
                    // An assertion consumes nothing: the literals on either side stay contiguous.
                    HirKind::Look(_) => {}
                    _ => {
                        keep_longer(&mut best, std::mem::take(&mut run));
                        keep_longer(&mut best, required_literal(part));
                    }
                }
            }
            keep_longer(&mut best, run);
            best
        }
        // An alternation requires only what all branches share; none is assumed.
        HirKind::Empty | HirKind::Class(_) | HirKind::Look(_) | HirKind::Repetition(_) | HirKind::Alternation(_) => Vec::new(),
    }
}

fn ascii_runs(bytes: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    bytes.split(|b| !b.is_ascii()).map(<[u8]>::to_vec)
}

fn longest(runs: impl Iterator<Item = Vec<u8>>) -> Vec<u8> {
    runs.fold(Vec::new(), |mut best, run| {
        keep_longer(&mut best, run);
        best
    })
}

fn keep_longer(best: &mut Vec<u8>, candidate: Vec<u8>) {
    if candidate.len() > best.len() {
        *best = candidate;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pinned(pattern: &str) -> Vec<String> {
        regex_facts(pattern).pinned
    }

    fn required(pattern: &str) -> Option<String> {
        regex_facts(pattern).required
    }

    #[test]
    fn pins_only_patterns_that_force_a_leading_word() {
        assert_eq!(pinned(r"^git\b"), ["git"]);
        assert_eq!(pinned(r"^cargo\s+(build|test)"), ["cargo"]);
        assert_eq!(pinned(r"^ls(\s|$)"), ["ls"]);
        assert_eq!(pinned(r"^make "), ["make"]);
        assert_eq!(pinned(r"^ls$"), ["ls"]);
        assert_eq!(pinned(r"^git\-lfs\b"), ["git"]);
        assert_eq!(pinned(r"^git\>"), ["git"]);
        assert_eq!(pinned(r"^git\b{end}"), ["git"]);
        assert_eq!(pinned(r"^git[[:space:]]"), ["git"]);
        assert_eq!(pinned(r"^(git|hg)\b"), ["git", "hg"]);
        assert_eq!(pinned(r"^git\b|^hg\b"), ["git", "hg"]);
        assert_eq!(pinned(r"^rm\s+-rf|^git\s+push\s+--force"), ["rm", "git"]);
        for unpinned in [
            r"^git",
            r"^git\s*x",
            r"git\b",
            r"^git\b|hg\b",
            r"^git\b|^hg",
            r"(?m)^git\b",
            r"^git\B",
            r"^git\<",
            r"^git[a-z ]",
            r"^git\s?",
            r"^\w+\b",
            r"^(?i)git\b",
        ] {
            assert_eq!(pinned(unpinned), Vec::<String>::new(), "{unpinned}");
        }
    }

    #[test]
    fn required_literals_are_only_what_every_match_contains() {
        for (pattern, literal) in [
            (r"mkfs\.", Some("mkfs.")),
            (r"/etc/shadow", Some("/etc/shadow")),
            (r"dd\s+if=/dev/", Some("if=/dev/")),
            (r"rm\s+-rf\s+(/|\.\.)", Some("-rf")),
            (r"^cargo\b", Some("cargo")),
            (r"colou?r", Some("colo")),
            (r"ab+c", Some("a")),
            (r"a|b", None),
            (r"(abc)", Some("abc")),
            (r"[xyz]", None),
            (r"x{2}abc", Some("abc")),
            (r"\d+", None),
            (r"DROP\s+TABLE", Some("TABLE")),
            (r":\(\)\{ :\|:& \};:", Some(":(){ :|:& };:")),
            (r"\x41BC", Some("ABC")),
            (r"(?i)abc", None),
            (r"\u{41}bc", Some("Abc")),
            (r"a\\b", Some("a\\b")),
            (r"\<rm\>", Some("rm")),
            (r"\b{start}sudo", Some("sudo")),
            (r"rm[[:space:]]-rf", Some("-rf")),
            (r"^rm\s+-rf|^git\s+push\s+--force", None),
            (r"caf\xE9", Some("caf")),
            (r"[a&&b]x", None),
        ] {
            assert_eq!(required(pattern).as_deref(), literal, "{pattern}");
        }
    }
}
