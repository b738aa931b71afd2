//! The fuzz targets' properties as a library, so each target is one call and
//! `tests/fuzz_regressions.rs` (which includes the same files by path) replays the kept corpus
//! through exactly the checks the fuzzer ran.

#[path = "../properties/mod.rs"]
pub mod properties;
