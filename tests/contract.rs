//! The JS contract's JSON twin against the shared fixtures (`tests/fixtures/contract.json`),
//! which the JavaScript tests also run through the wasm bindings. Each fixture's `expect` is the
//! whole answer, and both sides must give exactly it: a field that differs, is missing or is extra
//! on either side fails.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::Value;

#[test]
fn every_fixture_gives_exactly_its_answer() {
    let fixtures: Vec<Value> = serde_json::from_str(include_str!("fixtures/contract.json")).unwrap();
    assert!(fixtures.len() >= 15);
    for fixture in &fixtures {
        let name = fixture["name"].as_str().unwrap();
        let args = fixture["args"].as_array().unwrap();
        let answer = toolgate::api::call_json(fixture["function"].as_str().unwrap(), args).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(answer == fixture["expect"], "{name}\n got: {answer:#}\n expected: {:#}", fixture["expect"]);
    }
}

#[test]
fn a_callers_mistake_is_an_error_not_an_answer() {
    let err = toolgate::api::call_json("decideMcp", &[Value::from(42), Value::from("x"), Value::Null, Value::from("yolo")]).unwrap_err();
    assert!(err.starts_with("serverId:"), "{err}");
}
