//! Other agents' tool calls read as toolgate calls: the tool and the inputs a call of Claude
//! Code's `Bash`, Gemini CLI's `run_shell_command` or a Codex patch is decided as.
//!
//! One reading serves every place such a call arrives: an agent's pre-tool hook (the package's
//! `toolgate hook`, its hook server and SDK callbacks) and an agent's session history
//! ([`crate::history::transcripts`]). The tool a name stands for is the one its importer
//! translates that name's rules to ([`crate::import::claude::call_tool`],
//! [`crate::import::gemini::call_tool`], [`crate::import::cursor::call_tool`]), so a call meets
//! exactly the rules its agent's settings became. Agents without rules of their own to import
//! name their tools in another agent's words: GitHub Copilot's `view` is Claude Code's `Read`
//! (its hooks reference maps them so for Claude-style hooks), VS Code's `run_in_terminal` is
//! `Bash`, and Codex's hook calls its shell tools `Bash` as Claude Code does.
//!
//! A tool toolgate has no counterpart for (`TodoWrite`, `update_plan`) reads as `None`: the
//! caller decides it under the agent's own name, as an opaque tool of the policy. A known tool
//! whose input lacks what it is decided on (a `Bash` call without a `command`) is an error that
//! names the field, which a hook answers by refusing the call.
//!
//! Sources for each agent's names and inputs:
//! * Claude Code: <https://docs.anthropic.com/en/docs/claude-code/hooks> ("PreToolUse input":
//!   `Bash.command`, `Read/Write/Edit.file_path`, `WebFetch.url`, `mcp__<server>__<tool>`).
//! * Codex: `codex-rs/hooks/src/events/pre_tool_use.rs` and `codex-rs/core/src/tools/handlers/`
//!   in <https://github.com/openai/codex> (hooks see the shell as `Bash` with `command`, a patch
//!   as `apply_patch` with its text in `command`; rollouts keep `exec_command.cmd`,
//!   `shell.command` as an argv, `apply_patch.input`).
//! * Gemini CLI: `packages/core/src/tools/definitions/base-declarations.ts` and
//!   `packages/core/src/hooks/types.ts` (`mcp_context`) in
//!   <https://github.com/google-gemini/gemini-cli>; `web_fetch` has no URL field, its URLs are in
//!   its `prompt`.
//! * Cursor: <https://cursor.com/docs/agent/hooks> (`beforeShellExecution.command`,
//!   `beforeReadFile.file_path`, `beforeMCPExecution.tool_name`).
//! * VS Code: `src/extension/tools/common/toolNames.ts` in
//!   <https://github.com/microsoft/vscode-copilot-chat> and
//!   <https://code.visualstudio.com/docs/copilot/customization/hooks> (tool inputs in camelCase).
//! * GitHub Copilot: <https://docs.github.com/en/copilot/reference/hooks-reference> (`bash`,
//!   `view`, `create`, `edit`, `web_fetch`, and their Claude Code names for `PreToolUse` hooks).

use crate::import::{MCP_TOOL, TERMINAL};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The agents whose tool calls toolgate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Agent {
    /// Claude Code (and VS Code, which runs the hooks of Claude Code's settings files with its
    /// own tool names, read here too).
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    GeminiCli,
    /// Cursor's agent hooks: the name is the hook's event (`beforeShellExecution`,
    /// `beforeReadFile`, `beforeMCPExecution`), the input the hook's whole payload.
    Cursor,
    /// VS Code's agent hooks.
    Vscode,
    /// GitHub Copilot's CLI and SDK.
    Copilot,
}

/// One toolgate call: a tool of the Zed catalogue (or the imported MCP tool) and its inputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ToolgateCall {
    /// The tool id (`terminal`, `read_file`, `edit_file`, `fetch`, `mcp`, …).
    pub tool: String,
    /// Its inputs: a command line, a path, a URL, a query, or `[server, tool]`.
    pub inputs: Vec<String>,
}

impl ToolgateCall {
    fn new(tool: impl Into<String>, inputs: Vec<String>) -> Self {
        ToolgateCall { tool: tool.into(), inputs }
    }
}

/// The toolgate calls an agent's tool call makes (a patch makes one per file), or `None` for a
/// tool toolgate has no counterpart for; an error names what is missing from the input.
pub fn read_call(agent: Agent, name: &str, input: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    match agent {
        Agent::ClaudeCode => match claude_name(name, input)? {
            Some(calls) => Ok(Some(calls)),
            None => vscode_name(name, input),
        },
        Agent::Vscode => match vscode_name(name, input)? {
            Some(calls) => Ok(Some(calls)),
            // Claude Code's names, in a hook file VS Code shares with it.
            None => claude_name(name, input),
        },
        Agent::Copilot => copilot_name(name, input),
        Agent::Codex => codex_name(name, input),
        Agent::GeminiCli => gemini_name(name, input),
        Agent::Cursor => cursor_event(name, input),
    }
}

/// The first of `fields` that `input` holds as a string, or an error naming them.
fn text(name: &str, input: &Value, fields: &[&str]) -> Result<String, String> {
    fields.iter().find_map(|field| input.get(field).and_then(Value::as_str)).map(str::to_owned).ok_or_else(|| {
        let named: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
        format!("the {name} call's {} is missing or not a string", named.join(" or "))
    })
}

/// `mcp__<server>__<tool>`, the MCP tool names of Claude Code, Codex and Copilot.
fn mcp_name(name: &str) -> Option<Result<Vec<ToolgateCall>, String>> {
    let server_and_tool = name.strip_prefix("mcp__")?;
    Some(match server_and_tool.split_once("__") {
        Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
            Ok(vec![ToolgateCall::new(MCP_TOOL, vec![server.into(), tool.into()])])
        }
        _ => Err(format!("`{name}` is not an MCP tool name `mcp__<server>__<tool>`")),
    })
}

// Claude Code

/// Claude Code's tools toolgate decides, and the field their input is decided on.
const CLAUDE_INPUTS: &[(&str, &[&str])] = &[
    ("Bash", &["command"]),
    ("Read", &["file_path"]),
    ("Edit", &["file_path"]),
    ("MultiEdit", &["file_path"]),
    ("Write", &["file_path"]),
    ("NotebookEdit", &["notebook_path"]),
    ("WebFetch", &["url"]),
    ("WebSearch", &["query"]),
    ("Grep", &["pattern"]),
    ("Glob", &["pattern"]),
    ("LS", &["path"]),
];

fn claude_name(name: &str, input: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    if let Some(mcp) = mcp_name(name) {
        return mcp.map(Some);
    }
    let Some((_, fields)) = CLAUDE_INPUTS.iter().find(|(n, _)| *n == name) else { return Ok(None) };
    as_claude(name, name, input, fields)
}

/// A call of `name` decided as Claude Code's tool `claude`, on the first of `fields` its input has.
fn as_claude(name: &str, claude: &str, input: &Value, fields: &[&str]) -> Result<Option<Vec<ToolgateCall>>, String> {
    let Some(tool) = crate::import::claude::call_tool(claude) else { return Ok(None) };
    Ok(Some(vec![ToolgateCall::new(tool, vec![text(name, input, fields)?])]))
}

// VS Code

/// VS Code's built-in agent tools as Claude Code's, with the camelCase fields their input has.
const VSCODE_TOOLS: &[(&str, &str, &[&str])] = &[
    ("run_in_terminal", "Bash", &["command"]),
    ("read_file", "Read", &["filePath"]),
    ("create_file", "Write", &["filePath"]),
    ("replace_string_in_file", "Edit", &["filePath"]),
    ("insert_edit_into_file", "Edit", &["filePath"]),
    ("edit_notebook_file", "NotebookEdit", &["filePath"]),
    ("list_dir", "LS", &["path"]),
    ("file_search", "Glob", &["query"]),
    ("grep_search", "Grep", &["query"]),
];

fn vscode_name(name: &str, input: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    match name {
        // `urls`: every page the call fetches.
        "fetch_webpage" => {
            let urls = input
                .get("urls")
                .and_then(strings)
                .ok_or_else(|| format!("the {name} call's `urls` is missing or not a list of strings"))?;
            let Some(tool) = crate::import::claude::call_tool("WebFetch") else { return Ok(None) };
            Ok(Some(urls.into_iter().map(|url| ToolgateCall::new(tool.clone(), vec![url])).collect()))
        }
        // `replacements`: one edit per entry, each with its `filePath`.
        "multi_replace_string_in_file" => {
            let entries = input.get("replacements").and_then(Value::as_array).filter(|e| !e.is_empty());
            let entries = entries.ok_or_else(|| format!("the {name} call's `replacements` is missing or empty"))?;
            let mut calls = Vec::new();
            for entry in entries {
                let file = text(name, entry, &["filePath"])?;
                if !calls.iter().any(|c: &ToolgateCall| c.inputs.first() == Some(&file)) {
                    calls.push(ToolgateCall::new(edit_tool()?, vec![file]));
                }
            }
            Ok(Some(calls))
        }
        "apply_patch" => Ok(Some(patch_calls(&text(name, input, &["input"])?)?)),
        _ => match VSCODE_TOOLS.iter().find(|(n, _, _)| *n == name) {
            Some((_, claude, fields)) => as_claude(name, claude, input, fields),
            None => Ok(None),
        },
    }
}

/// The tool a file edit is decided as: Claude Code's `Edit`.
fn edit_tool() -> Result<String, String> {
    crate::import::claude::call_tool("Edit").ok_or_else(|| "the Claude Code importer has no tool for `Edit`".to_owned())
}

// GitHub Copilot

/// Copilot's tool names, the Claude Code tools its hooks reference maps them to, and the fields
/// their input is decided on (Copilot's own, then Claude Code's).
const COPILOT_TOOLS: &[(&str, &str, &[&str])] = &[
    ("bash", "Bash", &["command"]),
    ("view", "Read", &["path", "file_path"]),
    ("create", "Write", &["path", "file_path"]),
    ("edit", "Edit", &["path", "file_path"]),
    ("str_replace_editor", "Edit", &["path", "file_path"]),
    ("web_fetch", "WebFetch", &["url"]),
    ("glob", "Glob", &["pattern"]),
    ("grep", "Grep", &["pattern"]),
];

fn copilot_name(name: &str, input: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    if let Some(mcp) = mcp_name(name) {
        return mcp.map(Some);
    }
    // `PreToolUse` hooks get Claude Code's names over Copilot's inputs.
    let entry = COPILOT_TOOLS.iter().find(|(n, _, _)| *n == name).or_else(|| COPILOT_TOOLS.iter().find(|(_, c, _)| *c == name));
    match entry {
        Some((_, claude, fields)) => as_claude(name, claude, input, fields),
        None => claude_name(name, input),
    }
}

// Codex

/// Codex's shell tools whose input is a command line: the hook's `Bash` and the names its
/// rollouts keep, with the field that holds the line.
const CODEX_COMMAND_LINES: &[(&str, &str)] = &[("Bash", "command"), ("shell_command", "command"), ("exec_command", "cmd")];
/// Codex's shell tools whose input is an argv (`["bash", "-lc", "…"]`).
const CODEX_ARGVS: &[&str] = &["shell", "container.exec", "local_shell"];

fn codex_name(name: &str, input: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    if let Some(mcp) = mcp_name(name) {
        return mcp.map(Some);
    }
    if let Some((_, field)) = CODEX_COMMAND_LINES.iter().find(|(n, _)| *n == name) {
        return Ok(Some(vec![ToolgateCall::new(TERMINAL, vec![text(name, input, &[field])?])]));
    }
    if CODEX_ARGVS.contains(&name) {
        let argv = input.get("command").and_then(strings);
        let argv = argv.ok_or_else(|| format!("the {name} call's `command` is missing or not a non-empty list of strings"))?;
        return Ok(Some(vec![ToolgateCall::new(TERMINAL, vec![command_line(&argv)])]));
    }
    if name == "apply_patch" {
        // The hook's patch is in `command`, a rollout's in `input`.
        return Ok(Some(patch_calls(&text(name, input, &["command", "input"])?)?));
    }
    Ok(None)
}

/// One edit per file an `apply_patch` patch adds, updates, deletes or moves to.
pub fn patch_calls(patch: &str) -> Result<Vec<ToolgateCall>, String> {
    let mut files: Vec<String> = Vec::new();
    for line in patch.lines() {
        let named = ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "].iter().find_map(|p| line.strip_prefix(p));
        if let Some(file) = named.map(str::trim).filter(|f| !f.is_empty()) {
            if !files.iter().any(|f| f == file) {
                files.push(file.to_owned());
            }
        }
    }
    if files.is_empty() {
        return Err("the apply_patch patch names no file (`*** Add File: `, `*** Update File: `, `*** Delete File: `)".into());
    }
    let tool = edit_tool()?;
    Ok(files.into_iter().map(|file| ToolgateCall::new(tool.clone(), vec![file])).collect())
}

/// A non-empty list of strings (an argv).
pub fn strings(value: &Value) -> Option<Vec<String>> {
    let words: Vec<String> = value.as_array()?.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<_>>()?;
    (!words.is_empty()).then_some(words)
}

/// The command line a Codex argv runs: the script of `<shell> -lc <script>` (how Codex wraps the
/// model's commands, bash/zsh/sh or PowerShell's `-Command`), otherwise the words quoted for a POSIX
/// shell.
pub fn command_line(argv: &[String]) -> String {
    if let Some((shell, rest)) = argv.split_first() {
        let program = shell.rsplit(['/', '\\']).next().unwrap_or(shell).to_ascii_lowercase();
        let program = program.strip_suffix(".exe").unwrap_or(&program);
        match (program, rest) {
            ("bash" | "zsh" | "sh" | "dash" | "ksh", [flag, script]) if flag == "-lc" || flag == "-c" => return script.clone(),
            ("powershell" | "pwsh", [flags @ .., flag, script])
                if (flag.eq_ignore_ascii_case("-command") || flag.eq_ignore_ascii_case("-c"))
                    && flags.iter().all(|f| POWERSHELL_FLAGS.contains(&f.to_ascii_lowercase().as_str())) =>
            {
                return script.clone()
            }
            _ => {}
        }
    }
    argv.iter().map(|word| crate::import::codex::quote(word)).collect::<Vec<_>>().join(" ")
}

/// The PowerShell switches that may stand before `-Command` without changing what runs.
const POWERSHELL_FLAGS: &[&str] = &["-noprofile", "-nologo", "-noninteractive"];

// Gemini CLI

/// Gemini CLI's tools and the fields their input is decided on (older releases' names second).
const GEMINI_INPUTS: &[(&str, &[&str])] = &[
    ("run_shell_command", &["command"]),
    ("read_file", &["file_path", "absolute_path"]),
    ("write_file", &["file_path"]),
    ("replace", &["file_path"]),
    ("list_directory", &["dir_path", "path"]),
    ("glob", &["pattern"]),
    ("search_file_content", &["pattern"]),
    ("grep_search", &["pattern"]),
    ("google_web_search", &["query"]),
];

fn gemini_name(name: &str, input: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    let Some(tool) = crate::import::gemini::call_tool(name) else {
        return Ok(gemini_mcp(name, input));
    };
    match name {
        // Every path or pattern it reads.
        "read_many_files" => {
            let paths = ["include", "paths"].iter().find_map(|f| input.get(f).and_then(strings));
            let paths = paths.ok_or_else(|| format!("the {name} call's `include` is missing or not a list of strings"))?;
            Ok(Some(paths.into_iter().map(|p| ToolgateCall::new(tool, vec![p])).collect()))
        }
        // The URLs its prompt names; a prompt without one fetches nothing toolgate can name.
        "web_fetch" => {
            let prompt = text(name, input, &["prompt"])?;
            let urls = urls_in(&prompt);
            let inputs = if urls.is_empty() { vec![vec![prompt]] } else { urls.into_iter().map(|u| vec![u]).collect() };
            Ok(Some(inputs.into_iter().map(|i| ToolgateCall::new(tool, i)).collect()))
        }
        _ => {
            let Some((_, fields)) = GEMINI_INPUTS.iter().find(|(n, _)| *n == name) else { return Ok(None) };
            Ok(Some(vec![ToolgateCall::new(tool, vec![text(name, input, fields)?])]))
        }
    }
}

/// An MCP call in Gemini CLI: the hook's `mcp_context` names server and tool; the tool's name is
/// `mcp_<server>_<tool>` otherwise (a server name has no `_`).
fn gemini_mcp(name: &str, input: &Value) -> Option<Vec<ToolgateCall>> {
    let context = input.get("mcp_context");
    let from_context = context.and_then(|c| Some((c.get("server_name")?.as_str()?, c.get("tool_name")?.as_str()?)));
    let (server, tool) = from_context.or_else(|| name.strip_prefix("mcp_")?.split_once('_'))?;
    (!server.is_empty() && !tool.is_empty()).then(|| vec![ToolgateCall::new(MCP_TOOL, vec![server.into(), tool.into()])])
}

/// The `http://` and `https://` URLs in a text, each ending at whitespace or a closing quote or
/// bracket.
fn urls_in(text: &str) -> Vec<String> {
    let mut urls = Vec::new();
    let mut rest = text;
    while let Some(at) = ["https://", "http://"].iter().filter_map(|scheme| rest.find(scheme)).min() {
        let from = rest.get(at..).unwrap_or_default();
        let end = from.find(|c: char| c.is_whitespace() || "\"'<>()[]{}`".contains(c)).unwrap_or(from.len());
        let url = from.get(..end).unwrap_or_default().trim_end_matches(['.', ',', ';', ':', '!', '?']);
        urls.push(url.to_owned());
        rest = from.get(end.max(1)..).unwrap_or_default();
    }
    urls
}

// Cursor

fn cursor_event(event: &str, payload: &Value) -> Result<Option<Vec<ToolgateCall>>, String> {
    let (kind, fields): (&str, &[&str]) = match event {
        "beforeShellExecution" => ("Shell", &["command"]),
        "beforeReadFile" => ("Read", &["file_path"]),
        "beforeMCPExecution" => {
            let tool = text(event, payload, &["tool_name"])?;
            if let Some(mcp) = mcp_name(&tool) {
                return mcp.map(Some);
            }
            let server = text(event, payload, &["server", "server_name"])
                .map_err(|_| format!("the {event} call names no MCP server (`server` or `server_name`) for tool `{tool}`"))?;
            let mcp = crate::import::cursor::call_tool("Mcp").ok_or("the Cursor importer has no tool for `Mcp`")?;
            return Ok(Some(vec![ToolgateCall::new(mcp, vec![server, tool])]));
        }
        _ => {
            return Err(format!(
                "`{event}` is not a Cursor hook toolgate answers (beforeShellExecution, beforeReadFile, beforeMCPExecution)"
            ))
        }
    };
    let tool = crate::import::cursor::call_tool(kind).ok_or_else(|| format!("the Cursor importer has no tool for `{kind}`"))?;
    Ok(Some(vec![ToolgateCall::new(tool, vec![text(event, payload, fields)?])]))
}

#[cfg(test)]
mod tests;
