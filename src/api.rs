//! The JavaScript contract as plain Rust: every function the JS API exposes is here as an
//! ordinary function over call data and answers, so `cargo test` checks the exact shapes and
//! `src/bindings` only converts values (after cedar-policy's `ffi` module).
//!
//! One error model: a caller's programming error (a wrong argument type) is thrown by the
//! bindings; anything a user's settings or text can cause comes back as data —
//! `{ ok: true, … }` or `{ ok: false, errors: [{ code, message, path?, line?, column? }] }` —
//! the same [`Problem`] shape for every reader and validator. [`call_json`] is the contract's
//! JSON twin: the shared fixtures in `tests/fixtures/contract/` run through it natively and
//! through the wasm bindings in JavaScript, so both must give the same answers.

use crate::cursor::{self, review::Allowlists, AutoRunSettings, FileOperation, Review, ReviewKind, ReviewOption, ReviewRequest};
use crate::import::{ExportResult, ImportContext, ImportResult, ImportSource, PeerFormat};
use crate::mcp::{self, AutoRunMode, McpSettings, NameKind};
use crate::policy::{Call, Decision, HookResult, InvalidPattern, PermissionOption, Policy, PolicySpec, SettingsChange};
pub use crate::problem::{gasoline_allowlist, validate_mode, Answer, Problem, Validation};
use crate::roo::{self, CatalogueServer};
use crate::zed::{self, ZedSources};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// An invalid rule of a policy, pointed at by its place in the spec.
pub fn invalid_rule_problem(spec: &PolicySpec, bad: &InvalidPattern) -> Problem {
    let layer = spec.layers.iter().position(|l| l.name == bad.layer).unwrap_or_default();
    Problem {
        code: "invalidPattern".into(),
        message: format!(
            "{} rule {} \"{}\" of layer \"{}\" for {}: {}",
            bad.list.settings_key(),
            bad.index,
            bad.pattern,
            bad.layer,
            bad.tool,
            bad.error
        ),
        path: Some(bad.path(layer)),
        line: None,
        column: None,
    }
}

/// The problems of a compiled policy: its rules that did not compile (they fail closed).
pub fn policy_problems(policy: &Policy) -> Vec<Problem> {
    policy.invalid_patterns().iter().map(|bad| invalid_rule_problem(policy.spec(), bad)).collect()
}

/// Lints a policy spec: `{ ok, findings }`, `ok` when no finding is an error. Each finding has a
/// stable `code`, a `severity`, the rule's `path` in the spec (as a [`Problem`]'s) and a message.
pub fn lint(spec: PolicySpec) -> crate::lint::LintReport {
    crate::lint::lint(spec)
}

/// The lint findings of a compiled policy (its rules and their failing examples).
pub fn policy_findings(policy: &Policy) -> Vec<crate::lint::Finding> {
    crate::lint::lint_policy(policy)
}

/// The policy Zed applies for these settings files.
pub fn zed_policy(sources: &ZedSources) -> Answer<PolicySpec> {
    zed::policy_from_sources(sources).map_err(|e| vec![Problem::from(&e)])
}

impl From<&crate::import::ImportError> for Problem {
    fn from(e: &crate::import::ImportError) -> Self {
        Problem { code: e.code.into(), message: e.message.clone(), path: e.path.clone(), line: e.line, column: e.column }
    }
}

/// Another agent's rules (Claude Code, Codex, VS Code, Cursor, Gemini CLI) read into one policy, with a
/// report of what every source rule became and how faithfully.
pub fn import_policy(format: PeerFormat, sources: &[ImportSource], context: &ImportContext) -> Answer<ImportResult> {
    crate::import::import(format, sources, context).map_err(|errors| errors.iter().map(Problem::from).collect())
}

/// What an agent's tool call is to toolgate: the calls it makes, or none for a tool toolgate has
/// no counterpart for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentCallReading {
    /// The toolgate calls, decided together (the strictest answer wins); `null` when the tool has
    /// no counterpart and is decided under the agent's own name.
    pub calls: Option<Vec<crate::agent_calls::ToolgateCall>>,
}

/// An agent's tool call read as toolgate calls ([`crate::agent_calls::read_call`]); an input
/// without what the tool is decided on is an `unknownToolShape` problem that names the field.
pub fn read_agent_call(agent: crate::agent_calls::Agent, name: &str, input: &Value) -> Answer<AgentCallReading> {
    crate::agent_calls::read_call(agent, name, input)
        .map(|calls| AgentCallReading { calls })
        .map_err(|message| vec![Problem { code: "unknownToolShape".into(), message, path: None, line: None, column: None }])
}

/// A policy written in another agent's format, with a report of what could not be said.
pub fn export_policy(format: PeerFormat, spec: &PolicySpec, context: &ImportContext) -> ExportResult {
    crate::import::export(format, spec, context)
}

/// A copy of a parsed Zed settings object with a permission option's change applied.
pub fn apply_zed_change(settings: &Value, change: &SettingsChange) -> Answer<Value> {
    zed::apply_change(settings, change)
        .map_err(|message| vec![Problem { code: "cannotApplyChange".into(), message, path: None, line: None, column: None }])
}

/// The buttons of a permission prompt; "always" options write to `layer` (default `user`).
pub fn permission_options(policy: &Policy, tool: &str, inputs: &[String], layer: Option<&str>) -> Vec<PermissionOption> {
    policy.permission_options(tool, inputs, layer.unwrap_or("user"))
}

/// Whether a name may be used as an MCP server or tool name.
pub fn check_name(name: &str, kind: Option<NameKind>) -> Answer<()> {
    mcp::validate_name(name, kind.unwrap_or(NameKind::Tool)).map_err(|e| vec![Problem::from(&e)])
}

/// A parsed `server:tool` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ParsedEntry {
    /// The server side: a server id, or `*` for every server.
    pub server_id: String,
    /// The tool side: a tool name, or `*` for every tool.
    pub tool_name: String,
}

/// Parses a `server:tool` entry: exactly one `:` and two valid names (or `*`).
pub fn parse_entry(entry: &str) -> Answer<ParsedEntry> {
    mcp::parse_entry(entry)
        .map(|e| ParsedEntry { server_id: e.server.as_str().to_owned(), tool_name: e.tool.as_str().to_owned() })
        .map_err(|e| vec![Problem::from(&e)])
}

/// A formatted entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FormattedEntry {
    /// The `server:tool` string, ready to store in an allowlist.
    pub entry: String,
}

/// Builds the `server:tool` entry, checking both names.
pub fn format_entry(server_id: &str, tool_name: &str) -> Answer<FormattedEntry> {
    mcp::format_entry(server_id, tool_name).map(|entry| FormattedEntry { entry }).map_err(|e| vec![Problem::from(&e)])
}

// ---- Call and answer types of the Cursor review flow and Roo modes ----

/// What a review shows: its header text and options, in order.
#[derive(Debug, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    /// The review's question, such as `Run 'git status'?`.
    pub header_text: String,
    /// The buttons to show, in order.
    pub options: Vec<ReviewOption>,
}

/// The answer to a review and the current allowlists it may extend.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReviewAnswer {
    /// The button the user chose; it must be one the review offers.
    pub option: ReviewOption,
    /// What the user told the agent to do instead, with a rejection.
    #[serde(default)]
    pub feedback: Option<String>,
    /// The current allowlists, which an "allowlist" answer extends.
    #[serde(default)]
    pub allowlists: Allowlists,
}

/// The finished review and what the answer means.
#[derive(Debug, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReviewStep {
    /// The review, now done.
    pub review: Review,
    /// What the answer means: whether the call runs, and any allowlist to persist.
    pub outcome: cursor::ReviewOutcome,
}

/// Options for a Roo mode: its configuration and the MCP servers' settings.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RooModeOptions {
    /// The mode whose `mcpRestrictions` apply.
    pub mode: roo::ModeConfig,
    /// `mcpServers` from the MCP configuration, by name (only `defaultEnabled` is read).
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, ServerSettings>"))]
    pub servers: BTreeMap<String, roo::ServerSettings>,
}

/// A new review of a tool call, requested; absent data is an empty request. An error is a
/// caller's mistake (an impossible transition).
pub fn request_review(kind: ReviewKind, data: Option<ReviewRequest>) -> Result<Review, String> {
    Review::new(kind).request(data.unwrap_or_default()).map_err(|e| e.to_string())
}

/// What a review shows.
pub fn review_view(review: &Review) -> ReviewView {
    ReviewView { header_text: review.header_text(), options: review.options() }
}

/// `requested → done` with the user's answer; an error is a caller's mistake (never requested,
/// already done, or an option that is not offered).
pub fn answer_review(review: Review, answer: ReviewAnswer) -> Result<ReviewStep, String> {
    let (review, outcome) = review.answer(answer.option, answer.feedback, &answer.allowlists).map_err(|e| e.to_string())?;
    Ok(ReviewStep { review, outcome })
}

/// `requested → done` without an answer (the call does not run).
pub fn cancel_review(review: Review) -> Result<ReviewStep, String> {
    let (review, outcome) = review.cancel().map_err(|e| e.to_string())?;
    Ok(ReviewStep { review, outcome })
}

/// A Roo mode's restrictions, compiled.
pub fn roo_mode(options: &RooModeOptions) -> roo::ModePolicy {
    roo::ModePolicy::new(&options.mode, &options.servers)
}

/// An answer as JSON: `{ ok: true, …value }` (a non-object value under `value`) or `{ ok: false, errors }`.
pub fn answer_json<T: Serialize>(answer: &Answer<T>) -> Value {
    match answer {
        Ok(value) => match serde_json::to_value(value) {
            Ok(Value::Object(mut map)) => {
                map.insert("ok".into(), Value::Bool(true));
                Value::Object(map)
            }
            Ok(Value::Null) => json!({ "ok": true }),
            Ok(other) => json!({ "ok": true, "value": other }),
            Err(e) => json!({ "ok": false, "errors": [{ "code": "internal", "message": e.to_string() }] }),
        },
        Err(errors) => json!({ "ok": false, "errors": errors }),
    }
}

fn arg<T: DeserializeOwned>(args: &[Value], index: usize, name: &str) -> Result<T, String> {
    let value = args.get(index).cloned().unwrap_or(Value::Null);
    serde_json::from_value(value).map_err(|e| format!("{name}: {e}"))
}

fn to_value<T: Serialize>(value: &T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

fn input_list(value: Value) -> Result<Vec<String>, String> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s]),
        other => serde_json::from_value(other).map_err(|e| format!("input: {e}")),
    }
}

/// A `Session` driven by steps, as the contract's fixtures write one: `args` are the policy, the
/// session's options and the steps. Each step is `{ <method>: [args…], on?: n }` on the session
/// (`on` 0) or the `n`th child a `child` step made; its result is what the method returns, or
/// `{ error }` with the message JavaScript would throw.
fn session_script(args: &[Value]) -> Result<Value, String> {
    use crate::session::{ChildOptions, Session, SessionOptions};
    let options: Option<SessionOptions> = arg(args, 1, "options")?;
    let steps: Vec<serde_json::Map<String, Value>> = arg(args, 2, "steps")?;
    let mut sessions = vec![Session::new(arg(args, 0, "spec")?, &options.unwrap_or_default()).map_err(|e| e.to_string())?];
    let mut results = Vec::new();
    for (at, step) in steps.iter().enumerate() {
        let on = step.get("on").and_then(Value::as_u64).unwrap_or(0) as usize;
        let session = sessions.get(on).cloned().ok_or_else(|| format!("steps[{at}].on: no session {on}"))?;
        let (method, params) = step.iter().find(|(key, _)| key.as_str() != "on").ok_or_else(|| format!("steps[{at}]: no method"))?;
        let params: Vec<Value> = serde_json::from_value(params.clone()).map_err(|e| format!("steps[{at}].{method}: {e}"))?;
        let now = |index: usize| arg::<u64>(&params, index, "now");
        let result = match method.as_str() {
            "decide" => {
                let options: Value = arg(&params, 2, "options")?;
                let call = Call {
                    tool: arg(&params, 0, "tool")?,
                    inputs: input_list(params.get(1).cloned().unwrap_or(Value::Null))?,
                    hook: serde_json::from_value(options.get("hook").cloned().unwrap_or(Value::Null)).map_err(|e| format!("hook: {e}"))?,
                };
                let at: u64 =
                    serde_json::from_value(options.get("now").cloned().unwrap_or(Value::Null)).map_err(|e| format!("now: {e}"))?;
                session.decide(&call, at).map(|d| to_value(&d))
            }
            "answer" => session.answer(&arg::<cursor::SessionAnswer>(&params, 0, "answer")?.into(), now(1)?).map(|a| to_value(&a)),
            "grants" => session.grants(now(0)?).map(|g| to_value(&g)),
            "permissionOptions" => session.permission_options(arg(&params, 0, "callId")?).map(|o| to_value(&o)),
            "reviewOptions" => cursor::review_options(&session, arg(&params, 0, "callId")?, arg(&params, 1, "kind")?).map(|o| to_value(&o)),
            "revoke" => session.revoke(&arg::<String>(&params, 0, "id")?, now(1)?).map(|p| to_value(&p)),
            "end" => session.end(now(0)?).map(|()| Ok(Value::Null)),
            "setPolicy" => session.set_policy(arg(&params, 0, "spec")?, now(1)?).map(|dropped| to_value(&dropped)),
            "logLines" => session.log_lines(arg::<Option<u64>>(&params, 0, "after")?.unwrap_or(0)).map(|l| Ok(Value::String(l))),
            "child" => {
                let options: Option<ChildOptions> = arg(&params, 0, "options")?;
                session.child(options.unwrap_or_default()).map(|child| {
                    sessions.push(child);
                    Ok(Value::Null)
                })
            }
            other => return Err(format!("steps[{at}]: unknown method `{other}`")),
        };
        results.push(match result {
            Ok(value) => value?,
            Err(e) => json!({ "error": e.to_string() }),
        });
    }
    Ok(Value::Array(results))
}

/// The contract's JSON twin: calls the JS function `function` with positional `args` as the
/// bindings would, and returns its answer as JSON. An error is what JavaScript would throw
/// (a caller's mistake, such as an argument of the wrong type).
pub fn call_json(function: &str, args: &[Value]) -> Result<Value, String> {
    match function {
        "Session" => session_script(args),
        "Policy.decide" => {
            let policy = Policy::new(arg(args, 0, "spec")?);
            let call = Call {
                tool: arg(args, 1, "tool")?,
                inputs: input_list(args.get(2).cloned().unwrap_or(Value::Null))?,
                hook: arg(args, 3, "hook")?,
            };
            to_value::<Decision>(&policy.decide_call(&call))
        }
        "Policy.problems" => to_value(&policy_problems(&Policy::new(arg(args, 0, "spec")?))),
        "Policy.findings" => to_value(&policy_findings(&Policy::new(arg(args, 0, "spec")?))),
        "lint" => to_value(&lint(arg(args, 0, "spec")?)),
        "Policy.permissionOptions" => {
            let policy = Policy::new(arg(args, 0, "spec")?);
            let inputs = input_list(args.get(2).cloned().unwrap_or(Value::Null))?;
            let layer: Option<String> = arg(args, 3, "layer")?;
            to_value(&permission_options(&policy, &arg::<String>(args, 1, "tool")?, &inputs, layer.as_deref()))
        }
        "Policy.fromZedSettings" => {
            let answer = zed_policy(&arg(args, 0, "sources")?).map(|spec| json!({ "spec": spec }));
            Ok(answer_json(&answer))
        }
        "GasolineAllowlist.parse" => {
            let answer = gasoline_allowlist(&arg::<String>(args, 0, "yaml")?).map(|list| json!({ "summary": list.summary() }));
            Ok(answer_json(&answer))
        }
        "validateModeRestrictions" => to_value(&validate_mode(&arg(args, 0, "mode")?, &arg::<Vec<CatalogueServer>>(args, 1, "catalogue")?)),
        "applyZedSettingsChange" => {
            Ok(answer_json(&apply_zed_change(&arg(args, 0, "settings")?, &arg(args, 1, "change")?).map(|s| json!({ "settings": s }))))
        }
        "analyzeCommand" => to_value(&crate::shell::analyze(&arg::<String>(args, 0, "command")?)),
        "decideTerminalCommand" => {
            let settings: AutoRunSettings = arg(args, 1, "settings")?;
            to_value(&cursor::decide_terminal(&arg::<String>(args, 0, "command")?, &settings, arg::<Option<HookResult>>(args, 2, "hook")?))
        }
        "decideFileOperation" => {
            let operation: FileOperation = arg(args, 0, "operation")?;
            let roots: Vec<String> = arg(args, 2, "workspaceRoots")?;
            let settings: AutoRunSettings = arg(args, 3, "settings")?;
            to_value(&cursor::decide_file_operation(operation, &arg::<String>(args, 1, "path")?, &roots, &settings, arg(args, 4, "hook")?))
        }
        "decideMcp" => {
            let (server, tool): (String, String) = (arg(args, 0, "serverId")?, arg(args, 1, "toolName")?);
            let settings: McpSettings = arg(args, 2, "settings")?;
            to_value(&mcp::decide_mcp(&server, &tool, settings, arg::<AutoRunMode>(args, 3, "mode")?))
        }
        "validateName" => Ok(answer_json(&check_name(&arg::<String>(args, 0, "name")?, arg(args, 1, "kind")?))),
        "parseEntry" => Ok(answer_json(&parse_entry(&arg::<String>(args, 0, "entry")?))),
        "formatEntry" => Ok(answer_json(&format_entry(&arg::<String>(args, 0, "serverId")?, &arg::<String>(args, 1, "toolName")?))),
        "validateSettings" => {
            // The draft is data from a webview: whatever it is, the answer says what is wrong with it.
            let draft = args.first().map(Value::to_string).unwrap_or_else(|| "null".into());
            let context: Option<crate::settings::PageContext> = arg(args, 1, "context")?;
            to_value(&crate::settings::validate_json(&draft, &context.unwrap_or_default()))
        }
        "applySettingsChange" => {
            let answer =
                crate::settings::apply_change(&arg(args, 0, "settings")?, &arg(args, 1, "change")?).map(|s| json!({ "settings": s }));
            Ok(answer_json(&answer))
        }
        "importPolicy" => {
            let context: Option<ImportContext> = arg(args, 2, "context")?;
            let answer =
                import_policy(arg(args, 0, "format")?, &arg::<Vec<ImportSource>>(args, 1, "sources")?, &context.unwrap_or_default());
            Ok(answer_json(&answer))
        }
        "exportPolicy" => {
            let context: Option<ImportContext> = arg(args, 2, "context")?;
            to_value(&export_policy(arg(args, 0, "format")?, &arg(args, 1, "spec")?, &context.unwrap_or_default()))
        }
        other => Err(format!("unknown function {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_data_with_the_one_problem_shape() {
        let answer = answer_json(&gasoline_allowlist("allowed_tools:\n  - observe.*\n  - \"obs*.x\"\n").map(|l| l.summary()));
        assert_eq!(answer["ok"], json!(false));
        assert_eq!(answer["errors"][0]["code"], json!("invalidPattern"));
        assert_eq!((answer["errors"][0]["line"].clone(), answer["errors"][0]["column"].clone()), (json!(3), json!(5)));
        let answer = answer_json(&zed_policy(&ZedSources { user: Some("{ \"agent\": [1, }".into()), ..ZedSources::default() }));
        assert_eq!(answer["errors"][0]["code"], json!("invalidJson"));
        assert_eq!(answer["errors"][0]["line"], json!(1));
        let answer = answer_json(&check_name("", None));
        assert_eq!(answer, json!({ "ok": false, "errors": [{ "code": "nameEmpty", "message": "tool name must not be empty" }] }));
    }

    #[test]
    fn a_success_is_the_value_with_ok_true() {
        assert_eq!(answer_json(&parse_entry("github:*")), json!({ "ok": true, "serverId": "github", "toolName": "*" }));
        assert_eq!(answer_json(&check_name("github", Some(NameKind::Server))), json!({ "ok": true }));
    }

    #[test]
    fn lint_answers_ok_and_findings_with_paths() {
        let spec = json!({ "layers": [{ "name": "user", "tools": { "terminal": {
            "alwaysAllow": [{ "pattern": "^git\\b" }, { "pattern": "(" }] } } }] });
        let answer = call_json("lint", std::slice::from_ref(&spec)).unwrap();
        assert_eq!(answer["ok"], json!(false));
        let findings = answer["findings"].as_array().unwrap();
        assert_eq!(findings[0]["code"], json!("broadAllow"));
        assert_eq!(findings[0]["severity"], json!("warning"));
        assert_eq!(findings[0]["input"], json!("git push --force"));
        assert_eq!(findings[1]["code"], json!("invalidPattern"));
        assert_eq!(findings[1]["path"], json!("layers[0].tools.terminal.alwaysAllow[1]"));
        assert_eq!(findings[1]["column"], json!(1));
        assert_eq!(call_json("Policy.findings", &[spec]).unwrap(), answer["findings"]);
        let clean = call_json("lint", &[json!({ "presets": ["readOnlyCommands", "dangerousCommands"] })]).unwrap();
        assert_eq!(clean, json!({ "ok": true, "findings": [] }));
        assert!(call_json("lint", &[json!({ "layers": 3 })]).is_err());
    }

    #[test]
    fn invalid_rules_are_problems_with_their_path() {
        let spec: PolicySpec = serde_json::from_value(json!({ "layers": [
            { "name": "user", "tools": { "terminal": { "alwaysAllow": [{ "pattern": "^ls\\b" }, { "pattern": "(" }] } } }
        ] }))
        .unwrap();
        let problems = policy_problems(&Policy::new(spec));
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].path.as_deref(), Some("layers[0].tools.terminal.alwaysAllow[1]"));
        assert_eq!(problems[0].code, "invalidPattern");
    }
}
