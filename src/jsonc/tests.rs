use super::*;
use crate::test_support::random_below;
use serde_json::json;

fn error(text: &str) -> JsoncError {
    parse(text).expect_err(text)
}

#[test]
fn comments_and_trailing_commas_are_read_as_editors_read_them() {
    let text = "// Zed settings\n{\n  /* the agent */ \"agent\": { \"a\": [1, 2,], // two\n },\n}\n";
    assert_eq!(parse(text), Ok(json!({ "agent": { "a": [1, 2] } })));
    assert_eq!(parse("{\"url\": \"http://x/*y*/\", \"c\": \"a,]\"}"), Ok(json!({ "url": "http://x/*y*/", "c": "a,]" })));
    assert_eq!(parse("\u{feff}{\"a\": \"\\\"//\"}"), Ok(json!({ "a": "\"//" })));
}

#[test]
fn a_text_without_a_value_is_an_empty_object() {
    for text in ["", "  \n", "// nothing yet\n", "/* */", "null", "\u{feff}"] {
        assert_eq!(parse(text), Ok(json!({})), "{text:?}");
    }
}

#[test]
fn only_comments_and_trailing_commas_are_lenient() {
    for text in ["[,]", "{,}", "[1,,]", "{\"a\": 1,,}", "{\"a\":,}", "['a']", "[+1]", "[.5]", "[NaN]", "{a: 1}", "[1 2]", "{} /", "[1] x"] {
        assert!(parse(text).is_err(), "{text:?} was read");
    }
}

#[test]
fn errors_point_at_the_users_line_and_character() {
    let e = error("{\n  /* é — note */ \"a\": x\n}");
    assert_eq!((e.line, e.column), (2, 23), "{e:?}");
    assert_eq!(e.to_string(), "expected value at line 2 column 23");
    let e = error("{\"a\": 1}\n  /* never closed\n");
    assert_eq!((e.line, e.column, e.message.as_str()), (2, 3, "unterminated block comment"));
}

/// JSON texts built from a random value, with comments and trailing commas put in at random.
fn random_jsonc(below: &mut impl FnMut(usize) -> usize, depth: usize, out: &mut String, plain: &mut String) {
    const COMMENTS: [&str; 5] = ["", " ", "/* c, ] */", "// x \"y\" é\n", "\n\t"];
    let gap = |below: &mut dyn FnMut(usize) -> usize, out: &mut String| out.push_str(COMMENTS[below(COMMENTS.len())]);
    let leaf = ["1", "-2.5e3", "true", "null", "\"s\"", "\"a\\\"//\"", "\"/*\"", "\"é\""];
    match if depth == 0 { 2 } else { below(3) } {
        0 | 1 => {
            let (open, close) = if below(2) == 0 { ('[', ']') } else { ('{', '}') };
            out.push(open);
            plain.push(open);
            let n = below(4);
            for i in 0..n {
                gap(below, out);
                if open == '{' {
                    let key = format!("\"k{}\":", i);
                    out.push_str(&key);
                    plain.push_str(&key);
                    gap(below, out);
                }
                random_jsonc(below, depth - 1, out, plain);
                gap(below, out);
                if i + 1 < n {
                    out.push(',');
                    plain.push(',');
                } else if below(2) == 0 {
                    out.push(',');
                    gap(below, out);
                }
            }
            out.push(close);
            plain.push(close);
        }
        _ => {
            let v = leaf[below(leaf.len())];
            out.push_str(v);
            plain.push_str(v);
        }
    }
}

fn reference(text: &str) -> Option<Value> {
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let value: Value = jsonc_parser::parse_to_serde_value(text, &options).ok()?;
    Some(if value.is_null() { json!({}) } else { value })
}

#[test]
fn random_settings_texts_read_as_the_jsonc_parser_reads_them() {
    let mut below = random_below(0x5eed_c0de);
    for _ in 0..4000 {
        let (mut text, mut plain) = (String::new(), String::new());
        random_jsonc(&mut below, 3, &mut text, &mut plain);
        let expected: Value = serde_json::from_str(&plain).expect("the generator writes JSON");
        let expected = if expected.is_null() { json!({}) } else { expected };
        assert_eq!(parse(&text), Ok(expected.clone()), "{text:?}");
        assert_eq!(reference(&text), Some(expected), "{text:?}");
    }
}

#[test]
fn random_token_soup_is_accepted_exactly_when_the_jsonc_parser_accepts_it() {
    const TOKENS: [&str; 22] = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"a\"",
        "\"b\\\"/*\"",
        "\"//\"",
        "1",
        "-2.5",
        "true",
        "null",
        " ",
        "\n",
        "// c\n",
        "/* c */",
        "/* é */",
        "/*",
        "*/",
        "/",
        "é",
    ];
    let mut below = random_below(0xbad_5eed);
    let (mut accepted, mut total) = (0, 0);
    for _ in 0..60_000 {
        let text: String = (0..below(9)).map(|_| TOKENS[below(TOKENS.len())]).collect();
        let ours = parse(&text).ok();
        assert_eq!(ours, reference(&text), "{text:?}");
        accepted += usize::from(ours.is_some());
        total += 1;
    }
    assert!(accepted * 50 > total, "only {accepted} of {total} texts were JSON: the test tests little");
}
