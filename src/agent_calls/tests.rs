//! Each agent's tool calls read as toolgate calls, with the tools their importers translate to.

use super::*;
use serde_json::json;

fn calls(agent: Agent, name: &str, input: Value) -> Vec<(String, Vec<String>)> {
    read_call(agent, name, &input).unwrap().unwrap().into_iter().map(|c| (c.tool, c.inputs)).collect()
}

fn one(tool: &str, input: &str) -> Vec<(String, Vec<String>)> {
    vec![(tool.to_owned(), vec![input.to_owned()])]
}

#[test]
fn claude_code_tools_are_the_tools_their_rules_become() {
    let c = |name, input| calls(Agent::ClaudeCode, name, input);
    assert_eq!(c("Bash", json!({ "command": "ls -la", "description": "list" })), one("terminal", "ls -la"));
    assert_eq!(c("Read", json!({ "file_path": "/r/a.txt" })), one("read_file", "/r/a.txt"));
    for edit in ["Edit", "Write", "MultiEdit"] {
        assert_eq!(c(edit, json!({ "file_path": "/r/a.txt" })), one("edit_file", "/r/a.txt"), "{edit}");
    }
    assert_eq!(c("NotebookEdit", json!({ "notebook_path": "/r/n.ipynb" })), one("edit_file", "/r/n.ipynb"));
    assert_eq!(c("WebFetch", json!({ "url": "https://x.org/a", "prompt": "p" })), one("fetch", "https://x.org/a"));
    assert_eq!(
        c("mcp__github__create_issue", json!({ "title": "t" })),
        vec![("mcp".to_owned(), vec!["github".into(), "create_issue".into()])]
    );
}

#[test]
fn a_tool_without_a_counterpart_is_none_and_a_missing_field_is_named() {
    assert_eq!(read_call(Agent::ClaudeCode, "TodoWrite", &json!({ "todos": [] })), Ok(None));
    let e = read_call(Agent::ClaudeCode, "Bash", &json!({ "cmd": "ls" })).unwrap_err();
    assert!(e.contains("Bash call's `command` is missing or not a string"), "{e}");
    let e = read_call(Agent::ClaudeCode, "Bash", &json!({ "command": ["ls"] })).unwrap_err();
    assert!(e.contains("`command`"), "{e}");
    assert!(read_call(Agent::ClaudeCode, "mcp__lonely", &json!({})).is_err());
}

#[test]
fn vscode_tools_read_as_claude_codes_in_either_agent() {
    for agent in [Agent::Vscode, Agent::ClaudeCode] {
        assert_eq!(calls(agent, "run_in_terminal", json!({ "command": "npm test", "isBackground": false })), one("terminal", "npm test"));
        assert_eq!(calls(agent, "read_file", json!({ "filePath": "/r/a", "startLine": 1 })), one("read_file", "/r/a"));
        assert_eq!(calls(agent, "create_file", json!({ "filePath": "/r/b", "content": "" })), one("edit_file", "/r/b"));
    }
    assert_eq!(
        calls(Agent::Vscode, "fetch_webpage", json!({ "urls": ["https://a.org", "https://b.org"], "query": "q" })),
        vec![("fetch".to_owned(), vec!["https://a.org".to_owned()]), ("fetch".to_owned(), vec!["https://b.org".to_owned()])]
    );
    let multi = json!({ "replacements": [{ "filePath": "/r/a" }, { "filePath": "/r/b" }, { "filePath": "/r/a" }] });
    assert_eq!(calls(Agent::Vscode, "multi_replace_string_in_file", multi).len(), 2);
    assert_eq!(calls(Agent::Vscode, "Bash", json!({ "command": "ls" })), one("terminal", "ls"));
}

#[test]
fn copilot_names_are_claude_codes() {
    assert_eq!(calls(Agent::Copilot, "bash", json!({ "command": "rm -rf dist" })), one("terminal", "rm -rf dist"));
    assert_eq!(calls(Agent::Copilot, "view", json!({ "path": "/r/a" })), one("read_file", "/r/a"));
    assert_eq!(calls(Agent::Copilot, "edit", json!({ "path": "/r/a" })), one("edit_file", "/r/a"));
    assert_eq!(calls(Agent::Copilot, "Bash", json!({ "command": "ls" })), one("terminal", "ls"));
    assert_eq!(read_call(Agent::Copilot, "ask_user", &json!({})), Ok(None));
}

#[test]
fn codex_shells_patches_and_mcp() {
    assert_eq!(calls(Agent::Codex, "Bash", json!({ "command": "git status" })), one("terminal", "git status"));
    assert_eq!(calls(Agent::Codex, "exec_command", json!({ "cmd": "ls" })), one("terminal", "ls"));
    assert_eq!(calls(Agent::Codex, "shell", json!({ "command": ["bash", "-lc", "echo hi"] })), one("terminal", "echo hi"));
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n*** End Patch";
    assert_eq!(calls(Agent::Codex, "apply_patch", json!({ "command": patch })).len(), 2);
    assert!(read_call(Agent::Codex, "apply_patch", &json!({ "command": "nothing" })).is_err());
    assert_eq!(read_call(Agent::Codex, "update_plan", &json!({})), Ok(None));
}

#[test]
fn gemini_tools_mcp_context_and_urls_in_a_prompt() {
    assert_eq!(calls(Agent::GeminiCli, "run_shell_command", json!({ "command": "ls" })), one("terminal", "ls"));
    assert_eq!(calls(Agent::GeminiCli, "write_file", json!({ "file_path": "/r/a", "content": "" })), one("edit_file", "/r/a"));
    assert_eq!(
        calls(Agent::GeminiCli, "web_fetch", json!({ "prompt": "Summarise https://a.org/x. and (https://b.org)" })),
        vec![("fetch".to_owned(), vec!["https://a.org/x".to_owned()]), ("fetch".to_owned(), vec!["https://b.org".to_owned()])]
    );
    let mcp = json!({ "mcp_context": { "server_name": "my_srv", "tool_name": "do_it" } });
    assert_eq!(calls(Agent::GeminiCli, "mcp_my_srv_do_it", mcp), vec![("mcp".to_owned(), vec!["my_srv".into(), "do_it".into()])]);
    assert_eq!(calls(Agent::GeminiCli, "mcp_docs_search", json!({})), vec![("mcp".to_owned(), vec!["docs".into(), "search".into()])]);
    assert_eq!(read_call(Agent::GeminiCli, "save_memory", &json!({})), Ok(None));
}

#[test]
fn cursor_events() {
    assert_eq!(calls(Agent::Cursor, "beforeShellExecution", json!({ "command": "ls", "cwd": "/r" })), one("terminal", "ls"));
    assert_eq!(calls(Agent::Cursor, "beforeReadFile", json!({ "file_path": "/r/.env" })), one("read_file", "/r/.env"));
    assert_eq!(
        calls(Agent::Cursor, "beforeMCPExecution", json!({ "tool_name": "search", "server": "docs" })),
        vec![("mcp".to_owned(), vec!["docs".into(), "search".into()])]
    );
    assert!(read_call(Agent::Cursor, "beforeMCPExecution", &json!({ "tool_name": "search" })).unwrap_err().contains("names no MCP server"));
    assert!(read_call(Agent::Cursor, "afterFileEdit", &json!({})).is_err());
}
