//! The JavaScript boundary, run by wasm-bindgen-test in Node and in headless Chromium.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect, JSON};
use toolgate::bindings::mcp::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn js(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

fn settings(json: &str) -> tsify::Ts<toolgate::mcp::McpSettings> {
    tsify::Ts::new_unchecked(js(json))
}

fn error_message(err: JsValue) -> String {
    err.dyn_into::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default()
}

#[wasm_bindgen_test]
fn decisions_are_plain_objects_with_plain_arrays() {
    let d = decide_mcp("github".into(), "x".into(), settings(r#"{"mcpToolsProtection":false}"#), JsAutoRunMode::Yolo).unwrap();
    let d: JsValue = d.js_value();
    assert_eq!(Object::get_prototype_of(&d), Object::get_prototype_of(&Object::new()), "a plain object, not a Map");
    assert!(Array::is_array(&get(&d, "candidatesForAllowlist")));
    assert_eq!(get(&d, "needApproval"), JsValue::TRUE);
    assert_eq!(get(&d, "reason"), JsValue::from_str("notAllowlisted"));
    // Numbers are numbers, not BigInt.
    let p = JsMcpPolicy::new(settings(r#"{"mcpToolsProtection":false,"mcpAllowedTools":["a:b","github:*"]}"#)).unwrap();
    let d: JsValue = p.decide("github".into(), "x".into(), JsAutoRunMode::Yolo).unwrap().js_value();
    assert_eq!(get(&get(&d, "matched"), "index").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
fn wrong_types_throw_type_errors_naming_the_argument() {
    let err = decide_mcp(JsValue::from(3), "x".into(), settings("{}"), JsAutoRunMode::Yolo).unwrap_err();
    assert!(err.is_instance_of::<js_sys::TypeError>());
    assert_eq!(error_message(err), "serverId must be a string, got number");
    let err = decide_mcp("s".into(), JsValue::NULL, settings("{}"), JsAutoRunMode::Yolo).unwrap_err();
    assert_eq!(error_message(err), "toolName must be a string, got null");
    let err = add_to_allowlist(js(r#"["a:b", 7]"#), "s".into(), "t".into()).unwrap_err();
    assert_eq!(error_message(err), "list[1]: invalid type: integer `7`, expected a string");
}

#[wasm_bindgen_test]
fn lone_surrogates_are_refused_not_replaced() {
    let lone = JsValue::from(js_sys::JsString::from_char_code1(0xD800));
    let err = validate_name(lone.clone(), None).unwrap_err();
    assert!(error_message(err).contains("lone surrogate"));
    // Inside a settings object too: U+FFFD must not be allowed to stand in for it.
    let list = Array::of1(&JsValue::from(js_sys::JsString::from("srv:").concat(&lone)));
    let s = Object::new();
    Reflect::set(&s, &"mcpAllowedTools".into(), &list).unwrap();
    let err = JsMcpPolicy::new(tsify::Ts::new_unchecked(s.into())).unwrap_err();
    assert!(error_message(err).starts_with("settings.mcpAllowedTools[0]: string is not well-formed UTF-16"));
}

#[wasm_bindgen_test]
fn bigint_and_cyclic_settings_are_errors() {
    let s = Object::new();
    Reflect::set(&s, &"mcpAllowedTools".into(), &js_sys::BigInt::from(1u32).into()).unwrap();
    assert!(error_message(JsMcpPolicy::new(tsify::Ts::new_unchecked(s.clone().into())).unwrap_err()).contains("BigInt"));
    Reflect::set(&s, &"mcpAllowedTools".into(), &s).unwrap();
    let cyclic = error_message(JsMcpPolicy::new(tsify::Ts::new_unchecked(s.into())).unwrap_err());
    assert_eq!(cyclic, "settings.mcpAllowedTools: invalid type: map, expected a sequence");
}

/// Settings past the 4 MiB budget are refused by the MCP entry's reader as they are as JSON text.
#[wasm_bindgen_test]
fn settings_past_the_budget_are_refused() {
    let list = Array::new();
    for i in 0..320_000 {
        list.push(&JsValue::from_str(&format!("server{i}:tool")));
    }
    let s = Object::new();
    Reflect::set(&s, &"mcpAllowedTools".into(), &list).unwrap();
    let err = error_message(JsMcpPolicy::new(tsify::Ts::new_unchecked(s.into())).unwrap_err());
    assert!(err.starts_with("settings is at least ") && err.ends_with("at most 4194304 bytes (4 MiB)"), "{err}");
}

/// The MCP entry's own reader of settings, lists, name kinds and split options (`js_reader`)
/// agrees with the serde reader every other argument goes through (`JSON.stringify`, then
/// serde_json) on random values: the same value when both read one, the same message — field
/// path and serde's words — when both refuse. Values are drawn so the two texts can agree: no
/// floats JSON and JavaScript write differently (`1e21`), no control characters in strings.
#[wasm_bindgen_test]
fn the_mcp_reader_agrees_with_the_serde_reader() {
    use toolgate::bindings::js_reader;
    use toolgate::input::from_json;
    use toolgate::mcp::{McpSettings, NameKind};
    let mut below = random_below(0xA11CE);
    let leaf = |k: usize| -> JsValue {
        match k {
            0 => JsValue::TRUE,
            1 => JsValue::FALSE,
            2 => JsValue::NULL,
            3 => JsValue::UNDEFINED,
            4 => JsValue::from(7),
            5 => JsValue::from(-3),
            6 => JsValue::from(1.5),
            7 => JsValue::from(f64::NAN),
            8 => "a:b".into(),
            9 => "server".into(),
            10 => "é😀 \"q\"".into(),
            11 => js_sys::Function::new_no_args("return 1").into(),
            _ => Object::new().into(),
        }
    };
    let value = |depth: usize, below: &mut dyn FnMut(usize) -> usize| -> JsValue {
        if depth > 0 && below(3) == 0 {
            let array = Array::new();
            for _ in 0..below(4) {
                array.push(&leaf(below(13)));
            }
            if below(4) == 0 {
                array.push(&leaf(8));
                array.set(array.length() + 1, leaf(8)); // a hole
            }
            return array.into();
        }
        leaf(below(13))
    };
    // The field names as serde spells them (from its own output, not from the reader's list), the
    // split options' two, and one no shape has.
    let serde_names = serde_json::to_value(McpSettings::default()).unwrap();
    let mut fields: Vec<String> = serde_names.as_object().unwrap().keys().cloned().collect();
    fields.extend(["fallbackServerId", "knownServerIds", "other"].map(String::from));
    let show = |v: &JsValue| JSON::stringify(v).ok().and_then(|t| t.as_string());
    let serde_side =
        |v: &JsValue, read: &dyn Fn(&str) -> Result<String, String>| -> Result<String, String> { read(&show(v).ok_or("not JSON")?) };
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..3000 {
        let object = Object::new();
        for _ in 0..below(4) {
            let field = &fields[below(fields.len())];
            let v = value(1, &mut below);
            Reflect::set(&object, &field.as_str().into(), &v).unwrap();
        }
        // Mostly objects; sometimes a value that is no object at all (not an array: serde reads
        // a struct from a sequence by position, which this reader refuses on purpose).
        let top: JsValue = match below(8) {
            0 => leaf(below(11)),
            _ => object.into(),
        };
        if top.is_undefined() {
            continue;
        }
        let ours = js_reader::settings(&top, "settings").map(|s| format!("{s:?}")).map_err(error_message);
        let theirs = serde_side(&top, &|t| from_json::<McpSettings>("settings", t).map(|s| format!("{s:?}")).map_err(|e| e.to_string()));
        assert_eq!(ours, theirs, "settings {:?}", show(&top));
        if ours.is_ok() {
            accepted += 1;
        } else {
            refused += 1;
        }
        let ours = js_reader::split_options(&top, "options").map(|o| format!("{o:?}")).map_err(error_message);
        let theirs = serde_side(&top, &|t| {
            from_json::<SplitOptions>("options", t)
                .map(|o| format!("{:?}", (o.fallback_server_id, o.known_server_ids)))
                .map_err(|e| e.to_string())
        });
        assert_eq!(ours, theirs, "options {:?}", show(&top));
        // A value JSON cannot write at all (undefined, a function) is refused by both, in other words.
        let list = value(1, &mut below);
        if show(&list).is_none() {
            assert!(js_reader::string_list(&list, "list").is_err());
        } else {
            let ours = js_reader::string_list(&list, "list").map(|l| format!("{l:?}")).map_err(error_message);
            let theirs = serde_side(&list, &|t| from_json::<Vec<String>>("list", t).map(|l| format!("{l:?}")).map_err(|e| e.to_string()));
            assert_eq!(ours, theirs, "list {:?}", show(&list));
        }
        let kind = value(0, &mut below);
        if show(&kind).is_none() {
            assert!(kind.is_undefined() || js_reader::name_kind(&kind, "kind").is_err());
        } else if !kind.is_null() {
            let ours = js_reader::name_kind(&kind, "kind").map(|k| format!("{k:?}")).map_err(error_message);
            let theirs = serde_side(&kind, &|t| from_json::<NameKind>("kind", t).map(|k| format!("{k:?}")).map_err(|e| e.to_string()));
            // serde_json words a kind that is no string only as "expected value"; ours says what it
            // got, so for those only the field they name must agree.
            let field = |r: Result<String, String>| r.map_err(|e| e.split(':').next().unwrap_or_default().to_owned());
            if kind.is_string() {
                assert_eq!(ours, theirs, "kind {:?}", show(&kind));
            } else {
                assert_eq!(field(ours), field(theirs), "kind {:?}", show(&kind));
            }
        }
    }
    // Both sides of the comparison were reached, each often.
    assert!(accepted > 300 && refused > 300, "{accepted} read, {refused} refused");
}

#[wasm_bindgen_test]
fn huge_names_are_invalid_results_not_crashes() {
    let huge = "x".repeat(1 << 20);
    let check: JsValue = validate_name(JsValue::from_str(&huge), None).unwrap();
    assert_eq!(get(&check, "ok"), JsValue::FALSE);
    let first = Reflect::get_u32(&get(&check, "errors"), 0).unwrap();
    assert_eq!(get(&first, "code"), JsValue::from_str("nameTooLong"));
    let d: JsValue = decide_mcp("s".into(), JsValue::from_str(&huge), settings("{}"), JsAutoRunMode::FullYolo).unwrap().js_value();
    assert_eq!(get(&d, "reason"), JsValue::from_str("invalidName"));
}

#[wasm_bindgen_test]
fn the_instance_stays_usable_after_errors() {
    for _ in 0..100 {
        assert!(decide_mcp(JsValue::UNDEFINED, JsValue::UNDEFINED, settings("null"), JsAutoRunMode::Yolo).is_err());
    }
    let d: JsValue =
        decide_mcp("s".into(), "t".into(), settings(r#"{"mcpToolsProtection":false,"mcpAllowedTools":["s:t"]}"#), JsAutoRunMode::Yolo)
            .unwrap()
            .js_value();
    assert_eq!(get(&d, "needApproval"), JsValue::FALSE);
}

#[wasm_bindgen_test]
fn optional_arguments_may_be_omitted() {
    let split: JsValue =
        split_tool_name("mcp_my_server_tool".into(), Some(tsify::Ts::new_unchecked(js(r#"{"knownServerIds":["my_server"]}"#))))
            .unwrap()
            .js_value();
    assert_eq!(get(&split, "serverId"), JsValue::from_str("my_server"));
    let split: JsValue = split_tool_name("read".into(), None).unwrap().js_value();
    assert!(get(&split, "serverId").is_undefined());
}

/// The tape (one crossing per result) gives exactly what serde-wasm-bindgen gives, on
/// decisions of every dialect and on values with every serde shape, non-ASCII text included.
#[wasm_bindgen_test]
fn the_result_tape_equals_serde_wasm_bindgen() {
    use serde::Serialize;
    use toolgate::policy::{LayerSpec, Policy, PolicySpec, RuleSpec, ToolRulesSpec};
    let plain = |value: &dyn erased::Value| value.plain();
    let same = |label: &str, tape: JsValue, plain: JsValue| {
        assert_eq!(JSON::stringify(&tape).unwrap(), JSON::stringify(&plain).unwrap(), "{label}");
    };
    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(u32),
        Tuple(i64, String),
        Struct { a: Option<bool>, b: f64 },
    }
    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "camelCase")]
    enum Tagged {
        One { text: String },
    }
    #[derive(Serialize)]
    struct Everything {
        shapes: Vec<Shape>,
        tagged: Tagged,
        map: std::collections::BTreeMap<String, (u8, char)>,
        unit: (),
        nothing: Option<String>,
        text: String,
    }
    let everything = Everything {
        shapes: vec![Shape::Unit, Shape::Newtype(7), Shape::Tuple(-3, "é😀x".into()), Shape::Struct { a: None, b: 1.5 }],
        tagged: Tagged::One { text: "naïve \"quoted\" \\ \n".into() },
        map: [("k😀".to_owned(), (1, 'ß')), ("".to_owned(), (0, '\u{0}'))].into_iter().collect(),
        unit: (),
        nothing: None,
        text: "after 😀 the offsets still line up".into(),
    };
    same("every serde shape", toolgate::bindings::tape::to_js(&everything).unwrap(), plain(&everything));

    let mut rules = ToolRulesSpec::default();
    rules.always_allow.extend([
        RuleSpec::regex(r"^cargo\b", false),
        RuleSpec::regex(r"^git\s+status\b", false),
        RuleSpec::prefix("npm run"),
    ]);
    rules.always_deny.extend([RuleSpec::regex(r"rm\s+-rf", false), RuleSpec::regex("(unclosed", false)]);
    rules.always_confirm.push(RuleSpec::regex(r"^git\s+push\b", false));
    let layer = LayerSpec { name: "user".into(), tools: [("terminal".to_owned(), rules)].into_iter().collect(), ..LayerSpec::default() };
    let policy = Policy::new(PolicySpec { layers: vec![layer], ..PolicySpec::default() });
    for line in
        ["cargo build && git status | head -3", "git push --force", "echo $(curl x) > out.txt", "npm run é😀", "ls 'unterminated", ""]
    {
        let decision = policy.decide("terminal", &[line.to_owned()]);
        same(line, toolgate::bindings::tape::to_js(&decision).unwrap(), plain(&decision));
    }
    for path in ["src/../.git/config", "ünïcode/😀.rs"] {
        let decision = policy.decide("edit_file", &[path.to_owned()]);
        same(path, toolgate::bindings::tape::to_js(&decision).unwrap(), plain(&decision));
    }
    let p = JsMcpPolicy::new(settings(r#"{"mcpToolsProtection":false,"mcpAllowedTools":["a:b","github:*","bad entry"]}"#)).unwrap();
    for (server, tool) in [("github", "x"), ("a", "c"), ("bad name", "t")] {
        let native = toolgate::mcp::McpPolicy::new(
            serde_json::from_str(r#"{"mcpToolsProtection":false,"mcpAllowedTools":["a:b","github:*","bad entry"]}"#).unwrap(),
        )
        .decide(server, tool, toolgate::mcp::AutoRunMode::Yolo);
        same(server, p.decide(server.into(), tool.into(), JsAutoRunMode::Yolo).unwrap().js_value(), plain(&native));
    }
}

/// Texts the tape keeps (named by id the next time they are sent) read back the same: on random
/// results whose texts recur, past the number kept (both sides then start again), at and past the
/// longest kept text, and after a result that failed half-written (the texts it first met must
/// be sent again, since the reader never received them).
#[wasm_bindgen_test]
fn kept_texts_read_back_the_same_across_results() {
    use serde::ser::{Serialize, SerializeTuple, Serializer};
    use toolgate::bindings::tape::to_js;
    let same = |label: &str, value: &dyn erased::Value, tape: Option<JsValue>| {
        assert_eq!(JSON::stringify(&tape.unwrap()).unwrap(), JSON::stringify(&value.plain()).unwrap(), "{label}");
    };
    // 1,500 distinct texts (more than are kept) of 0 to 140 bytes (around the longest kept), ASCII or not.
    let mut below = random_below(0xD1B5_4A32_D192_ED03);
    let pool: Vec<String> = (0..1500)
        .map(|i| {
            let len = below(141);
            let unit = if below(4) == 0 { "é" } else { "x" };
            format!("{i}:{}", unit.repeat(len / unit.len()))
        })
        .collect();
    for round in 0..3000 {
        let value: Vec<&String> = (0..below(6)).map(|_| &pool[below(pool.len())]).collect();
        same(&format!("round {round}"), &value, to_js(&value));
    }

    /// A result that fails after its first text: bytes have no JSON form.
    struct ThenBytes(String);
    impl Serialize for ThenBytes {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut tuple = serializer.serialize_tuple(2)?;
            tuple.serialize_element(&self.0)?;
            tuple.serialize_element(&Bytes)?;
            tuple.end()
        }
    }
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bytes(b"x")
        }
    }
    for n in 0..1100 {
        let fresh = format!("first met in a failed result {n}");
        assert!(to_js(&ThenBytes(fresh.clone())).is_none());
        same(&fresh, &vec![fresh.clone(), fresh.clone()], to_js(&vec![&fresh, &fresh]));
    }
}

/// A deterministic pseudo-random number generator (xorshift): each call gives a number below `n`.
fn random_below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// The MCP decision's fixed-shape reader (`decodeMcpDecision`) gives exactly what
/// serde-wasm-bindgen gives — keys, order and values — on random settings and calls that reach
/// every part of the shape: a matched entry, candidates, a name error, ignored entries, non-ASCII.
#[wasm_bindgen_test]
fn the_mcp_decision_reader_equals_serde_wasm_bindgen() {
    use serde::Serialize;
    use toolgate::mcp::{AutoRunMode, McpPolicy, McpSettings};
    let names = ["a", "b", "github", "x", "é😀", "", "  ", "x:y", "*", "cursor-ide-browser", "two words", "t\u{FFFD}"];
    let entries = ["a:b", "github:*", "*:x", "bad", "é😀:*", "*:*", "a:", ":b", "cursor-ide-browser:*"];
    let modes = [AutoRunMode::AskEveryTime, AutoRunMode::Yolo, AutoRunMode::FullYolo];
    let mut below = random_below(0x9E37_79B9_7F4A_7C15);
    let (mut reasons, mut matched, mut candidates, mut name_errors, mut ignored) = (std::collections::BTreeSet::new(), 0, 0, 0, 0);
    for _ in 0..400 {
        let list = |below: &mut dyn FnMut(usize) -> usize| (0..below(4)).map(|_| entries[below(entries.len())].to_owned()).collect();
        let settings = McpSettings {
            mcp_allowed_tools: list(&mut below),
            admin_mcp_allowed_tools: list(&mut below),
            mcp_tools_protection: below(4) == 0,
            playwright_protection: below(2) == 0,
            is_disabled_by_admin: below(6) == 0,
            is_admin_controlled: below(3) == 0,
            mcp_allowlists_enabled: below(6) != 0,
            yolo_mcp_tools_disabled: below(2) == 0,
        };
        let policy = McpPolicy::new(settings);
        for _ in 0..4 {
            let (server, tool) = (names[below(names.len())], names[below(names.len())]);
            let decision = policy.decide(server, tool, modes[below(modes.len())]);
            let fast = toolgate::bindings::tape::mcp_decision_to_js(&decision).unwrap();
            assert_eq!(Object::get_prototype_of(&fast), Object::get_prototype_of(&Object::new()), "a plain object");
            let plain = decision.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap();
            assert_eq!(JSON::stringify(&fast).unwrap(), JSON::stringify(&plain).unwrap(), "{server}:{tool}");
            reasons.insert(format!("{:?}", decision.reason));
            matched += usize::from(decision.matched.is_some());
            candidates += usize::from(!decision.candidates_for_allowlist.is_empty());
            name_errors += usize::from(decision.name_error.is_some());
            ignored += usize::from(!decision.ignored_entries.is_empty());
        }
    }
    assert!(
        reasons.len() >= 10 && matched > 0 && candidates > 0 && name_errors > 0 && ignored > 0,
        "{reasons:?} {matched} {candidates} {name_errors} {ignored}"
    );
}

/// The engine decision's fixed-shape reader (`decodeDecision`) gives exactly what
/// serde-wasm-bindgen gives, on random calls to layered policies that reach every optional part:
/// a deciding rule, a matched input, a default's source, items with hazards and allowing rules,
/// "cannot vouch", invalid patterns, suggestions, ignored untrusted settings, non-ASCII text.
#[wasm_bindgen_test]
fn the_decision_reader_equals_serde_wasm_bindgen() {
    use serde::Serialize;
    use toolgate::policy::{Call, HookResult, Policy, PolicySpec};
    let specs = [
        r#"{"layers":[{"name":"managed","kind":"managed","tools":{"terminal":{"alwaysDeny":[{"pattern":"^curl\\b"},{"pattern":"(unclosed"}]}}},
            {"name":"user","tools":{"terminal":{"alwaysAllow":[{"pattern":"^git\\s+(status|log)\\b"},{"pattern":"^ls\\b"},{"prefix":"npm run"}],
              "alwaysConfirm":[{"pattern":"^git\\s+push"}]},
              "edit_file":{"alwaysAllow":[{"pattern":"^src/"}],"alwaysDeny":[{"pattern":"\\.env($|\\.)"}]}}},
            {"name":"project","kind":"project","trusted":false,"tools":{"terminal":{"defaultMode":"allow","alwaysAllow":[{"pattern":"^rm\\b"}]}}}],
           "defaultMode":"confirm"}"#,
        r#"{"layers":[{"name":"user","defaultMode":"allow","tools":{"terminal":{"defaultMode":"confirm","alwaysAllow":[{"pattern":"^é😀\\b"}]},
            "fetch":{"alwaysAllow":[{"domain":"*.example.com"}]}}}],"alwaysAllowToolActions":true}"#,
        r#"{"layers":[{"name":"user","tools":{"terminal":{"defaultMode":"allow"}}}]}"#,
        r#"{"catalogue":"cursor","layers":[{"name":"user","tools":{"terminal":{"alwaysAllow":[{"prefix":"git status"}],"alwaysDeny":[{"pattern":"^curl\\b"}]}}}],"suggest":"prefix"}"#,
        r#"{"catalogue":"gasoline","layers":[{"name":"user","tools":{"gasoline":{"alwaysAllow":[{"toolAction":"observe.*"}]}}}]}"#,
    ];
    let fragments = [
        "git status",
        "git push origin main",
        "ls -la",
        "curl x | sh",
        "rm -rf build",
        "npm run é😀",
        "echo $(date)",
        "cat <<EOF",
        "é😀 go",
        "'unterminated",
        "a=1 ls",
        "sudo ls",
        "",
    ];
    let joins = [" && ", "; ", " | ", " || "];
    let tools = [("terminal", 0), ("edit_file", 1), ("fetch", 1), ("copy_path", 2), ("mcp", 2), ("gasoline", 2), ("something_else", 0)];
    let paths = ["src/a.rs", "src/../.env", "https://api.example.com/x", "ünïcode/😀.rs", "/etc/shadow", ""];
    let hooks = [None, None, Some(HookResult::Ask), Some(HookResult::Reject), Some(HookResult::Allow)];
    let mut below = random_below(0x2545_F491_4F6C_DD1D);
    let mut seen = std::collections::BTreeSet::new();
    for spec in specs {
        let policy = Policy::new(serde_json::from_str::<PolicySpec>(spec).unwrap());
        for _ in 0..300 {
            let (tool, arity) = tools[below(tools.len())];
            let inputs: Vec<String> = match arity {
                0 => {
                    let mut line = fragments[below(fragments.len())].to_owned();
                    for _ in 0..below(3) {
                        line.push_str(joins[below(joins.len())]);
                        line.push_str(fragments[below(fragments.len())]);
                    }
                    vec![line]
                }
                n => (0..n).map(|_| paths[below(paths.len())].to_owned()).collect(),
            };
            let decision = policy.decide_call(&Call { tool: tool.to_owned(), inputs, hook: hooks[below(hooks.len())] });
            let fast = toolgate::bindings::tape::decision_to_js(&decision).unwrap();
            let plain = decision.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap();
            assert_eq!(JSON::stringify(&fast).unwrap(), JSON::stringify(&plain).unwrap(), "{tool} {:?}", decision.items);
            // The shapes tape.rs writes as literals: every one is reached, and read as serde writes it.
            let source = |scope: &str, layer: bool| {
                decision.default_source.as_ref().is_some_and(|d| {
                    let d = serde_json::to_value(d).unwrap();
                    d["scope"] == scope && d.get("layer").is_some() == layer
                })
            };
            let suggested =
                |field: &str| decision.suggestions.iter().any(|s| serde_json::to_value(s.rule_spec()).unwrap().get(field).is_some());
            for (part, present) in [
                ("default from a tool", source("tool", true)),
                ("default from a layer", source("global", true)),
                ("default from the policy", source("global", false)),
                ("suggested pattern", suggested("pattern")),
                ("suggested prefix", suggested("prefix")),
                ("suggested MCP entry", suggested("mcp")),
                ("suggested tool action", suggested("toolAction")),
                ("rule", decision.rule.is_some()),
                ("matchedInput", decision.matched_input.is_some()),
                ("defaultSource", decision.default_source.is_some()),
                ("hazards", decision.items.iter().any(|i| !i.hazards.is_empty())),
                ("allowedBy", decision.items.iter().any(|i| i.allowed_by.is_some())),
                ("cannotVouch", decision.cannot_vouch.is_some()),
                ("invalidPatterns", !decision.invalid_patterns.is_empty()),
                ("suggestions", !decision.suggestions.is_empty()),
                ("ignored", !decision.ignored.is_empty()),
                ("non-ASCII", decision.message.chars().any(|c| !c.is_ascii())),
            ] {
                if present {
                    seen.insert(part);
                }
            }
        }
    }
    assert_eq!(seen.len(), 17, "parts reached: {seen:?}");
}

mod erased {
    use serde::Serialize;
    use wasm_bindgen::JsValue;
    pub trait Value {
        fn plain(&self) -> JsValue;
    }
    impl<T: Serialize> Value for T {
        fn plain(&self) -> JsValue {
            self.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
        }
    }
}

/// In a wasm build the core reads hosts and normalizes paths through the JavaScript runtime
/// (`URL`, `String.prototype.normalize`: `src/policy/text_forms.rs`); Node's and Chromium's give
/// what the crates give natively.
#[wasm_bindgen_test]
fn the_runtime_reads_hosts_and_unicode_as_the_native_build_does() {
    use toolgate::policy::text_forms::{caseless, composed, whatwg_host};
    assert_eq!(whatwg_host("0x7f.1").as_deref(), Some("127.0.0.1"));
    assert_eq!(whatwg_host("2852039166").as_deref(), Some("169.254.169.254"));
    assert_eq!(whatwg_host("[::FFFF:127.0.0.1]").as_deref(), Some("[::ffff:7f00:1]"));
    assert_eq!(whatwg_host("B\u{dc}CHER.example").as_deref(), Some("xn--bcher-kva.example"));
    assert_eq!(whatwg_host("1.2.3.4.5"), None);
    assert_eq!(caseless("S\u{c9}CRETS"), "se\u{301}crets");
    assert_eq!(composed("se\u{301}crets"), "s\u{e9}crets");
    let spec = r#"{"defaultMode":"allow","layers":[{"name":"u","tools":{"fetch":{"alwaysDeny":[{"domain":"127.0.0.1"}]},"edit_file":{"alwaysDeny":[{"path":"/repo/s\u00e9crets/**"}]}}}]}"#;
    let policy = toolgate::policy::Policy::new(serde_json::from_str(spec).unwrap());
    for (tool, input) in [("fetch", "http://2130706433/"), ("fetch", "http://[::ffff:127.0.0.1]/"), ("edit_file", "/repo/se\u{301}crets/a")]
    {
        assert_eq!(policy.decide(tool, &[input.to_owned()]).outcome, toolgate::policy::Outcome::Deny, "{input}");
    }
}
