//! The policy file's JSON Schema (`schema/policy.schema.json`, published in the package as
//! `toolgate/policy.schema.json`) is generated from the Rust types serde reads a policy with, so
//! it cannot drift from them: this test regenerates it and fails when the committed file differs.
//! `UPDATE_SCHEMA=1 cargo test --features schema --test schema` rewrites the file instead.
#![cfg(feature = "schema")]
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::{json, Value};
use std::path::Path;
use toolgate::policy::PolicySpec;

/// The schema's identity (a name, not a download address: the file ships in the package as
/// `toolgate/policy.schema.json`) and its title.
const SCHEMA_ID: &str = "urn:toolgate:policy.schema.json";
const SCHEMA_TITLE: &str = "toolgate policy";

/// The schema as committed: schemars' draft 2020-12 output for `PolicySpec`, with `$id` and a
/// title naming toolgate's policy, pretty-printed (keys sorted) with a trailing newline.
fn generated() -> String {
    let mut schema = schemars::schema_for!(PolicySpec);
    schema.insert("$id".to_owned(), json!(SCHEMA_ID));
    schema.insert("title".to_owned(), json!(SCHEMA_TITLE));
    let mut text = serde_json::to_string_pretty(&schema).unwrap();
    text.push('\n');
    text
}

#[test]
fn the_committed_schema_is_the_one_the_rust_types_generate() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/policy.schema.json");
    let expected = generated();
    if std::env::var_os("UPDATE_SCHEMA").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, &expected).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == expected,
        "{} is not the schema the Rust types generate (a policy type or its doc comments changed); \
         regenerate it with `UPDATE_SCHEMA=1 cargo test --features schema --test schema` and commit it",
        file.display()
    );
}

#[test]
fn the_schema_names_toolgates_policy_and_refuses_unknown_fields() {
    let schema: Value = serde_json::from_str(&generated()).unwrap();
    assert_eq!(schema["$id"], SCHEMA_ID);
    assert_eq!(schema["title"], SCHEMA_TITLE);
    // A typo in a key must be an error, as it is for the engine (serde's deny_unknown_fields).
    assert_eq!(schema["additionalProperties"], json!(false));
    for name in ["LayerSpec", "ToolRulesSpec", "RuleSpec", "RuleExamples", "Gate"] {
        assert_eq!(schema["$defs"][name]["additionalProperties"], json!(false), "{name}");
    }
    // Doc comments become descriptions a settings editor can show.
    assert!(schema["$defs"]["RuleSpec"]["properties"]["pattern"]["description"].as_str().is_some_and(|d| !d.is_empty()));
}
