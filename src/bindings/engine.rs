//! The layered rule engine API: `toolgate/engine`.
// Parameters are named as JavaScript callers see them in the generated TypeScript.
#![allow(non_snake_case)]

use super::pair_buffer::PairBuffer;
use super::{error, json_arg, ok_with, optional_json_arg, string_arg, tape, to_js, to_ts, to_ts_fixed};
use crate::api;
use crate::policy::{self, PolicySpec, SettingsChange};
use crate::shell::Shell;
use crate::zed::ZedSources;
use tsify::Ts;
use wasm_bindgen::prelude::*;

/// `{ ok: false, errors }` as a JS value.
fn failure(errors: &[api::Problem]) -> Result<JsValue, JsValue> {
    to_js(&api::answer_json::<()>(&Err(errors.to_vec())))
}

/// What a tool call is about: the command, a path, a URL, a query — or, for `move_path`,
/// `[source, destination]`.
#[derive(serde::Deserialize, tsify::Tsify)]
#[serde(untagged)]
pub enum ToolInput {
    /// One input: a command line, path, URL or query.
    One(String),
    /// Several inputs, such as `[source, destination]`.
    Many(Vec<String>),
}

/// The name of a settings layer, such as `"user"` or `"project"`.
#[derive(serde::Deserialize, tsify::Tsify)]
pub struct LayerName(pub String);

/// `input` as the engine takes it: absent, one string, or several.
pub(super) fn inputs_arg(input: Option<JsValue>) -> Result<Vec<String>, JsValue> {
    let Some(value) = input.filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(Vec::new());
    };
    if js_sys::Array::is_array(&value) {
        json_arg(&value, "input")
    } else {
        string_arg(&value, "input").map(|s| vec![s])
    }
}

/// Room for a tool name and a command line copied in one crossing; longer lines, other inputs
/// and non-ASCII text take the checked path.
const ARGS_CAPACITY: usize = 4096;

/// A compiled policy: layers of per-tool rules, decided by one evaluator.
#[derive(Debug)]
#[wasm_bindgen(js_name = Policy)]
pub struct JsPolicy {
    pub(crate) inner: policy::Policy,
    args: PairBuffer,
}

impl JsPolicy {
    fn wrap(inner: policy::Policy) -> Self {
        JsPolicy { inner, args: PairBuffer::new(ARGS_CAPACITY) }
    }

    /// The tool and its input(s), checked: a tool name and a one-string input in one crossing
    /// when both are short ASCII strings, else each through its checked reader.
    fn call_args(&self, tool: &JsValue, input: Option<Ts<ToolInput>>) -> Result<(String, Vec<String>), JsValue> {
        let input = input.map(|i| i.js_value());
        if let Some(args) = input.as_ref().and_then(|i| self.args.try_with_pair(tool, i, |t, i| (t.to_owned(), vec![i.to_owned()]))) {
            return Ok(args);
        }
        Ok((string_arg(tool, "tool")?, inputs_arg(input)?))
    }
}

#[wasm_bindgen(js_class = Policy)]
impl JsPolicy {
    /// Compiles a policy. Invalid regex patterns do not throw: see `invalidPatterns`.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: Ts<PolicySpec>) -> Result<JsPolicy, JsValue> {
        let spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
        Ok(JsPolicy::wrap(policy::Policy::new(spec)))
    }

    /// The policy Zed applies for these settings files; a settings file that cannot be read
    /// comes back as `{ ok: false, errors }` naming the file, line and column or the setting.
    #[wasm_bindgen(js_name = fromZedSettings, unchecked_return_type = "{ ok: true, policy: Policy } | { ok: false, errors: Problem[] }")]
    pub fn from_zed_settings(sources: Ts<ZedSources>) -> Result<JsValue, JsValue> {
        let sources: ZedSources = json_arg(&sources.js_value(), "sources")?;
        match api::zed_policy(&sources) {
            Ok(spec) => Ok(ok_with("policy", JsPolicy::wrap(policy::Policy::new(spec)).into())),
            Err(errors) => failure(&errors),
        }
    }

    /// Decides a call and explains it. `input`: the command, path(s), URL, query or
    /// `[server, tool]`; `hook`: an external hook's answer, if any.
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        input: Option<Ts<ToolInput>>,
        hook: Option<Ts<policy::HookResult>>,
    ) -> Result<Ts<policy::Decision>, JsValue> {
        let (tool, inputs) = self.call_args(&tool, input)?;
        let hook = optional_json_arg(hook.map(|h| h.js_value()), "hook")?;
        to_ts_fixed(&self.inner.decide_call(&policy::Call { tool, inputs, hook }), tape::decision_to_js)
    }

    /// Only the outcome: "allow", "confirm" or "deny".
    pub fn outcome(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        input: Option<Ts<ToolInput>>,
    ) -> Result<Ts<policy::Outcome>, JsValue> {
        let (tool, inputs) = self.call_args(&tool, input)?;
        to_ts(&self.inner.outcome(&tool, &inputs))
    }

    /// Patterns that would cover parts of this call ("Always allow `cargo`").
    #[wasm_bindgen(unchecked_return_type = "Suggestion[]")]
    pub fn suggestions(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        input: Option<Ts<ToolInput>>,
    ) -> Result<JsValue, JsValue> {
        let (tool, inputs) = self.call_args(&tool, input)?;
        to_js(&self.inner.suggestions(&tool, &inputs))
    }

    /// The buttons of a permission prompt for this call; "always" options write to `layer` (default "user").
    #[wasm_bindgen(js_name = permissionOptions, unchecked_return_type = "PermissionOption[]")]
    pub fn permission_options(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        input: Option<Ts<ToolInput>>,
        layer: Option<Ts<LayerName>>,
    ) -> Result<JsValue, JsValue> {
        let (tool, inputs) = self.call_args(&tool, input)?;
        let layer = match layer.map(|l| l.js_value()).filter(|l| !l.is_undefined() && !l.is_null()) {
            Some(l) => Some(string_arg(&l, "layer")?),
            None => None,
        };
        to_js(&api::permission_options(&self.inner, &tool, &inputs, layer.as_deref()))
    }

    /// Rules that did not compile, with layer, tool, list, index and the error; each fails closed.
    #[wasm_bindgen(getter = invalidPatterns, unchecked_return_type = "InvalidPattern[]")]
    pub fn invalid_patterns(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.invalid_patterns())
    }

    /// The same rules as problems a settings page can show: `{ code, message, path }`.
    #[wasm_bindgen(getter, unchecked_return_type = "Problem[]")]
    pub fn problems(&self) -> Result<JsValue, JsValue> {
        to_js(&api::policy_problems(&self.inner))
    }

    /// The examples of the spec's rules that were not decided as their rule says.
    #[wasm_bindgen(getter = exampleFailures, unchecked_return_type = "ExampleFailure[]")]
    pub fn example_failures(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.example_failures())
    }

    /// The policy as data (for a Zed policy: its translation into layers).
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> Result<Ts<PolicySpec>, JsValue> {
        to_ts(self.inner.spec())
    }
}

/// A shipped preset as the layer it is (rules for `terminal`, with their examples), to store or copy.
#[wasm_bindgen(js_name = presetLayer)]
pub fn preset_layer(preset: Ts<crate::presets::Preset>) -> Result<Ts<policy::LayerSpec>, JsValue> {
    let preset: crate::presets::Preset = json_arg(&preset.js_value(), "preset")?;
    to_ts(&crate::presets::layer(preset))
}

/// Splits a command line into the sub-commands rules see, with their hazards (`shell`: default posix).
#[wasm_bindgen(js_name = analyzeCommand)]
pub fn analyze_command(
    #[wasm_bindgen(unchecked_param_type = "string")] command: JsValue,
    shell: Option<Ts<Shell>>,
) -> Result<Ts<crate::shell::ShellAnalysis>, JsValue> {
    let command = string_arg(&command, "command")?;
    let shell: Option<Shell> = optional_json_arg(shell.map(|s| s.js_value()), "shell")?;
    to_ts(&crate::shell::analyze_in(shell.unwrap_or_default(), &command))
}

/// Returns a copy of `spec` with a permission option's change applied.
#[wasm_bindgen(js_name = applyPolicyChange)]
pub fn apply_policy_change(spec: Ts<PolicySpec>, change: Ts<SettingsChange>) -> Result<Ts<PolicySpec>, JsValue> {
    let mut spec: PolicySpec = json_arg(&spec.js_value(), "spec")?;
    let change: SettingsChange = json_arg(&change.js_value(), "change")?;
    spec.apply(&change);
    to_ts(&spec)
}

/// A copy of a parsed Zed settings object with a permission option's change applied, or why not.
#[wasm_bindgen(js_name = applyZedSettingsChange, unchecked_return_type = "{ ok: true, settings: Record<string, unknown> } | { ok: false, errors: Problem[] }")]
pub fn apply_zed_settings_change(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] settings: JsValue,
    change: Ts<SettingsChange>,
) -> Result<JsValue, JsValue> {
    let settings: serde_json::Value = json_arg(&settings, "settings")?;
    let change: SettingsChange = json_arg(&change.js_value(), "change")?;
    let answer = api::apply_zed_change(&settings, &change).map(|settings| serde_json::json!({ "settings": settings }));
    to_js(&api::answer_json(&answer))
}

// ---------------------------------------------------------------------------------------
// The Cursor approval flow (Cursor's approval-flow design).

use crate::cursor::{self, AutoRunControls, AutoRunSettings, ComposerState, HookResult, Review, ReviewKind, ReviewRequest};

fn hook_arg(hook: Option<Ts<HookResult>>) -> Result<Option<HookResult>, JsValue> {
    match hook.map(|h| h.js_value()).filter(|h| !h.is_undefined() && !h.is_null()) {
        Some(h) => json_arg(&h, "hook").map(Some),
        None => Ok(None),
    }
}

/// Effective auto-run settings from a stored `composerState` (defaults filled in, legacy migrated).
#[wasm_bindgen(js_name = migrateComposerState)]
pub fn migrate_composer_state(state: Ts<ComposerState>) -> Result<Ts<AutoRunSettings>, JsValue> {
    let state: ComposerState = json_arg(&state.js_value(), "state")?;
    to_ts(&cursor::migrate(&state))
}

/// The settings after team admin `AutoRunControls` (protobuf field names) are applied.
#[wasm_bindgen(js_name = applyAdminControls)]
pub fn apply_admin_controls(settings: Ts<AutoRunSettings>, controls: Ts<AutoRunControls>) -> Result<Ts<AutoRunSettings>, JsValue> {
    let settings: AutoRunSettings = json_arg(&settings.js_value(), "settings")?;
    let controls: AutoRunControls = json_arg(&controls.js_value(), "controls")?;
    to_ts(&cursor::apply_admin_controls(&settings, &controls))
}

/// Whether a terminal command needs approval, its allowlist candidates and approval type.
#[wasm_bindgen(js_name = decideTerminalCommand)]
pub fn decide_terminal_command(
    #[wasm_bindgen(unchecked_param_type = "string")] command: JsValue,
    settings: Ts<AutoRunSettings>,
    hook: Option<Ts<HookResult>>,
) -> Result<Ts<cursor::TerminalDecision>, JsValue> {
    let command = string_arg(&command, "command")?;
    let settings: AutoRunSettings = json_arg(&settings.js_value(), "settings")?;
    to_ts(&cursor::decide_terminal(&command, &settings, hook_arg(hook)?))
}

/// Whether writing or deleting a file needs approval (dotfile, outside-workspace and delete protections).
#[wasm_bindgen(js_name = decideFileOperation)]
pub fn decide_file_operation(
    operation: Ts<cursor::FileOperation>,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] workspaceRoots: JsValue,
    settings: Ts<AutoRunSettings>,
    hook: Option<Ts<HookResult>>,
) -> Result<Ts<cursor::FileDecision>, JsValue> {
    let operation: cursor::FileOperation = json_arg(&operation.js_value(), "operation")?;
    let path = string_arg(&path, "path")?;
    let roots: Vec<String> = json_arg(&workspaceRoots, "workspaceRoots")?;
    let settings: AutoRunSettings = json_arg(&settings.js_value(), "settings")?;
    to_ts(&cursor::decide_file_operation(operation, &path, &roots, &settings, hook_arg(hook)?))
}

/// A new review of a tool call, requested (`none → requested`).
#[wasm_bindgen(js_name = requestReview)]
pub fn request_review(kind: Ts<ReviewKind>, data: Option<Ts<ReviewRequest>>) -> Result<Ts<Review>, JsValue> {
    let kind: ReviewKind = json_arg(&kind.js_value(), "kind")?;
    let data: Option<ReviewRequest> = optional_json_arg(data.map(|d| d.js_value()), "data")?;
    to_ts(&api::request_review(kind, data).map_err(|e| error(&e))?)
}

/// What a review shows: its header text and options, in order.
#[wasm_bindgen(js_name = reviewView)]
pub fn review_view(review: Ts<Review>) -> Result<Ts<api::ReviewView>, JsValue> {
    let review: Review = json_arg(&review.js_value(), "review")?;
    to_ts(&api::review_view(&review))
}

/// `requested → done`: throws if the review was never requested, is already done, or the option is not offered.
#[wasm_bindgen(js_name = answerReview)]
pub fn answer_review(review: Ts<Review>, answer: Ts<api::ReviewAnswer>) -> Result<Ts<api::ReviewStep>, JsValue> {
    let review: Review = json_arg(&review.js_value(), "review")?;
    let answer: api::ReviewAnswer = json_arg(&answer.js_value(), "answer")?;
    to_ts(&api::answer_review(review, answer).map_err(|e| error(&e))?)
}

/// `requested → done` without an answer (the call does not run).
#[wasm_bindgen(js_name = cancelReview)]
pub fn cancel_review(review: Ts<Review>) -> Result<Ts<api::ReviewStep>, JsValue> {
    let review: Review = json_arg(&review.js_value(), "review")?;
    to_ts(&api::cancel_review(review).map_err(|e| error(&e))?)
}

// ---------------------------------------------------------------------------------------
// Gasoline (Gasoline's design) and Roo Code (Roo Code's design).

use crate::gasoline;
use crate::roo;

/// A Gasoline `allowed_tools` YAML allowlist.
#[derive(Debug)]
#[wasm_bindgen(js_name = GasolineAllowlist)]
pub struct JsGasolineAllowlist {
    inner: gasoline::GasolineAllowlist,
}

#[wasm_bindgen(js_class = GasolineAllowlist)]
impl JsGasolineAllowlist {
    /// Not a way to load a list: `new` throws a TypeError pointing at `GasolineAllowlist.parse(text)`,
    /// which answers `{ ok, … }` instead of throwing for a bad file.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<JsGasolineAllowlist, JsValue> {
        Err(super::type_error("use GasolineAllowlist.parse(text), which answers { ok: true, allowlist } or { ok: false, errors }"))
    }

    /// Loads YAML text: `{ ok: true, allowlist }`, or `{ ok: false, errors }` with line and column.
    #[wasm_bindgen(unchecked_return_type = "{ ok: true, allowlist: GasolineAllowlist } | { ok: false, errors: Problem[] }")]
    pub fn parse(#[wasm_bindgen(unchecked_param_type = "string")] yaml: JsValue) -> Result<JsValue, JsValue> {
        let yaml = string_arg(&yaml, "yaml")?;
        match api::gasoline_allowlist(&yaml) {
            Ok(inner) => Ok(ok_with("allowlist", JsGasolineAllowlist { inner }.into())),
            Err(errors) => failure(&errors),
        }
    }

    /// Replaces the allowlist atomically: on any error the current one stays in force.
    #[wasm_bindgen(unchecked_return_type = "{ ok: true } | { ok: false, errors: Problem[] }")]
    pub fn reload(&mut self, #[wasm_bindgen(unchecked_param_type = "string")] yaml: JsValue) -> Result<JsValue, JsValue> {
        let yaml = string_arg(&yaml, "yaml")?;
        let answer = self.inner.reload(&yaml).map_err(|e| vec![api::Problem::from(&e)]);
        to_js(&api::answer_json(&answer))
    }

    /// The explained decision for `tool.action`.
    pub fn decide(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] action: JsValue,
    ) -> Result<Ts<policy::Decision>, JsValue> {
        let tool = string_arg(&tool, "tool")?;
        let action = string_arg(&action, "action")?;
        to_ts_fixed(&self.inner.decide(&tool, &action), tape::decision_to_js)
    }

    /// The patterns as written.
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn patterns(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.patterns())
    }

    /// `null` when `tool.action` may run, else the design's `tool_not_allowed` error object.
    #[wasm_bindgen(unchecked_return_type = "ToolNotAllowed | null")]
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] action: JsValue,
    ) -> Result<JsValue, JsValue> {
        let tool = string_arg(&tool, "tool")?;
        let action = string_arg(&action, "action")?;
        match self.inner.check(&tool, &action) {
            Ok(()) => Ok(JsValue::NULL),
            Err(e) => to_js(&e),
        }
    }

    /// For `server_config`: the list, its size and "Allowlist enabled, X tools/actions permitted".
    #[wasm_bindgen(getter)]
    pub fn summary(&self) -> Result<Ts<gasoline::AllowlistSummary>, JsValue> {
        to_ts(&self.inner.summary())
    }
}

/// A Roo mode's MCP restrictions, compiled.
#[derive(Debug)]
#[wasm_bindgen(js_name = RooMode)]
pub struct JsRooMode {
    inner: roo::ModePolicy,
}

#[wasm_bindgen(js_class = RooMode)]
impl JsRooMode {
    /// Compiles a mode's restrictions; throws if `options` is not a valid mode configuration.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Ts<api::RooModeOptions>) -> Result<JsRooMode, JsValue> {
        let o: api::RooModeOptions = json_arg(&options.js_value(), "options")?;
        Ok(JsRooMode { inner: api::roo_mode(&o) })
    }

    /// `null` when the mode may call the tool, else the design's error text.
    #[wasm_bindgen(js_name = checkTool, unchecked_return_type = "string | null")]
    pub fn check_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] serverName: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
    ) -> Result<JsValue, JsValue> {
        let server = string_arg(&serverName, "serverName")?;
        let tool = string_arg(&toolName, "toolName")?;
        Ok(self.inner.check_tool(&server, &tool).err().map_or(JsValue::NULL, |e| JsValue::from_str(&e)))
    }

    /// `null` when the mode may read the server's resources, else the error text.
    #[wasm_bindgen(js_name = checkResource, unchecked_return_type = "string | null")]
    pub fn check_resource(&self, #[wasm_bindgen(unchecked_param_type = "string")] serverName: JsValue) -> Result<JsValue, JsValue> {
        let server = string_arg(&serverName, "serverName")?;
        Ok(self.inner.check_resource(&server).err().map_or(JsValue::NULL, |e| JsValue::from_str(&e)))
    }

    /// The servers and tools the mode may see, for its prompt.
    #[wasm_bindgen(js_name = filterCatalogue, unchecked_return_type = "CatalogueServer[]")]
    pub fn filter_catalogue(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CatalogueServer[]")] catalogue: JsValue,
    ) -> Result<JsValue, JsValue> {
        let catalogue: Vec<roo::CatalogueServer> = json_arg(&catalogue, "catalogue")?;
        to_js(&self.inner.filter_catalogue(&catalogue))
    }
}

/// Problems with a mode's restrictions: conflicts are errors, unknown names warnings.
#[wasm_bindgen(js_name = validateModeRestrictions)]
pub fn validate_mode_restrictions(
    mode: Ts<roo::ModeConfig>,
    #[wasm_bindgen(unchecked_param_type = "CatalogueServer[]")] catalogue: JsValue,
) -> Result<Ts<api::Validation>, JsValue> {
    let mode: roo::ModeConfig = json_arg(&mode.js_value(), "mode")?;
    let catalogue: Vec<roo::CatalogueServer> = json_arg(&catalogue, "catalogue")?;
    to_ts(&api::validate_mode(&mode, &catalogue))
}

/// An agent's tool call (Claude Code, Codex, Gemini CLI, Cursor, VS Code, GitHub Copilot) read as
/// the toolgate calls it makes, tools named as the importers translate that agent's rules:
/// `{ ok: true, calls }` (`calls` is `null` for a tool toolgate has no counterpart for), or
/// `{ ok: false, errors }` naming what the input lacks.
#[wasm_bindgen(js_name = readAgentCall, unchecked_return_type = "{ ok: true, calls: ToolgateCall[] | null } | { ok: false, errors: Problem[] }")]
pub fn read_agent_call(
    agent: Ts<crate::agent_calls::Agent>,
    #[wasm_bindgen(unchecked_param_type = "string")] toolName: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] toolInput: JsValue,
) -> Result<JsValue, JsValue> {
    let agent: crate::agent_calls::Agent = json_arg(&agent.js_value(), "agent")?;
    let name = string_arg(&toolName, "toolName")?;
    let input: serde_json::Value = if toolInput.is_undefined() { serde_json::Value::Null } else { json_arg(&toolInput, "toolInput")? };
    to_js(&api::answer_json(&api::read_agent_call(agent, &name, &input)))
}
