//! Fuzz target: see `properties/shell_analysis.rs` for what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolgate_fuzz::properties::shell_analysis::check(data));
