//! The Cursor approval-flow dialect (Cursor's approval-flow design, with its MCP allowlist design's settings): the terminal decision,
//! file protections, hooks, the review state machine and its options (also as a view of a
//! session's prompt), and the auto-run settings
//! (defaults, legacy migration, team admin controls). It builds on the shell analysis of
//! [`crate::shell`] and the MCP allowlist of [`crate::mcp`]; it does not repeat them.

pub mod files;
pub mod hooks;
pub mod review;
pub mod session_view;
pub mod settings;
pub mod terminal;

pub use files::{decide_file_operation, file_policy, FileDecision, FileOperation};
pub use hooks::HookResult;
pub use review::{Allowlists, Review, ReviewKind, ReviewOption, ReviewOutcome, ReviewRequest};
pub use session_view::{review_options, SessionAnswer};
pub use settings::{apply_admin_controls, migrate, AutoRunControls, AutoRunSettings, ComposerState};
pub use terminal::{decide_terminal, terminal_policy, terminal_view, ApprovalType, TerminalDecision};
