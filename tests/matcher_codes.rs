//! The matcher kinds' one table, `MatcherKind::ALL`, on both sides of the result tape: tape.rs
//! writes a suggestion's kind as its code (its place in the table), and tape.js, which cannot read
//! the Rust table, spells out the field of each code it reads. Every code tape.js reads must name
//! the field the table gives that code.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use toolgate::policy::MatcherKind;

/// `(code, field)` for every `case N: return { field: pattern };` of tape.js's `readSuggestedRule`.
fn codes_tape_js_reads() -> Vec<(u8, String)> {
    let source = include_str!("../src/bindings/tape.js");
    let start = source.find("function readSuggestedRule(").expect("tape.js reads a suggestion's rule");
    let body = &source[start..];
    let body = &body[..body.find("default:").expect("the reader refuses an unknown code")];
    body.lines()
        .filter_map(|line| {
            let case = line.trim().strip_prefix("case ")?;
            let (code, rest) = case.split_once(':')?;
            let field = rest.trim().strip_prefix("return {")?.trim().split([':', ' ', '}']).next()?;
            Some((code.trim().parse().expect("a numeric code"), field.to_owned()))
        })
        .collect()
}

#[test]
fn every_code_tape_js_reads_names_the_field_the_table_gives_it() {
    let read = codes_tape_js_reads();
    assert!(!read.is_empty(), "no case of readSuggestedRule was found");
    for (code, field) in &read {
        let (kind, table_field) = MatcherKind::ALL.iter().find(|(kind, _)| kind.code() == *code).expect("a code of the table");
        assert_eq!(field, table_field, "tape.js reads code {code} as `{field}`, the table as {kind:?}'s `{table_field}`");
    }
}

#[test]
fn every_kind_a_suggestion_takes_is_read_by_tape_js() {
    // The kinds "always allow" suggestions and permission options make.
    let read: Vec<u8> = codes_tape_js_reads().into_iter().map(|(code, _)| code).collect();
    for kind in [MatcherKind::Regex, MatcherKind::Prefix, MatcherKind::Mcp, MatcherKind::ToolAction] {
        assert!(read.contains(&kind.code()), "tape.js does not read {kind:?} (code {})", kind.code());
    }
}

#[test]
fn codes_are_places_in_the_table() {
    for (at, (kind, _)) in MatcherKind::ALL.iter().enumerate() {
        assert_eq!(usize::from(kind.code()), at + 1, "{kind:?}");
    }
    assert_eq!(MatcherKind::Unknown.code(), 0);
}
