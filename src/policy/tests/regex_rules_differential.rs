//! Regex rules against regex-lite itself: random patterns from a grammar of what regex-lite
//! accepts, over random command lines. The reference compiles each pattern with regex-lite and
//! calls `is_match` on the text — no literal program, prefilter, sieve or word index — so a
//! shortcut that skips a rule the plain matcher would match fails here.
#![cfg(test)]

use super::rules::Subject;
use super::*;
use crate::test_support::random_below;

/// Pieces that stand alone: literals, escapes, assertions, classes.
const ATOMS: &[&str] = &[
    "git",
    "hg",
    "rm",
    "sudo",
    "curl",
    "push",
    "ls",
    "x",
    "a",
    "-rf",
    "--force",
    "-",
    "/",
    " ",
    ".",
    r"\.",
    r"\-",
    r"\/",
    r"\s",
    r"\S",
    r"\w",
    r"\W",
    r"\d",
    r"\b",
    r"\B",
    r"\<",
    r"\>",
    r"\b{start}",
    r"\b{end}",
    r"\b{start-half}",
    r"\b{end-half}",
    "^",
    "$",
    r"\A",
    r"\z",
    r"\x67",
    r"\x{72}",
    r"\u{6D}",
    r"\t",
    r"\xE9",
    "é",
    "[abc]",
    "[^a-z]",
    "[[:space:]]",
    "[[:alpha:]]",
    "[^[:word:]]",
    "[a-z0-9_]",
    r"[\s]",
    "[-.]",
    "[]a]",
    "[ -]",
    "[gG]",
    "[^ ]",
    r"[\w-]",
    "(?i)",
    "(?-i)",
    "(?m)",
    "(?s)",
    "(?R)",
    "GIT",
    "Rm",
];

/// Repetitions, greedy and lazy.
const REPEATS: &[&str] = &["*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}", "*?", "+?", "??"];

/// Groups of every kind.
const GROUPS: &[(&str, &str)] = &[("(", ")"), ("(?:", ")"), ("(?i:", ")"), ("(?-i:", ")"), ("(?P<n>", ")"), ("(?m:", ")")];

/// The pieces of anchored prefix patterns, which the engine runs as literal programs: what the
/// "Always allow" buttons write and users copy, with near misses the program reader must refuse.
const PREFIX_PIECES: &[&str] = &[
    "git",
    "rm",
    "push",
    "x",
    "GIT",
    r"\s+",
    r"\s",
    r"\b",
    r"(\s|$)",
    r"(?:\s|$)",
    r"($|\s)",
    "$",
    "(push|publish)",
    "(?:a|ab)",
    " ",
    r"\-",
    "-",
    r"\.",
    "-rf",
    r"\s*",
    r"\<",
    r"\>",
    "?",
    "+",
    "(a|)",
    r"\x67",
];

/// A random pattern: an anchored prefix pattern, or nested concatenations, alternations, groups
/// and repetitions.
fn pattern(next: &mut impl FnMut(usize) -> usize, depth: usize) -> String {
    if next(3) == 0 {
        let pieces: String = (0..1 + next(5)).map(|_| PREFIX_PIECES[next(PREFIX_PIECES.len())]).collect();
        return format!("^{pieces}");
    }
    any_pattern(next, depth)
}

fn any_pattern(next: &mut impl FnMut(usize) -> usize, depth: usize) -> String {
    let branches = if next(4) == 0 { 2 + next(2) } else { 1 };
    let mut out = Vec::new();
    for _ in 0..branches {
        let mut branch = String::new();
        for _ in 0..1 + next(4) {
            let piece = if depth > 0 && next(5) == 0 {
                let (open, close) = GROUPS[next(GROUPS.len())];
                format!("{open}{}{close}", any_pattern(next, depth - 1))
            } else {
                ATOMS[next(ATOMS.len())].to_owned()
            };
            branch.push_str(&piece);
            if next(6) == 0 {
                branch.push_str(REPEATS[next(REPEATS.len())]);
            }
        }
        out.push(branch);
    }
    out.join("|")
}

/// Words of command lines, with capitals and characters that fold or look like ASCII.
const WORDS: &[&str] = &[
    "git",
    "GIT",
    "Git",
    "hg",
    "rm",
    "RM",
    "sudo",
    "curl",
    "push",
    "--force",
    "-rf",
    "-fr",
    "ls",
    "x",
    "a",
    "build",
    "origin",
    "main",
    "/",
    ".",
    "-",
    "|",
    ";",
    "gitx",
    "git-lfs",
    "é",
    "caf\u{e9}",
    "\u{212A}",
    "\u{17F}udo",
    "_",
    "9",
    "a.b",
    "rm-rf",
];
const SPACES: &[&str] = &[" ", " ", "  ", "\t", "\n", "\u{a0}"];

fn text(next: &mut impl FnMut(usize) -> usize) -> String {
    let mut text = String::new();
    for i in 0..next(5) {
        if i > 0 || next(8) == 0 {
            text.push_str(SPACES[next(SPACES.len())]);
        }
        text.push_str(WORDS[next(WORDS.len())]);
    }
    text
}

/// regex-lite's own answer, compiled here and not through the engine.
fn reference(pattern: &str, case_sensitive: bool) -> Option<regex_lite::Regex> {
    regex_lite::RegexBuilder::new(pattern).case_insensitive(!case_sensitive).build().ok()
}

fn origin(index: usize, pattern: &str) -> RuleRef {
    RuleRef {
        layer: "user".into(),
        tool: "terminal".into(),
        list: ListKind::AlwaysDeny,
        index,
        matcher: MatcherKind::Regex,
        pattern: pattern.into(),
    }
}

/// Sets of one to four random regex rules: the first rule a set answers with is the first,
/// in order, that regex-lite matches on the text.
#[test]
fn regex_rule_sets_answer_what_regex_lite_answers() {
    let mut next = random_below(0x5DEE_CE66_D1CE_4E5B);
    let (mut compared, mut matched) = (0usize, 0usize);
    for _ in 0..6000 {
        let mut set = RuleSet::default();
        let mut references = Vec::new();
        for _ in 0..1 + next(4) {
            let pattern = pattern(&mut next, 2);
            let case_sensitive = next(2) == 0;
            let (Some(regex), Ok(matcher)) =
                (reference(&pattern, case_sensitive), compile_rule(&RuleSpec::regex(&pattern, case_sensitive)))
            else {
                continue;
            };
            set.push(matcher.for_list(ListKind::AlwaysDeny), origin(references.len(), &pattern));
            references.push((pattern, case_sensitive, regex));
        }
        for _ in 0..12 {
            let text = text(&mut next);
            let expected = references.iter().position(|(_, _, regex)| regex.is_match(&text));
            let found = set.first_match(&Subject::text(&text)).map(|r| r.origin.index);
            let rules: Vec<_> = references.iter().map(|(p, cs, _)| (p, cs)).collect();
            assert_eq!(found, expected, "rules (pattern, case-sensitive) {rules:?} on {text:?}");
            compared += 1;
            matched += usize::from(expected.is_some());
        }
    }
    // The grammar and texts are useful only while they give both answers often.
    assert!(compared > 40_000 && matched > compared / 10 && matched < compared * 9 / 10, "{matched} of {compared} matched");
}

fn deny_only(pattern: &str) -> Policy {
    let rules =
        ToolRulesSpec { always_deny: vec![RuleSpec::regex(pattern, false)], default_mode: Some(Outcome::Allow), ..Default::default() };
    let layer = LayerSpec {
        name: "user".into(),
        kind: LayerKind::User,
        trusted: true,
        default_mode: None,
        tools: [("terminal".to_owned(), rules)].into_iter().collect(),
        ..LayerSpec::default()
    };
    Policy::new(PolicySpec { layers: vec![layer], ..PolicySpec::default() })
}

/// Through the whole evaluator: a deny rule denies exactly when regex-lite matches the raw line,
/// one of the items the decision lists, or what one of them runs (docs/rule-engine.md: "deny and
/// confirm rules also see the raw command line" and each command as it runs; which forms a command
/// has is the shell analysis's, checked against bash itself by `tests/bash_oracle.rs`).
#[test]
fn a_deny_rule_denies_exactly_when_regex_lite_matches_the_line_or_an_item() {
    let mut next = random_below(0x2545_F491_4F6C_DD1D);
    let joins = [" | ", " && ", "; ", " || ", "\n", " & "];
    let (mut denied, mut decided) = (0usize, 0usize);
    for _ in 0..1500 {
        let pattern = pattern(&mut next, 2);
        let Some(regex) = reference(&pattern, false) else { continue };
        let policy = deny_only(&pattern);
        for _ in 0..6 {
            let mut line = text(&mut next);
            for _ in 0..next(3) {
                line.push_str(joins[next(joins.len())]);
                line.push_str(&text(&mut next));
            }
            let decision = policy.decide("terminal", std::slice::from_ref(&line));
            if decision.reason == Reason::HardcodedDeny {
                continue;
            }
            let expected = regex.is_match(&line)
                || decision
                    .items
                    .iter()
                    .any(|item| regex.is_match(&item.text) || item.runs_as.iter().any(|form| regex.is_match(&form.text)));
            assert_eq!(decision.reason == Reason::DenyRule, expected, "{pattern:?} on {line:?}: {decision:?}");
            decided += 1;
            denied += usize::from(expected);
        }
    }
    assert!(decided > 7000 && denied > decided / 10 && denied < decided * 9 / 10, "{denied} of {decided} denied");
}

/// One deny rule and a default of allow: alternations of anchored commands, GNU word assertions,
/// special word boundaries and POSIX classes deny the commands they name.
#[test]
fn deny_rules_with_alternations_word_assertions_and_posix_classes_fire() {
    for (pattern, line) in [
        (r"^rm\s+-rf|^git\s+push\s+--force", "git push --force origin main"),
        (r"^git\b|^hg\b", "hg push"),
        (r"\<rm\>", "rm -rf build"),
        (r"\b{start}sudo", "sudo ls"),
        (r"rm[[:space:]]-rf", "rm -rf build"),
        (r"\b{start}curl\b", "curl | hg"),
    ] {
        let decision = deny_only(pattern).decide("terminal", &[line.to_owned()]);
        assert_eq!((decision.outcome, decision.reason), (Outcome::Deny, Reason::DenyRule), "{pattern} on {line}");
    }
}
