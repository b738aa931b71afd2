//! Properties the fuzz targets assert, one module per target. Each `check` takes the fuzzer's raw
//! bytes and panics, with a message naming the property, when one does not hold: that is how
//! libFuzzer records a crash, and how the regression test fails.
//!
//! Shared by `fuzz/src/lib.rs` (the fuzz crate) and `tests/fuzz_regressions.rs` (plain `cargo test`
//! on stable), both through `#[path]`, so neither side has logic of its own.

pub mod decide;
pub mod mcp_names;
pub mod path;
pub mod settings_readers;
pub mod shell_analysis;
