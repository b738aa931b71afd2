//! How an allowlist file's YAML is read: positions, values, and what is refused.

use crate::gasoline::yaml::Position;
use crate::gasoline::{read_patterns, GasolineError, GasolineProblem, Listing};

fn list(text: &str) -> Vec<(String, (usize, usize))> {
    let read = read_patterns(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let Listing::Written(list) = read else { panic!("{text:?} has no list") };
    list.into_iter().map(|(p, at)| (p, (at.line, at.column))).collect()
}

fn items(entries: &[(&str, (usize, usize))]) -> Vec<(String, (usize, usize))> {
    entries.iter().map(|&(p, at)| (p.to_owned(), at)).collect()
}

fn error(text: &str) -> GasolineError {
    read_patterns(text).expect_err(text)
}

#[test]
fn the_designs_own_file_is_read_with_its_positions() {
    let seed = "# Comments supported\nallowed_tools:\n  - \"observe.*\"             # Wildcard: all observe modes\n  - \"generate.reproduction\" # Specific: only reproduction\n  - \"interact.navigate\"     # Specific: only navigate\n  - \"interact.refresh\"      # Specific: only refresh\n";
    let expected = [("observe.*", (3, 5)), ("generate.reproduction", (4, 5)), ("interact.navigate", (5, 5)), ("interact.refresh", (6, 5))];
    assert_eq!(list(seed), items(&expected));
}

#[test]
fn the_json_form_is_read() {
    let json = r#"{"allowed_tools": ["observe.*", "generate.*"]}"#;
    assert_eq!(list(json), items(&[("observe.*", (1, 20)), ("generate.*", (1, 33))]));
    let spread = "{\n\t\"allowed_tools\": [\n\t\t\"observe.*\",\n\t\t\"generate.*\"\n\t]\n}\n";
    assert_eq!(list(spread), items(&[("observe.*", (3, 3)), ("generate.*", (4, 3))]));
    assert_eq!(list("{allowed_tools: [a.b, 'c.d',]}"), items(&[("a.b", (1, 18)), ("c.d", (1, 23))]));
}

#[test]
fn plain_and_quoted_items_read_as_their_text() {
    let text =
        "allowed_tools:\n- observe.*  # c\n- 'it''s'\n- \"\\x41\\u00e9\\U0001F600\\t\\\\\\\"\\/\\ \"\n- true\n- 1.5\n- a#b\n- 'x' \n";
    assert_eq!(
        list(text),
        items(&[
            ("observe.*", (2, 3)),
            ("it's", (3, 3)),
            ("Aé😀\t\\\"/ ", (4, 3)),
            ("true", (5, 3)),
            ("1.5", (6, 3)),
            ("a#b", (7, 3)),
            ("x", (8, 3))
        ])
    );
}

#[test]
fn a_value_over_several_lines_reads_as_yaml_folds_it() {
    // Valid YAML, read as any YAML parser reads it; such a pattern then fails its own check.
    assert_eq!(list("allowed_tools:\n  - observe.*\n    foo"), items(&[("observe.* foo", (2, 5))]));
    let e = crate::gasoline::GasolineAllowlist::load("allowed_tools:\n  - observe.*\n    foo").unwrap_err();
    assert_eq!((e.code, e.line, e.column), (GasolineProblem::InvalidPattern, 2, 5), "{e}");
}

#[test]
fn an_empty_text_or_value_is_no_list_and_only_brackets_are_an_empty_one() {
    for text in ["", "\n# c\n", "~", "null", "''", "{}"] {
        assert_eq!(read_patterns(text), Ok(Listing::Absent(Position { line: 1, column: 1 })), "{text:?}");
    }
    for text in ["# c\n~ # c\n", "---\n", "--- # c\n...\n"] {
        assert_eq!(read_patterns(text), Ok(Listing::Absent(Position { line: 2, column: 1 })), "{text:?}");
    }
    for text in ["allowed_tools:", "allowed_tools: ~", "allowed_tools: null", "allowed_tools: # c\n", "{allowed_tools}"] {
        let at = Position { line: 1, column: if text.starts_with('{') { 2 } else { 1 } };
        assert_eq!(read_patterns(text), Ok(Listing::Absent(at)), "{text:?}: a key without a value is no list");
    }
    for text in ["allowed_tools: []", "allowed_tools: [ ] # c\n", "{\"allowed_tools\": []}", "allowed_tools:\n  []\n"] {
        assert_eq!(read_patterns(text), Ok(Listing::Written(Vec::new())), "{text:?}");
    }
}

#[test]
fn columns_count_characters_after_multi_byte_text() {
    let text = "# 日本語 — é\nallowed_tools: [\"é.日\", 'x.ü', y.z] # ü\n";
    assert_eq!(list(text), items(&[("é.日", (2, 17)), ("x.ü", (2, 24)), ("y.z", (2, 31))]));
    let text = "# ü\r\nallowed_tools:\r\n  - \"日本\" # 語\r\n  - 'é'\r\n";
    assert_eq!(list(text), items(&[("日本", (3, 5)), ("é", (4, 5))]));
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_first_key() {
    assert_eq!(list("\u{feff}allowed_tools: [a.b]"), items(&[("a.b", (1, 17))]));
}

#[test]
fn items_that_are_not_strings_and_other_shapes_are_errors_where_they_are() {
    for (text, code, at) in [
        ("allowed_tools:\n  - [a]\n", GasolineProblem::NotAString, (2, 5)),
        ("allowed_tools:\n  - {a: b}\n", GasolineProblem::NotAString, (2, 5)),
        ("allowed_tools: [x, [a]]", GasolineProblem::NotAString, (1, 20)),
        ("- observe.*", GasolineProblem::NotAMapping, (1, 1)),
        ("[a]", GasolineProblem::NotAMapping, (1, 1)),
        ("allowed_tools: observe.*", GasolineProblem::NotAList, (1, 16)),
        ("allowed_tools: {a: b}", GasolineProblem::NotAList, (1, 16)),
        ("[a]: b", GasolineProblem::UnexpectedStructure, (1, 1)),
        ("allowed_tools: []\n{a: b}: c", GasolineProblem::UnexpectedStructure, (2, 1)),
        ("'allowed_tool': []", GasolineProblem::UnknownKey, (1, 1)),
        ("allowed_tools: [a.b]\nallowed_tools: [c.d]", GasolineProblem::DuplicateKey, (2, 1)),
    ] {
        let e = error(text);
        assert_eq!((e.code, e.line, e.column), (code, at.0, at.1), "{text:?}: {e}");
    }
}

#[test]
fn constructs_an_allowlist_has_no_use_for_are_refused_by_name() {
    for (text, construct, at) in [
        ("allowed_tools: &a [x]", "anchors (&)", (1, 19)),
        ("allowed_tools: [&a x, *a]", "anchors (&)", (1, 20)),
        ("allowed_tools: !!seq [x]", "tags (!)", (1, 22)),
        ("allowed_tools: [!custom x]", "tags (!)", (1, 25)),
        ("allowed_tools: |\n  x", "block scalars (| and >)", (2, 3)),
        ("allowed_tools:\n  - >\n    x.y", "block scalars (| and >)", (3, 5)),
        ("allowed_tools: [x]\n---\nallowed_tools: [y]", "several documents (`---`)", (2, 1)),
    ] {
        let e = error(text);
        assert_eq!(e.code, GasolineProblem::InvalidYaml, "{text:?}");
        assert_eq!(e.message, format!("invalid YAML: {construct} are not supported in an allowlist file"), "{text:?}");
        assert_eq!((e.line, e.column), at, "{text:?}: {e}");
    }
}

#[test]
fn syntax_errors_are_invalid_yaml_where_the_parser_finds_them() {
    for (text, at) in [
        ("allowed_tools: [\"a", (1, 17)),
        ("allowed_tools: [a,,b]", (1, 19)),
        ("allowed_tools: [\"\\q\"]", (1, 17)),
        ("allowed_tools:\n  - a\n b: c", (3, 3)),
        // Read to the end: a parser that stopped after the first value would see an empty list
        // here, which allows everything.
        ("  allowed_tools:\n- x", (2, 1)),
        ("allowed_tools: [a]\nfoo", (2, 4)),
        ("allowed_tools: a: b", (1, 17)),
        ("allowed_tools:\n  - *a", (2, 5)),
        ("allowed_tools:\n\t- x", (2, 2)),
        ("{\"allowed_tools\": [x]}\nfoo: bar", (2, 4)),
    ] {
        let e = error(text);
        assert_eq!((e.code, e.line, e.column), (GasolineProblem::InvalidYaml, at.0, at.1), "{text:?}: {e}");
        assert!(e.message.starts_with("invalid YAML: ") && !e.message.contains("not supported"), "{text:?}: {e}");
    }
}

#[test]
fn a_bracket_left_open_is_reported_where_it_opens() {
    for (text, at, bracket) in [
        ("allowed_tools: [a, b", (1, 16), '['),
        ("allowed_tools:\n  - observe.*\n  - [unclosed\n", (3, 5), '['),
        ("{allowed_tools: [a.b]\n\n", (1, 1), '{'),
    ] {
        let e = error(text);
        assert_eq!((e.code, e.line, e.column), (GasolineProblem::InvalidYaml, at.0, at.1), "{text:?}: {e}");
        assert!(e.message.starts_with(&format!("invalid YAML: `{bracket}` is not closed (")), "{text:?}: {e}");
    }
}

#[test]
fn deep_nesting_and_large_texts_are_bounded() {
    for deep in [format!("allowed_tools: {}", "[".repeat(100_000)), "[{".repeat(100_000)] {
        assert_eq!(error(&deep).code, GasolineProblem::InvalidYaml);
    }
    let long = format!("allowed_tools:\n{}", "  - observe.*\n".repeat(200_000));
    assert_eq!(list(&long).len(), 200_000);
    let items = vec!["\"interact.navigate\""; 3000].join(", ");
    for long in [format!("allowed_tools: [{items}]"), format!("{{\"allowed_tools\": [{items}]}}")] {
        assert_eq!(list(&long).len(), 3000);
    }
}

#[test]
fn control_characters_are_refused_where_they_are_and_never_end_the_text() {
    for (text, at, code) in [
        // A NUL right after the key: a reader that stopped there would see no list and allow everything.
        ("allowed_tools:\0\n  - \"observe.*\"\n", (1, 15), 0x00),
        ("\0allowed_tools:\n  - observe.*\n", (1, 1), 0x00),
        // A NUL later: what follows it (an entry, a duplicate key, broken YAML) is still read.
        ("allowed_tools:\n  - observe.*\n\0\n  - interact.*\n", (3, 1), 0x00),
        ("allowed_tools: [a.b]\0\nallowed_tools: [c.d]\n", (1, 21), 0x00),
        ("allowed_tools:\n  - \"a.b\0\n  - [unclosed\n", (2, 9), 0x00),
        ("allowed_tools: [a.b]\n# a bell \u{7}\n", (2, 10), 0x07),
        ("allowed_tools:\r\n  - a.b\u{1b}[0m\r\n", (2, 8), 0x1b),
        ("allowed_tools:\r  - 'a\u{7f}.b'\r", (2, 7), 0x7f),
        ("allowed_tools: [\"a.b\u{85}\"]", (1, 21), 0x85),
        ("allowed_tools:\n\t- a.b\u{9b}\n", (2, 7), 0x9b),
    ] {
        let e = error(text);
        assert_eq!((e.code, e.line, e.column), (GasolineProblem::InvalidYaml, at.0, at.1), "{text:?}: {e}");
        let expected = format!("invalid YAML: control character U+{code:04X} is not allowed; only tab, line feed and carriage return are");
        assert_eq!(e.message, expected, "{text:?}");
    }
    // Tab, line feed and carriage return are the text's own, and an escaped `\0` is a value's
    // (which then fails the pattern check, not the reader).
    assert_eq!(list("allowed_tools:\r\n  - a.b\t# c\r\n"), items(&[("a.b", (2, 5))]));
    assert_eq!(list("allowed_tools: [\"a\\0b\"]"), items(&[("a\0b", (1, 17))]));
}
