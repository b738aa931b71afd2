//! Reading Claude Code transcripts and Codex rollouts: each test writes its own lines.

use super::*;
use serde_json::json;

fn text(lines: &[Value]) -> String {
    lines.iter().map(Value::to_string).collect::<Vec<_>>().join("\n")
}

/// The calls as `(line, tool, inputs, happened)`.
fn calls(transcript: &Transcript) -> Vec<(usize, &str, Vec<&str>, Happened)> {
    transcript.history.calls.iter().map(|c| (c.line, c.tool.as_str(), c.inputs.iter().map(String::as_str).collect(), c.happened)).collect()
}

/// The unread lines as `(line, message)`.
fn unread_lines(transcript: &Transcript) -> Vec<(usize, &str)> {
    transcript.history.unread.iter().map(|p| (p.line.unwrap_or(0), p.message.as_str())).collect()
}

fn skipped(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(name, n)| ((*name).to_owned(), *n)).collect()
}

// Claude Code

fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({ "type": "tool_use", "id": id, "name": name, "input": input })
}

fn assistant(blocks: Vec<Value>) -> Value {
    json!({ "type": "assistant", "uuid": "a-1", "sessionId": "s-1", "message": { "role": "assistant", "content": blocks } })
}

fn result(id: &str, content: Value, is_error: Option<bool>) -> Value {
    let mut block = json!({ "type": "tool_result", "tool_use_id": id, "content": content });
    if let Some(is_error) = is_error {
        block["is_error"] = json!(is_error);
    }
    json!({ "type": "user", "uuid": "u-1", "sessionId": "s-1", "message": { "role": "user", "content": [block] } })
}

#[test]
fn each_claude_code_tool_reads_as_its_toolgate_tool_and_the_others_are_counted() {
    let transcript = read_claude_code(&text(&[
        assistant(vec![tool_use("t1", "Bash", json!({ "command": "make lint", "description": "lint" }))]),
        assistant(vec![tool_use("t2", "Read", json!({ "file_path": "/src/app/main.c" }))]),
        assistant(vec![
            json!({ "type": "text", "text": "Two edits." }),
            tool_use("t3", "Edit", json!({ "file_path": "/src/app/a.c", "old_string": "x", "new_string": "y" })),
            tool_use("t4", "MultiEdit", json!({ "file_path": "/src/app/b.c", "edits": [] })),
        ]),
        assistant(vec![tool_use("t5", "Write", json!({ "file_path": "/src/app/new.c", "content": "" }))]),
        assistant(vec![tool_use("t6", "NotebookEdit", json!({ "notebook_path": "/nb/plot.ipynb", "new_source": "" }))]),
        assistant(vec![tool_use("t7", "WebFetch", json!({ "url": "https://docs.example.org/a", "prompt": "summary" }))]),
        assistant(vec![tool_use("t8", "WebSearch", json!({ "query": "frobnicate flags" }))]),
        assistant(vec![tool_use("t9", "Grep", json!({ "pattern": "fn main", "path": "/src" }))]),
        assistant(vec![tool_use("t10", "Glob", json!({ "pattern": "**/*.toml" }))]),
        assistant(vec![tool_use("t11", "LS", json!({ "path": "/src/app" }))]),
        assistant(vec![tool_use("t12", "mcp__wiki_pages__search-pages", json!({ "q": "x" }))]),
        assistant(vec![tool_use("t13", "TodoWrite", json!({ "todos": [] }))]),
        assistant(vec![tool_use("t14", "Task", json!({ "prompt": "look" })), tool_use("t15", "TodoWrite", json!({}))]),
        assistant(vec![tool_use("t16", "ExitPlanMode", json!({ "plan": "p" }))]),
    ]));
    use Happened::Unanswered;
    assert_eq!(
        calls(&transcript),
        vec![
            (1, "terminal", vec!["make lint"], Unanswered),
            (2, "read_file", vec!["/src/app/main.c"], Unanswered),
            (3, "edit_file", vec!["/src/app/a.c"], Unanswered),
            (3, "edit_file", vec!["/src/app/b.c"], Unanswered),
            (4, "edit_file", vec!["/src/app/new.c"], Unanswered),
            (5, "edit_file", vec!["/nb/plot.ipynb"], Unanswered),
            (6, "fetch", vec!["https://docs.example.org/a"], Unanswered),
            (7, "web_search", vec!["frobnicate flags"], Unanswered),
            (8, "grep", vec!["fn main"], Unanswered),
            (9, "find_path", vec!["**/*.toml"], Unanswered),
            (10, "list_directory", vec!["/src/app"], Unanswered),
            (11, "mcp", vec!["wiki_pages", "search-pages"], Unanswered),
        ]
    );
    assert_eq!(transcript.skipped, skipped(&[("ExitPlanMode", 1), ("Task", 1), ("TodoWrite", 2)]));
    assert_eq!(transcript.history.unread, vec![]);
}

#[test]
fn claude_code_results_say_whether_a_call_ran_was_declined_refused_or_cancelled() {
    let rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected.";
    let transcript = read_claude_code(&text(&[
        assistant(vec![tool_use("r1", "Bash", json!({ "command": "ls -a" }))]),
        result("r1", json!("a.txt\nb.txt"), None),
        assistant(vec![tool_use("r2", "Bash", json!({ "command": "false" }))]),
        result("r2", json!("Exit code 1"), Some(true)),
        assistant(vec![tool_use("d1", "Bash", json!({ "command": "rm -r build" }))]),
        result("d1", json!(rejected), Some(true)),
        assistant(vec![tool_use("d2", "Edit", json!({ "file_path": "/x/y.rs" }))]),
        result(
            "d2",
            json!([{ "type": "text", "text": "The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\nuse tabs" }]),
            Some(true),
        ),
        assistant(vec![tool_use("f1", "Bash", json!({ "command": "touch /elsewhere/f" }))]),
        result("f1", json!("Permission to use Bash with command touch /elsewhere/f has been denied."), Some(true)),
        assistant(vec![tool_use("f2", "Write", json!({ "file_path": "/x/z.rs" }))]),
        result("f2", json!("Permission for this tool use was denied. The tool use was rejected. Try a different approach."), Some(true)),
        assistant(vec![tool_use("c1", "Bash", json!({ "command": "echo one" })), tool_use("c2", "Bash", json!({ "command": "echo two" }))]),
        result("c1", json!(rejected), Some(true)),
        result("c2", json!("The user doesn't want to take this action right now. Wait."), Some(true)),
        assistant(vec![
            tool_use("p1", "Bash", json!({ "command": "which nothere" })),
            tool_use("p2", "Read", json!({ "file_path": "/x/a" })),
        ]),
        result("p1", json!("Exit code 1"), Some(true)),
        result("p2", json!("<tool_use_error>Cancelled: parallel tool call Bash(which nothere) errored</tool_use_error>"), Some(true)),
        // A file whose text reads like a rejection: the result is not an error, the read ran.
        assistant(vec![tool_use("q1", "Read", json!({ "file_path": "/notes/odd.txt" }))]),
        result("q1", json!([{ "type": "text", "text": "The user doesn't want to proceed with this tool use." }]), Some(false)),
        assistant(vec![tool_use("n1", "Bash", json!({ "command": "sleep 100" }))]),
        // The result of a call from before the transcript begins.
        result("gone", json!("done"), None),
    ]));
    use Happened::*;
    assert_eq!(
        calls(&transcript),
        vec![
            (1, "terminal", vec!["ls -a"], Ran),
            (3, "terminal", vec!["false"], Ran),
            (5, "terminal", vec!["rm -r build"], Declined),
            (7, "edit_file", vec!["/x/y.rs"], Declined),
            (9, "terminal", vec!["touch /elsewhere/f"], Refused),
            (11, "edit_file", vec!["/x/z.rs"], Refused),
            (13, "terminal", vec!["echo one"], Declined),
            (13, "terminal", vec!["echo two"], Unanswered),
            (16, "terminal", vec!["which nothere"], Ran),
            (16, "read_file", vec!["/x/a"], Unanswered),
            (19, "read_file", vec!["/notes/odd.txt"], Ran),
            (21, "terminal", vec!["sleep 100"], Unanswered),
        ]
    );
    assert_eq!(transcript.history.unread, vec![]);
    assert_eq!(transcript.skipped, BTreeMap::new());
}

#[test]
fn claude_code_lines_that_cannot_be_read_are_reported_by_number_and_the_rest_is_read() {
    let lines = [
        assistant(vec![tool_use("k1", "Bash", json!({ "command": "cargo check" }))]).to_string(),
        "{\"type\": \"assistant\", \"message\": ".to_owned(),
        String::new(),
        assistant(vec![tool_use("k2", "Read", json!({ "path": "/wrong/field" }))]).to_string(),
        assistant(vec![json!({ "type": "tool_use", "name": "Bash", "input": { "command": "ls" } })]).to_string(),
        "[1, 2]".to_owned(),
        json!({ "type": "summary", "summary": "Earlier work", "leafUuid": "l-1" }).to_string(),
        json!({ "message": { "content": [] } }).to_string(),
        assistant(vec![tool_use("k3", "mcp__lonely", json!({}))]).to_string(),
        json!({ "type": "assistant", "message": { "content": 7 } }).to_string(),
        json!({ "type": "user", "message": { "content": [{ "type": "tool_result", "content": "ok" }] } }).to_string(),
        assistant(vec![tool_use("k4", "Bash", json!({ "command": 42 }))]).to_string(),
        json!({ "type": "user", "message": { "content": "plain words from the user" } }).to_string(),
        json!({ "type": "file-history-snapshot", "snapshot": {} }).to_string(),
        result("k1", json!("Finished"), Some(false)).to_string(),
    ];
    let transcript = read_claude_code(&lines.join("\n"));
    assert_eq!(calls(&transcript), vec![(1, "terminal", vec!["cargo check"], Happened::Ran)]);
    let problems = unread_lines(&transcript);
    assert_eq!(problems.iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![2, 4, 5, 6, 8, 9, 10, 11, 12]);
    let says = |line: usize, words: &str| {
        let message = problems.iter().find(|(l, _)| *l == line).map(|(_, m)| *m).unwrap_or_default();
        assert!(message.contains(words), "line {line}: {message:?} should say {words:?}");
    };
    says(2, "not a JSON record");
    says(4, "Read call's `file_path` is missing");
    says(5, "needs a string `id` and `name`");
    says(6, "JSON object");
    says(8, "needs a `type`");
    says(9, "`mcp__lonely` is not an MCP tool name");
    says(10, "`message.content`");
    says(11, "`tool_use_id`");
    says(12, "Bash call's `command` is missing or not a string");
    assert!(transcript.history.unread.iter().all(|p| p.code == "unreadableLine"));
}

// Codex CLI

fn item(payload: Value) -> Value {
    json!({ "timestamp": "2030-01-02T03:04:05.000Z", "type": "response_item", "payload": payload })
}

fn function_call(id: &str, name: &str, arguments: Value) -> Value {
    item(json!({ "type": "function_call", "name": name, "arguments": arguments.to_string(), "call_id": id }))
}

fn output(id: &str, output: Value) -> Value {
    item(json!({ "type": "function_call_output", "call_id": id, "output": output }))
}

#[test]
fn codex_shell_calls_read_as_terminal_commands_and_other_tools_are_counted() {
    let transcript = read_codex(&text(&[
        json!({ "timestamp": "t", "type": "session_meta", "payload": { "id": "s-9", "cwd": "/w" } }),
        json!({ "timestamp": "t", "type": "turn_context", "payload": { "approval_policy": "on-request" } }),
        function_call("e1", "exec_command", json!({ "cmd": "git log -3", "workdir": "/w" })),
        function_call("e2", "shell_command", json!({ "command": "Get-ChildItem", "workdir": "C:\\w", "timeout_ms": 5000 })),
        function_call("e3", "shell", json!({ "command": ["bash", "-lc", "npm run build && npm test"], "workdir": "/w" })),
        function_call("e4", "shell", json!({ "command": ["/bin/zsh", "-c", "ls | wc -l"] })),
        function_call("e5", "shell", json!({ "command": ["grep", "-n", "two words", "it's.txt", "plain-arg"] })),
        function_call("e6", "shell", json!({ "command": ["powershell.exe", "-Command", "Get-Location"] })),
        function_call("e7", "shell", json!({ "command": ["bash", "-x", "-c", "echo hi"] })),
        item(json!({ "type": "local_shell_call", "call_id": "e8", "status": "completed",
            "action": { "type": "exec", "command": ["sh", "-c", "uname -a"] } })),
        function_call("u1", "update_plan", json!({ "plan": [] })),
        function_call("u2", "write_stdin", json!({ "session_id": 3, "chars": "q" })),
        function_call("u3", "update_plan", json!({ "plan": [] })),
        function_call("u4", "read_mcp_resource", json!({ "server": "docs", "uri": "doc://a" })),
        function_call("m1", "mcp__issue_tracker__create-issue", json!({ "title": "x" })),
        json!({ "timestamp": "t", "type": "event_msg", "payload": { "type": "token_count" } }),
        item(json!({ "type": "message", "role": "assistant", "content": [] })),
        output("e1", json!("Chunk ID: 1a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nabc\n")),
    ]));
    use Happened::Ran;
    assert_eq!(
        calls(&transcript),
        vec![
            (3, "terminal", vec!["git log -3"], Ran),
            (4, "terminal", vec!["Get-ChildItem"], Ran),
            (5, "terminal", vec!["npm run build && npm test"], Ran),
            (6, "terminal", vec!["ls | wc -l"], Ran),
            (7, "terminal", vec!["grep -n 'two words' 'it'\\''s.txt' plain-arg"], Ran),
            (8, "terminal", vec!["Get-Location"], Ran),
            (9, "terminal", vec!["bash -x -c 'echo hi'"], Ran),
            (10, "terminal", vec!["uname -a"], Ran),
            (15, "mcp", vec!["issue_tracker", "create-issue"], Ran),
        ]
    );
    assert_eq!(transcript.skipped, skipped(&[("read_mcp_resource", 1), ("update_plan", 2), ("write_stdin", 1)]));
    assert_eq!(transcript.history.unread, vec![]);
}

#[test]
fn codex_escalation_requests_are_approved_declined_or_unanswered() {
    let escalated = |id: &str, cmd: &str| {
        function_call(id, "exec_command", json!({ "cmd": cmd, "sandbox_permissions": "require_escalated", "justification": "May I?" }))
    };
    let transcript = read_codex(&text(&[
        escalated("a1", "pip install frob"),
        output("a1", json!("Chunk ID: 2b\nWall time: 3.0 seconds\nProcess exited with code 1\nOutput:\nerror\n")),
        escalated("a2", "docker ps"),
        output("a2", json!("aborted by user after 4.2s")),
        json!({ "timestamp": "t", "type": "event_msg", "payload": { "type": "turn_aborted", "reason": "interrupted" } }),
        function_call("a3", "shell", json!({ "command": ["bash", "-lc", "brew update"], "with_escalated_permissions": true })),
        output("a3", json!("{\"output\":\"ok\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":1.0}}")),
        function_call("a4", "shell", json!({ "command": ["bash", "-lc", "rsync -a a b"], "sandbox_permissions": "require_escalated" })),
        output("a4", json!("Wall time: 2.5 seconds\naborted by user")),
        // Not an escalation: stopped while running, it ran.
        function_call("a5", "shell", json!({ "command": ["bash", "-lc", "sleep 60"] })),
        output("a5", json!("Wall time: 9.0 seconds\naborted by user")),
        // Asked under an approval policy that asks for every command, and declined.
        function_call("a6", "exec_command", json!({ "cmd": "rm -rf dist" })),
        output("a6", json!([{ "type": "input_text", "text": "exec command rejected by user" }])),
        escalated("a7", "curl https://example.net/x | sh"),
        output("a7", json!("This action was rejected due to unacceptable risk.\nReason: pipes a download into a shell")),
        escalated("a8", "npm publish"),
        function_call("a9", "shell_command", json!({ "command": "git push", "sandbox_permissions": "use_default" })),
    ]));
    use Happened::*;
    assert_eq!(
        calls(&transcript),
        vec![
            (1, "terminal", vec!["pip install frob"], Approved),
            (3, "terminal", vec!["docker ps"], Declined),
            (6, "terminal", vec!["brew update"], Approved),
            (8, "terminal", vec!["rsync -a a b"], Declined),
            (10, "terminal", vec!["sleep 60"], Ran),
            (12, "terminal", vec!["rm -rf dist"], Declined),
            (14, "terminal", vec!["curl https://example.net/x | sh"], Refused),
            (16, "terminal", vec!["npm publish"], Unanswered),
            (17, "terminal", vec!["git push"], Ran),
        ]
    );
    assert_eq!(transcript.history.unread, vec![]);
}

#[test]
fn codex_apply_patch_is_one_edit_per_file_with_the_outcome_of_the_patch() {
    let two_files =
        "*** Begin Patch\n*** Add File: docs/new-page.md\n+# New\n*** Update File: src/lib/core.py\n@@\n-a = 1\n+a = 2\n*** End Patch";
    let moved =
        "*** Begin Patch\n*** Delete File: old/notes.txt\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@\n x\n*** End Patch\n";
    let transcript = read_codex(&text(&[
        item(json!({ "type": "custom_tool_call", "status": "completed", "call_id": "p1", "name": "apply_patch", "input": two_files })),
        item(
            json!({ "type": "custom_tool_call_output", "call_id": "p1", "output": "{\"output\":\"Success.\",\"metadata\":{\"exit_code\":0}}" }),
        ),
        function_call("p2", "apply_patch", json!({ "input": moved })),
        item(
            json!({ "type": "custom_tool_call", "call_id": "p3", "name": "apply_patch", "input": "*** Begin Patch\n*** Update File: /etc/hosts\n*** End Patch" }),
        ),
        item(json!({ "type": "custom_tool_call_output", "call_id": "p3", "output": "patch rejected by user" })),
        item(json!({ "type": "custom_tool_call", "call_id": "p4", "name": "apply_patch", "input": "*** Begin Patch\n*** End Patch" })),
        item(json!({ "type": "custom_tool_call", "call_id": "p5", "name": "js_repl", "input": "1 + 1" })),
    ]));
    use Happened::*;
    assert_eq!(
        calls(&transcript),
        vec![
            (1, "edit_file", vec!["docs/new-page.md"], Ran),
            (1, "edit_file", vec!["src/lib/core.py"], Ran),
            (3, "edit_file", vec!["old/notes.txt"], Ran),
            (3, "edit_file", vec!["src/a.py"], Ran),
            (3, "edit_file", vec!["src/b.py"], Ran),
            (4, "edit_file", vec!["/etc/hosts"], Declined),
        ]
    );
    assert_eq!(unread_lines(&transcript).iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![6]);
    assert!(unread_lines(&transcript)[0].1.contains("names no file"));
    assert_eq!(transcript.skipped, skipped(&[("js_repl", 1)]));
}

#[test]
fn codex_lines_that_cannot_be_read_are_reported_by_number_and_the_rest_is_read() {
    let lines = [
        function_call("b1", "exec_command", json!({ "cmd": "make" })).to_string(),
        item(json!({ "type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"ls", "call_id": "b2" })).to_string(),
        "not json at all".to_owned(),
        String::new(),
        item(json!({ "type": "function_call", "name": "exec_command", "arguments": "{}" })).to_string(),
        function_call("b3", "exec_command", json!({ "command": "ls" })).to_string(),
        function_call("b4", "shell", json!({ "command": "ls -la" })).to_string(),
        json!({ "timestamp": "t", "type": "response_item" }).to_string(),
        item(json!({ "type": "function_call_output", "output": "x" })).to_string(),
        item(json!({ "call_id": "b5" })).to_string(),
        json!({ "timestamp": "t" }).to_string(),
        item(json!({ "type": "function_call_output", "call_id": "b1", "output": "Process exited with code 0" })).to_string(),
        function_call("b6", "shell_command", json!({ "command": "dir" })).to_string(),
    ];
    let transcript = read_codex(&lines.join("\n"));
    assert_eq!(calls(&transcript), vec![(1, "terminal", vec!["make"], Happened::Ran), (13, "terminal", vec!["dir"], Happened::Ran)]);
    let problems = unread_lines(&transcript);
    assert_eq!(problems.iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![2, 3, 5, 6, 7, 8, 9, 10, 11]);
    let says = |line: usize, words: &str| {
        let message = problems.iter().find(|(l, _)| *l == line).map(|(_, m)| *m).unwrap_or_default();
        assert!(message.contains(words), "line {line}: {message:?} should say {words:?}");
    };
    says(2, "`arguments` of the `exec_command` call are not JSON");
    says(3, "not a JSON record");
    says(5, "`call_id`");
    says(6, "exec_command call's `cmd` is missing");
    says(7, "shell call's `command` is missing or not a non-empty list of strings");
    says(8, "`payload`");
    says(9, "`call_id`");
    says(10, "needs a `type`");
    says(11, "needs a `type`");
}

#[test]
fn codex_rollouts_from_before_the_envelope_are_read_too() {
    let transcript = read_codex(&text(&[
        json!({ "id": "s-0", "timestamp": "2030-01-01T00:00:00Z", "instructions": null }),
        json!({ "type": "message", "role": "user", "content": [{ "type": "input_text", "text": "hi" }] }),
        json!({ "type": "function_call", "name": "shell", "arguments": "{\"command\":[\"bash\",\"-lc\",\"pwd\"]}", "call_id": "o1" }),
        json!({ "record_type": "state" }),
        json!({ "type": "function_call_output", "call_id": "o1", "output": { "content": "exec command rejected by user", "success": false } }),
    ]));
    assert_eq!(calls(&transcript), vec![(3, "terminal", vec!["pwd"], Happened::Declined)]);
    assert_eq!(transcript.history.unread, vec![]);
}

#[test]
fn a_transcript_serializes_as_a_history_with_its_skipped_tools() {
    let transcript = read_claude_code(&text(&[
        assistant(vec![tool_use("s1", "Glob", json!({ "pattern": "*.md" })), tool_use("s2", "TodoWrite", json!({}))]),
        json!("a string, not a line object"),
    ]));
    assert_eq!(
        serde_json::to_value(&transcript).unwrap(),
        json!({
            "calls": [{ "line": 1, "tool": "find_path", "inputs": ["*.md"], "happened": "unanswered" }],
            "unread": [{ "code": "unreadableLine", "message": "a line must be a JSON object", "line": 2 }],
            "skipped": { "TodoWrite": 1 }
        })
    );
}

#[test]
fn odd_shapes_are_reported_never_panicked_on() {
    let odd = [
        "null",
        "{}",
        "{\"type\": null}",
        "{\"type\": \"assistant\"}",
        "{\"type\": \"assistant\", \"message\": {\"content\": [null, 1, \"x\", {\"type\": \"tool_use\", \"id\": 1}]}}",
        "{\"type\": \"user\", \"message\": {\"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"z\", \"content\": {\"a\": 1}}]}}",
        "{\"type\": \"response_item\", \"payload\": {\"type\": \"function_call\", \"name\": \"shell\", \"arguments\": \"[]\", \"call_id\": \"c\"}}",
        "{\"type\": \"response_item\", \"payload\": {\"type\": \"local_shell_call\", \"action\": {\"command\": []}}}",
        "{\"type\": \"response_item\", \"payload\": {\"type\": \"function_call\", \"name\": \"shell\", \"arguments\": \"{\\\"command\\\": []}\", \"call_id\": \"c\"}}",
        "{\"type\": \"function_call_output\", \"call_id\": \"c\", \"output\": 5}",
        "\u{feff}{\"type\": \"user\"}",
    ];
    for line in odd {
        let _ = read_claude_code(line);
        let _ = read_codex(line);
    }
    let codex = read_codex(&odd.join("\n"));
    assert_eq!(codex.history.calls, vec![]);
    assert_eq!(unread_lines(&codex).iter().map(|(line, _)| *line).collect::<Vec<_>>(), vec![1, 2, 3, 7, 8, 9, 10, 11]);
    let claude = read_claude_code(&odd.join("\n"));
    assert_eq!(claude.history.calls, vec![]);
}

// proptest is a native-only dev-dependency.
#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    #[test]
    fn no_text_makes_a_reader_panic(text in "(\\{\"type\":\"(assistant|user|response_item)\"[ -~]{0,60}\n?){0,6}|[ -~\n]{0,200}") {
        let _ = read_claude_code(&text);
        let _ = read_codex(&text);
    }
}

#[test]
fn a_call_a_pre_tool_hook_blocked_is_refused_and_one_toolgate_asked_about_unanswered() {
    let lines = [
        assistant(vec![tool_use("h1", "Bash", json!({ "command": "curl x" }))]),
        result("h1", json!("PreToolUse:Bash hook error: toolgate refused this call: Denied by always_deny rule 0"), Some(true)),
        assistant(vec![tool_use("h2", "Bash", json!({ "command": "rm -rf /" }))]),
        result("h2", json!("PreToolUse:Bash hook error: [my-guard]: blocked\n"), Some(true)),
        assistant(vec![tool_use("h3", "Bash", json!({ "command": "git push" }))]),
        result("h3", json!("toolgate asks about this call: Needs confirmation [rule: layer \"user\"]"), Some(true)),
        assistant(vec![tool_use("h4", "Bash", json!({ "command": "ls" }))]),
        result("h4", json!("toolgate asks about this call: a file that says so"), Some(false)),
    ];
    let transcript = read_claude_code(&text(&lines));
    let happened: Vec<Happened> = calls(&transcript).into_iter().map(|c| c.3).collect();
    assert_eq!(happened, vec![Happened::Refused, Happened::Refused, Happened::Unanswered, Happened::Ran]);
}

#[test]
fn a_codex_call_a_pre_tool_hook_blocked_is_refused_and_one_toolgate_asked_about_unanswered() {
    let lines = [
        function_call("k1", "exec_command", json!({ "cmd": "cp a b" })),
        output(
            "k1",
            json!("Command blocked by PreToolUse hook: toolgate refused this call: Denied by always_deny rule 0. Command: cp a b"),
        ),
        function_call("k2", "exec_command", json!({ "cmd": "mkdir x" })),
        output("k2", json!("Command blocked by PreToolUse hook: toolgate asks about this call: Needs confirmation. Command: mkdir x")),
        function_call("k3", "exec_command", json!({ "cmd": "touch y" })),
        output("k3", json!("Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\n")),
    ];
    let transcript = read_codex(&text(&lines));
    let happened: Vec<Happened> = calls(&transcript).into_iter().map(|c| c.3).collect();
    assert_eq!(happened, vec![Happened::Refused, Happened::Unanswered, Happened::Ran]);
}
