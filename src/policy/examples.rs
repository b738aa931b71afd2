//! Self-testing rules: a rule may carry calls it must decide and calls it must not
//! (`examples: { match: [...], notMatch: [...] }`, after Codex's `prefix_rule(match=…, not_match=…)`).
//!
//! They are checked when the policy is built, against the whole policy: a `match` example must
//! be decided by its rule (the decision names it — as the deciding rule, or, for an allow rule,
//! as the rule that covered an item of an allowed call); a `notMatch` example must not be. A
//! failure never stops the build: it is recorded on the compiled policy with the rule's place and
//! what was decided instead, and the linter (`src/lint.rs`) reports it as a finding. Only rules that carry
//! examples cost anything. The allow rules of an untrusted layer are ignored by the policy, and
//! so are their examples; a preset's examples are its own tests (`src/policy/presets/tests.rs`).

use super::evaluate::Decision;
use super::reason::Reason;
use super::rules::{ListKind, RuleRef};
use super::Outcome;
#[cfg(feature = "shell")]
use super::Policy;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One example call's input: a command, a path or a URL, or several inputs (`[source,
/// destination]`, `[server, tool]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ExampleInput {
    /// One input.
    One(String),
    /// Several inputs.
    Many(Vec<String>),
}

impl ExampleInput {
    /// The call's inputs.
    pub fn inputs(&self) -> Vec<String> {
        match self {
            ExampleInput::One(one) => vec![one.clone()],
            ExampleInput::Many(many) => many.clone(),
        }
    }

    /// The input as one line of text, for messages.
    pub fn display(&self) -> String {
        match self {
            ExampleInput::One(one) => one.clone(),
            ExampleInput::Many(many) => many.join(" → "),
        }
    }
}

/// Calls a rule must decide (`match`) and must not decide (`notMatch`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuleExamples {
    /// Inputs of calls of the rule's tool that the rule must decide.
    #[serde(rename = "match", default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub matches: Vec<ExampleInput>,
    /// Inputs of calls of the rule's tool that the rule must not decide.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub not_match: Vec<ExampleInput>,
}

impl RuleExamples {
    /// Whether there is nothing to check.
    pub fn is_empty(&self) -> bool {
        self.matches.is_empty() && self.not_match.is_empty()
    }
}

/// Which list of examples a failing example is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ExampleKind {
    /// A `match` example the rule did not decide.
    Match,
    /// A `notMatch` example the rule decided.
    NotMatch,
}

impl ExampleKind {
    /// The list's key in a rule spec.
    pub fn spec_key(self) -> &'static str {
        match self {
            ExampleKind::Match => "match",
            ExampleKind::NotMatch => "notMatch",
        }
    }
}

/// An example the policy did not decide as its rule says, and what it decided instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ExampleFailure {
    /// The rule the example belongs to.
    pub rule: RuleRef,
    /// The position of the rule's layer in the spec's `layers`.
    pub layer_index: usize,
    /// Whether it is a `match` or a `notMatch` example.
    pub kind: ExampleKind,
    /// Its position in that list.
    pub example_index: usize,
    /// The example's inputs.
    pub inputs: Vec<String>,
    /// What the policy decided for it.
    pub outcome: Outcome,
    /// Why.
    pub reason: Reason,
    /// The rule that decided, if a rule did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "RuleRef", optional))]
    pub decided_by: Option<Arc<RuleRef>>,
}

impl ExampleFailure {
    /// Where the example sits in the policy spec, as a JSON path.
    pub fn path(&self) -> String {
        format!(
            "layers[{}].tools.{}.{}[{}].examples.{}[{}]",
            self.layer_index,
            self.rule.tool,
            self.rule.list.spec_key(),
            self.rule.index,
            self.kind.spec_key(),
            self.example_index
        )
    }

    /// What went wrong, in words a settings page can show.
    pub fn message(&self) -> String {
        let input = self.inputs.join(" → ");
        let decided = match &self.decided_by {
            Some(r) if same_rule(r, &self.rule) => "by this rule".to_owned(),
            Some(r) => format!("by {} rule {} \"{}\" of layer \"{}\"", r.list.spec_key(), r.index, r.pattern, r.layer),
            None => format!("by {}", reason_words(self.reason)),
        };
        let outcome = match self.outcome {
            Outcome::Allow => "allowed",
            Outcome::Confirm => "asks",
            Outcome::Deny => "denied",
        };
        match self.kind {
            ExampleKind::Match => {
                format!("the example \"{input}\" should be decided by this rule, but it is {outcome} {decided}")
            }
            ExampleKind::NotMatch => format!("the example \"{input}\" should not be decided by this rule, but it is {outcome} {decided}"),
        }
    }
}

fn reason_words(reason: Reason) -> String {
    match reason {
        Reason::ToolDefault => "the tool's default".to_owned(),
        Reason::GlobalDefault => "the global default".to_owned(),
        Reason::HardcodedDeny => "a hard-coded denial".to_owned(),
        Reason::InvalidPattern => "a rule that does not compile".to_owned(),
        Reason::CannotVouch => "a fallback: the input cannot be vouched for".to_owned(),
        other => format!("{other:?}"),
    }
}

fn same_rule(a: &RuleRef, b: &RuleRef) -> bool {
    a.layer == b.layer && a.tool == b.tool && a.list == b.list && a.index == b.index
}

/// Whether the decision names the rule: as the deciding rule, or as the allow rule that covered
/// an item of an allowed call.
pub fn decision_names(decision: &Decision, rule: &RuleRef) -> bool {
    decision.rule.as_deref().is_some_and(|r| same_rule(r, rule))
        || (decision.outcome == Outcome::Allow
            && decision.items.iter().any(|i| i.allowed_by.as_deref().is_some_and(|r| same_rule(r, rule))))
}

/// A rule with examples, by its place in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExamplesAt {
    pub layer_index: usize,
    pub list: ListKind,
    pub index: usize,
}

/// Checks the examples of the rules at these places, in order.
#[cfg(feature = "shell")]
pub(crate) fn check(policy: &Policy, places: &[(ExamplesAt, String)]) -> Vec<ExampleFailure> {
    let mut failures = Vec::new();
    for (at, tool) in places {
        let Some(layer) = policy.spec().layers.get(at.layer_index) else { continue };
        let Some(rules) = layer.tools.get(tool) else { continue };
        let list = match at.list {
            ListKind::AlwaysAllow => &rules.always_allow,
            ListKind::AlwaysDeny => &rules.always_deny,
            ListKind::AlwaysConfirm => &rules.always_confirm,
        };
        let Some(rule) = list.get(at.index) else { continue };
        let origin = RuleRef {
            layer: layer.name.clone(),
            tool: tool.clone(),
            list: at.list,
            index: at.index,
            matcher: super::MatcherKind::of(rule),
            pattern: rule.text().to_owned(),
        };
        for (kind, examples) in [(ExampleKind::Match, &rule.examples.matches), (ExampleKind::NotMatch, &rule.examples.not_match)] {
            for (example_index, example) in examples.iter().enumerate() {
                let inputs = example.inputs();
                let decision = policy.evaluate(tool, &inputs, None, crate::policy::Explain::Nothing);
                let named = decision_names(&decision, &origin);
                if named != (kind == ExampleKind::Match) {
                    failures.push(ExampleFailure {
                        rule: origin.clone(),
                        layer_index: at.layer_index,
                        kind,
                        example_index,
                        inputs,
                        outcome: decision.outcome,
                        reason: decision.reason,
                        decided_by: decision.rule,
                    });
                }
            }
        }
    }
    failures
}
