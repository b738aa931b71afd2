use super::Position;
use crate::gasoline::{read_patterns, GasolineError, GasolineProblem};
use crate::test_support::random_below;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

type Patterns = Result<Option<Vec<(String, Position)>>, GasolineError>;

/// The events of one YAML document, with positions.
#[derive(Default)]
struct Events(Vec<(Event, Marker)>);

impl MarkedEventReceiver for Events {
    fn on_event(&mut self, event: Event, mark: Marker) {
        self.0.push((event, mark));
    }
}

fn error_at(mark: &Marker, code: GasolineProblem, message: String) -> GasolineError {
    GasolineError { code, line: mark.line(), column: mark.col() + 1, message }
}

fn at(mark: Marker) -> Position {
    Position { line: mark.line(), column: mark.col() + 1 }
}

/// `read_patterns` as it was when yaml-rust2 read the file: the reference.
fn reference_patterns(text: &str) -> Patterns {
    if let Some(why) = crate::limits::settings_too_large(text) {
        return Err(GasolineError { code: GasolineProblem::TooLarge, line: 1, column: 1, message: format!("the allowlist {why}") });
    }
    let mut events = Events::default();
    Parser::new_from_str(text)
        .load(&mut events, false)
        .map_err(|e| error_at(e.marker(), GasolineProblem::InvalidYaml, format!("invalid YAML: {}", e.info())))?;
    let mut iter = events
        .0
        .into_iter()
        .filter(|(e, _)| !matches!(e, Event::StreamStart | Event::StreamEnd | Event::DocumentStart | Event::DocumentEnd | Event::Nothing));
    let Some((first, mark)) = iter.next() else { return Ok(None) };
    match first {
        Event::MappingStart(..) => {}
        Event::Scalar(value, ..) if value.is_empty() || value == "~" || value == "null" => return Ok(None),
        _ => {
            return Err(error_at(
                &mark,
                GasolineProblem::NotAMapping,
                "the allowlist must be a mapping with an `allowed_tools:` list".into(),
            ))
        }
    }
    let mut patterns = None;
    while let Some((event, mark)) = iter.next() {
        match event {
            Event::MappingEnd => break,
            Event::Scalar(key, ..) if key == "allowed_tools" => {
                let (value, value_mark) =
                    iter.next().ok_or_else(|| error_at(&mark, GasolineProblem::MissingValue, "`allowed_tools` has no value".into()))?;
                match value {
                    Event::SequenceStart(..) => {
                        let mut list = Vec::new();
                        for (item, item_mark) in iter.by_ref() {
                            match item {
                                Event::SequenceEnd => break,
                                Event::Scalar(pattern, ..) => list.push((pattern, at(item_mark))),
                                _ => {
                                    return Err(error_at(
                                        &item_mark,
                                        GasolineProblem::NotAString,
                                        "each allowed_tools entry must be a string such as \"observe.*\"".into(),
                                    ))
                                }
                            }
                        }
                        patterns = Some(list);
                    }
                    Event::Scalar(v, ..) if v.is_empty() || v == "~" || v == "null" => patterns = Some(Vec::new()),
                    _ => return Err(error_at(&value_mark, GasolineProblem::NotAList, "`allowed_tools` must be a list".into())),
                }
            }
            Event::Scalar(key, ..) => {
                return Err(error_at(
                    &mark,
                    GasolineProblem::UnknownKey,
                    format!("unknown key `{key}`: the allowlist file only has `allowed_tools`"),
                ))
            }
            _ => {
                return Err(error_at(
                    &mark,
                    GasolineProblem::UnexpectedStructure,
                    "unexpected structure: keys must be plain strings".into(),
                ))
            }
        }
    }
    Ok(patterns)
}

fn list(text: &str) -> Vec<(String, (usize, usize))> {
    let read = read_patterns(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let list = read.unwrap_or_else(|| panic!("{text:?} has no list"));
    list.into_iter().map(|(p, at)| (p, (at.line, at.column))).collect()
}

fn items(entries: &[(&str, (usize, usize))]) -> Vec<(String, (usize, usize))> {
    entries.iter().map(|&(p, at)| (p.to_owned(), at)).collect()
}

fn error(text: &str) -> GasolineError {
    read_patterns(text).expect_err(text)
}

#[test]
fn the_seed_file_is_read_with_its_positions() {
    let seed = "# Comments supported\nallowed_tools:\n  - \"observe.*\"             # Wildcard: all observe modes\n  - \"generate.reproduction\" # Specific: only reproduction\n  - \"interact.navigate\"     # Specific: only navigate\n  - \"interact.refresh\"      # Specific: only refresh\n";
    let expected = [("observe.*", (3, 5)), ("generate.reproduction", (4, 5)), ("interact.navigate", (5, 5)), ("interact.refresh", (6, 5))];
    assert_eq!(list(seed), items(&expected));
    assert_eq!(read_patterns(seed), reference_patterns(seed));
}

#[test]
fn the_json_form_is_read() {
    let json = r#"{"allowed_tools": ["observe.*", "generate.*"]}"#;
    assert_eq!(list(json), items(&[("observe.*", (1, 20)), ("generate.*", (1, 33))]));
    let spread = "{\n\t\"allowed_tools\": [\n\t\t\"observe.*\",\n\t\t\"generate.*\"\n\t]\n}\n";
    assert_eq!(list(spread), items(&[("observe.*", (3, 3)), ("generate.*", (4, 3))]));
    for text in [json, spread, "{allowed_tools: [a.b, 'c.d',]}", "{\"allowed_tools\":[\"a.b\"]}"] {
        assert_eq!(read_patterns(text), reference_patterns(text), "{text:?}");
    }
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
    assert_eq!(read_patterns(text), reference_patterns(text));
}

#[test]
fn an_empty_text_or_value_is_no_list_or_an_empty_one() {
    for text in ["", "\n# c\n", "~", "null", "---\n", "--- # c\n...\n", "''", "# c\n~ # c\n"] {
        assert_eq!(read_patterns(text), Ok(None), "{text:?}");
        assert_eq!(reference_patterns(text), Ok(None), "{text:?}");
    }
    for text in
        ["allowed_tools:", "allowed_tools: ~", "allowed_tools: null", "allowed_tools: []", "allowed_tools: # c\n", "{allowed_tools}"]
    {
        assert_eq!(read_patterns(text), Ok(Some(Vec::new())), "{text:?}");
        assert_eq!(reference_patterns(text), Ok(Some(Vec::new())), "{text:?}");
    }
}

#[test]
fn columns_count_characters_after_multi_byte_text() {
    let text = "# 日本語 — é\nallowed_tools: [\"é.日\", 'x.ü', y.z] # ü\n";
    assert_eq!(list(text), items(&[("é.日", (2, 17)), ("x.ü", (2, 24)), ("y.z", (2, 31))]));
    assert_eq!(read_patterns(text), reference_patterns(text));
    let text = "# ü\r\nallowed_tools:\r\n  - \"日本\" # 語\r\n  - 'é'\r\n";
    assert_eq!(list(text), items(&[("日本", (3, 5)), ("é", (4, 5))]));
    assert_eq!(read_patterns(text), reference_patterns(text));
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_first_key() {
    // yaml-rust2 read the mark as part of the key (`unknown key`); it is not counted as a column.
    assert_eq!(list("\u{feff}allowed_tools: [a.b]"), items(&[("a.b", (1, 17))]));
}

#[test]
fn items_that_are_not_strings_are_errors_where_yaml_rust2_put_them() {
    for (text, at) in [
        ("allowed_tools:\n  - [a]\n", (2, 5)),
        ("allowed_tools:\n  - {a: b}\n", (2, 5)),
        ("allowed_tools:\n  - a: b\n", (2, 6)),
        ("allowed_tools:\n- - x\n", (2, 3)),
        ("allowed_tools: [a: b]", (1, 19)),
        ("x: {}\nallowed_tools: [a: b]", (1, 1)),
        ("allowed_tools: [x, [a]]", (1, 20)),
    ] {
        let e = error(text);
        assert_eq!(e, reference_patterns(text).expect_err(text), "{text:?}");
        if at != (1, 1) {
            assert_eq!((e.code, e.line, e.column), (GasolineProblem::NotAString, at.0, at.1), "{text:?}");
        }
    }
    for (text, code, at) in [
        ("- observe.*", GasolineProblem::NotAMapping, (1, 1)),
        ("[a]", GasolineProblem::NotAMapping, (1, 1)),
        ("allowed_tools: observe.*", GasolineProblem::NotAList, (1, 16)),
        ("allowed_tools:\n  a: b", GasolineProblem::NotAList, (2, 4)),
        ("allowed_tools: {a: b}", GasolineProblem::NotAList, (1, 16)),
        ("[a]: b", GasolineProblem::UnexpectedStructure, (1, 1)),
        ("allowed_tools: []\n{a: b}: c", GasolineProblem::UnexpectedStructure, (2, 1)),
        ("'allowed_tool': []", GasolineProblem::UnknownKey, (1, 1)),
    ] {
        let e = error(text);
        assert_eq!((e.code, e.line, e.column), (code, at.0, at.1), "{text:?}: {e}");
        assert_eq!(e, reference_patterns(text).expect_err(text), "{text:?}");
    }
}

#[test]
fn constructs_outside_the_subset_are_not_supported_where_they_are() {
    for (text, message, at) in [
        ("allowed_tools: &a [x]", "anchors (&) are not supported in an allowlist file", (1, 16)),
        ("allowed_tools:\n  - *a", "aliases (*) are not supported in an allowlist file", (2, 5)),
        ("allowed_tools: !!seq [x]", "tags (!) are not supported in an allowlist file", (1, 16)),
        ("allowed_tools: |\n  x", "block scalars (| and >) are not supported in an allowlist file", (1, 16)),
        ("%YAML 1.2\n---\nallowed_tools: []", "directives (%) are not supported in an allowlist file", (1, 1)),
        ("? allowed_tools\n: [x]", "complex keys (?) are not supported in an allowlist file", (1, 1)),
        ("allowed_tools: [a.b, |]", "a plain value beginning with `|` is not supported in an allowlist file; quote it", (1, 22)),
        ("allowed_tools:\n  - observe.*\n    foo", "values continued on the next line are not supported in an allowlist file", (3, 5)),
        ("allowed_tools: [a.b,\n  c\n  d]", "values continued on the next line are not supported in an allowlist file", (3, 3)),
        ("allowed_tools: [\"a\n  b\"]", "quoted values over several lines are not supported", (1, 17)),
        ("allowed_tools:\n\t- x", "tabs are not supported in an allowlist file", (2, 1)),
        ("allowed_tools: [x]\n---\nallowed_tools: [y]", "a second document (`---`) is not supported in an allowlist file", (2, 1)),
        ("allowed_tools: [x]\n...\nallowed_tools: [y]", "text after the end of the document is not supported", (3, 1)),
        ("{\"allowed_tools\": [x]}\nfoo: bar", "text after the end of the document is not supported", (2, 1)),
        ("  allowed_tools:\n- x", "a line indented less than the first key is not supported", (2, 1)),
        ("allowed_tools:\n  -\n    x", "a `-` without its value on the same line is not supported", (2, 3)),
    ] {
        let e = error(text);
        assert_eq!(e.code, GasolineProblem::InvalidYaml, "{text:?}");
        assert!(e.message.starts_with("invalid YAML: ") && e.message.contains(message), "{text:?}: {e}");
        assert_eq!((e.line, e.column), at, "{text:?}: {e}");
    }
    // yaml-rust2 read these, a few of them differently from what the text seems to say.
    for text in
        ["allowed_tools: &a [x]", "allowed_tools:\n  - observe.*\n    foo", "  allowed_tools:\n- x", "{\"allowed_tools\": [x]}\nfoo: bar"]
    {
        assert!(reference_patterns(text).is_ok(), "{text:?}");
    }
}

#[test]
fn syntax_errors_are_invalid_yaml() {
    for (text, at) in [
        ("allowed_tools: [a, b", (1, 16)),
        ("allowed_tools: [\"a", (1, 17)),
        ("allowed_tools: [a,,b]", (1, 19)),
        ("allowed_tools: [\"\\q\"]", (1, 18)),
        ("allowed_tools:\n  - a\n b: c", (3, 2)),
        ("allowed_tools: [a]\nfoo", (2, 4)),
        ("allowed_tools: a: b", (1, 17)),
        ("allowed_tools: [\n]", (2, 1)),
    ] {
        let e = error(text);
        assert_eq!((e.code, e.line, e.column), (GasolineProblem::InvalidYaml, at.0, at.1), "{text:?}: {e}");
        assert!(e.message.starts_with("invalid YAML: ") && !e.message.contains("not supported"), "{text:?}: {e}");
        assert!(reference_patterns(text).is_err(), "{text:?}");
    }
}

/// A random allowlist in the subset, and the patterns it lists.
fn random_allowlist(below: &mut impl FnMut(usize) -> usize) -> (String, Vec<String>) {
    const PATTERNS: [&str; 16] = [
        "observe.*",
        "interact.navigate",
        "generate.reproduction",
        "*",
        "a b.c",
        "x#y",
        "é.日本",
        "true",
        "1.5",
        "a:b",
        "it's",
        "say \"hi\"",
        "tab\there",
        "back\\slash",
        "",
        "-x",
    ];
    let nl = if below(4) == 0 { "\r\n" } else { "\n" };
    let gap = |below: &mut dyn FnMut(usize) -> usize, out: &mut String| {
        for _ in 0..below(3) {
            out.push_str(["", "# a comment é", "   ", "  # indented: [x] \"y\""][below(4)]);
            out.push_str(nl);
        }
    };
    let end_of_line = |below: &mut dyn FnMut(usize) -> usize, out: &mut String| {
        out.push_str(["", " ", "  # c", " # ü: [\"x\"]", "\t"][below(5)]);
        out.push_str(nl);
    };
    let mut out = String::new();
    if below(8) == 0 {
        out.push('\u{feff}');
    }
    gap(below, &mut out);
    if below(3) == 0 {
        out.push_str(["---", "--- # start"][below(2)]);
        out.push_str(nl);
        gap(below, &mut out);
    }
    let patterns: Vec<String> = (0..below(5)).map(|_| PATTERNS[below(PATTERNS.len())].to_owned()).collect();
    let key = ["allowed_tools", "\"allowed_tools\"", "'allowed_tools'"][below(3)];
    let json = below(4) == 0;
    if json {
        let indent = ["", "  ", "\t"][below(3)];
        let spread = below(2) == 0;
        out.push('{');
        if spread {
            out.push_str(nl);
            out.push_str(indent);
        }
        out.push_str(key);
        out.push_str([": ", ":"][below(2)]);
        out.push('[');
        for (i, p) in patterns.iter().enumerate() {
            if spread {
                out.push_str(nl);
                out.push_str(indent);
                out.push_str(indent);
            }
            out.push_str(&item(below, p, true));
            if i + 1 < patterns.len() || below(3) == 0 {
                out.push(',');
            }
            if spread && below(3) == 0 {
                out.push_str(" # c");
            }
        }
        if spread {
            out.push_str(nl);
            out.push_str(indent);
        }
        out.push(']');
        if spread {
            out.push_str(nl);
        }
        out.push('}');
        end_of_line(below, &mut out);
    } else {
        let indent = " ".repeat([0, 0, 2][below(3)]);
        out.push_str(&indent);
        out.push_str(key);
        out.push(':');
        match below(3) {
            0 if patterns.is_empty() => {
                out.push_str(["", " ~", " null", " []", " ''"][below(5)]);
                end_of_line(below, &mut out);
            }
            0 | 1 => {
                // A flow list, on one line or over several.
                let spread = below(2) == 0;
                out.push_str(" [");
                let mut any_plain = false;
                for (i, p) in patterns.iter().enumerate() {
                    if spread {
                        end_of_line(below, &mut out);
                        out.push_str(&indent);
                        out.push_str(["  ", "    "][below(2)]);
                    } else if below(2) == 0 {
                        out.push(' ');
                    }
                    let written = item(below, p, true);
                    any_plain |= !written.starts_with(['"', '\'']);
                    out.push_str(&written);
                    if i + 1 < patterns.len() || below(3) == 0 {
                        out.push(',');
                    }
                }
                if spread {
                    out.push_str(nl);
                    out.push_str(&indent);
                    // yaml-rust2 takes a `]` under the key only after a plain item.
                    out.push_str(if any_plain && below(2) == 0 { "" } else { "  " });
                }
                out.push(']');
                end_of_line(below, &mut out);
            }
            _ => {
                // A block list, under the key or indented.
                end_of_line(below, &mut out);
                let dash = format!("{indent}{}- ", ["", "  ", "    "][below(3)]);
                for p in &patterns {
                    gap(below, &mut out);
                    out.push_str(&dash);
                    out.push_str(&item(below, p, false));
                    end_of_line(below, &mut out);
                }
            }
        }
    }
    gap(below, &mut out);
    if below(4) == 0 {
        out.push_str("...");
        end_of_line(below, &mut out);
        gap(below, &mut out);
    }
    (out, patterns)
}

/// A pattern written plain when YAML lets it be, or quoted.
fn item(below: &mut impl FnMut(usize) -> usize, pattern: &str, flow: bool) -> String {
    let plain_ok = pattern.starts_with(|c: char| c.is_alphanumeric() || c == '-')
        && !pattern.contains(": ")
        && !pattern.ends_with(':')
        && !pattern.contains(" #")
        && !pattern.contains('\t')
        && (!flow || !pattern.contains([',', '[', ']', '{', '}']));
    match below(3) {
        0 if plain_ok => pattern.to_owned(),
        0 | 1 if !pattern.contains('\t') => format!("'{}'", pattern.replace('\'', "''")),
        _ => {
            let mut out = String::from('"');
            for c in pattern.chars() {
                match (c, below(4)) {
                    ('"', _) => out.push_str("\\\""),
                    ('\\', _) => out.push_str("\\\\"),
                    ('\t', 0) => out.push('\t'),
                    ('\t', _) => out.push_str("\\t"),
                    ('/' | ' ', 0) => {
                        out.push('\\');
                        out.push(c);
                    }
                    ('a'..='z', 0) => out.push_str(&format!("\\x{:02x}", c as u32)),
                    (_, 1) if c != ' ' && (c as u32) > 0xFFFF => out.push_str(&format!("\\U{:08X}", c as u32)),
                    (_, 1) if c != ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
                    _ => out.push(c),
                }
            }
            out.push('"');
            out
        }
    }
}

#[test]
fn random_allowlists_read_as_yaml_rust2_reads_them() {
    let mut below = random_below(0x9a50_1ae5);
    for _ in 0..5000 {
        let (text, patterns) = random_allowlist(&mut below);
        let ours = read_patterns(&text);
        // yaml-rust2 reads a byte order mark as text: it is given the text without it.
        let reference = reference_patterns(text.strip_prefix('\u{feff}').unwrap_or(&text));
        assert_eq!(ours, reference, "{text:?}");
        let read: Vec<String> = ours.ok().flatten().unwrap_or_default().into_iter().map(|(p, _)| p).collect();
        assert_eq!(read, patterns, "{text:?}");
    }
}

#[test]
fn random_token_soup_is_read_as_yaml_rust2_reads_it_or_not_supported() {
    const TOKENS: [&str; 40] = [
        "allowed_tools",
        "\"allowed_tools\"",
        ":",
        ": ",
        " ",
        "\n",
        "\r\n",
        "  ",
        "- ",
        "-",
        "[",
        "]",
        "{",
        "}",
        ",",
        "\"a.b\"",
        "'c.*'",
        "x.y",
        "é",
        "#c",
        " #c",
        "~",
        "null",
        "&a ",
        "*a",
        "!t ",
        "|",
        ">",
        "---",
        "...",
        "? ",
        "\"unclosed",
        "'it''s'",
        "\"\\u00e9\\q\"",
        "\t",
        "@",
        "%",
        "?",
        "\\",
        "\"",
    ];
    const PREFIXES: [&str; 5] = ["", "", "allowed_tools:", "allowed_tools:\n", "{\"allowed_tools\": ["];
    let mut below = random_below(0x5017_c0de);
    let (mut accepted, mut unsupported, mut errors, mut total) = (0, 0, 0, 0);
    for _ in 0..60_000 {
        let mut text = PREFIXES[below(PREFIXES.len())].to_owned();
        for _ in 0..below(10) {
            text.push_str(TOKENS[below(TOKENS.len())]);
        }
        total += 1;
        match (read_patterns(&text), reference_patterns(&text)) {
            (Ok(ours), Ok(reference)) => {
                assert_eq!(ours, reference, "{text:?}");
                accepted += 1;
            }
            (Ok(ours), Err(e)) => panic!("{text:?} read as {ours:?}, but yaml-rust2 says {e}"),
            (Err(e), Ok(_)) => {
                assert!(e.code == GasolineProblem::InvalidYaml && e.message.contains("not supported"), "{text:?}: {e}");
                unsupported += 1;
            }
            (Err(ours), Err(reference)) => {
                // Past yaml-rust2's parse, the same problem at the same place.
                if ours.code != GasolineProblem::InvalidYaml && reference.code != GasolineProblem::InvalidYaml {
                    assert_eq!(ours, reference, "{text:?}");
                }
                errors += 1;
            }
        }
    }
    println!("token soup: {accepted} read alike, {unsupported} not supported (yaml-rust2 read them), {errors} errors in both, of {total}");
    assert!(accepted * 20 > total, "only {accepted} of {total} texts were read: the test tests little");
}

#[test]
fn deep_nesting_and_large_texts_are_bounded() {
    for deep in [format!("allowed_tools: {}", "[".repeat(100_000)), "[{".repeat(100_000)] {
        assert!(error(&deep).message.contains("nested more than 64 deep are not supported"));
    }
    let long = format!("allowed_tools:\n{}", "  - observe.*\n".repeat(200_000));
    assert_eq!(list(&long).len(), 200_000);
    // Past yaml-rust2's 1024-character limit on a key's line.
    let items = vec!["\"interact.navigate\""; 3000].join(", ");
    for long in
        [format!("allowed_tools: [{items}]"), format!("{{\"allowed_tools\": [{items}]}}"), format!("allowed_tools: [{items}]\nx: y")]
    {
        assert_eq!(read_patterns(&long), reference_patterns(&long));
    }
}
