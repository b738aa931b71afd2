//! Fuzz target: see `properties/decide.rs` for what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolgate_fuzz::properties::decide::check(data));
