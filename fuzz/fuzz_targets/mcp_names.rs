//! Fuzz target: see `properties/mcp_names.rs` for what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolgate_fuzz::properties::mcp_names::check(data));
