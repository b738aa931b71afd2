//! The rule model every dialect translates into, and its one evaluator.
//!
//! A policy has a *catalogue* (what each tool's input is: a shell command, a path, two paths, a
//! URL, a query, an MCP call, or opaque text), ordered *layers* of per-tool rules (each rule one
//! of a few matcher kinds: regex, command prefix, MCP entry, Gasoline `tool.action`), ordered
//! *gates* (a condition and the outcome it forces), and *defaults*. Rules imported from other
//! agents' formats add four kinds (see [`matchers`]): command glob, token prefix, path pattern,
//! domain glob. The evaluator turns a call into items by its input kind, runs the gates in order — the standard order is hard-coded
//! denials > invalid rules > deny rules > confirm rules > allow rules — and falls back to the
//! tool's default, then the global one. It never looks at a tool's name to decide how to read
//! its input: that is the catalogue's job.

pub mod catalogue;
#[cfg(feature = "analysis")]
mod command_paths;
mod evaluate;
pub mod examples;
mod gates;
mod hardcoded;
mod items;
mod literal_program;
mod literal_sieve;
pub mod matchers;
mod message_template;
mod options;
pub(crate) mod pair_index;
pub mod path;
pub mod presets;
pub mod protected;
mod reason;
#[cfg(feature = "analysis")]
mod regex_facts;
pub(crate) mod rules;
pub mod secrets;
mod sourced_paths;
#[cfg(feature = "analysis")]
mod suggest;
mod suggestion;
pub mod text_forms;
mod trust;
mod word_index;

pub use catalogue::{CatalogueName, InputKind, PathAccess};
#[cfg(feature = "analysis")]
pub use command_paths::HostPaths;
pub(crate) use evaluate::Explain;
pub use evaluate::{Call, Decision, DefaultSource, HOOK_REJECTION_MESSAGE};
pub use examples::{ExampleFailure, ExampleInput, ExampleKind, RuleExamples};
pub use gates::{Condition, Gate};
pub use items::{ItemKind, ItemVerdict};
pub(crate) use options::too_broad_dir;
pub use options::{common_parent_suggestion, ChangeKey, OptionKind, PermissionOption, SettingsChange, SuggestionForm};
pub use protected::ProtectedPath;
pub use reason::Reason;
pub use rules::{ListKind, MatcherKind, RuleRef};
pub use suggestion::Suggestion;
pub use trust::Ignored;

use message_template::MessageTemplate;
use rules::{compile_rule, RuleSet};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a rule, gate or default says about a call; ordered from most to least permissive, so
/// the stricter of two outcomes is their maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Outcome {
    /// The call runs.
    Allow,
    /// The user is asked.
    Confirm,
    /// The call is refused.
    Deny,
}

/// A hook's answer about one call (Cursor's hooks, in its approval-flow design): `reject` refuses the call before
/// anything else is looked at; `ask` makes a call that would run ask instead; `allow` never
/// lifts anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum HookResult {
    /// The hook has no objection (it never lifts a requirement).
    Allow,
    /// The user must approve the call, even where it would have run.
    Ask,
    /// The call is refused before anything else is checked.
    Reject,
}

/// The kind of a layer, for explanations and for where "always allow" writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum LayerKind {
    /// Shipped defaults (for example Zed's default deny rules).
    Defaults,
    /// Set by an administrator.
    Managed,
    /// The user's own settings.
    #[default]
    User,
    /// A project's (workspace's) settings.
    Project,
    /// An agent mode's restrictions.
    Mode,
}

/// One rule: exactly one matcher field is set.
///
/// - `pattern` (+ `caseSensitive`): a regular expression searched anywhere in the item (Zed).
/// - `prefix`: a command prefix matched on word boundaries (`git` covers `git log`, not `gitx`).
/// - `mcp`: an MCP allowlist entry `server:tool`, either side `*`, exact and case-sensitive.
/// - `toolAction`: a Gasoline pattern `*`, `tool.*` or `tool.action`, case-insensitive.
/// - `glob`: a command glob (Claude Code's `Bash(…)`): `*` is any text, spaces included; a
///   trailing ` *` that is the only `*` also matches the bare command; a trailing `:*` is ` *`.
/// - `tokens`: a token prefix (Codex's `prefix_rule`): positions separated by spaces,
///   alternatives by `|` (`git status|log`), matched against the command's unquoted words.
/// - `path` (+ `root`): a gitignore-style path pattern (`*`, `?`, `[…]`, `**`), absolute or
///   relative to `root`, the absolute directory relative call paths are resolved against.
/// - `domain`: a domain glob matched against a URL's host (`*.example.com`: any subdomain, not
///   the apex; another `*` stays within a label; case-insensitive).
///
/// A rule with none or several of them is invalid: it is reported and fails closed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuleSpec {
    /// A regular expression, searched anywhere in the item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// For `pattern`: default false (case-insensitive).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub case_sensitive: bool,
    /// A command prefix, matched on word boundaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// An MCP allowlist entry `server:tool`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<String>,
    /// A Gasoline `tool.action` pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_action: Option<String>,
    /// A command glob (Claude Code's `Bash(…)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glob: Option<String>,
    /// A token prefix with alternatives (Codex's `prefix_rule`): `git status|log`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<String>,
    /// A gitignore-style path pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// For `path`: the absolute directory a relative pattern and relative call paths are read
    /// against (the working directory). Without it, an absolute pattern never meets a relative
    /// path: an allow rule does not match, a deny or confirm rule does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// A domain glob for URLs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Calls the rule must and must not decide, checked when the policy is built
    /// ([`Policy::example_failures`]).
    #[serde(default, skip_serializing_if = "RuleExamples::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub examples: RuleExamples,
    /// Only a person may approve a call this rule makes ask: a session never hands it to an
    /// automatic reviewer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub human: bool,
}

impl RuleSpec {
    /// A regex rule.
    pub fn regex(pattern: impl Into<String>, case_sensitive: bool) -> Self {
        RuleSpec { pattern: Some(pattern.into()), case_sensitive, ..RuleSpec::default() }
    }

    /// A command-prefix rule.
    pub fn prefix(prefix: impl Into<String>) -> Self {
        RuleSpec { prefix: Some(prefix.into()), ..RuleSpec::default() }
    }

    /// An MCP `server:tool` entry.
    pub fn mcp(entry: impl Into<String>) -> Self {
        RuleSpec { mcp: Some(entry.into()), ..RuleSpec::default() }
    }

    /// A Gasoline `tool.action` pattern.
    pub fn tool_action(pattern: impl Into<String>) -> Self {
        RuleSpec { tool_action: Some(pattern.into()), ..RuleSpec::default() }
    }

    /// A command-glob rule.
    pub fn glob(glob: impl Into<String>) -> Self {
        RuleSpec { glob: Some(glob.into()), ..RuleSpec::default() }
    }

    /// A token-prefix rule (`git status|log`).
    pub fn tokens(tokens: impl Into<String>) -> Self {
        RuleSpec { tokens: Some(tokens.into()), ..RuleSpec::default() }
    }

    /// A path-pattern rule, relative patterns and paths read against `root`.
    pub fn path(pattern: impl Into<String>, root: Option<String>) -> Self {
        RuleSpec { path: Some(pattern.into()), root, ..RuleSpec::default() }
    }

    /// A domain-glob rule.
    pub fn domain(domain: impl Into<String>) -> Self {
        RuleSpec { domain: Some(domain.into()), ..RuleSpec::default() }
    }

    /// The rule's text as a user wrote it, whatever its kind.
    pub fn text(&self) -> &str {
        MatcherKind::ALL.iter().find_map(|(kind, _)| kind.text_in(self)).unwrap_or_default()
    }
}

/// The rules one layer sets for one tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ToolRulesSpec {
    /// What the tool does when no rule settles a call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Outcome>,
    /// Rules that let a call run when they cover every item.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_allow: Vec<RuleSpec>,
    /// Rules that refuse a call when any item matches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_deny: Vec<RuleSpec>,
    /// Rules that make a call ask when any item matches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_confirm: Vec<RuleSpec>,
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

/// One settings layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LayerSpec {
    /// The layer's name, which explanations and settings changes refer to.
    pub name: String,
    /// What kind of layer it is (shipped defaults, managed, user, project, mode). Default: user.
    #[serde(default)]
    pub kind: LayerKind,
    /// False for a layer the user has not trusted yet (a cloned project's settings): it may add
    /// deny and confirm rules and stricter defaults, but its allow rules and any default that
    /// would allow are ignored, and decisions say so. Default: true.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub trusted: bool,
    /// The layer's global default, used for tools without a `defaultMode` of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_mode: Option<Outcome>,
    /// Keyed by tool id: `terminal`, `edit_file`, …, or `mcp__<server>__<tool>`.
    #[serde(default)]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, ToolRulesSpec>"))]
    pub tools: BTreeMap<String, ToolRulesSpec>,
    /// Paths whose writes always ask, beyond the built-in control plane ([`protected`]): path
    /// patterns matched at any depth (or from `/` when absolute), in every platform's spelling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub protected_paths: Vec<String>,
    /// Built-in protected entries to lift, by their pattern (`.env`). Only a trusted managed
    /// layer may; from any other layer they are ignored, and decisions say so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub unprotected_paths: Vec<String>,
}

/// A layer's tools from `(tool, rules)` pairs, inserted one at a time (a later pair for the same
/// tool wins, as with `collect`): collecting into a `BTreeMap` sorts the pairs first, and each
/// sort it instantiates adds several KB to the .wasm.
pub(crate) fn tool_map(pairs: impl IntoIterator<Item = (String, ToolRulesSpec)>) -> BTreeMap<String, ToolRulesSpec> {
    let mut tools = BTreeMap::new();
    for (tool, rules) in pairs {
        tools.insert(tool, rules);
    }
    tools
}

impl Default for LayerSpec {
    fn default() -> Self {
        LayerSpec {
            name: String::new(),
            kind: LayerKind::User,
            trusted: true,
            default_mode: None,
            tools: BTreeMap::new(),
            protected_paths: Vec::new(),
            unprotected_paths: Vec::new(),
        }
    }
}

/// What to do with a terminal command whose text is not what runs ($VAR, $(…), …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SubstitutionPolicy {
    /// Allow rules never cover it, and it asks when the tool has deny or confirm rules.
    #[default]
    Confirm,
    /// Denied unless the tool is allowed unconditionally (Zed's behaviour).
    Deny,
}

/// What an invalid rule does to its tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum InvalidPatternPolicy {
    /// An invalid deny rule denies the tool, an invalid confirm rule makes it ask;
    /// an invalid allow rule allows nothing.
    #[default]
    FailClosed,
    /// Any invalid rule denies the tool (Zed's behaviour).
    BlockTool,
}

/// What to do with a command line the shell analysis cannot vouch for (it does not parse, or
/// uses syntax that is not modelled), when the tool has allow rules that might otherwise apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum UnparsedPolicy {
    /// Allow rules are off for the line; deny and confirm rules still see it.
    #[default]
    Confirm,
    /// The call is denied (Zed's behaviour).
    Deny,
}

/// A whole policy, as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PolicySpec {
    /// Highest authority first: later layers may override defaults but never weaken deny or confirm.
    #[serde(default)]
    pub layers: Vec<LayerSpec>,
    /// Used when no layer sets a default. Default: confirm.
    #[serde(default = "confirm")]
    pub default_mode: Outcome,
    /// Legacy: a fallback of "confirm" becomes "allow". Deny and confirm rules still win.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub always_allow_tool_actions: bool,
    /// How to treat a terminal command whose text is not what runs (`$VAR`, `$(…)`).
    #[serde(default)]
    pub substitutions: SubstitutionPolicy,
    /// What an invalid rule does to its tool.
    #[serde(default)]
    pub invalid_patterns: InvalidPatternPolicy,
    /// How to treat a command line the shell analysis cannot vouch for.
    #[serde(default)]
    pub unparsed_commands: UnparsedPolicy,
    /// The shipped catalogue of tools the policy starts from. Default: `zed`.
    #[serde(default)]
    pub catalogue: CatalogueName,
    /// Tools added to the catalogue or described differently: tool id → input kind.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, InputKind>"))]
    pub tool_kinds: BTreeMap<String, InputKind>,
    /// The form of "always allow" suggestions for commands. Default: regex.
    #[serde(default)]
    pub suggest: SuggestionForm,
    /// The decision procedure, in order; absent for the standard one (hard-coded denials > invalid
    /// rules > deny > confirm > allow, shaped by the switches above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gates: Option<Vec<Gate>>,
    /// Shipped rule sets included as layers of their own after `layers` (see [`crate::presets`]):
    /// `readOnlyCommands`, `dangerousCommands`. Their rules apply to every POSIX command tool.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub presets: Vec<presets::Preset>,
    /// Where commands run: the home directory and working directory, so that `~`, `$HOME`,
    /// `$PWD` and relative paths in command lines meet the path rules of the path tools.
    #[cfg(feature = "analysis")]
    #[serde(default, skip_serializing_if = "HostPaths::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub host: HostPaths,
    /// The JSON Schema the file follows (`toolgate/policy.schema.json`), for editors: kept and
    /// written back, never read by the engine.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub schema: Option<String>,
}

fn confirm() -> Outcome {
    Outcome::Confirm
}

impl Default for PolicySpec {
    fn default() -> Self {
        PolicySpec {
            layers: Vec::new(),
            default_mode: Outcome::Confirm,
            always_allow_tool_actions: false,
            substitutions: SubstitutionPolicy::Confirm,
            invalid_patterns: InvalidPatternPolicy::FailClosed,
            unparsed_commands: UnparsedPolicy::Confirm,
            catalogue: CatalogueName::Zed,
            tool_kinds: BTreeMap::new(),
            suggest: SuggestionForm::Regex,
            gates: None,
            presets: Vec::new(),
            #[cfg(feature = "analysis")]
            host: HostPaths::default(),
            schema: None,
        }
    }
}

/// A rule that cannot be used: where it is and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct InvalidPattern {
    /// The layer the rule is in.
    pub layer: String,
    /// The tool the rule is for.
    pub tool: String,
    /// The list the rule is in.
    pub list: ListKind,
    /// Position of the rule in that list.
    pub index: usize,
    /// The rule's text as written.
    pub pattern: String,
    /// Why the rule cannot be used.
    pub error: String,
}

impl InvalidPattern {
    /// Where the rule sits in the policy spec, as a JSON path.
    pub fn path(&self, layer_index: usize) -> String {
        format!("layers[{layer_index}].tools.{}.{}[{}]", self.tool, self.list.spec_key(), self.index)
    }
}

/// Everything the policy says about one tool, united across layers.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolIndex {
    pub deny: RuleSet,
    pub confirm: RuleSet,
    pub allow: RuleSet,
    /// The default from the last trusted layer that sets one, with that layer's name.
    pub default_mode: Option<(Outcome, String)>,
    pub invalid: Vec<InvalidPattern>,
    /// Settings of untrusted layers that were ignored for this tool.
    pub ignored: Vec<Ignored>,
}

impl ToolIndex {
    fn list(&mut self, kind: ListKind) -> &mut RuleSet {
        match kind {
            ListKind::AlwaysAllow => &mut self.allow,
            ListKind::AlwaysDeny => &mut self.deny,
            ListKind::AlwaysConfirm => &mut self.confirm,
        }
    }

    pub fn has_restrictions(&self) -> bool {
        !self.deny.is_empty() || !self.confirm.is_empty() || self.invalid.iter().any(|p| p.list != ListKind::AlwaysAllow)
    }
}

/// A policy compiled for deciding: build once, decide many calls.
#[derive(Debug, Clone)]
pub struct Policy {
    spec: PolicySpec,
    tools: FxHashMap<String, ToolIndex>,
    kinds: FxHashMap<String, InputKind>,
    gates: Vec<Gate>,
    /// Each gate's message, its placeholders found once.
    gate_messages: Vec<Option<MessageTemplate>>,
    /// The global default from the last trusted layer that sets one.
    layer_default: Option<(Outcome, String)>,
    invalid: Vec<InvalidPattern>,
    /// Global settings of untrusted layers that were ignored.
    ignored: Vec<Ignored>,
    /// Examples of the spec's rules that were not decided as their rule says.
    example_failures: Vec<ExampleFailure>,
    /// The control plane: paths whose writes always ask. A build without the analysis (the MCP
    /// entry's) decides no path tool through its bindings and carries no list: there a write a
    /// default would allow asks.
    #[cfg(feature = "analysis")]
    protected: protected::ProtectedPaths,
    /// Path tools with deny or confirm rules, and what they do with a path: their rules also
    /// meet the paths a command line names.
    #[cfg(feature = "shell")]
    path_rule_tools: Vec<(String, Option<PathAccess>)>,
}

impl Policy {
    /// Compiles every rule. Invalid rules never fail the load: they are reported by
    /// [`Policy::invalid_patterns`] and make their tool fail closed. The spec's `presets` are
    /// added as layers after its own; the `examples` of the spec's rules are then checked
    /// against the built policy ([`Policy::example_failures`]) — only rules that carry some.
    pub fn new(spec: PolicySpec) -> Self {
        let mut tools: FxHashMap<String, ToolIndex> = FxHashMap::default();
        let mut layer_default = None;
        let mut invalid = Vec::new();
        let mut ignored = Vec::new();
        let mut kinds = catalogue::tools(spec.catalogue);
        kinds.extend(spec.tool_kinds.iter().map(|(tool, kind)| (tool.clone(), *kind)));
        // Presets are layers of their own after the spec's; their examples are the presets' own
        // tests (src/policy/presets), so only the spec's rules are self-tested here.
        // Presets hold rules for command-line tools only, and a build without the shell analysis
        // asks on every command line whatever its rules say: leaving them out loosens nothing.
        #[cfg(feature = "shell")]
        let preset_layers = presets::layers_for(&spec.presets, &kinds);
        #[cfg(not(feature = "shell"))]
        let preset_layers: Vec<LayerSpec> = Vec::new();
        let mut with_examples = Vec::new();
        for (layer_index, layer) in spec.layers.iter().chain(preset_layers.iter()).enumerate() {
            if let Some(mode) = layer.default_mode {
                let current = layer_default.as_ref().map_or(spec.default_mode, |(m, _)| *m);
                match trust::admit_default(layer, None, mode, current) {
                    Ok(()) => layer_default = Some((mode, layer.name.clone())),
                    Err(note) => ignored.push(note),
                }
            }
            for (tool, rules) in &layer.tools {
                let index = tools.entry(tool.clone()).or_default();
                if let Some(mode) = rules.default_mode {
                    let current = index.default_mode.as_ref().or(layer_default.as_ref()).map_or(spec.default_mode, |(m, _)| *m);
                    match trust::admit_default(layer, Some(tool), mode, current) {
                        Ok(()) => index.default_mode = Some((mode, layer.name.clone())),
                        Err(note) => index.ignored.push(note),
                    }
                }
                for (kind, list) in [
                    (ListKind::AlwaysDeny, &rules.always_deny),
                    (ListKind::AlwaysConfirm, &rules.always_confirm),
                    (ListKind::AlwaysAllow, &rules.always_allow),
                ] {
                    if kind == ListKind::AlwaysAllow && !layer.trusted && !list.is_empty() {
                        index.ignored.push(trust::ignored_allow_rules(layer, tool, list.len()));
                        continue;
                    }
                    for (i, rule) in list.iter().enumerate() {
                        if !rule.examples.is_empty() && layer_index < spec.layers.len() {
                            with_examples.push((examples::ExamplesAt { layer_index, list: kind, index: i }, tool.clone()));
                        }
                        let origin = RuleRef {
                            layer: layer.name.clone(),
                            tool: tool.clone(),
                            list: kind,
                            index: i,
                            matcher: MatcherKind::of(rule),
                            pattern: rule.text().to_owned(),
                        };
                        match compile_rule(rule).map(|matcher| matcher.for_list(kind)) {
                            Ok(matcher) => index.list(kind).push(matcher, origin),
                            Err(error) => {
                                let bad = InvalidPattern {
                                    layer: layer.name.clone(),
                                    tool: tool.clone(),
                                    list: kind,
                                    index: i,
                                    pattern: rule.text().to_owned(),
                                    error,
                                };
                                index.invalid.push(bad.clone());
                                invalid.push(bad);
                            }
                        }
                    }
                }
            }
        }
        let gates = spec.gates.clone().unwrap_or_else(|| gates::standard(&spec));
        let gate_messages = gates.iter().map(|g| g.message.as_deref().map(MessageTemplate::parse)).collect();
        #[cfg(feature = "analysis")]
        let protected = {
            let (protected, lift_notes) = protected::ProtectedPaths::of(&spec.layers);
            ignored.extend(lift_notes);
            protected
        };
        #[cfg(feature = "shell")]
        let mut path_rule_tools: Vec<(String, Option<PathAccess>)> = tools
            .iter()
            .filter(|(_, index)| index.has_restrictions())
            .filter_map(|(tool, _)| match kinds.get(tool) {
                Some(InputKind::Path { access }) => Some((tool.clone(), Some(*access))),
                Some(InputKind::PathPair) => Some((tool.clone(), None)),
                _ => None,
            })
            .collect();
        #[cfg(feature = "shell")]
        path_rule_tools.sort_by(|a, b| a.0.cmp(&b.0));
        let policy = Policy {
            spec,
            tools,
            kinds,
            gates,
            gate_messages,
            layer_default,
            invalid,
            ignored,
            example_failures: Vec::new(),
            #[cfg(feature = "analysis")]
            protected,
            #[cfg(feature = "shell")]
            path_rule_tools,
        };
        policy.with_examples_checked(&with_examples)
    }

    /// The policy with its rules' examples checked against it. Deciding a command example needs
    /// the shell analysis; a build without it (the settings page's validator, which never reports
    /// examples) does not check them.
    #[cfg(feature = "shell")]
    fn with_examples_checked(mut self, places: &[(examples::ExamplesAt, String)]) -> Self {
        if !places.is_empty() {
            self.example_failures = examples::check(&self, places);
        }
        self
    }

    #[cfg(not(feature = "shell"))]
    fn with_examples_checked(self, _places: &[(examples::ExamplesAt, String)]) -> Self {
        self
    }

    /// The examples of the spec's rules that the policy does not decide as their rule says
    /// (a `match` example another rule or a default decides, a `notMatch` example the rule
    /// decides), each with its place and what was decided instead. They never fail the build.
    pub fn example_failures(&self) -> &[ExampleFailure] {
        &self.example_failures
    }

    /// The policy as data.
    pub fn spec(&self) -> &PolicySpec {
        &self.spec
    }

    /// Every rule that did not compile, with its layer, tool, list, index and error.
    pub fn invalid_patterns(&self) -> &[InvalidPattern] {
        &self.invalid
    }

    /// How the policy reads a tool's input: from the catalogue, else opaque.
    pub fn input_kind(&self, tool: &str) -> InputKind {
        self.kinds.get(tool).copied().unwrap_or(InputKind::Opaque)
    }

    pub(crate) fn tool(&self, tool: &str) -> Option<&ToolIndex> {
        self.tools.get(tool)
    }

    /// The host's home directory, when the policy says.
    pub(crate) fn host_home(&self) -> Option<&str> {
        #[cfg(feature = "analysis")]
        return self.host().home.as_deref();
        #[cfg(not(feature = "analysis"))]
        None
    }

    /// Where the host says commands run.
    #[cfg(feature = "analysis")]
    pub(crate) fn host(&self) -> &HostPaths {
        &self.spec.host
    }

    pub(crate) fn gates(&self) -> &[Gate] {
        &self.gates
    }

    /// The gates' messages, in the gates' order.
    pub(crate) fn gate_messages(&self) -> &[Option<MessageTemplate>] {
        &self.gate_messages
    }

    pub(crate) fn ignored_globally(&self) -> &[Ignored] {
        &self.ignored
    }

    /// The fallback for a tool: its own default, else the layers' global default, else the policy's.
    /// Whether the tool is allowed unconditionally: no deny or confirm rules and an allowing default.
    pub(crate) fn allows_everything(&self, tool: Option<&ToolIndex>) -> bool {
        !tool.is_some_and(ToolIndex::has_restrictions) && self.default_for(tool).0 == Outcome::Allow
    }

    pub(crate) fn default_for(&self, tool: Option<&ToolIndex>) -> (Outcome, DefaultSource) {
        if let Some((mode, layer)) = tool.and_then(|t| t.default_mode.clone()) {
            return (mode, DefaultSource::Tool { layer });
        }
        if let Some((mode, layer)) = self.layer_default.clone() {
            return (mode, DefaultSource::Global { layer: Some(layer) });
        }
        (self.spec.default_mode, DefaultSource::Global { layer: None })
    }
}

// The differential tests, beside the unit tests: each matcher against a reference of its own.
#[cfg(test)]
#[path = "tests/matcher_kinds_differential.rs"]
mod matcher_kinds_differential;
#[cfg(test)]
#[path = "tests/regex_rules_differential.rs"]
mod regex_rules_differential;
#[cfg(test)]
mod tests;
