//! Gates: the decision procedure as data. A gate is a condition on the call and the outcome it
//! forces; the evaluator runs a policy's gates in order and the first that holds decides. Rule
//! lists are conditions too (`denyRule`, `confirmRule`, `allowRules`), so Zed's precedence and
//! Cursor's ordered cases are two lists of the same thing. No gate holding means the defaults.

use super::items::{ItemKind, Items};
use super::matchers::mcp_name::{validate_name, NameKind};
use super::path::normalize_path;
use super::reason::Reason;
use super::rules::{ListKind, RuleRef};
use super::{InvalidPatternPolicy, Outcome, Policy, PolicySpec, SubstitutionPolicy, ToolIndex, UnparsedPolicy};
use crate::shell::Shell;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One step of the decision procedure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Gate {
    /// The tools it applies to; absent: every tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// The condition on the call.
    pub when: Condition,
    /// What the gate forces when its condition holds.
    pub outcome: Outcome,
    /// The reason a decision by this gate reports.
    pub reason: Reason,
    /// The explanation; absent: one is made from the reason and what the condition found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Gate {
    /// A gate for every tool.
    pub fn new(when: Condition, outcome: Outcome, reason: Reason) -> Self {
        Gate { tools: None, when, outcome, reason, message: None }
    }

    /// The same gate, for these tools only.
    pub fn for_tools(mut self, tools: &[&str]) -> Self {
        self.tools = Some(tools.iter().map(|t| (*t).to_owned()).collect());
        self
    }

    pub(crate) fn applies_to(&self, tool: &str) -> bool {
        self.tools.as_ref().is_none_or(|tools| tools.iter().any(|t| t == tool))
    }
}

/// What a gate looks for in a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Condition {
    /// Every call.
    Always,
    /// A command removes `/`, a home or the working directory (the built-in `rm` guard).
    RemovesProtectedTree,
    /// The tool has a rule that did not compile (in `list`, or in any list).
    InvalidRule {
        /// Only rules of this list count; absent: any list.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        list: Option<ListKind>,
    },
    /// A command's text is not what runs (`$VAR`, `$(…)`, …) and the tool is not allowed
    /// unconditionally.
    ExpansionInRestrictedTool,
    /// The command's shell is not analysed at all and the tool has allow rules.
    UnanalysedShellWithAllowRules,
    /// The shell analysis cannot vouch for the line (it does not parse, or uses syntax that is
    /// not modelled); with `unlessUnrestricted`, not when the tool is allowed unconditionally.
    CannotVouch {
        /// Not when the tool is allowed unconditionally.
        #[serde(default)]
        unless_unrestricted: bool,
    },
    /// The call has nothing to check (an empty command line, a comment).
    NothingToCheck,
    /// Deny and confirm rules cannot be checked reliably against the call (it was not vouched
    /// for, its text is not what runs, or a program's name cannot be read from it) and the tool
    /// has such rules: what a mode or default would run unread.
    UnsureInRestrictedTool,
    /// A command runs `program`, itself or through wrappers (`env sudo …`, `nice rm …`).
    Runs {
        /// The program's name as a command word (`rm`, `sudo`).
        program: String,
    },
    /// An item has a hazard (a substitution, a redirect to a file, …).
    AnyHazard,
    /// A path has a hidden component (`.env`, `src/.git/config`), once normalised.
    HiddenPath,
    /// A path lies outside every root, once normalised; relative paths are inside.
    OutsideRoots {
        /// The workspace roots.
        roots: Vec<String>,
    },
    /// An MCP call's server or tool name is invalid.
    InvalidName,
    /// An MCP call's server is one of these.
    Server {
        /// The server ids to look for.
        ids: Vec<String>,
    },
    /// An item matches a deny rule of any layer.
    DenyRule,
    /// An item matches a confirm rule of any layer.
    ConfirmRule,
    /// Every item matches an allow rule, none has a hazard, and the line was vouched for.
    AllowRules,
    /// Every command that names a program matches an allow rule (other items, such as input
    /// redirects, need no rule); none has a hazard, and the line was vouched for (Cursor).
    CommandsAllowed,
}

/// The standard procedure: hard-coded denials > invalid rules > substitutions > unanalysed
/// shells > deny > unparsed lines > confirm > allow, shaped by the policy's switches.
pub fn standard(spec: &PolicySpec) -> Vec<Gate> {
    let mut gates = vec![Gate::new(Condition::RemovesProtectedTree, Outcome::Deny, Reason::HardcodedDeny)];
    let invalid_denies = match spec.invalid_patterns {
        InvalidPatternPolicy::BlockTool => None,
        InvalidPatternPolicy::FailClosed => Some(ListKind::AlwaysDeny),
    };
    gates.push(Gate::new(Condition::InvalidRule { list: invalid_denies }, Outcome::Deny, Reason::InvalidPattern));
    if spec.substitutions == SubstitutionPolicy::Deny {
        gates.push(Gate::new(Condition::ExpansionInRestrictedTool, Outcome::Deny, Reason::Substitution));
    }
    gates.push(Gate::new(Condition::UnanalysedShellWithAllowRules, Outcome::Deny, Reason::UnsupportedShell));
    // Deny rules first, so a line that also fails to parse names the rule it hit.
    gates.push(Gate::new(Condition::DenyRule, Outcome::Deny, Reason::DenyRule));
    if spec.unparsed_commands == UnparsedPolicy::Deny {
        gates.push(Gate::new(Condition::CannotVouch { unless_unrestricted: true }, Outcome::Deny, Reason::ParseFailed));
    }
    gates.push(Gate::new(Condition::ConfirmRule, Outcome::Confirm, Reason::ConfirmRule));
    if spec.invalid_patterns == InvalidPatternPolicy::FailClosed {
        gates.push(Gate::new(Condition::InvalidRule { list: Some(ListKind::AlwaysConfirm) }, Outcome::Confirm, Reason::InvalidPattern));
    }
    gates.push(Gate::new(Condition::AllowRules, Outcome::Allow, Reason::AllowRule));
    gates
}

/// What a condition found: the item, the rule, and a detail for the explanation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hit {
    pub item: Option<String>,
    pub rule: Option<Arc<RuleRef>>,
    pub detail: Option<String>,
}

impl Hit {
    fn item(text: &str) -> Self {
        Hit { item: Some(text.to_owned()), ..Hit::default() }
    }
}

/// Whether the call has a hidden path component (Cursor's dotfile protection).
fn is_hidden(normalized: &str) -> bool {
    normalized.split('/').any(|part| part.starts_with('.') && part != "." && part != "..")
}

/// Whether a normalised path lies inside one of the roots; relative paths are relative to the first root.
fn inside_roots(normalized: &str, roots: &[String]) -> bool {
    if !normalized.starts_with('/') {
        return !roots.is_empty() && normalized != ".." && !normalized.starts_with("../");
    }
    roots
        .iter()
        .map(|r| normalize_path(r))
        .any(|root| normalized == root || normalized.starts_with(&format!("{}/", root.trim_end_matches('/'))))
}

fn path_items<'a>(items: &'a Items<'_>) -> impl Iterator<Item = (&'a str, String)> {
    items.list.iter().filter(|i| i.kind == ItemKind::Path).map(|i| (i.text.as_str(), normalize_path(&i.text)))
}

/// A path's readings on every platform, normalised: as written (POSIX), and as Windows reads it
/// when that differs; `None` for a path Windows reads as outside every directory (a share, a
/// device, a drive-relative path: [`super::path::windows_reading`]).
fn readings(raw: &str) -> Option<Vec<String>> {
    let mut all = vec![normalize_path(raw)];
    match super::path::windows_reading(raw) {
        super::path::WindowsReading::Same => {}
        super::path::WindowsReading::Outside(_) => return None,
        super::path::WindowsReading::Path(read) => all.push(normalize_path(&read)),
    }
    Some(all)
}

/// The built-in `rm` guard on a command line's items, and on its raw text where the analysis
/// cannot vouch for what runs.
#[cfg(feature = "analysis")]
fn removes_protected_tree(items: &Items) -> Option<Hit> {
    let raw: &[String] = if items.unsure().is_some() { items.also_deny_checked } else { &[] };
    super::hardcoded::check(raw, &items.list).map(|h| Hit { item: Some(h.item), rule: None, detail: Some(h.detail) })
}

/// The first command that runs `program`, itself, through wrappers or by a path to it.
#[cfg(feature = "analysis")]
fn runs(items: &Items, program: &str) -> Option<Hit> {
    let named = |name: &str| crate::shell::base_name(name) == program;
    items
        .commands()
        .find(|c| c.name.as_deref().is_some_and(named) || c.runs_as.iter().any(|form| named(&form.name)))
        .map(|c| Hit::item(&c.text))
}

/// Without the shell analysis nothing shows that a command line is harmless, so the condition
/// holds for any (fail closed). Not reached: such a build asks before its gates (`items::unanalysed`).
#[cfg(not(feature = "analysis"))]
fn removes_protected_tree(items: &Items) -> Option<Hit> {
    items.list.first().map(|i| Hit::item(&i.text))
}

/// See the other `removes_protected_tree`: without the analysis, any command line may run `program`.
#[cfg(not(feature = "analysis"))]
fn runs(items: &Items, _program: &str) -> Option<Hit> {
    items.list.first().map(|i| Hit::item(&i.text))
}

/// Checks a structural condition (rule-list conditions are the evaluator's); `None` when it does not hold.
pub(crate) fn check(when: &Condition, policy: &Policy, rules: Option<&ToolIndex>, items: &Items) -> Option<Hit> {
    match when {
        // For a path or a call, the item is what a message about the whole call names.
        Condition::Always => {
            Some(Hit { item: items.shell.is_none().then(|| items.list.first().map(|i| i.text.clone())).flatten(), ..Hit::default() })
        }
        Condition::RemovesProtectedTree => {
            items.shell?;
            removes_protected_tree(items)
        }
        Condition::InvalidRule { list } => {
            let bad = rules?.invalid.iter().find(|p| list.is_none_or(|l| p.list == l))?;
            let count = rules.map_or(0, |r| r.invalid.len());
            Some(Hit {
                item: None,
                rule: None,
                detail: Some(format!(
                    "{count} pattern(s) failed to compile; the first is {} pattern {} \"{}\" in layer \"{}\": {}",
                    bad.list.settings_key(),
                    bad.index,
                    bad.pattern,
                    bad.layer,
                    bad.error
                )),
            })
        }
        Condition::ExpansionInRestrictedTool => (items.has_expansion && !policy.allows_everything(rules)).then(Hit::default),
        Condition::UnanalysedShellWithAllowRules => {
            (items.shell == Some(Shell::Unknown) && rules.is_some_and(|r| !r.allow.is_empty())).then(Hit::default)
        }
        Condition::CannotVouch { unless_unrestricted } => {
            let why = items.cannot_vouch.as_ref()?;
            (!unless_unrestricted || !policy.allows_everything(rules)).then(|| Hit { detail: Some(why.clone()), ..Hit::default() })
        }
        Condition::NothingToCheck => {
            let empty = if items.shell.is_some() { items.commands().next().is_none() } else { items.list.is_empty() };
            empty.then(Hit::default)
        }
        Condition::Runs { program } => runs(items, program),
        Condition::UnsureInRestrictedTool => {
            let why = items.unsure()?;
            rules.is_some_and(super::ToolIndex::has_restrictions).then(|| Hit { detail: Some(why), ..Hit::default() })
        }
        Condition::AnyHazard => {
            let item = items.commands().find(|c| !c.hazards.is_empty()).or_else(|| items.list.iter().find(|i| !i.hazards.is_empty()))?;
            Some(Hit { item: Some(item.text.clone()), rule: None, detail: item.hazards.first().map(|h| h.why.clone()) })
        }
        // Under any platform's reading: `a\.env` is hidden, `src/..\..\x` and `\\host\share\x` outside.
        Condition::HiddenPath => path_items(items)
            .find(|(raw, normal)| is_hidden(normal) || readings(raw).is_some_and(|all| all.iter().any(|r| is_hidden(r))))
            .map(|(_, normal)| Hit::item(&normal)),
        Condition::OutsideRoots { roots } => path_items(items)
            .find(|(raw, _)| readings(raw).is_none_or(|all| all.iter().any(|r| !inside_roots(r, roots))))
            .map(|(_, normal)| Hit::item(&normal)),
        Condition::InvalidName => items.list.iter().find_map(|i| {
            let (server, tool) = i.pair()?;
            let error = validate_name(server, NameKind::Server).and_then(|()| validate_name(tool, NameKind::Tool)).err()?;
            Some(Hit { item: Some(i.text.clone()), rule: None, detail: Some(error.to_string()) })
        }),
        Condition::Server { ids } => {
            items.list.iter().find(|i| i.pair().is_some_and(|(server, _)| ids.iter().any(|id| id == server))).map(|i| Hit::item(&i.text))
        }
        Condition::DenyRule | Condition::ConfirmRule | Condition::AllowRules | Condition::CommandsAllowed => None,
    }
}
