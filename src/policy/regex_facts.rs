//! What every match of a regex rule must have, read from regex-syntax's parse of the pattern:
//! the leading words it pins (for the word index) and a literal it contains (for the prefilter).
//!
//! These facts let a rule be skipped without running it, so each must hold for *every* match,
//! or a deny rule would silently never fire. They are read from the parsed form, never from the
//! pattern's text, and anything the analysis does not model — inline flags, Unicode classes,
//! class set operations, a pattern regex-syntax cannot read — yields no fact: the rule is then
//! run against every item. Tests compare rule sets built on these facts with regex-lite's own
//! `is_match` over random patterns and texts.
//!
//! The syntax tree (regex-syntax's `ast`), not its high-level form: the translator to the latter
//! would add 34 KB (gzipped, before wasm-opt) to the engine module for nothing the facts need. A
//! literal's `c` is the character regex-lite reads (`\xE9` is `é`), and regex-lite's classes and
//! case folding are ASCII, which is all the analysis looks at.

use regex_syntax::ast::{
    Assertion, AssertionKind, Ast, ClassAsciiKind, ClassBracketed, ClassPerlKind, ClassSet, ClassSetItem, GroupKind, RepetitionKind,
    RepetitionRange,
};

/// At most this many pinned words per rule; a pattern spelling out more is left unindexed.
const MAX_PINNED_WORDS: usize = 16;

/// At most this many steps of the search for pinned words: a pattern of nested alternations
/// beyond it pins none.
const PINNED_WORD_STEPS: usize = 256;

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

/// Reads the facts of a pattern regex-lite compiled; a pattern regex-syntax cannot read, or with
/// inline flags (which change what `^`, `$`, literals and spaces mean), has none. A rule that
/// ignores case is read as written and its facts folded by the caller: regex-lite folds ASCII
/// only, so a folded match contains the folded literal.
pub fn regex_facts(pattern: &str) -> RegexFacts {
    let parsed = regex_syntax::ast::parse::ParserBuilder::new().nest_limit(64).build().parse(pattern);
    let Ok(ast) = parsed else { return RegexFacts::default() };
    if has_flags(&ast) {
        return RegexFacts::default();
    }
    let pinned = pinned_words(&ast).unwrap_or_default();
    let required = Some(required_literal(&ast)).filter(|l| !l.is_empty());
    RegexFacts { pinned, required }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether any part of the pattern sets flags (`(?i)`, `(?m:…)`, `(?x)`).
fn has_flags(ast: &Ast) -> bool {
    match ast {
        Ast::Flags(_) => true,
        Ast::Group(group) => match &group.kind {
            GroupKind::NonCapturing(flags) => !flags.items.is_empty() || has_flags(&group.ast),
            _ => has_flags(&group.ast),
        },
        Ast::Repetition(repetition) => has_flags(&repetition.ast),
        Ast::Alternation(alternation) => alternation.asts.iter().any(has_flags),
        Ast::Concat(concat) => concat.asts.iter().any(has_flags),
        _ => false,
    }
}

/// The fewest times a repetition repeats.
fn min_repeats(kind: &RepetitionKind) -> u32 {
    match kind {
        RepetitionKind::ZeroOrOne | RepetitionKind::ZeroOrMore => 0,
        RepetitionKind::OneOrMore => 1,
        RepetitionKind::Range(RepetitionRange::Exactly(n) | RepetitionRange::AtLeast(n) | RepetitionRange::Bounded(n, _)) => *n,
    }
}

/// The words every match of `ast` starts with at the start of the text, or `None`.
fn pinned_words(ast: &Ast) -> Option<Vec<String>> {
    let mut steps = PINNED_WORD_STEPS;
    let mut words = from_start(&[ast], &mut steps)?;
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
fn from_start(parts: &[&Ast], steps: &mut usize) -> Option<Vec<String>> {
    *steps = steps.checked_sub(1)?;
    let (first, rest) = parts.split_first()?;
    match first {
        Ast::Assertion(assertion) if matches!(assertion.kind, AssertionKind::StartLine | AssertionKind::StartText) => {
            after_start(String::new(), rest, steps)
        }
        Ast::Group(group) => from_start(&[&[&*group.ast], rest].concat(), steps),
        Ast::Concat(concat) => from_start(&[concat.asts.iter().collect(), rest.to_vec()].concat(), steps),
        Ast::Alternation(alternation) => each_branch(&alternation.asts, rest, steps, from_start),
        _ => None,
    }
}

/// The union of what `then` finds for each branch followed by `rest`, or `None` if one finds
/// nothing or there are too many words.
fn each_branch(
    branches: &[Ast],
    rest: &[&Ast],
    steps: &mut usize,
    mut then: impl FnMut(&[&Ast], &mut usize) -> Option<Vec<String>>,
) -> Option<Vec<String>> {
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
fn after_start(mut word: String, parts: &[&Ast], steps: &mut usize) -> Option<Vec<String>> {
    *steps = steps.checked_sub(1)?;
    let pinned = |word: String| (!word.is_empty()).then(|| vec![word]);
    match parts.split_first() {
        Some((Ast::Literal(literal), rest)) if is_word(literal.c) => {
            word.push(literal.c);
            after_start(word, rest, steps)
        }
        // A character that is no word character ends the word.
        Some((Ast::Literal(_), _)) => pinned(word),
        Some((Ast::Group(group), rest)) => after_start(word, &[&[&*group.ast], rest].concat(), steps),
        Some((Ast::Concat(concat), rest)) => after_start(word, &[concat.asts.iter().collect(), rest.to_vec()].concat(), steps),
        Some((Ast::Alternation(alternation), rest)) => {
            each_branch(&alternation.asts, rest, steps, |parts, steps| after_start(word.clone(), parts, steps))
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
fn next_char<'a>(parts: impl IntoIterator<Item = &'a Ast>) -> (bool, bool) {
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

fn next_char_of(ast: &Ast) -> (bool, bool) {
    match ast {
        Ast::Empty(_) | Ast::Flags(_) => (false, true),
        Ast::Literal(literal) => (is_word(literal.c), false),
        Ast::Dot(_) | Ast::ClassUnicode(_) => (true, false),
        Ast::ClassPerl(class) => (class.negated || class.kind != ClassPerlKind::Space, false),
        Ast::ClassBracketed(class) => (bracketed_may_hold_word(class), false),
        Ast::Assertion(assertion) => (false, !ends_word(assertion)),
        Ast::Group(group) => next_char_of(&group.ast),
        Ast::Repetition(repetition) => {
            let (word, open) = next_char_of(&repetition.ast);
            (word, open || min_repeats(&repetition.op.kind) == 0)
        }
        Ast::Concat(concat) => next_char(&concat.asts),
        Ast::Alternation(alternation) => {
            alternation.asts.iter().map(next_char_of).fold((false, false), |(word, open), (w, o)| (word || w, open || o))
        }
    }
}

/// Whether, after a word character, the assertion means the next character is none or no word
/// character (`$`, `\z`, `\b`, `\b{end}`, `\>`, `\b{end-half}`).
fn ends_word(assertion: &Assertion) -> bool {
    matches!(
        assertion.kind,
        AssertionKind::EndLine
            | AssertionKind::EndText
            | AssertionKind::WordBoundary
            | AssertionKind::WordBoundaryEnd
            | AssertionKind::WordBoundaryEndAngle
            | AssertionKind::WordBoundaryEndHalf
    )
}

/// Whether a bracketed class may match an ASCII word character; `true` when in doubt (negated
/// classes, set operations, Unicode classes).
fn bracketed_may_hold_word(class: &ClassBracketed) -> bool {
    class.negated
        || match &class.kind {
            ClassSet::Item(item) => item_may_hold_word(item),
            ClassSet::BinaryOp(_) => true,
        }
}

fn item_may_hold_word(item: &ClassSetItem) -> bool {
    match item {
        ClassSetItem::Empty(_) => false,
        ClassSetItem::Literal(literal) => is_word(literal.c),
        ClassSetItem::Range(range) => {
            let (start, end) = (range.start.c, range.end.c);
            [('0', '9'), ('A', 'Z'), ('a', 'z'), ('_', '_')].iter().any(|(lo, hi)| start <= *hi && *lo <= end)
        }
        // `[:punct:]` holds `_`; only these two hold no word character.
        ClassSetItem::Ascii(ascii) => ascii.negated || !matches!(ascii.kind, ClassAsciiKind::Space | ClassAsciiKind::Blank),
        ClassSetItem::Unicode(_) => true,
        ClassSetItem::Perl(perl) => perl.negated || perl.kind != ClassPerlKind::Space,
        ClassSetItem::Bracketed(inner) => bracketed_may_hold_word(inner),
        ClassSetItem::Union(union) => union.items.iter().any(item_may_hold_word),
    }
}

/// The longest ASCII literal every match of `ast` contains (empty when there is none).
fn required_literal(ast: &Ast) -> String {
    match ast {
        Ast::Literal(literal) if literal.c.is_ascii() => literal.c.to_string(),
        Ast::Group(group) => required_literal(&group.ast),
        Ast::Repetition(repetition) if min_repeats(&repetition.op.kind) > 0 => required_literal(&repetition.ast),
        Ast::Concat(concat) => {
            let mut best = String::new();
            let mut run = String::new();
            for part in &concat.asts {
                match part {
                    // Consecutive literals are contiguous in every match.
                    Ast::Literal(literal) if literal.c.is_ascii() => run.push(literal.c),
                    // An assertion consumes nothing: the literals on either side stay contiguous.
                    Ast::Assertion(_) => {}
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
        _ => String::new(),
    }
}

fn keep_longer(best: &mut String, candidate: String) {
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
            r"(?m)^git\b",
            r"^git[[:punct:]]",
            r"^git[^ ]",
            r"^git[a&&b]",
            r"^git\b|(?i)^hg\b",
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
            (r"(?i:a)bcd", None),
            (r"ab(?-i)cd", None),
            (r"\u{41}bc", Some("Abc")),
            (r"a\\b", Some("a\\b")),
            (r"\<rm\>", Some("rm")),
            (r"\b{start}sudo", Some("sudo")),
            (r"rm[[:space:]]-rf", Some("-rf")),
            (r"^rm\s+-rf|^git\s+push\s+--force", None),
            (r"caf\xE9", Some("caf")),
            (r"caf\xE9s", Some("caf")),
            (r"[a&&b]x", Some("x")),
        ] {
            assert_eq!(required(pattern).as_deref(), literal, "{pattern}");
        }
    }
}
