//! The JavaScript API: a thin layer over the core (wasm32 only). Five builds come from it, by
//! Cargo feature: `mcp` (the package's main entry, small), `engine` (`toolgate/engine`: decides),
//! `tools` (`toolgate/tools`: the engine plus lint, import/export and the settings validator), and
//! the settings page's own two: `webview` (its glue to the host) and `settings` (what validates a
//! draft and saves it).
//!
//! Every function checks its JavaScript arguments before the core sees them (see `args`): strings
//! must be strings and well-formed UTF-16 (a lone surrogate would otherwise become U+FFFD and
//! could match a different name), and objects go through [`crate::input`] so a bad field
//! is named (the MCP entry's few shapes through `js_reader`). Results are plain objects and
//! arrays (no `Map`, no `BigInt`). Nothing here panics: every failure is a thrown `TypeError` or
//! `Error` with a message.
//!
//! Two modules are plain Rust, tested natively: `small_blocks` (the wasm build's allocator
//! front) and `kept_texts` (what a result tape has already sent).

#[cfg(target_arch = "wasm32")]
mod args;
#[cfg(target_arch = "wasm32")]
pub(crate) use args::*;

#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub mod engine;
#[cfg(all(target_arch = "wasm32", any(feature = "mcp", feature = "settings")))]
pub mod js_reader;
pub(crate) mod kept_texts;
#[cfg(all(target_arch = "wasm32", any(feature = "mcp", feature = "settings")))]
pub mod mcp;
#[cfg(all(target_arch = "wasm32", any(feature = "mcp", feature = "engine")))]
mod pair_buffer;
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub mod session;
#[cfg(all(target_arch = "wasm32", feature = "settings"))]
pub mod settings;
pub(crate) mod small_blocks;
#[cfg(target_arch = "wasm32")]
pub mod tape;
#[cfg(all(target_arch = "wasm32", feature = "tools"))]
pub mod tools;
#[cfg(all(target_arch = "wasm32", feature = "trap-test"))]
mod trap;
#[cfg(all(target_arch = "wasm32", feature = "webview"))]
pub mod webview;

/// dlmalloc with lists of freed small blocks in front (see [`small_blocks`]); the trap-test build
/// wraps the same allocator in one that can trap.
#[cfg(all(target_arch = "wasm32", not(feature = "trap-test")))]
#[global_allocator]
static ALLOCATOR: small_blocks::SmallBlocks<std::alloc::System> = small_blocks::SmallBlocks::new(std::alloc::System);
