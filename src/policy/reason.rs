//! Why a decision came out as it did: the reason a gate reports, or the default's.

use serde::{Deserialize, Serialize};

/// Why a decision came out as it did: the gate that decided, or the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Reason {
    /// A hook rejected the call.
    RejectedByHook,
    /// A hook asked for approval of a call that would have run.
    HookAsked,
    /// A built-in denial no setting lifts (removing `/`, a home, the working directory).
    HardcodedDeny,
    /// The same removal where the dialect asks instead of refusing (Cursor).
    CatastrophicRemoval,
    /// A rule did not compile.
    InvalidPattern,
    /// The command's text is not what runs ($VAR, $(…)…) and the policy denies that.
    Substitution,
    /// The terminal's shell cannot be analysed, so allow rules for it are refused.
    UnsupportedShell,
    /// The command line could not be analysed.
    ParseFailed,
    /// A deny rule matched an item.
    DenyRule,
    /// A confirm rule matched an item.
    ConfirmRule,
    /// Allow rules covered every item.
    AllowRule,
    /// A command-prefix blocklist entry matched (Cursor).
    Blocklisted,
    /// The allowlist covered the call (Cursor).
    Allowlisted,
    /// The allowlist did not cover the call (Cursor).
    NotAllowlisted,
    /// The administrator's allowlist did not cover the call (Cursor).
    NotInAdminAllowlist,
    /// Allow rules could not vouch for the call (unparsed syntax, a substitution) while deny or
    /// confirm rules exist, so it asks instead of falling back to an allowing default.
    CannotVouch,
    /// No gate decided; the tool's own default did.
    ToolDefault,
    /// No gate decided; a layer's or the policy's global default did.
    GlobalDefault,
    /// `always_allow_tool_actions` turned a fallback of confirm into allow.
    LegacyAlwaysAllow,
    /// The administrator has disabled auto-run, so every call asks (Cursor).
    DisabledByAdmin,
    /// The command line runs nothing (it is empty or only a comment), so it asks (Cursor).
    EmptyCommand,
    /// A command runs `rm` while delete protection is on (Cursor).
    DeleteProtection,
    /// A command runs `sudo`, which always asks (Cursor).
    Sudo,
    /// Run-everything mode runs the call without consulting the allowlist (Cursor).
    RunEverything,
    /// Auto-run is off: every call asks (Cursor).
    AskEveryTime,
    /// An item has something no allowlist entry can vouch for (a substitution, a redirect to a file…).
    Hazard,
    /// The sandbox covers the command (Cursor).
    Sandboxed,
    /// The path is a dotfile and dotfile protection is on (Cursor).
    DotFile,
    /// The path is outside the workspace and outside-workspace protection is on (Cursor).
    OutsideWorkspace,
    /// No protection applied in auto-run (Cursor file operations).
    AutoRun,
    /// The MCP call's server or tool name is invalid, so it asks (Cursor).
    InvalidName,
    /// A browser tool call while browser (Playwright) protection is on (Cursor).
    BrowserProtection,
    /// An MCP tool call while MCP tools protection is on (Cursor).
    McpProtection,
    /// A browser tool call runs because browser protection is off (Cursor).
    BrowserToolAutoRun,
    /// The MCP allowlist feature is off and the legacy toggle keeps MCP tools from auto-running (Cursor).
    LegacyProtection,
    /// The MCP allowlist feature is off and the legacy toggle lets MCP tools auto-run (Cursor).
    LegacyAutoRun,
    /// An input is longer than toolgate analyses ([`crate::limits::MAX_INPUT_BYTES`]), so it asks
    /// (or refuses, where the tool's default refuses).
    InputTooLarge,
    /// The call writes a protected path (the editor's or an agent's settings, git's internals,
    /// shell start-up files, …): it always asks, whatever allowed it; deny rules still deny.
    ProtectedPath,
    /// toolgate itself failed (the wasm instance trapped), so the call asks. Set by the package's
    /// JavaScript wrapper (`js/resilient/`), which re-instantiates the module; the core never
    /// decides with it.
    InternalError,
}
