//! Other agents' session histories read as toolgate histories: Claude Code's session transcripts
//! and Codex CLI's session rollouts, both JSON lines.
//!
//! * Claude Code writes one JSON object per line, the file its hooks receive as `transcript_path`
//!   (<https://docs.anthropic.com/en/docs/claude-code/hooks>): `assistant` lines carry the
//!   `tool_use` blocks of the Messages API, `user` lines the matching `tool_result` blocks. The
//!   tool names are those of <https://docs.anthropic.com/en/docs/claude-code/settings> (tools
//!   available to Claude), translated as the settings importer translates them.
//! * Codex CLI writes `{timestamp, type, payload}` lines; a `response_item` payload is a
//!   `ResponseItem` of `codex-rs/protocol/src/models.rs` in <https://github.com/openai/codex>
//!   (`function_call` with JSON-string `arguments`, `custom_tool_call`, `local_shell_call`, their
//!   outputs by `call_id`; `ShellToolCallParams::sandbox_permissions`). Rollouts written before the
//!   envelope hold the `ResponseItem`s themselves, after a header line without a `type`.
//!
//! Neither format records an approval: a call that ran may have been approved at a prompt or
//! allowed by a rule, so it reads as [`Happened::Ran`]. Codex's escalation requests are the
//! exception: the model asked to leave the sandbox, which always prompts, so one that ran was
//! [`Happened::Approved`]. Calls of tools toolgate has no counterpart for are counted, by the
//! agent's name, in [`Transcript::skipped`]; a line that cannot be read is reported with its number.

use super::{unread, Happened, History, HistoryCall};
use crate::agent_calls::{self, read_call, Agent, ToolgateCall};
use crate::import::TERMINAL;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;

/// Another agent's session history, read as a toolgate history.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Transcript {
    /// The calls of tools toolgate knows, and the lines that could not be read.
    #[serde(flatten)]
    pub history: History,
    /// How many calls of tools toolgate has no counterpart for (`TodoWrite`, `update_plan`, …) the
    /// history holds, by the agent's tool name.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, number>"))]
    pub skipped: BTreeMap<String, usize>,
}

/// Claude Code's session transcript (`~/.claude/projects/<project>/<session>.jsonl`).
///
/// Each `tool_use` is a call at its line; its `tool_result` says what happened: the user's
/// rejection is [`Happened::Declined`], a denial without a prompt [`Happened::Refused`], a call
/// cancelled with its rejected or failed siblings, or one without a result, [`Happened::Unanswered`],
/// any other result [`Happened::Ran`]. A result whose call is not in the file (a resumed or
/// compacted session) is ignored.
pub fn read_claude_code(text: &str) -> Transcript {
    each_record(text, |reading, line, record| match record.get("type").and_then(Value::as_str) {
        Some("assistant") => claude_assistant(reading, line, record),
        Some("user") => claude_user(reading, line, record),
        Some(_) => {}
        None => reading.problem(line, "a transcript line needs a `type`".into()),
    })
}

/// A Codex CLI session rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
///
/// Each shell call (`exec_command`, `shell_command`, `shell`, `local_shell_call`), `apply_patch`
/// (one `edit_file` call per file) and MCP tool call is a call at its line. A call that asked to
/// leave the sandbox is [`Happened::Approved`] once its output shows it ran, [`Happened::Declined`]
/// if it was aborted, [`Happened::Unanswered`] without an output; other calls ran, unless their
/// output says the user or the automatic reviewer rejected them.
pub fn read_codex(text: &str) -> Transcript {
    each_record(text, |reading, line, record| match record.get("type").and_then(Value::as_str) {
        Some("response_item") => match record.get("payload") {
            Some(payload) if payload.is_object() => codex_item(reading, line, payload),
            _ => reading.problem(line, "a `response_item` line needs a `payload` object".into()),
        },
        // Rollouts written before the envelope: the item itself.
        Some(kind) if RESPONSE_ITEMS.contains(&kind) => codex_item(reading, line, record),
        Some(_) => {}
        // Those rollouts' header (`id`, `timestamp`, `instructions`) and state lines.
        None if record.get("record_type").is_some() || record.get("id").is_some() => {}
        None => reading.problem(line, "a rollout line needs a `type`".into()),
    })
}

/// The toolgate calls one agent tool call makes: tool and inputs.
type Calls = Vec<ToolgateCall>;

/// The `ResponseItem` types that can stand at the top of a line.
const RESPONSE_ITEMS: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
];

/// The transcript being read, and the calls still waiting for their result.
#[derive(Default)]
struct Reading {
    transcript: Transcript,
    /// Call id → the calls it made (a patch makes one per file) and whether it asked.
    waiting: BTreeMap<String, (Range<usize>, bool)>,
}

impl Reading {
    fn problem(&mut self, line: usize, message: String) {
        self.transcript.history.unread.push(unread(line, message));
    }

    fn skip(&mut self, tool: &str) {
        *self.transcript.skipped.entry(tool.to_owned()).or_default() += 1;
    }

    /// Records the calls one tool call made; a later call with the same id takes the id over.
    fn record(&mut self, line: usize, id: &str, asked: bool, calls: Calls, happened: Happened) {
        let calls_now = &mut self.transcript.history.calls;
        let start = calls_now.len();
        calls_now.extend(calls.into_iter().map(|ToolgateCall { tool, inputs }| HistoryCall { line, tool, inputs, happened }));
        self.waiting.insert(id.to_owned(), (start..calls_now.len(), asked));
    }

    /// The result of the call `id`: `outcome` (given whether it asked) decides what happened.
    fn result(&mut self, id: &str, outcome: impl FnOnce(bool) -> Happened) {
        let Some((calls, asked)) = self.waiting.remove(id) else { return };
        let happened = outcome(asked);
        for call in self.transcript.history.calls.get_mut(calls).into_iter().flatten() {
            call.happened = happened;
        }
    }
}

/// Calls `read` with each JSON object of `text` and its 1-based line number; blank lines are
/// skipped, and a line that is not a JSON object is reported.
fn each_record(text: &str, mut read: impl FnMut(&mut Reading, usize, &Value)) -> Transcript {
    let mut reading = Reading::default();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(raw) {
            Ok(record) if record.is_object() => read(&mut reading, line, &record),
            Ok(_) => reading.problem(line, "a line must be a JSON object".into()),
            Err(e) => reading.problem(line, format!("not a JSON record: {e}")),
        }
    }
    reading.transcript
}

// Claude Code

fn claude_assistant(reading: &mut Reading, line: usize, record: &Value) {
    let blocks = match record.pointer("/message/content") {
        Some(Value::Array(blocks)) => blocks,
        Some(Value::String(_)) => return,
        _ => return reading.problem(line, "an `assistant` line needs `message.content`, a text or a list of blocks".into()),
    };
    for (at, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let (Some(id), Some(name)) = (block.get("id").and_then(Value::as_str), block.get("name").and_then(Value::as_str)) else {
            reading.problem(line, format!("the `tool_use` at `message.content[{at}]` needs a string `id` and `name`"));
            continue;
        };
        match read_call(Agent::ClaudeCode, name, block.get("input").unwrap_or(&Value::Null)) {
            Ok(Some(calls)) => reading.record(line, id, false, calls, Happened::Unanswered),
            Ok(None) => reading.skip(name),
            Err(message) => reading.problem(line, message),
        }
    }
}

fn claude_user(reading: &mut Reading, line: usize, record: &Value) {
    let blocks = match record.pointer("/message/content") {
        Some(Value::Array(blocks)) => blocks,
        Some(Value::String(_)) => return,
        _ => return reading.problem(line, "a `user` line needs `message.content`, a text or a list of blocks".into()),
    };
    for (at, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("tool_result") {
            continue;
        }
        let Some(id) = block.get("tool_use_id").and_then(Value::as_str) else {
            reading.problem(line, format!("the `tool_result` at `message.content[{at}]` needs a string `tool_use_id`"));
            continue;
        };
        let text = match block.get("content") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter(|part| part.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|part| part.get("text").and_then(Value::as_str))
                .collect(),
            _ => String::new(),
        };
        let is_error = block.get("is_error").and_then(Value::as_bool);
        reading.result(id, |_| claude_outcome(&text, is_error));
    }
}

/// How the reason of a question toolgate's hook asked begins (`js/hooks/decide.js`): Claude Code
/// in print mode hands it to the model as the result of a call that did not run, and Codex, whose
/// hooks cannot ask, as the reason the call was blocked.
const TOOLGATE_ASKED: &str = "toolgate asks about this call:";

/// What a Claude Code tool result says happened. The texts are Claude Code's own; a result marked
/// `is_error: false` ran whatever it says (a file read can hold any text).
fn claude_outcome(text: &str, is_error: Option<bool>) -> Happened {
    if is_error == Some(false) {
        return Happened::Ran;
    }
    let text = text.trim_start();
    let text = text.strip_prefix("<tool_use_error>").unwrap_or(text);
    if text.starts_with("PreToolUse:") && text.contains(" hook error: ") {
        // A pre-tool hook blocked it (a deny, or exit code 2): `PreToolUse:Bash hook error: …`.
        return Happened::Refused;
    }
    if text.starts_with(TOOLGATE_ASKED) {
        // toolgate's hook asked and no one could answer (print mode): the call did not run.
        return Happened::Unanswered;
    }
    if text.starts_with("The user doesn't want to proceed with this tool use") {
        Happened::Declined
    } else if text.starts_with("Permission for this tool use was denied")
        || (text.starts_with("Permission to use ") && text.contains(" has been denied"))
    {
        Happened::Refused
    } else if text.starts_with("The user doesn't want to take this action right now") || text.starts_with("Cancelled: parallel tool call") {
        // Siblings of a rejected or failed call: cancelled before anyone decided on them.
        Happened::Unanswered
    } else {
        Happened::Ran
    }
}

// Codex CLI

fn codex_item(reading: &mut Reading, line: usize, item: &Value) {
    let field = |name: &str| item.get(name).and_then(Value::as_str);
    match field("type") {
        Some("function_call") => {
            let (Some(name), Some(arguments), Some(id)) = (field("name"), field("arguments"), field("call_id")) else {
                return reading.problem(line, "a `function_call` needs string `name`, `arguments` and `call_id`".into());
            };
            let arguments: Value = match serde_json::from_str(arguments) {
                Ok(arguments) => arguments,
                Err(e) => return reading.problem(line, format!("the `arguments` of the `{name}` call are not JSON: {e}")),
            };
            match read_call(Agent::Codex, name, &arguments) {
                Ok(Some(calls)) => {
                    let asked = arguments.get("sandbox_permissions").and_then(Value::as_str) == Some("require_escalated")
                        || arguments.get("with_escalated_permissions").and_then(Value::as_bool) == Some(true);
                    reading.record(line, id, asked, calls, if asked { Happened::Unanswered } else { Happened::Ran });
                }
                Ok(None) => reading.skip(name),
                Err(message) => reading.problem(line, message),
            }
        }
        Some("custom_tool_call") => {
            let (Some(name), Some(input), Some(id)) = (field("name"), field("input"), field("call_id")) else {
                return reading.problem(line, "a `custom_tool_call` needs string `name`, `input` and `call_id`".into());
            };
            if name != "apply_patch" {
                return reading.skip(name);
            }
            match agent_calls::patch_calls(input) {
                Ok(calls) => reading.record(line, id, false, calls, Happened::Ran),
                Err(message) => reading.problem(line, message),
            }
        }
        Some("local_shell_call") => {
            let id = field("call_id").or_else(|| field("id"));
            let argv = item.pointer("/action/command").and_then(agent_calls::strings);
            let (Some(id), Some(argv)) = (id, argv) else {
                return reading
                    .problem(line, "a `local_shell_call` needs a `call_id` and `action.command`, a non-empty list of strings".into());
            };
            reading.record(
                line,
                id,
                false,
                vec![ToolgateCall { tool: TERMINAL.into(), inputs: vec![agent_calls::command_line(&argv)] }],
                Happened::Ran,
            );
        }
        Some("function_call_output" | "custom_tool_call_output") => {
            let Some(id) = field("call_id") else {
                return reading.problem(line, "a tool call output needs a string `call_id`".into());
            };
            let text = match item.get("output") {
                Some(Value::String(text)) => text.clone(),
                // Content items, or the `{content, success}` object of older builds.
                Some(Value::Array(parts)) => parts.iter().filter_map(|part| part.get("text").and_then(Value::as_str)).collect(),
                Some(Value::Object(payload)) => payload.get("content").and_then(Value::as_str).unwrap_or_default().to_owned(),
                _ => return reading.problem(line, "a tool call output needs an `output`".into()),
            };
            reading.result(id, |asked| codex_outcome(&text, asked));
        }
        Some(_) => {}
        None => reading.problem(line, "a `response_item` needs a `type`".into()),
    }
}

/// What a Codex tool call's output says happened. Codex writes "exec command rejected by user" or
/// "patch rejected by user" when the user declines at the prompt, "aborted by user" when the turn is
/// stopped (at the prompt, for a call that asked), its automatic reviewer's refusal as "This action
/// was rejected due to unacceptable risk", and a pre-tool hook's refusal as "Command blocked by
/// PreToolUse hook: <reason>"; the texts may follow header lines.
fn codex_outcome(output: &str, asked: bool) -> Happened {
    let first = output
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !["Command:", "Chunk ID:", "Wall time:"].iter().any(|header| l.starts_with(header)))
        .unwrap_or_default();
    if let Some(reason) = first.strip_prefix("Command blocked by PreToolUse hook:") {
        // A pre-tool hook blocked it; toolgate's hook blocks a question it cannot put to a person.
        return if reason.trim_start().starts_with(TOOLGATE_ASKED) { Happened::Unanswered } else { Happened::Refused };
    }
    if first.starts_with("exec command rejected by user") || first.starts_with("patch rejected by user") {
        Happened::Declined
    } else if first.starts_with("This action was rejected due to unacceptable risk") {
        Happened::Refused
    } else if asked && first.starts_with("aborted by user") {
        Happened::Declined
    } else if asked {
        Happened::Approved
    } else {
        Happened::Ran
    }
}

#[cfg(test)]
mod tests;
