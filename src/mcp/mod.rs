//! The Cursor MCP allowlist dialect (Cursor's MCP allowlist design): `server:tool` entries with `*`
//! wildcards, and the MCP approval decision over auto-run modes, protections and admin control.

pub mod compiled;
pub mod decision;
pub mod edit;
pub mod internal_name;

// The entry grammar is a matcher kind of the core; the dialect uses it from there, and keeps its paths.
pub use crate::policy::matchers::{mcp_entry as entry, mcp_name as name};

pub use compiled::{CompiledAllowlist, InvalidEntry};
pub use decision::{decide_mcp, mcp_policy, AutoRunMode, McpDecision, McpPolicy, McpSettings};
pub use edit::{add_tool, normalize, remove_entry, AddOutcome, AddStatus, NormalizedAllowlist, RemoveOutcome};
pub use entry::{entry_matches, format_entry, parse_entry, EntryError, McpEntry};
pub use internal_name::{split_tool_name, SplitToolName};
pub use name::{validate_name, NameError, NameKind};
