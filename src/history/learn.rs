//! Consolidation: from the calls a person approved, a few rules that would have let them run,
//! each one safe against the same history.
//!
//! Candidates are the narrow rules toolgate already suggests for a call (a command per
//! sub-command, an MCP `server:tool` entry, a URL's origin, a file's directory) and, for paths,
//! the common parent of approved files. Which calls a candidate covers is asked of the one
//! evaluator, with the candidate added to the policy. Candidates are taken broadest first and a
//! candidate is withheld when, together with the ones already taken, it would let a refused call
//! run, or when lint finds fault with it; a proposal that would not save a single prompt (a
//! confirm rule, hazard or protected path still asks) is withheld too. Nothing is applied: the
//! report gives each proposal's settings change and the policy with all of them.

use super::{Happened, HistoryCall};
use crate::lint::{self, FindingSeverity};
use crate::policy::{ChangeKey, Decision, InputKind, ListKind, Outcome, Policy, PolicySpec, RuleRef, RuleSpec, SettingsChange};
use serde::{Deserialize, Serialize};

/// How to learn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LearnOptions {
    /// The layer proposals are written to (added as a user layer if the policy has none of that name).
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub layer: String,
    /// How many approved calls a proposal must cover; one approval is weak evidence. Default 2.
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub min_calls: usize,
}

impl Default for LearnOptions {
    fn default() -> Self {
        LearnOptions { layer: "user".into(), min_calls: 2 }
    }
}

/// A rule the history supports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Proposal {
    /// The tool it is for.
    pub tool: String,
    /// The rule, as a policy spec writes it.
    pub rule: RuleSpec,
    /// What to show: `npm test`, `src/`, `github:create_issue`.
    pub display: String,
    /// The change that adds it (`applyPolicyChange`, `applySettingsChange`).
    pub change: SettingsChange,
    /// The lines of the approved calls it covers (all or part of).
    pub covers: Vec<usize>,
    /// How many of those would have run without asking, with the other proposals: prompts saved.
    pub saves: usize,
    /// One sentence: "approved 14 times; would have saved 14 prompts".
    pub summary: String,
}

/// A candidate the history does not support, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Withheld {
    /// The tool it is for.
    pub tool: String,
    /// The rule.
    pub rule: RuleSpec,
    /// What to show.
    pub display: String,
    /// The lines of the approved calls it covers.
    pub covers: Vec<usize>,
    /// Why it is not proposed.
    pub why: String,
    /// The refused call it would have let run, by line, when that is why.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub refused_line: Option<usize>,
    /// The lint finding's code, when that is why.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub finding: Option<String>,
}

/// What a history teaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LearnReport {
    /// How many calls a person approved (or that ran where the policy asks).
    pub approved: usize,
    /// How many of those the proposals together would have run without asking.
    pub saved: usize,
    /// The proposals, the most prompts saved first.
    pub proposals: Vec<Proposal>,
    /// Candidates not proposed, with why.
    pub withheld: Vec<Withheld>,
    /// The policy with every proposal added.
    pub policy: PolicySpec,
    /// Sentences for a person: one per proposal.
    pub summary: Vec<String>,
}

/// A rule that might be proposed, and the approved calls (indices into the history) it covers.
struct Candidate {
    tool: String,
    rule: RuleSpec,
    display: String,
    covers: Vec<usize>,
}

/// Whether `decision` was decided, or had an item allowed, by the rule at `place`.
fn touched_by(decision: &Decision, place: &RuleRef) -> bool {
    let same = |r: &RuleRef| super::same_place(r, place);
    decision.rule.as_deref().is_some_and(same) || decision.items.iter().any(|i| i.allowed_by.as_deref().is_some_and(same))
}

/// The spec with `changes` applied.
fn with(spec: &PolicySpec, changes: &[&SettingsChange]) -> PolicySpec {
    let mut spec = spec.clone();
    for change in changes {
        spec.apply(change);
    }
    spec
}

/// Where `change`'s rule sits in `spec` once applied.
fn place_of(spec: &PolicySpec, change: &SettingsChange) -> Option<(usize, RuleRef)> {
    let (layer_index, layer) = spec.layers.iter().enumerate().find(|(_, l)| l.name == change.layer)?;
    let rule = change.rule.as_ref()?;
    let index = layer.tools.get(&change.tool)?.always_allow.iter().position(|r| r == rule)?;
    let place = RuleRef {
        layer: layer.name.clone(),
        tool: change.tool.clone(),
        list: ListKind::AlwaysAllow,
        index,
        matcher: crate::policy::MatcherKind::of(rule),
        pattern: rule.text().to_owned(),
    };
    Some((layer_index, place))
}

fn change_for(layer: &str, tool: &str, rule: &RuleSpec) -> SettingsChange {
    SettingsChange { layer: layer.to_owned(), tool: tool.to_owned(), key: ChangeKey::AlwaysAllow, mode: None, rule: Some(rule.clone()) }
}

/// What a command proposal covers, in words: the whole program (one that only reads), the program
/// with its sub-command or what it runs, or exactly the invocations a person approved.
fn breadth(rule: &RuleSpec) -> &'static str {
    match rule.pattern.as_deref() {
        Some(p) if p.ends_with("(\\s|$)") => " with any arguments",
        Some(p) if p.ends_with('$') => ", exactly as approved,",
        Some(p) if p.ends_with("\\b") => " (the whole program: it only reads)",
        _ => "",
    }
}

/// Draws the candidates for the approved calls: each call's suggestions, and for path tools the
/// common parent of every two approved files.
fn candidates(policy: &Policy, history: &[HistoryCall], approved: &[usize]) -> Vec<(String, RuleSpec, String)> {
    let mut found: Vec<(String, RuleSpec, String)> = Vec::new();
    let mut add = |tool: &str, rule: RuleSpec, display: String| {
        if !found.iter().any(|(t, r, _)| t == tool && *r == rule) {
            found.push((tool.to_owned(), rule, display));
        }
    };
    let mut paths: Vec<(&str, &str)> = Vec::new();
    for call in approved.iter().filter_map(|&at| history.get(at)) {
        let decision = policy.decide_call(&call.call());
        let path_tool = matches!(policy.input_kind(&call.tool), InputKind::Path { .. } | InputKind::PathPair);
        for suggestion in
            decision.suggestions.iter().filter(|s| !(path_tool && crate::policy::too_broad_dir(&s.display, policy.host_home())))
        {
            add(&call.tool, suggestion.rule_spec(), suggestion.display.clone());
        }
        if path_tool {
            paths.extend(call.inputs.iter().map(|p| (call.tool.as_str(), p.as_str())));
        }
    }
    for (i, (tool, a)) in paths.iter().enumerate() {
        for (other, b) in paths.iter().skip(i + 1) {
            if tool != other {
                continue;
            }
            let Some((common, s)) = crate::policy::common_parent_suggestion(a, b) else { continue };
            if !crate::policy::too_broad_dir(&common, policy.host_home()) {
                add(tool, s.rule_spec(), s.display);
            }
        }
    }
    found
}

/// Proposes rules that would have let the approved calls of `history` run, never one that would
/// have let a refused call run or that lint finds fault with. See the module's documentation.
pub fn learn(policy: &Policy, history: &[HistoryCall], options: &LearnOptions) -> LearnReport {
    let base = policy.spec();
    let outcomes: Vec<Outcome> = history.iter().map(|c| policy.decide_call(&c.call()).outcome).collect();
    // A call that ran where this policy asks was approved, whatever the history could say.
    let approved: Vec<usize> = (0..history.len())
        .filter(|&at| match (history.get(at).map(|c| c.happened), outcomes.get(at)) {
            (Some(Happened::Approved), Some(o)) => *o != Outcome::Allow,
            (Some(Happened::Ran), Some(Outcome::Confirm)) => true,
            _ => false,
        })
        .collect();
    let refused: Vec<usize> = (0..history.len())
        .filter(|&at| history.get(at).is_some_and(|c| matches!(c.happened, Happened::Declined | Happened::Refused)))
        .collect();
    let line = |at: usize| history.get(at).map_or(0, |c| c.line);

    // Each candidate with the approved calls it covers, asked of the evaluator.
    let mut pool: Vec<Candidate> = Vec::new();
    for (tool, rule, display) in candidates(policy, history, &approved) {
        let change = change_for(&options.layer, &tool, &rule);
        let spec = with(base, &[&change]);
        let Some((_, place)) = place_of(&spec, &change) else { continue };
        let trial = Policy::new(spec);
        let covers: Vec<usize> = approved
            .iter()
            .copied()
            .filter(|&at| history.get(at).is_some_and(|c| touched_by(&trial.decide_call(&c.call()), &place)))
            .collect();
        pool.push(Candidate { tool, rule, display, covers });
    }
    pool.sort_by(|a, b| b.covers.len().cmp(&a.covers.len()).then_with(|| a.display.cmp(&b.display)));

    let mut taken: Vec<(Candidate, SettingsChange)> = Vec::new();
    let mut withheld: Vec<Withheld> = Vec::new();
    let mut covered: Vec<usize> = Vec::new();
    for candidate in pool {
        if candidate.covers.len() < options.min_calls || candidate.covers.iter().all(|at| covered.contains(at)) {
            continue;
        }
        let change = change_for(&options.layer, &candidate.tool, &candidate.rule);
        let mut changes: Vec<&SettingsChange> = taken.iter().map(|(_, c)| c).collect();
        changes.push(&change);
        let spec = with(base, &changes);
        let hold = |why: String, refused_line: Option<usize>, finding: Option<String>| Withheld {
            tool: candidate.tool.clone(),
            rule: candidate.rule.clone(),
            display: candidate.display.clone(),
            covers: candidate.covers.iter().map(|&at| line(at)).collect(),
            why,
            refused_line,
            finding,
        };
        let Some((layer_index, place)) = place_of(&spec, &change) else { continue };
        let trial = Policy::new(spec);
        let path = format!("layers[{layer_index}].tools.{}.alwaysAllow[{}]", place.tool, place.index);
        if let Some(f) = lint::lint_policy(&trial)
            .into_iter()
            .find(|f| f.path == path && matches!(f.severity, FindingSeverity::Error | FindingSeverity::Warning))
        {
            withheld.push(hold(f.message.clone(), None, Some(f.code.name().to_owned())));
            continue;
        }
        let opened = refused.iter().copied().find(|&at| {
            history.get(at).is_some_and(|c| trial.decide_call(&c.call()).outcome == Outcome::Allow)
                && outcomes.get(at) != Some(&Outcome::Allow)
        });
        if let Some(at) = opened {
            let c = history.get(at);
            let what = c.map(|c| c.inputs.join(" ")).unwrap_or_default();
            let how = if c.is_some_and(|c| c.happened == Happened::Declined) { "a person declined" } else { "was refused" };
            withheld.push(hold(format!("it would have let `{what}` run, which {how}"), Some(line(at)), None));
            continue;
        }
        covered.extend(candidate.covers.iter().copied());
        taken.push((candidate, change));
    }

    // A proposal pays its way when dropping it would make an approved call ask again.
    let all: Vec<&SettingsChange> = taken.iter().map(|(_, c)| c).collect();
    let full = Policy::new(with(base, &all));
    let runs = |p: &Policy| -> Vec<usize> {
        approved.iter().copied().filter(|&at| history.get(at).is_some_and(|c| p.decide_call(&c.call()).outcome == Outcome::Allow)).collect()
    };
    let saved = runs(&full);
    let mut proposals = Vec::new();
    for (i, (candidate, change)) in taken.iter().enumerate() {
        let others: Vec<&SettingsChange> = taken.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, (_, c))| c).collect();
        let without = runs(&Policy::new(with(base, &others)));
        let mine: Vec<usize> = candidate.covers.iter().copied().filter(|at| saved.contains(at)).collect();
        if saved.len() == without.len() {
            let still = candidate.covers.first().and_then(|&at| history.get(at)).map(|c| full.decide_call(&c.call()).message);
            withheld.push(Withheld {
                tool: candidate.tool.clone(),
                rule: candidate.rule.clone(),
                display: candidate.display.clone(),
                covers: candidate.covers.iter().map(|&at| line(at)).collect(),
                why: format!("it would save no prompt: {}", still.unwrap_or_default()),
                refused_line: None,
                finding: None,
            });
            continue;
        }
        let n = candidate.covers.len();
        let summary = format!(
            "allow `{}`{} for {}: approved {} time{}; would have saved {} prompt{}",
            candidate.display,
            breadth(&candidate.rule),
            candidate.tool,
            n,
            if n == 1 { "" } else { "s" },
            mine.len(),
            if mine.len() == 1 { "" } else { "s" }
        );
        proposals.push(Proposal {
            tool: candidate.tool.clone(),
            rule: candidate.rule.clone(),
            display: candidate.display.clone(),
            change: change.clone(),
            covers: candidate.covers.iter().map(|&at| line(at)).collect(),
            saves: mine.len(),
            summary,
        });
    }
    proposals.sort_by(|a, b| b.saves.cmp(&a.saves).then_with(|| a.display.cmp(&b.display)));
    let kept: Vec<&SettingsChange> = proposals.iter().map(|p| &p.change).collect();
    let policy_spec = with(base, &kept);
    // Only when a proposal was withheld above do the kept ones differ from all the taken ones.
    let saved = if kept.len() == taken.len() { saved.len() } else { runs(&Policy::new(policy_spec.clone())).len() };
    LearnReport {
        approved: approved.len(),
        saved,
        summary: proposals.iter().map(|p| p.summary.clone()).collect(),
        proposals,
        withheld,
        policy: policy_spec,
    }
}

#[cfg(test)]
mod tests;
