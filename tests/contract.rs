//! The JS contract's JSON twin against the shared fixtures (`tests/fixtures/contract.json`),
//! which the JavaScript tests also run through the wasm bindings: the same calls must give
//! the same answers on both sides.
#![allow(clippy::unwrap_used, clippy::panic)]

use serde_json::Value;

/// Whether `actual` contains everything `expected` says: objects by key, arrays element-wise
/// (same length), everything else equal.
fn contains(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|a| contains(a, v))),
        (Value::Array(a), Value::Array(e)) => a.len() == e.len() && a.iter().zip(e).all(|(a, e)| contains(a, e)),
        _ => actual == expected,
    }
}

#[test]
fn every_fixture_gives_its_answer() {
    let fixtures: Vec<Value> = serde_json::from_str(include_str!("fixtures/contract.json")).unwrap();
    assert!(fixtures.len() >= 15);
    for fixture in &fixtures {
        let name = fixture["name"].as_str().unwrap();
        let args = fixture["args"].as_array().unwrap();
        let answer = toolgate::api::call_json(fixture["function"].as_str().unwrap(), args).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(contains(&answer, &fixture["expect"]), "{name}\n got: {answer:#}\n expected: {:#}", fixture["expect"]);
    }
}

#[test]
fn a_callers_mistake_is_an_error_not_an_answer() {
    let err = toolgate::api::call_json("decideMcp", &[Value::from(42), Value::from("x"), Value::Null, Value::from("yolo")]).unwrap_err();
    assert!(err.starts_with("serverId:"), "{err}");
}
