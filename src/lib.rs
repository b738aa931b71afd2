//! toolgate decides whether an AI agent's tool call runs, asks the user, or is refused.
//!
//! The core is plain Rust with no WebAssembly types, so it is tested natively; the
//! `bindings` module (wasm32 only) is a thin layer that converts JavaScript values,
//! calls the core and returns plain objects.
//!
//! Each design the engine follows is a *dialect*. Every dialect translates its settings into the
//! one rule model, and the one evaluator decides:
//!
//! - [`policy`]: the rule model (tool catalogue, layers of rules, gates, defaults), the evaluator
//!   behind every decision, and "always allow" suggestions and permission buttons.
//! - [`shell`]: terminal command analysis — the sub-commands a line would run, and the hazards no
//!   allow rule may vouch for.
//! - [`mcp`]: the Cursor MCP allowlist — `server:tool` entries, name rules, list editing, and the
//!   MCP approval decision.
//! - [`cursor`]: Cursor's approval flow — the terminal decision, file protections, hooks, the
//!   human review, and the auto-run settings.
//! - [`zed`]: Zed's `agent.tool_permissions` from user and project settings files.
//! - [`gasoline`]: Gasoline's YAML `allowed_tools` list.
//! - [`roo`]: Roo Code's per-mode MCP restrictions.
//! - [`session`]: a permission session around the evaluator — grants with a scope and a lifetime,
//!   a decision log, child sessions for sub-agents, and the hand-off to an automatic reviewer.
//! - [`api`]: the JavaScript contract as plain Rust, with its JSON twin for the shared fixtures.
//! - [`problem`]: the one shape of a problem with a user's settings, text or list, shared by the
//!   API and the settings page.
//! - [`settings`]: the settings page's document — every section, its validation, and the
//!   policies it means — shared by the webview and the extension host.
//! - [`limits`]: the budgets on hostile input (longest command, largest settings text).
//! - [`presets`]: shipped rule sets a policy includes as layers — read-only commands (allowed)
//!   and dangerous commands (always ask), each entry with its source and examples.
//! - [`lint`]: findings about a policy's rules (invalid or unsupported patterns, shadowed,
//!   unmatchable and over-broad allows, deny rules a spelling escapes, failing examples).
//! - [`import`]: other agents' permission rules (Claude Code, Codex, VS Code, Cursor, Gemini CLI) read
//!   into one policy and written back out, with a report of what each rule became.
//! - [`input`]: reading settings and lists from JSON text, with errors that name the field.
//! - [`agent_calls`]: other agents' tool calls (Claude Code, Codex, Gemini CLI, Cursor, VS Code,
//!   GitHub Copilot) read as toolgate calls, tools named as their importers translate them.
//! - [`history`]: a policy replayed over a history of calls (toolgate's session log), and the
//!   rules that history never met.

#![deny(missing_docs)]
// No `unsafe` anywhere but in the wasm build's allocator front (`bindings::small_blocks`), which
// says why it pays beside its own allow, and the trap-test build's allocator (never shipped).
#![deny(unsafe_code)]

pub mod agent_calls;
pub mod api;
pub mod cursor;
pub mod gasoline;
pub mod history;
pub mod import;
pub mod input;
pub mod jsonc;
pub mod limits;
pub mod lint;
pub mod mcp;
pub mod policy;
pub mod problem;
pub mod roo;
pub mod session;
pub mod settings;
pub mod shell;
pub mod visible;
pub mod zed;

// Shipped rule sets are part of the rule model (a spec names them); kept at their public path.
pub use policy::presets;

#[cfg(test)]
mod test_support;

// The JavaScript API (wasm32); its plain-Rust parts are tested natively.
#[cfg(any(target_arch = "wasm32", test))]
pub mod bindings;
