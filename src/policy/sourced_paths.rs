//! Sourced path lists — the protected paths, the secret files: entries whose pattern matches a
//! path at any depth (`/**/<entry>`), in both Unicode forms of its case-folded spelling, each
//! with the literal every path it matches contains, and a list's literals in one sieve so that
//! most paths are read once and meet no matcher. Each list keeps its own entries' reasons and
//! sources; what matching them means is here, once.

use super::literal_sieve::LiteralSieve;
use super::matchers::PathPattern;
use super::path::folded_rule_text;
use std::borrow::Cow;

/// One entry's pattern, compiled; or why it does not compile (then it meets every path: an entry
/// that cannot be read fails closed).
#[derive(Debug, Clone)]
pub(crate) struct SourcedPattern {
    matcher: Result<PathPattern, String>,
    /// The pattern in its decomposed (NFD) form, where that differs, for a path's decomposed form
    /// (with its literal).
    decomposed: Option<(PathPattern, String)>,
    /// The pattern's longest run of plain characters within a name (`.vscode`, `.code-workspace`):
    /// a path without it cannot match, so most paths skip the matcher. Measured on an allowed
    /// `edit_file src/app/main.rs` (native, release, minimum of five alternating runs): 450 ns a
    /// decision before protection; 30–35 µs matching all 31 built-in protected entries; 800 ns
    /// with each literal searched first; 470–520 ns with the literals in one sieve read over the
    /// path as written, before it is folded ([`SourcedList::may_name`]).
    literal: String,
}

impl SourcedPattern {
    /// Compiles `pattern`, case-folded as paths are, in both Unicode forms
    /// (`super::path::any_platform_spelling`); a relative pattern matches at any depth.
    pub fn new(pattern: &str) -> Self {
        let anchor = |folded: &str| if folded.starts_with('/') { folded.to_owned() } else { format!("/**/{folded}") };
        let (composed, decomposed) = folded_rule_text(pattern);
        let decomposed = decomposed.and_then(|text| Some((PathPattern::new(&anchor(&text), None).ok()?, required_literal(&text))));
        SourcedPattern { matcher: PathPattern::new(&anchor(&composed), None), decomposed, literal: required_literal(&composed) }
    }

    /// The literal every path it matches contains (lower case); the lists' tests check it.
    #[cfg(test)]
    pub fn literal(&self) -> &str {
        &self.literal
    }

    /// Whether the pattern compiled; the lists' tests check it.
    #[cfg(test)]
    pub fn compiles(&self) -> bool {
        self.matcher.is_ok()
    }

    /// The pattern and its literal for one Unicode form of a path (`decomposed`: its NFD form).
    fn form(&self, decomposed: bool) -> (Result<&PathPattern, &String>, &str) {
        match (&self.decomposed, decomposed) {
            (Some((pattern, literal)), true) => (Ok(pattern), literal.as_str()),
            _ => (self.matcher.as_ref(), self.literal.as_str()),
        }
    }

    /// Whether a path's anchored spelling (see [`anchored`]) can meet the pattern: it holds the
    /// literal, or the pattern does not compile.
    pub fn may_meet(&self, anchored: &str, decomposed: bool) -> bool {
        self.matcher.is_err() || anchored.contains(self.form(decomposed).1)
    }

    /// Whether the pattern matches a path's anchored spelling; `Err` with why, when the pattern
    /// does not compile (it then meets every path).
    pub fn meets(&self, anchored: &str, decomposed: bool) -> Result<bool, &str> {
        match self.form(decomposed).0 {
            Ok(pattern) => Ok(pattern.matches(anchored) == Some(true)),
            Err(error) => Err(error.as_str()),
        }
    }
}

/// A path's spelling as the entries meet it: a relative path lies below some directory.
pub(crate) fn anchored(spelled: &str) -> Cow<'_, str> {
    if spelled.starts_with('/') {
        Cow::Borrowed(spelled)
    } else {
        Cow::Owned(format!("/{spelled}"))
    }
}

/// A list's entries, each with its compiled pattern, and their literals in one sieve.
pub(crate) struct SourcedList<E> {
    entries: Vec<(SourcedPattern, E)>,
    /// Each entry's literal's bit in the sieve; `None` when the sieve could not take it (an empty
    /// literal, or a full sieve): the entry is then a candidate for every path.
    bits: Vec<Option<u32>>,
    sieve: LiteralSieve,
    /// Some entry is a candidate for every path (its bit is `None`).
    always_candidate: bool,
}

impl<E> SourcedList<E> {
    /// The list of `(pattern, entry)`, in order: the first entry a path meets is the one it names.
    pub fn new<'p>(entries: impl IntoIterator<Item = (&'p str, E)>) -> Self {
        let mut sieve = LiteralSieve::default();
        let mut bits = Vec::new();
        let entries: Vec<(SourcedPattern, E)> = entries
            .into_iter()
            .map(|(pattern, entry)| {
                let pattern = SourcedPattern::new(pattern);
                bits.push(if pattern.literal.is_empty() { None } else { sieve.add(&pattern.literal, true) });
                (pattern, entry)
            })
            .collect();
        let always_candidate = bits.iter().any(Option::is_none);
        SourcedList { entries, bits, sieve, always_candidate }
    }

    /// Every entry with its pattern, in order.
    pub fn entries(&self) -> impl Iterator<Item = &(SourcedPattern, E)> {
        self.entries.iter()
    }

    /// Whether `text` (a path, or a whole command line) may name an entry: false only when it is
    /// ASCII and holds no entry's literal in any case, so nothing in it can, whatever its spelling.
    pub fn may_name(&self, text: &str) -> bool {
        !text.is_ascii() || self.always_candidate || self.sieve.present(text) != 0
    }

    /// The entries whose literal a path's anchored spelling holds (with those the sieve could
    /// not take), in order: the only ones it can meet.
    pub fn candidates<'l>(&'l self, anchored: &str) -> impl Iterator<Item = &'l (SourcedPattern, E)> + 'l {
        let present = self.sieve.present(anchored);
        self.entries.iter().zip(&self.bits).filter(move |(_, bit)| bit.is_none_or(|bit| present & (1u64 << bit) != 0)).map(|(e, _)| e)
    }
}

/// The longest run of characters a glob reads literally within one name: every path the
/// pattern matches contains it (lower case, as patterns and paths are compared).
pub(crate) fn required_literal(pattern: &str) -> String {
    let mut runs = vec![String::new()];
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            // A class stands for one unknown character: skip to its end.
            '[' => {
                // As the matcher reads a class: `!` or `^` negates, a `]` first is a member.
                let mut first = true;
                for inner in chars.by_ref() {
                    if first && matches!(inner, '!' | '^') {
                        continue;
                    }
                    if inner == ']' && !first {
                        break;
                    }
                    first = false;
                }
                runs.push(String::new());
            }
            // An escaped character is literal, but taken as unknown here: shorter is still sound.
            '\\' => {
                chars.next();
                runs.push(String::new());
            }
            // A segment's end: a run inside one name survives every spelling of the separators
            // and trailing dots or spaces around it.
            '*' | '?' | '/' => runs.push(String::new()),
            other => runs.last_mut().into_iter().for_each(|run| run.push(other)),
        }
    }
    runs.into_iter().max_by_key(String::len).unwrap_or_default().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::path::any_platform_spelling;

    /// The required literal never skips a path its pattern matches: random patterns and paths
    /// from a small alphabet, matched with and without the check.
    #[test]
    fn the_required_literal_never_skips_a_match() {
        let mut next = crate::test_support::random_below(0x51EF_0001);
        let pattern_pieces = ["a", ".b", "*", "**", "?", "[ab]", "[]a]", "[!a]b", "[^]]", "/", "c.d", "\\*", "x"];
        let path_pieces = ["a", ".b", "/", "c.d", "x", "ab", "*", "A", "b", "]"];
        let mut matched = 0;
        for _ in 0..20_000 {
            let pattern: String = (0..1 + next(5)).map(|_| pattern_pieces[next(pattern_pieces.len())]).collect();
            let path: String = (0..1 + next(7)).map(|_| path_pieces[next(path_pieces.len())]).collect();
            let compiled = SourcedPattern::new(&pattern);
            let mut spelled = any_platform_spelling(&path).composed().to_owned();
            if !spelled.starts_with('/') {
                spelled.insert(0, '/');
            }
            if compiled.meets(&spelled, false) == Ok(true) {
                matched += 1;
                assert!(spelled.contains(compiled.literal()), "{pattern:?} matches {path:?} but {:?} is not in it", compiled.literal());
            }
        }
        assert!(matched > 500, "only {matched} matches: the test would not see a wrong literal");
    }
}
