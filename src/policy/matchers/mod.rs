//! The matcher kinds whose grammar is more than a regex, one module each: the MCP allowlist
//! entry (`server:tool`, either side `*`, with its name rules: Cursor's MCP allowlist design),
//! and those imported from other agents' rule formats — a command glob (Claude Code's
//! `Bash(…)`), a token prefix with alternatives (Codex's `prefix_rule`), a gitignore-style path
//! pattern (Claude Code's `Read(…)` / `Edit(…)`) and a domain glob for URLs (Claude Code's
//! `WebFetch(domain:…)`). Each is compiled once, with an error that says what is wrong, and
//! matched without a regex engine; each module cites the peer text it follows.
//!
//! The kinds' list, their rule fields and how each compiles are in `rules.rs` (`MatcherKind`,
//! `compile_rule`), which uses these modules.

mod domain;
mod glob;
pub mod mcp_entry;
pub mod mcp_name;
mod path_pattern;
mod tokens;

pub use domain::{url_host, DomainGlob};
pub use glob::CommandGlob;
pub use path_pattern::PathPattern;
pub use tokens::TokenPrefix;
