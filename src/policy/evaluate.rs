//! The one evaluator: hard-coded denies > invalid patterns > deny > confirm > allow > defaults.
//!
//! A call is turned into *items*: a terminal command into its sub-commands (see
//! [`crate::shell`]), a path into the path as written and normalised, anything else into its
//! input. Deny if any item matches a deny rule; confirm if any matches a confirm rule; allow
//! only if every item matches an allow rule and nothing stands in the way (a hazard, or a line
//! the parser cannot vouch for). Every decision names the rule, layer and item behind it.

use super::hardcoded;
use super::path::normalize_path;
use super::rules::RuleRef;
use super::{InvalidPattern, InvalidPatternPolicy, ListKind, Mode, Policy, ShellKind, SubstitutionPolicy, ToolIndex};
use crate::shell::{self, Context, Hazard, ItemKind};
use serde::Serialize;

/// The answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Outcome {
    Allow,
    Confirm,
    Deny,
}

impl From<Mode> for Outcome {
    fn from(mode: Mode) -> Self {
        match mode {
            Mode::Allow => Outcome::Allow,
            Mode::Confirm => Outcome::Confirm,
            Mode::Deny => Outcome::Deny,
        }
    }
}

/// Which step decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Reason {
    /// A built-in rule no setting can lift (`rm -rf /` and kin).
    HardcodedDeny,
    /// A pattern of this tool does not compile, so the engine cannot be sure.
    InvalidPattern,
    /// The command's text is not what runs ($VAR, $(…)…) and the policy denies that.
    Substitution,
    /// The terminal's shell cannot be analysed, so allow rules for it are refused.
    UnsupportedShell,
    DenyRule,
    ConfirmRule,
    AllowRule,
    /// Allow rules could not vouch for the call (unparsed syntax, a substitution) while deny or
    /// confirm rules exist, so it asks instead of falling back to an allowing default.
    CannotVouch,
    ToolDefault,
    GlobalDefault,
    /// `always_allow_tool_actions` turned a fallback of confirm into allow.
    LegacyAlwaysAllow,
}

/// Where a default came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "scope", rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum DefaultSource {
    /// The tool's own `default_mode`, from this layer.
    Tool { layer: String },
    /// A layer's global default, or the policy's own when `layer` is absent.
    Global {
        #[serde(skip_serializing_if = "Option::is_none")]
        layer: Option<String>,
    },
}

/// What the evaluator saw for one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ItemVerdict {
    pub text: String,
    pub kind: ItemKind,
    pub context: Context,
    /// Why no allow rule may cover this item.
    pub hazards: Vec<Hazard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_by: Option<RuleRef>,
}

/// An explained decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Decision {
    pub outcome: Outcome,
    pub reason: Reason,
    /// One sentence naming the rule, layer and input behind the outcome.
    pub message: String,
    /// The deny or confirm rule that decided, or the first allow rule when all items were allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleRef>,
    /// The item (sub-command, path, URL…) the deciding rule matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_source: Option<DefaultSource>,
    /// Every item checked, with its hazards and the allow rule that covered it.
    pub items: Vec<ItemVerdict>,
    /// Why allow rules were off for the whole input, when they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot_vouch: Option<String>,
    /// This tool's patterns that did not compile.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub invalid_patterns: Vec<InvalidPattern>,
}

/// Tool ids whose input is a path, checked as written and normalised.
pub const PATH_TOOLS: [&str; 5] = ["edit_file", "delete_path", "move_path", "create_directory", "save_file"];
pub const TERMINAL: &str = "terminal";

/// The items of one call, plus whatever stops allow rules for the whole call.
struct Items {
    list: Vec<ItemVerdict>,
    /// Extra texts checked against deny and confirm rules only (the raw command line).
    also_deny_checked: Vec<String>,
    cannot_vouch: Option<String>,
    has_expansion: bool,
}

fn plain_item(text: String) -> ItemVerdict {
    ItemVerdict { text, kind: ItemKind::Command, context: Context::TopLevel, hazards: Vec::new(), allowed_by: None }
}

impl Policy {
    /// Only the outcome: the same evaluation as [`Policy::decide`], cheaper to hand to JavaScript.
    pub fn outcome(&self, tool: &str, inputs: &[String]) -> Outcome {
        self.decide(tool, inputs).outcome
    }

    /// Decides one tool call. `inputs` is the command for `terminal`, the path(s) for path tools
    /// (`move_path`: source then destination), the URL for `fetch`, the query for `web_search`.
    pub fn decide(&self, tool: &str, inputs: &[String]) -> Decision {
        let index = self.tool(tool);
        let invalid_patterns = index.map(|t| t.invalid.clone()).unwrap_or_default();
        let decision = |outcome: Outcome, reason: Reason, message: String, items: Items| Decision {
            outcome,
            reason,
            message,
            rule: None,
            matched_input: None,
            default_source: None,
            items: items.list,
            cannot_vouch: items.cannot_vouch,
            invalid_patterns: invalid_patterns.clone(),
        };

        let (items, hard) = self.items_of(tool, inputs);
        if let Some(hit) = hard {
            let mut d = decision(Outcome::Deny, Reason::HardcodedDeny, format!("{} ({}: {})", hardcoded::MESSAGE, hit.item, hit.detail), items);
            d.matched_input = Some(hit.item);
            return d;
        }

        if let Some(tool_rules) = index {
            let blocking = match self.spec().invalid_patterns {
                InvalidPatternPolicy::BlockTool => tool_rules.invalid.first(),
                InvalidPatternPolicy::FailClosed => tool_rules.invalid.iter().find(|p| p.list == ListKind::AlwaysDeny),
            };
            if let Some(bad) = blocking {
                let message = format!(
                    "The {tool} tool cannot run because {} pattern(s) failed to compile; the first is {} pattern {} \"{}\" in layer \"{}\": {}",
                    tool_rules.invalid.len(), bad.list.settings_key(), bad.index, bad.pattern, bad.layer, bad.error
                );
                return decision(Outcome::Deny, Reason::InvalidPattern, message, items);
            }
        }

        if tool == TERMINAL && items.has_expansion && self.spec().substitutions == SubstitutionPolicy::Deny && !self.allows_everything(index) {
            let message = "The terminal command could not be approved because terminal does not allow shell substitutions or interpolations in permission-protected commands. Forbidden examples include $VAR, ${VAR}, $(...), backticks, $((...)), <(...), and >(...). Resolve those values before calling terminal, or ask the user for the literal value to use.".to_owned();
            return decision(Outcome::Deny, Reason::Substitution, message, items);
        }

        if tool == TERMINAL && self.spec().shell == ShellKind::Other && index.is_some_and(|t| !t.allow.is_empty()) {
            let message = "The shell does not support \"always allow\" patterns for the terminal tool because its command chaining syntax cannot be parsed. Remove the always_allow patterns for the terminal, or switch to a POSIX-conforming shell.".to_owned();
            return decision(Outcome::Deny, Reason::UnsupportedShell, message, items);
        }

        let Some(rules) = index else {
            return self.fall_back(tool, None, items, decision);
        };

        // Deny and confirm: any item, or the raw line.
        let first_hit = |set: &super::rules::RuleSet| {
            items
                .list
                .iter()
                .map(|i| i.text.as_str())
                .chain(items.also_deny_checked.iter().map(String::as_str))
                .find_map(|text| set.first_match(text).map(|r| (r.origin.clone(), text.to_owned())))
        };
        if let Some((rule, text)) = first_hit(&rules.deny) {
            let message = format!("Denied by {} rule {} \"{}\" of layer \"{}\", which matched \"{}\"", rule.list.settings_key(), rule.index, rule.pattern, rule.layer, text);
            let mut d = decision(Outcome::Deny, Reason::DenyRule, message, items);
            d.matched_input = Some(text);
            d.rule = Some(rule);
            return d;
        }
        let confirmed = first_hit(&rules.confirm);

        // Allow: every item, none with a hazard, and a line the parser vouches for.
        let mut items = items;
        let mut all_allowed = !items.list.is_empty() && items.cannot_vouch.is_none();
        for item in &mut items.list {
            item.allowed_by = if item.hazards.is_empty() { rules.allow.first_match(&item.text).map(|r| r.origin.clone()) } else { None };
            all_allowed &= item.allowed_by.is_some();
        }

        if let Some((rule, text)) = confirmed {
            let message = format!("Needs confirmation: {} rule {} \"{}\" of layer \"{}\" matched \"{}\"", rule.list.settings_key(), rule.index, rule.pattern, rule.layer, text);
            let mut d = decision(Outcome::Confirm, Reason::ConfirmRule, message, items);
            d.matched_input = Some(text);
            d.rule = Some(rule);
            return d;
        }
        if tool_invalid_confirm(rules) {
            let message = format!("The {tool} tool has an always_confirm pattern that failed to compile, so every call asks");
            return decision(Outcome::Confirm, Reason::InvalidPattern, message, items);
        }
        if all_allowed {
            let rule = items.list.first().and_then(|i| i.allowed_by.clone());
            let message = match (&rule, items.list.len()) {
                (Some(r), 1) => format!("Allowed by always_allow rule {} \"{}\" of layer \"{}\"", r.index, r.pattern, r.layer),
                (_, n) => format!("Allowed: each of the {n} parts matched an always_allow rule"),
            };
            let mut d = decision(Outcome::Allow, Reason::AllowRule, message, items);
            d.rule = rule;
            return d;
        }
        self.fall_back(tool, Some(rules), items, decision)
    }

    /// Whether the tool is allowed unconditionally: no deny or confirm rules and an allowing default.
    fn allows_everything(&self, tool: Option<&ToolIndex>) -> bool {
        !tool.is_some_and(ToolIndex::has_restrictions) && self.default_for(tool).0 == Mode::Allow
    }

    fn fall_back(
        &self,
        tool: &str,
        rules: Option<&ToolIndex>,
        items: Items,
        mut decision: impl FnMut(Outcome, Reason, String, Items) -> Decision,
    ) -> Decision {
        let (mode, source) = self.default_for(rules);
        let unsure = items.cannot_vouch.is_some() || items.has_expansion;
        let restricted = rules.is_some_and(ToolIndex::has_restrictions);
        let (outcome, reason, message) = match mode {
            Mode::Confirm if self.spec().always_allow_tool_actions => {
                (Outcome::Allow, Reason::LegacyAlwaysAllow, "Allowed by always_allow_tool_actions (no rule matched)".to_owned())
            }
            _ => {
                let reason = if matches!(source, DefaultSource::Tool { .. }) { Reason::ToolDefault } else { Reason::GlobalDefault };
                let from = match &source {
                    DefaultSource::Tool { layer } => format!("the {tool} tool's default_mode in layer \"{layer}\""),
                    DefaultSource::Global { layer: Some(layer) } => format!("the global default of layer \"{layer}\""),
                    DefaultSource::Global { layer: None } => "the policy's default".to_owned(),
                };
                let verb = match mode {
                    Mode::Allow => "Allowed",
                    Mode::Confirm => "Needs confirmation",
                    Mode::Deny => "Denied",
                };
                (Outcome::from(mode), reason, format!("{verb} by {from}: {}", uncovered(rules, &items)))
            }
        };
        // Never let a fallback allow what deny or confirm rules could not be checked against.
        if outcome == Outcome::Allow && unsure && restricted && self.spec().substitutions == SubstitutionPolicy::Confirm {
            let why = items.cannot_vouch.clone().unwrap_or_else(|| "the command's text is not what runs (a substitution or expansion)".into());
            let message = format!("Needs confirmation: the deny and confirm rules cannot be checked reliably ({why})");
            let mut d = decision(Outcome::Confirm, Reason::CannotVouch, message, items);
            d.default_source = Some(source);
            return d;
        }
        let mut d = decision(outcome, reason, message, items);
        d.default_source = Some(source);
        d
    }

    /// Turns a call into the items rules are matched against.
    fn items_of(&self, tool: &str, inputs: &[String]) -> (Items, Option<hardcoded::HardDenial>) {
        let mut items = Items { list: Vec::new(), also_deny_checked: Vec::new(), cannot_vouch: None, has_expansion: false };
        if tool == TERMINAL && self.spec().shell == ShellKind::Other {
            // Nothing is parsed: the raw command is the only item, and allow rules are off.
            items.list.extend(inputs.iter().cloned().map(plain_item));
            items.cannot_vouch = Some("the shell's syntax is not analysed".into());
            let hard = inputs.iter().find_map(|input| hardcoded::check(input, &shell::ShellAnalysis { items: Vec::new(), cannot_vouch: None }));
            return (items, hard);
        }
        if tool == TERMINAL {
            let mut hard = None;
            for input in inputs {
                let analysis = shell::analyze(input);
                if hard.is_none() {
                    hard = hardcoded::check(input, &analysis);
                }
                items.has_expansion |= analysis.has_expansion();
                if items.cannot_vouch.is_none() {
                    items.cannot_vouch = analysis.cannot_vouch.clone();
                }
                items.list.extend(analysis.items.into_iter().map(|i| ItemVerdict {
                    text: i.text,
                    kind: i.kind,
                    context: i.context,
                    hazards: i.hazards,
                    allowed_by: None,
                }));
                items.also_deny_checked.push(input.clone());
            }
            return (items, hard);
        }
        for input in inputs {
            items.list.push(plain_item(input.clone()));
            if PATH_TOOLS.contains(&tool) {
                let normal = normalize_path(input);
                if normal != *input {
                    items.list.push(plain_item(normal));
                }
            }
        }
        (items, None)
    }
}

/// Why no allow rule settled the call: the parts left uncovered, and what stood in the way.
fn uncovered(rules: Option<&ToolIndex>, items: &Items) -> String {
    if rules.is_none() {
        return "the tool has no rules".to_owned();
    }
    let parts: Vec<String> = items
        .list
        .iter()
        .filter(|i| i.allowed_by.is_none())
        .map(|i| match i.hazards.first() {
            Some(h) => format!("\"{}\" ({})", i.text, h.why),
            None => format!("\"{}\"", i.text),
        })
        .collect();
    match (&items.cannot_vouch, parts.is_empty()) {
        (Some(why), _) => format!("allow rules are off for this input ({why})"),
        (None, true) => "no rule matched".to_owned(),
        (None, false) => format!("not covered by an allow rule: {}", parts.join(", ")),
    }
}

fn tool_invalid_confirm(rules: &ToolIndex) -> bool {
    rules.invalid.iter().any(|p| p.list == ListKind::AlwaysConfirm)
}
