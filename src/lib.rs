//! toolgate decides whether an AI agent's tool call runs, asks the user, or is refused.
//!
//! The core is plain Rust with no WebAssembly types, so it is tested natively; the
//! `bindings` module (wasm32 only) is a thin layer that converts JavaScript values,
//! calls the core and returns plain objects.
//!
//! Each design the engine follows is a *dialect*: [`mcp`] is the Cursor MCP allowlist.

pub mod api;
pub mod cursor;
pub mod gasoline;
pub mod input;
pub mod mcp;
pub mod policy;
pub mod roo;
pub mod shell;
pub mod zed;

#[cfg(test)]
mod test_support;

#[cfg(target_arch = "wasm32")]
pub mod bindings;
