//! Fuzz target: see `properties/settings_readers.rs` for what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| toolgate_fuzz::properties::settings_readers::check(data));
