//! The one evaluator: every dialect's decision comes from [`Policy::decide_call`].
//!
//! # Order
//! Each step is one function of [`Policy`] (or of this module) named in brackets.
//! 0. A path tool's input that is not in normal form is decided as written and as the path it
//!    names, and the stricter decision stands ([`Policy::evaluate`]).
//! 1. A hook that rejected the call refuses it ([`Policy::before_the_rules`]).
//! 2. An input longer than the budget ([`crate::limits::MAX_INPUT_BYTES`]) is not read: it asks,
//!    or is refused where the tool's default refuses (`over_budget`, `before_the_rules`).
//! 3. A build without the shell analysis (the MCP entry's) asks for a command line, unread
//!    (`before_the_rules`). Otherwise the call's items are read: sub-commands and what each runs,
//!    paths, the secret files they name ([`super::items`]).
//! 4. The policy's gates, in order; the first whose condition holds decides (`run_gates`; see
//!    [`super::gates`]; the standard order is hard-coded denials > invalid rules > deny >
//!    confirm > allow).
//! 5. A confirm rule or invalid rule of an untrusted layer never lowers what the default would
//!    decide (`settle`).
//! 6. Otherwise the defaults: the tool's, else the layers' global one, else the policy's — but a
//!    fallback never allows what deny or confirm rules could not be checked against (a line not
//!    vouched for, a substitution, a program the text does not show) while the tool has them
//!    (`settle`, `fall_back`).
//! 7. The paths the call names can only make it stricter: a path tool's deny or confirm rule
//!    meeting a path a command line reads or writes, and a write to a protected path
//!    (`stricter_by_named_paths`).
//! 8. A hook that asked turns an allow into a question (`hook_asks`).
//! 9. The explanation, at the level asked for (`explained`).
//!
//! Every decision names the gate's reason, the rule and layer, and the part of the input matched.

use super::catalogue::InputKind;
use super::gates::{self, Condition, Hit};
use super::items::{self, ItemVerdict, Items};
use super::message_template::MessageTemplate;
use super::reason::Reason;
use super::rules::{RuleRef, RuleSet};
use super::suggestion::Suggestion;
use super::trust::Ignored;
use super::{hardcoded, HookResult, InvalidPattern, Outcome, Policy, ToolIndex};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What the model is told when a hook rejected its call (Cursor's approval-flow design).
pub const HOOK_REJECTION_MESSAGE: &str =
    "The terminal command was rejected by a hook that prevents execution of this command. Do not attempt to work around this restriction.";

/// One tool call to decide.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Call {
    /// The tool's id, as the catalogue names it (`terminal`, `edit_file`, `mcp`, …).
    pub tool: String,
    /// The command, path(s), URL, query, or `[server, tool]` — as the tool's input kind says.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// An external hook's answer about this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<HookResult>,
}

impl Call {
    /// A call of `tool` with these inputs and no hook answer.
    pub fn new(tool: &str, inputs: &[&str]) -> Self {
        Call { tool: tool.to_owned(), inputs: inputs.iter().map(|s| (*s).to_owned()).collect(), hook: None }
    }
}

/// Where a default came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "scope", rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum DefaultSource {
    /// The tool's own `default_mode`, from this layer.
    Tool {
        /// The layer whose setting applied.
        layer: String,
    },
    /// A layer's global default, or the policy's own when `layer` is absent.
    Global {
        /// The layer whose global default applied; absent for the policy's own.
        #[serde(skip_serializing_if = "Option::is_none")]
        layer: Option<String>,
    },
}

/// The answer, the same for every dialect.
///
/// JavaScript receives it through `bindings::tape::decision_to_js`, which writes it (and its items,
/// rule references and suggestions) field by field: a new field goes there too (a wasm test fails
/// until it does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Decision {
    /// Whether the call runs, asks or is refused.
    pub outcome: Outcome,
    /// The gate or default that decided.
    pub reason: Reason,
    /// One sentence naming the rule, layer and input behind the outcome.
    pub message: String,
    /// The rule that decided, or the first allow rule when all items were allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "RuleRef", optional))]
    pub rule: Option<Arc<RuleRef>>,
    /// The item (sub-command, path, URL…) the deciding rule or gate matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_input: Option<String>,
    /// The protected-path entry that made the call ask, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub protected_path: Option<super::ProtectedPath>,
    /// Where the default came from, when a default decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_source: Option<DefaultSource>,
    /// Every item checked, with its hazards and the allow rule that covered it.
    pub items: Vec<ItemVerdict>,
    /// Why allow rules were off for the whole input, when they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot_vouch: Option<String>,
    /// This tool's rules that did not compile.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub invalid_patterns: Vec<InvalidPattern>,
    /// Rules that would cover what no allow rule covered, when allow rules were tried and fell short.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub suggestions: Vec<Suggestion>,
    /// Settings of untrusted layers that were ignored for this call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub ignored: Vec<Ignored>,
}

impl Decision {
    /// Whether a person may approve this call only once: it reads a secret file, or it holds a
    /// character a person cannot see or that reorders what is shown, so what they read in the
    /// prompt is not what a lasting rule would keep allowing.
    pub(crate) fn approvable_only_once(&self, inputs: &[String]) -> bool {
        self.items
            .iter()
            .any(|i| !i.secret_words.is_empty() || i.hazards.iter().any(|h| h.kind == crate::shell::HazardKind::HiddenCharacters))
            || inputs.iter().any(|input| crate::visible::has_hidden(input))
    }
}

/// How much of the explanation an evaluation writes. The outcome, reason, rule and items are the
/// same at every level (a test compares them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Explain {
    /// Only what decides: no message, suggestions or notes.
    Nothing,
    /// The message and notes, but no "always allow" suggestions (for answers that carry their own,
    /// such as Cursor's allowlist candidates).
    WithoutSuggestions,
    /// Everything.
    Full,
}

/// Where evaluation stood when something decided.
struct Finding<'p> {
    outcome: Outcome,
    reason: Reason,
    message: Message<'p>,
    hit: Hit,
    default_source: Option<DefaultSource>,
}

/// What the paths a call names make stricter: a path tool's deny or confirm rule meeting a path a
/// command line names, or a write to a protected path.
struct PathFinding {
    outcome: Outcome,
    reason: Reason,
    message: String,
    hit: Hit,
    protected: Option<super::ProtectedPath>,
}

/// A decision's message before it is needed: made only when the decision is explained.
enum Message<'p> {
    /// The standard explanation of the reason.
    Standard,
    /// A gate's template, filled from what the condition found.
    Template(&'p MessageTemplate),
    /// Already written.
    Text(String),
}

/// Step 2's budget: why an input is too long to analyse (MCP names have a limit of their own, 256
/// UTF-16 units: a longer one is an invalid name, not an input over the budget).
fn over_budget(kind: InputKind, inputs: &[String]) -> Option<String> {
    if kind == InputKind::McpCall {
        return None;
    }
    inputs.iter().find_map(|input| crate::limits::input_too_large(input))
}

/// Step 8: a hook that asked turns a decision that would run into a question.
fn hook_asks(finding: Finding<'_>, hook: Option<HookResult>) -> Finding<'_> {
    if finding.outcome == Outcome::Allow && hook == Some(HookResult::Ask) {
        return Finding { outcome: Outcome::Confirm, reason: Reason::HookAsked, ..finding };
    }
    finding
}

/// The first item (or raw line) a rule set matches: each item as written, then each of its
/// forms (what it runs past wrappers, a path or its assignments), then the raw lines.
fn first_hit(set: &RuleSet, items: &Items) -> Option<Hit> {
    for item in &items.list {
        if let Some(rule) = set.first_match(&item.subject()) {
            return Some(Hit { item: Some(item.text.clone()), rule: Some(rule.origin.clone()), detail: None });
        }
        for form in &item.runs_as {
            if let Some(rule) = set.first_match(&ItemVerdict::form_subject(form)) {
                // The detail names the item as written, which the message quotes beside the form.
                return Some(Hit { item: Some(form.text.clone()), rule: Some(rule.origin.clone()), detail: Some(item.text.clone()) });
            }
        }
    }
    items
        .also_deny_checked
        .iter()
        .find_map(|text| set.first_match(&super::rules::Subject::text(text)).map(|r| (r.origin.clone(), text.clone())))
        .map(|(rule, text)| Hit { item: Some(text), rule: Some(rule), detail: None })
}

/// Marks the items an allow rule covers; true when every item is covered and the line vouched for.
///
/// An item with a hazard is never covered, with one exception (Zed's): a leading assignment
/// (`PAGER=less git log`) is covered by a rule that spells it out — one that matches the command
/// with the assignment and not without it — and matches it because of what it runs: not the same
/// assignments before a command no rule names. So `^ls\b` does not cover `ls=x curl …` (VS Code's
/// terminal auto-approve tests hold this case), nor `^git\b` `git=1 sh -c id`.
///
/// An item that runs more than its text says (`sudo apt update`, `exec curl x`, `/usr/bin/git
/// status`) is covered only when each thing it runs is: by an allow rule of its own, or by the
/// covering rule spelling that program out (it matches no longer with the program's word
/// replaced). So `^sudo apt update$` covers `sudo apt update`, while `^exec\b` does not cover
/// `exec curl x`.
fn cover(items: &mut Items, allow: &RuleSet, commands_only: bool) -> bool {
    let mut all = !items.list.is_empty() && items.cannot_vouch.is_none();
    for item in &mut items.list {
        if commands_only && (item.kind != super::items::ItemKind::Command || item.name.is_none()) {
            all &= item.hazards.is_empty();
            continue;
        }
        // Each form is run by something the rule names, or covered by an allow rule of its own;
        // each secret file the item names is spelled out by the rule.
        let forms_covered = |item: &ItemVerdict, r: &super::rules::CompiledRule| {
            let spells_out = |blind: Option<String>| blind.is_some_and(|blind| !r.matcher.is_match(&super::rules::Subject::text(&blind)));
            item.runs_as
                .iter()
                .all(|form| allow.first_match(&ItemVerdict::form_subject(form)).is_some() || spells_out(item.blinded(form.program_word)))
                && item.secret_words.iter().all(|&word| match word {
                    super::items::WHOLE_PATH => spells_out(Some(super::secrets::blinded_file(&item.text))),
                    word => spells_out(item.blinded(word)),
                })
        };
        item.allowed_by = if item.hazards.is_empty() {
            if item.runs_as.is_empty() && item.secret_words.is_empty() {
                allow.first_match(&item.subject()).map(|r| r.origin.clone())
            } else {
                allow.first_match_where(&item.subject(), |r| forms_covered(item, r)).map(|r| r.origin.clone())
            }
        } else if item.only_assignment_hazards() {
            let bare = item.without_assignments().unwrap_or_default();
            // The same assignments before a command word no rule can be about (a NUL byte, which no
            // analysed command holds); an item whose text does not end with its command is never
            // covered.
            let elsewhere = item.text.strip_suffix(bare.as_str()).map(|assignments| format!("{assignments}\u{0}"));
            let spelled_out = |r: &super::rules::CompiledRule| {
                elsewhere.as_deref().is_some_and(|elsewhere| {
                    !r.matcher.is_match(&super::rules::Subject::text(&bare)) && !r.matcher.is_match(&super::rules::Subject::text(elsewhere))
                }) && forms_covered(item, r)
            };
            // The earliest rule that spells the assignment out, whichever rules match before it.
            allow.first_match_where(&item.subject(), spelled_out).map(|r| r.origin.clone())
        } else {
            None
        };
        all &= item.allowed_by.is_some();
    }
    all
}

/// For a rule that met what an item runs rather than its text: which item runs it.
fn runs_in(hit: &Hit) -> String {
    hit.detail.as_deref().map(|written| format!(" (what \"{written}\" runs)")).unwrap_or_default()
}

/// The standard explanation of a gate's decision.
fn explain_reason(reason: Reason, tool: &str, hit: &Hit, items: &Items) -> String {
    let item = hit.item.as_deref().unwrap_or_default();
    let detail = hit.detail.as_deref().unwrap_or_default();
    let rule = hit.rule.as_ref();
    let rule_words = |r: &RuleRef| format!("{} rule {} \"{}\" of layer \"{}\"", r.list.settings_key(), r.index, r.pattern, r.layer);
    match reason {
        Reason::RejectedByHook => HOOK_REJECTION_MESSAGE.to_owned(),
        Reason::HookAsked => "a hook asked for approval".to_owned(),
        Reason::HardcodedDeny => format!("{} ({item}: {detail})", hardcoded::MESSAGE),
        Reason::CatastrophicRemoval => format!("\"{item}\" removes a protected directory; it always needs approval"),
        Reason::InvalidPattern if detail.is_empty() => format!("The {tool} tool has a rule that failed to compile, so every call asks"),
        Reason::InvalidPattern => format!("The {tool} tool cannot run because {detail}"),
        Reason::Substitution => "The terminal command could not be approved because terminal does not allow shell substitutions or interpolations in permission-protected commands. Forbidden examples include $VAR, ${VAR}, $(...), backticks, $((...)), <(...), and >(...). Resolve those values before calling terminal, or ask the user for the literal value to use.".to_owned(),
        Reason::UnsupportedShell => "The shell does not support \"always allow\" patterns for the terminal tool because its command chaining syntax cannot be parsed. Remove the always_allow patterns for the terminal, or switch to a POSIX-conforming shell.".to_owned(),
        Reason::ParseFailed => format!("The command could not be analysed ({detail}), so it cannot be approved by always_allow patterns"),
        Reason::DenyRule => rule.map_or_else(|| "Denied by a rule".to_owned(), |r| format!("Denied by {}, which matched \"{item}\"{}", rule_words(r), runs_in(hit))),
        Reason::ConfirmRule => rule.map_or_else(|| "Needs confirmation".to_owned(), |r| format!("Needs confirmation: {} matched \"{item}\"{}", rule_words(r), runs_in(hit))),
        Reason::AllowRule => match (rule, items.list.len()) {
            (Some(r), 1) => format!("Allowed by always_allow rule {} \"{}\" of layer \"{}\"", r.index, r.pattern, r.layer),
            (_, n) => format!("Allowed: each of the {n} parts matched an always_allow rule"),
        },
        Reason::Blocklisted => format!("\"{item}\" matches the blocklist entry \"{}\"{}", rule.map_or("", |r| r.pattern.as_str()), runs_in(hit)),
        Reason::Allowlisted => match (rule, items.list.len()) {
            (Some(r), 1) => format!("{} is allowed by the {} allowlist entry {} \"{}\"", items.list.first().map_or("", |i| i.text.as_str()), r.layer, r.index, r.pattern),
            _ => "every sub-command is in the allowlist".to_owned(),
        },
        Reason::NotAllowlisted | Reason::NotInAdminAllowlist => {
            let missing: Vec<String> = items.list.iter().filter(|i| i.allowed_by.is_none()).map(|i| format!("\"{}\"", i.text)).collect();
            format!("not in the allowlist: {}", missing.join(", "))
        }
        Reason::Hazard => format!("\"{item}\" cannot be auto-run from the allowlist: {detail}"),
        Reason::Sudo => format!("\"{item}\" uses sudo, which always needs approval"),
        Reason::DeleteProtection => format!("\"{item}\" deletes files and delete-file protection is on"),
        Reason::EmptyCommand => "the command runs nothing that could be checked".to_owned(),
        Reason::InvalidName => format!("{detail}; a call with an invalid name always needs approval"),
        Reason::DotFile => format!("{item} is a dotfile and dotfile protection is on"),
        Reason::OutsideWorkspace => format!("{item} is outside the workspace and outside-workspace protection is on"),
        other => format!("{other:?}"),
    }
}

impl Policy {
    /// Only the outcome: the same evaluation as [`Policy::decide`], without the explanation.
    pub fn outcome(&self, tool: &str, inputs: &[String]) -> Outcome {
        self.evaluate(tool, inputs, None, Explain::Nothing).outcome
    }

    /// Only the outcome of a call, hook included.
    pub fn outcome_of(&self, call: &Call) -> Outcome {
        self.evaluate(&call.tool, &call.inputs, call.hook, Explain::Nothing).outcome
    }

    /// Decides one tool call without a hook's answer.
    pub fn decide(&self, tool: &str, inputs: &[String]) -> Decision {
        self.evaluate(tool, inputs, None, Explain::Full)
    }

    /// [`Policy::decide`] without the "always allow" suggestions, for answers that carry their own.
    pub(crate) fn decide_without_suggestions(&self, tool: &str, inputs: &[String]) -> Decision {
        self.evaluate(tool, inputs, None, Explain::WithoutSuggestions)
    }

    /// Decides one tool call and explains it.
    pub fn decide_call(&self, call: &Call) -> Decision {
        self.evaluate(&call.tool, &call.inputs, call.hook, Explain::Full)
    }

    /// The one evaluation. At [`Explain::Nothing`] messages, suggestions and notes are left out;
    /// the outcome, reason, rule and items are the same at every level (a test compares them).
    ///
    /// A path as written is never decided looser than the path it names: when a path tool's input
    /// is not in normal form (`///`, `a/../b`), the call is also decided on the normal form, and
    /// the stricter decision stands. Otherwise a rule that matches one spelling only (a confirm
    /// rule on `///` over a denying default) would let the spelling choose the outcome.
    pub(crate) fn evaluate(&self, tool: &str, inputs: &[String], hook: Option<HookResult>, explain: Explain) -> Decision {
        let written = self.evaluate_as_written(tool, inputs, hook, explain);
        if !matches!(self.input_kind(tool), InputKind::Path { .. } | InputKind::PathPair) {
            return written;
        }
        let normal: Vec<String> = inputs.iter().map(|input| super::path::normalize_path(input)).collect();
        if normal.as_slice() == inputs {
            return written;
        }
        let named = self.evaluate_as_written(tool, &normal, hook, explain);
        if named.outcome > written.outcome {
            named
        } else {
            written
        }
    }

    /// The protected path this call would write were it otherwise allowed, whatever decided it:
    /// a decision that asks by default names none, yet such a write is for a person to approve.
    pub(crate) fn protected_write(&self, call: &Call) -> Option<super::ProtectedPath> {
        let kind = self.input_kind(&call.tool);
        let check = |inputs: &[String]| {
            if inputs.iter().any(|input| crate::limits::input_too_large(input).is_some()) {
                return None;
            }
            self.stricter_by_paths(kind, &items::of(kind, inputs), Outcome::Allow).and_then(|found| found.protected)
        };
        check(&call.inputs).or_else(|| {
            if !matches!(kind, InputKind::Path { .. } | InputKind::PathPair) {
                return None;
            }
            let normal: Vec<String> = call.inputs.iter().map(|input| super::path::normalize_path(input)).collect();
            check(&normal)
        })
    }

    /// One call decided as its inputs are written, in the steps the module's documentation lists.
    fn evaluate_as_written(&self, tool: &str, inputs: &[String], hook: Option<HookResult>, explain: Explain) -> Decision {
        let rules = self.tool(tool);
        let kind = self.input_kind(tool);
        let too_large = over_budget(kind, inputs);
        let mut items = if too_large.is_some() { Items::default() } else { items::of(kind, inputs) };
        #[cfg(feature = "analysis")]
        super::command_paths::mark_secrets(&mut items, self.host());
        let mut allow_tried = false;
        let finding = match self.before_the_rules(rules, kind, hook, too_large) {
            Some(finding) => finding,
            None => {
                let (found, tried) = self.run_gates(tool, rules, &mut items);
                allow_tried = tried;
                self.settle(tool, rules, &mut items, found, tried, explain)
            }
        };
        let (finding, protected_path) = self.stricter_by_named_paths(kind, &items, finding);
        let finding = hook_asks(finding, hook);
        self.explained(tool, rules, items, finding, protected_path, allow_tried, explain)
    }

    /// Steps 1–3: a hook that rejected the call, an input beyond the budget, a build that reads no
    /// command line. Each decides before any rule is read.
    fn before_the_rules(
        &self,
        rules: Option<&ToolIndex>,
        kind: InputKind,
        hook: Option<HookResult>,
        too_large: Option<String>,
    ) -> Option<Finding<'_>> {
        if hook == Some(HookResult::Reject) {
            return Some(Finding {
                outcome: Outcome::Deny,
                reason: Reason::RejectedByHook,
                message: Message::Standard,
                hit: Hit::default(),
                default_source: None,
            });
        }
        if let Some(why) = too_large {
            // Nothing of it is analysed or matched: the budget bounds the time a decision takes.
            return Some(Finding {
                outcome: self.default_for(rules).0.max(Outcome::Confirm),
                reason: Reason::InputTooLarge,
                message: Message::Text(format!("{why}, so it is not analysed")),
                hit: Hit::default(),
                default_source: None,
            });
        }
        // A build without the shell analysis cannot tell a harmless line from a harmful one.
        items::unanalysed(kind).map(|why| Finding {
            outcome: self.default_for(rules).0.max(Outcome::Confirm),
            reason: Reason::ParseFailed,
            message: Message::Text(why.to_owned()),
            hit: Hit::default(),
            default_source: None,
        })
    }

    /// Step 4: the policy's gates in order, the first whose condition holds deciding; and whether
    /// an allow-rule gate was tried (then the items carry what covered them).
    fn run_gates(&self, tool: &str, rules: Option<&ToolIndex>, items: &mut Items) -> (Option<Finding<'_>>, bool) {
        let mut allow_tried = false;
        for (at, gate) in self.gates().iter().enumerate().filter(|(_, g)| g.applies_to(tool)) {
            let hit = match &gate.when {
                Condition::DenyRule => rules.and_then(|r| first_hit(&r.deny, items)),
                Condition::ConfirmRule => {
                    let hit = rules.and_then(|r| first_hit(&r.confirm, items));
                    if hit.is_some() {
                        // Show which items an allow rule would have covered.
                        if let Some(r) = rules {
                            cover(items, &r.allow, false);
                        }
                    }
                    hit
                }
                Condition::AllowRules | Condition::CommandsAllowed => {
                    allow_tried = true;
                    let commands_only = gate.when == Condition::CommandsAllowed;
                    let all = rules.is_some_and(|r| cover(items, &r.allow, commands_only));
                    let only = if items.list.len() == 1 { items.list.first().map(|i| i.text.clone()) } else { None };
                    all.then(|| Hit { rule: items.list.first().and_then(|i| i.allowed_by.clone()), item: only, detail: None })
                }
                other => gates::check(other, self, rules, items),
            };
            if let Some(hit) = hit {
                let message = self.gate_messages().get(at).and_then(Option::as_ref).map_or(Message::Standard, Message::Template);
                return (Some(Finding { outcome: gate.outcome, reason: gate.reason, message, hit, default_source: None }), allow_tried);
            }
        }
        (None, allow_tried)
    }

    /// Steps 5–6: a gate's finding stands unless it came from an untrusted layer and would lower
    /// what the default decides; with no finding, the defaults decide (after marking what allow
    /// rules cover, for the explanation).
    fn settle<'p>(
        &'p self,
        tool: &str,
        rules: Option<&ToolIndex>,
        items: &mut Items,
        found: Option<Finding<'p>>,
        allow_tried: bool,
        explain: Explain,
    ) -> Finding<'p> {
        let explain = explain != Explain::Nothing;
        let Some(found) = found else {
            if !allow_tried {
                if let Some(r) = rules {
                    cover(items, &r.allow, false);
                }
            }
            return self.fall_back(tool, rules, items, explain);
        };
        // An untrusted layer may only make decisions stricter: its confirm rule (or a rule of it
        // that does not compile) never lowers what the default would decide.
        let untrusted = |layer: &str| self.spec().layers.iter().any(|l| l.name == layer && !l.trusted);
        let from_untrusted = match found.reason {
            Reason::ConfirmRule => found.hit.rule.as_ref().is_some_and(|r| untrusted(&r.layer)),
            Reason::InvalidPattern => rules.is_some_and(|r| r.invalid.iter().any(|p| untrusted(&p.layer))),
            _ => false,
        };
        if from_untrusted && self.default_for(rules).0 > found.outcome {
            return self.fall_back(tool, rules, items, explain);
        }
        found
    }

    /// Step 7: the paths the call names (a path tool's deny or confirm rule meeting a path a
    /// command line reads or writes; a write to a protected path) can only make it stricter.
    fn stricter_by_named_paths<'f>(
        &self,
        kind: InputKind,
        items: &Items,
        finding: Finding<'f>,
    ) -> (Finding<'f>, Option<super::ProtectedPath>) {
        match self.stricter_by_paths(kind, items, finding.outcome) {
            Some(stricter) => (
                Finding {
                    outcome: stricter.outcome,
                    reason: stricter.reason,
                    message: Message::Text(stricter.message),
                    hit: stricter.hit,
                    default_source: None,
                },
                stricter.protected,
            ),
            None => (finding, None),
        }
    }

    /// Step 9: the decision, with its explanation at the level asked for: the message (what it
    /// quotes written out, see [`crate::visible`]), the rules that would cover what no allow rule
    /// did, and the settings of untrusted layers that were ignored.
    #[allow(clippy::too_many_arguments)]
    fn explained(
        &self,
        tool: &str,
        rules: Option<&ToolIndex>,
        items: Items,
        finding: Finding,
        protected_path: Option<super::ProtectedPath>,
        allow_tried: bool,
        explain: Explain,
    ) -> Decision {
        let Finding { outcome, reason, message, hit, default_source } = finding;
        if explain == Explain::Nothing {
            return Decision {
                outcome,
                reason,
                message: String::new(),
                rule: hit.rule,
                matched_input: hit.item,
                protected_path,
                default_source,
                items: items.list,
                cannot_vouch: items.cannot_vouch,
                invalid_patterns: Vec::new(),
                suggestions: Vec::new(),
                ignored: Vec::new(),
            };
        }
        let message = match message {
            _ if reason == Reason::HookAsked => explain_reason(reason, tool, &hit, &items),
            Message::Template(template) => template.fill(&hit),
            Message::Text(text) => text,
            Message::Standard => explain_reason(reason, tool, &hit, &items),
        };
        let message = match crate::visible::visible(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(shown) => shown,
        };
        // No allow rule could lift a hook's question or a protected path: nothing to suggest.
        let suggestions = if explain == Explain::Full
            && allow_tried
            && outcome != Outcome::Allow
            && !matches!(reason, Reason::HookAsked | Reason::ProtectedPath)
        {
            self.suggestions_for(tool, &items)
        } else {
            Vec::new()
        };
        let mut ignored: Vec<Ignored> = self.ignored_globally().to_vec();
        ignored.extend(rules.map(|r| r.ignored.clone()).unwrap_or_default());
        Decision {
            outcome,
            reason,
            message,
            rule: hit.rule,
            matched_input: hit.item,
            protected_path,
            default_source,
            items: items.list,
            cannot_vouch: items.cannot_vouch,
            invalid_patterns: rules.map(|r| r.invalid.clone()).unwrap_or_default(),
            suggestions,
            ignored,
        }
    }

    /// What the paths a call names make stricter than `outcome`: a path tool's deny or confirm
    /// rule meeting a path a command line reads or writes, else a write to a protected path
    /// (which only turns an allow into a question). Never looser than `outcome`.
    fn stricter_by_paths(&self, kind: InputKind, items: &Items, outcome: Outcome) -> Option<PathFinding> {
        // Without the analysis no item is read here (see the arms below).
        #[cfg(not(feature = "analysis"))]
        let _ = items;
        match kind {
            InputKind::Path { access: super::PathAccess::Read } => None,
            #[cfg(feature = "analysis")]
            InputKind::Path { .. } | InputKind::PathPair if outcome == Outcome::Allow => {
                if !self.protected.may_protect_any(items.list.iter().map(|i| i.text.as_str())) {
                    return None;
                }
                let (path, entry) = items.list.iter().find_map(|i| Some((i.text.as_str(), self.protected.protecting(&i.text)?)))?;
                Some(protected_finding(path, path, entry))
            }
            // Without the list (the MCP entry's build), any write a default would allow asks.
            #[cfg(not(feature = "analysis"))]
            InputKind::Path { .. } | InputKind::PathPair if outcome == Outcome::Allow => Some(PathFinding {
                outcome: Outcome::Confirm,
                reason: Reason::ProtectedPath,
                message: "this build of toolgate (its MCP entry) does not carry the protected-path list, so every write asks; toolgate/engine decides path tools".to_owned(),
                hit: Hit::default(),
                protected: None,
            }),
            #[cfg(feature = "shell")]
            InputKind::Command { shell } if shell != crate::shell::Shell::Unknown && outcome != Outcome::Deny => {
                self.stricter_in_command(items, outcome)
            }
            _ => None,
        }
    }

    /// [`Policy::stricter_by_paths`] for a command line: its named paths meet the path tools'
    /// deny and confirm rules (a read tool's on every path, a write tool's on written ones),
    /// then protection on written ones.
    #[cfg(feature = "shell")]
    fn stricter_in_command(&self, items: &Items, outcome: Outcome) -> Option<PathFinding> {
        // Nothing to meet: no path rules, and protection only turns an allow into a question.
        if self.path_rule_tools.is_empty()
            && (outcome != Outcome::Allow || !self.protected.may_protect_any(items.list.iter().map(|i| i.text.as_str())))
        {
            return None;
        }
        let named = super::command_paths::named_paths(items, self.host());
        if named.is_empty() {
            return None;
        }
        let mut strictest: Option<PathFinding> = None;
        for (tool, access) in &self.path_rule_tools {
            let Some(rules) = self.tool(tool) else { continue };
            let reads_only = *access == Some(super::PathAccess::Read);
            for path in named.iter().filter(|p| p.written || reads_only) {
                let subject = super::rules::Subject::guessed_path(&path.path);
                // A rule on the whole tool (`/**`, `.*`: it matches a path no one names) is about
                // the tool, not about paths: it does not reach the terminal.
                let about_paths = |r: &super::rules::CompiledRule| {
                    !WHOLE_TOOL_PROBES.iter().any(|probe| r.matcher.is_match(&super::rules::Subject::guessed_path(probe)))
                };
                let found = [(&rules.deny, Outcome::Deny, Reason::DenyRule), (&rules.confirm, Outcome::Confirm, Reason::ConfirmRule)]
                    .into_iter()
                    .find_map(|(set, outcome, reason)| {
                        set.first_match_where(&subject, about_paths).map(|r| (r.origin.clone(), outcome, reason))
                    });
                let Some((rule, found_outcome, reason)) = found else { continue };
                if found_outcome <= outcome || strictest.as_ref().is_some_and(|s| s.outcome >= found_outcome) {
                    continue;
                }
                let command = items.list.get(path.item).map_or("", |i| i.text.as_str());
                let verb = if path.written { "writes" } else { "reads" };
                let message = format!(
                    "{} by the {tool} tool's {} rule {} \"{}\" of layer \"{}\": \"{command}\" {verb} \"{}\"",
                    if found_outcome == Outcome::Deny { "Denied" } else { "Needs confirmation" },
                    rule.list.settings_key(),
                    rule.index,
                    rule.pattern,
                    rule.layer,
                    path.path
                );
                let hit = Hit { item: Some(path.path.clone()), rule: Some(rule), detail: None };
                strictest = Some(PathFinding { outcome: found_outcome, reason, message, hit, protected: None });
            }
        }
        if strictest.is_some() || outcome != Outcome::Allow {
            return strictest;
        }
        let (path, entry) = named.iter().filter(|p| p.written).find_map(|p| Some((p, self.protected.protecting(&p.path)?)))?;
        let command = items.list.get(path.item).map_or("", |i| i.text.as_str());
        Some(protected_finding(command, &path.path, entry))
    }

    fn fall_back(&self, tool: &str, rules: Option<&ToolIndex>, items: &Items, explain: bool) -> Finding<'static> {
        let (mode, source) = self.default_for(rules);
        let unsure = items.unsure();
        let restricted = rules.is_some_and(ToolIndex::has_restrictions);
        let finding = |outcome, reason, message: String| Finding {
            outcome,
            reason,
            message: Message::Text(message),
            hit: Hit::default(),
            default_source: Some(source.clone()),
        };
        let legacy_allow = mode == Outcome::Confirm && self.spec().always_allow_tool_actions;
        // Never let a fallback (the legacy switch included) allow what deny or confirm rules could
        // not be checked against, whatever the policy does with substitutions and unparsed lines.
        if let Some(why) = unsure.filter(|_| (mode == Outcome::Allow || legacy_allow) && restricted) {
            return finding(
                Outcome::Confirm,
                Reason::CannotVouch,
                format!("Needs confirmation: the deny and confirm rules cannot be checked reliably ({why})"),
            );
        }
        if legacy_allow {
            return finding(Outcome::Allow, Reason::LegacyAlwaysAllow, "Allowed by always_allow_tool_actions (no rule matched)".to_owned());
        }
        let reason = if matches!(source, DefaultSource::Tool { .. }) { Reason::ToolDefault } else { Reason::GlobalDefault };
        if !explain {
            return finding(mode, reason, String::new());
        }
        finding(mode, reason, default_message(tool, mode, &source, rules.is_some(), items))
    }
}

/// Paths no rule about particular paths names (a control character in each), absolute and
/// relative: a rule that matches one is a rule on the whole tool.
#[cfg(feature = "shell")]
const WHOLE_TOOL_PROBES: [&str; 2] = ["/\u{1}toolgate-probe\u{1}/\u{1}", "\u{1}toolgate-probe\u{1}"];

/// A write to a protected path: it asks, naming the entry and why.
#[cfg(feature = "analysis")]
fn protected_finding(call: &str, path: &str, entry: super::ProtectedPath) -> PathFinding {
    let whose = entry.layer.as_ref().map_or_else(|| "built-in".to_owned(), |layer| format!("layer \"{layer}\"'s"));
    let message = if call == path {
        format!(
            "Needs confirmation: \"{path}\" is a protected path ({whose} entry \"{}\": {}); writing it always asks",
            entry.entry, entry.why
        )
    } else {
        format!(
            "Needs confirmation: \"{call}\" writes \"{path}\", a protected path ({whose} entry \"{}\": {}); writing it always asks",
            entry.entry, entry.why
        )
    };
    PathFinding {
        outcome: Outcome::Confirm,
        reason: Reason::ProtectedPath,
        message,
        hit: Hit { item: Some(path.to_owned()), rule: None, detail: None },
        protected: Some(entry),
    }
}

/// `{verb} by {the default}: {why no allow rule settled it}`, written into one string: this
/// message is on every decision a default makes.
fn default_message(tool: &str, mode: Outcome, source: &DefaultSource, has_rules: bool, items: &Items) -> String {
    let mut message = String::with_capacity(128);
    message.push_str(match mode {
        Outcome::Allow => "Allowed by ",
        Outcome::Confirm => "Needs confirmation by ",
        Outcome::Deny => "Denied by ",
    });
    match source {
        DefaultSource::Tool { layer } => {
            for part in ["the ", tool, " tool's default_mode in layer \"", layer, "\""] {
                message.push_str(part);
            }
        }
        DefaultSource::Global { layer: Some(layer) } => {
            for part in ["the global default of layer \"", layer, "\""] {
                message.push_str(part);
            }
        }
        DefaultSource::Global { layer: None } => message.push_str("the policy's default"),
    }
    message.push_str(": ");
    write_uncovered(&mut message, has_rules, items);
    message
}

/// Why no allow rule settled the call: the parts left uncovered, and what stood in the way.
fn write_uncovered(out: &mut String, has_rules: bool, items: &Items) {
    if !has_rules {
        out.push_str("the tool has no rules");
        return;
    }
    if let Some(why) = &items.cannot_vouch {
        for part in ["allow rules are off for this input (", why, ")"] {
            out.push_str(part);
        }
        return;
    }
    let mut parts = items.list.iter().filter(|i| i.allowed_by.is_none()).peekable();
    if parts.peek().is_none() {
        out.push_str("no rule matched");
        return;
    }
    out.push_str("not covered by an allow rule: ");
    for (n, item) in parts.enumerate() {
        for part in [if n > 0 { ", \"" } else { "\"" }, &item.text, "\""] {
            out.push_str(part);
        }
        if let Some(hazard) = item.hazards.first() {
            for part in [" (", &hazard.why, ")"] {
                out.push_str(part);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terminal_layer(name: &str, trusted: bool, rules: crate::policy::ToolRulesSpec) -> crate::policy::LayerSpec {
        crate::policy::LayerSpec {
            name: name.into(),
            trusted,
            tools: [("terminal".to_owned(), rules)].into_iter().collect(),
            ..Default::default()
        }
    }

    /// Found by the `decide` fuzz target: an untrusted layer's confirm rule turned a default deny into confirm.
    #[test]
    fn an_untrusted_confirm_rule_never_lowers_a_denying_default() {
        use crate::policy::{PolicySpec, RuleSpec, ToolRulesSpec};
        let confirm = ToolRulesSpec { always_confirm: vec![RuleSpec::regex("^ls", false)], ..Default::default() };
        for trusted in [true, false] {
            let spec = PolicySpec {
                layers: vec![terminal_layer("project", trusted, confirm.clone())],
                default_mode: Outcome::Deny,
                ..Default::default()
            };
            let d = Policy::new(spec).decide("terminal", &["ls".into()]);
            // A trusted confirm rule outranks the default (Zed's precedence); an untrusted one may not loosen it.
            assert_eq!(d.outcome, if trusted { Outcome::Confirm } else { Outcome::Deny }, "trusted: {trusted}");
        }
    }

    /// Found by the `decide` fuzz target: a default (or the legacy switch) allowed a line the
    /// analysis could not vouch for although the tool had deny rules.
    #[test]
    fn no_fallback_allows_an_unvouched_line_of_a_restricted_tool() {
        use crate::policy::{PolicySpec, RuleSpec, SubstitutionPolicy, ToolRulesSpec, UnparsedPolicy};
        let deny = ToolRulesSpec { always_deny: vec![RuleSpec::regex(r"rm\s+-rf", false)], ..Default::default() };
        for (default_mode, legacy) in [(Outcome::Allow, false), (Outcome::Confirm, true)] {
            let spec = PolicySpec {
                layers: vec![terminal_layer("user", true, deny.clone())],
                default_mode,
                always_allow_tool_actions: legacy,
                substitutions: SubstitutionPolicy::Deny,
                unparsed_commands: UnparsedPolicy::Confirm,
                ..Default::default()
            };
            let d = Policy::new(spec).decide("terminal", &["ls 'unterminated".into()]);
            assert_eq!((d.outcome, d.reason), (Outcome::Confirm, Reason::CannotVouch), "legacy: {legacy}");
        }
    }

    /// The message a default writes piece by piece is the one `format!` wrote.
    #[test]
    fn a_default_message_is_the_formatted_one() {
        use crate::policy::items::{ItemKind, ItemVerdict};
        use crate::policy::rules::{ListKind, MatcherKind};
        use crate::shell::{Context, Hazard, HazardKind};
        fn by_format(tool: &str, mode: Outcome, source: &DefaultSource, has_rules: bool, items: &Items) -> String {
            let from = match source {
                DefaultSource::Tool { layer } => format!("the {tool} tool's default_mode in layer \"{layer}\""),
                DefaultSource::Global { layer: Some(layer) } => format!("the global default of layer \"{layer}\""),
                DefaultSource::Global { layer: None } => "the policy's default".to_owned(),
            };
            let verb = match mode {
                Outcome::Allow => "Allowed",
                Outcome::Confirm => "Needs confirmation",
                Outcome::Deny => "Denied",
            };
            let why = if !has_rules {
                "the tool has no rules".to_owned()
            } else {
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
            };
            format!("{verb} by {from}: {why}")
        }
        let rule = Arc::new(RuleRef {
            layer: "user".into(),
            tool: "terminal".into(),
            list: ListKind::AlwaysAllow,
            index: 0,
            matcher: MatcherKind::Regex,
            pattern: "^ls\\b".into(),
        });
        let mut next = crate::test_support::random_below(0x2545_F491_4F6C_DD1D);
        let texts = ["ls -la", "", "git \"push\"", "{item}", "é, x"];
        for _ in 0..3_000 {
            let list = (0..next(4))
                .map(|_| ItemVerdict {
                    text: texts[next(texts.len())].into(),
                    kind: ItemKind::Command,
                    context: Context::TopLevel,
                    hazards: (0..next(3)).map(|k| Hazard::new(HazardKind::Expansion, "$x", ["why one", "why (two)"][k % 2])).collect(),
                    allowed_by: (next(3) == 0).then(|| rule.clone()),
                    program: None,
                    name: None,
                    runs_as: Vec::new(),
                    secret_words: Vec::new(),
                    args: Vec::new(),
                    pair_split: None,
                })
                .collect();
            let items = Items { list, cannot_vouch: (next(4) == 0).then(|| "a reason".into()), ..Items::default() };
            let layer = ["user", "", "a \"b\""][next(3)].to_owned();
            let source = match next(3) {
                0 => DefaultSource::Tool { layer },
                1 => DefaultSource::Global { layer: Some(layer) },
                _ => DefaultSource::Global { layer: None },
            };
            let mode = [Outcome::Allow, Outcome::Confirm, Outcome::Deny][next(3)];
            let (tool, has_rules) = (["terminal", "edit_file", ""][next(3)], next(5) != 0);
            assert_eq!(default_message(tool, mode, &source, has_rules, &items), by_format(tool, mode, &source, has_rules, &items));
        }
    }
}
