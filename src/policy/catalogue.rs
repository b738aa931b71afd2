//! Tools described as data: what each tool's input is, so the evaluator knows how to read a call
//! (split a command line, normalise a path, pair an MCP server with its tool) without ever
//! comparing tool names. A policy starts from a shipped catalogue and may add or redescribe tools.

use crate::shell::Shell;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// What a tool's input is, and so what its rules are matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum InputKind {
    /// A command line for `shell`: rules see each sub-command it would run.
    Command {
        /// The shell the command line is written for. Default: POSIX.
        #[serde(default)]
        shell: Shell,
    },
    /// One path: rules see it as written and with `.` and `..` collapsed.
    Path {
        /// Whether the tool only reads the path or may change it. Default: `write` (the strict
        /// reading: writes to protected paths ask, and the tool's deny and confirm rules also
        /// apply to what terminal commands write).
        #[serde(default, skip_serializing_if = "PathAccess::is_write")]
        #[cfg_attr(target_arch = "wasm32", tsify(optional))]
        access: PathAccess,
    },
    /// A source and a destination path, each seen as written and normalised.
    PathPair,
    /// A URL.
    Url,
    /// A search query or pattern.
    Query,
    /// An MCP call: the server and the tool (or a Gasoline tool and its action).
    McpCall,
    /// Anything else: rules see the input as given.
    Opaque,
}

/// What a path tool does with its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PathAccess {
    /// It may create, change, move or delete what the path names.
    #[default]
    Write,
    /// It only reads what the path names (a file's text, a directory's entries).
    Read,
}

impl PathAccess {
    fn is_write(&self) -> bool {
        *self == PathAccess::Write
    }
}

/// A tool that changes the path it is given.
pub const WRITE_PATH: InputKind = InputKind::Path { access: PathAccess::Write };
/// A tool that only reads the path it is given.
pub const READ_PATH: InputKind = InputKind::Path { access: PathAccess::Read };

/// The shipped catalogues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CatalogueName {
    /// Zed's built-in agent tools.
    #[default]
    Zed,
    /// Cursor's approval flow: `terminal`, `write_file`, `delete_file`, `mcp`.
    Cursor,
    /// Roo Code's MCP tools: `use_mcp_tool`, `access_mcp_resource`.
    Roo,
    /// Gasoline's MCP server: one tool, `gasoline`, whose calls are `tool.action` pairs.
    Gasoline,
    /// No tool is known: every tool is opaque unless the policy describes it.
    None,
}

const POSIX: InputKind = InputKind::Command { shell: Shell::Posix };

/// Zed's built-in agent tools and what their permissions are checked against.
const ZED: &[(&str, InputKind)] = &[
    ("terminal", POSIX),
    ("edit_file", WRITE_PATH),
    ("save_file", WRITE_PATH),
    ("delete_path", WRITE_PATH),
    ("create_directory", WRITE_PATH),
    ("restore_file_from_disk", WRITE_PATH),
    ("read_file", READ_PATH),
    ("list_directory", READ_PATH),
    ("move_path", InputKind::PathPair),
    ("copy_path", InputKind::PathPair),
    ("find_path", InputKind::Query),
    ("grep", InputKind::Query),
    ("fetch", InputKind::Url),
    ("web_search", InputKind::Query),
];

/// Cursor's terminal tool: its input is a command line.
pub const CURSOR_TERMINAL: &str = "terminal";
/// Cursor's file-write tool: its input is a path.
pub const CURSOR_WRITE_FILE: &str = "write_file";
/// Cursor's file-delete tool: its input is a path.
pub const CURSOR_DELETE_FILE: &str = "delete_file";
/// Cursor's MCP tool: its input is a server and a tool.
pub const CURSOR_MCP: &str = "mcp";

const CURSOR: &[(&str, InputKind)] =
    &[(CURSOR_TERMINAL, POSIX), (CURSOR_WRITE_FILE, WRITE_PATH), (CURSOR_DELETE_FILE, WRITE_PATH), (CURSOR_MCP, InputKind::McpCall)];

/// Roo Code's tool for calling an MCP tool: a server and a tool.
pub const ROO_USE_MCP_TOOL: &str = "use_mcp_tool";
/// Roo Code's tool for reading an MCP server's resources: a server (and an empty tool).
pub const ROO_ACCESS_MCP_RESOURCE: &str = "access_mcp_resource";

const ROO: &[(&str, InputKind)] = &[(ROO_USE_MCP_TOOL, InputKind::McpCall), (ROO_ACCESS_MCP_RESOURCE, InputKind::McpCall)];

/// Gasoline's one tool: a call is its tool and action.
pub const GASOLINE_CALL: &str = "gasoline";

const GASOLINE: &[(&str, InputKind)] = &[(GASOLINE_CALL, InputKind::McpCall)];

/// The tools of a shipped catalogue.
pub fn tools(name: CatalogueName) -> FxHashMap<String, InputKind> {
    let list: &[(&str, InputKind)] = match name {
        CatalogueName::Zed => ZED,
        CatalogueName::Cursor => CURSOR,
        CatalogueName::Roo => ROO,
        CatalogueName::Gasoline => GASOLINE,
        CatalogueName::None => &[],
    };
    list.iter().map(|(tool, kind)| ((*tool).to_owned(), *kind)).collect()
}
