//! "Always allow" suggestions and the permission buttons for a call.
//!
//! Every "always" option is tool-specific — never a global "allow everything": "Always allow
//! `<tool>`" sets the tool's `default_mode`, and "Always allow `<pattern>`" appends one
//! `always_allow` rule, where a pattern is drawn from the call as Zed draws it (see
//! [`super::suggest`]): a command and its subcommand per sub-command (`^cargo\s+build(\s|$)`), a
//! parent directory (`^src/`), or a web origin. Applying an option yields the [`SettingsChange`]
//! to persist.

use super::catalogue::{CatalogueName, InputKind};
use super::items::{ItemKind, Items};
use super::rules::MatcherKind;
#[cfg(feature = "analysis")]
use super::suggest;
use super::suggestion::Suggestion;
use super::{LayerKind, LayerSpec, Outcome, Policy, PolicySpec, RuleSpec};
#[cfg(feature = "shell")]
use crate::shell;
use serde::{Deserialize, Serialize};

/// What a permission button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum OptionKind {
    /// Allow the tool from now on (sets its default).
    AlwaysAllowTool,
    /// Allow calls matching a pattern from now on (adds an allow rule).
    AlwaysAllowPattern,
    /// Allow this call only.
    AllowOnce,
    /// Refuse this call only.
    DenyOnce,
}

/// Which setting a change writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ChangeKey {
    /// `tools.<tool>.default_mode` is set to `mode`.
    DefaultMode,
    /// `rule` is appended to `tools.<tool>.always_allow` (unless already there).
    AlwaysAllow,
}

/// A settings change to persist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SettingsChange {
    /// The layer to write, e.g. `user`.
    pub layer: String,
    /// The tool whose settings change.
    pub tool: String,
    /// Which setting is written.
    pub key: ChangeKey,
    /// For `defaultMode`: the new default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Outcome>,
    /// For `alwaysAllow`: the rule to append.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleSpec>,
}

/// One button of a permission prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PermissionOption {
    /// What the button does.
    pub kind: OptionKind,
    /// The button's text, such as `Always allow terminal`.
    pub label: String,
    /// For pattern options: the regex that would be added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// The settings change this option persists; absent for the one-time options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<SettingsChange>,
}

/// Whether a tool's input can be narrowed by a pattern; every other tool (MCP, custom) gets
/// `default_mode` options only.
fn is_granular(kind: InputKind) -> bool {
    !matches!(kind, InputKind::Opaque | InputKind::McpCall)
}

/// The name to show for a tool: `create_issue` for `mcp__github__create_issue`.
fn display_name(tool: &str) -> &str {
    tool.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")).map_or(tool, |(_, name)| name)
}

/// Which form a command's pattern takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// As Zed draws it, for Zed's own buttons.
    Zed,
    /// toolgate's own: a script runner's names what it runs, a program not known to only read
    /// is offered with its sub-command or as the invocation (see [`suggest::offer_for`]).
    Offer,
}

/// The patterns that would cover these inputs, by the tool's input kind.
#[cfg(feature = "analysis")]
fn input_patterns(kind: InputKind, inputs: &[String], form: Form) -> Vec<Suggestion> {
    // Only a command's patterns depend on the form.
    #[cfg(not(feature = "shell"))]
    let _ = form;
    let mut found = Vec::new();
    match kind {
        #[cfg(feature = "shell")]
        InputKind::Command { shell } => {
            for input in inputs {
                let analysis = shell::analyze_in(shell, input);
                if analysis.cannot_vouch.is_some() {
                    continue;
                }
                let commands = analysis.items.iter().filter(|i| i.kind == shell::SubCommandKind::Command);
                found.extend(commands.filter_map(|item| match form {
                    Form::Zed => suggest::command_pattern_of(item),
                    Form::Offer => suggest::offer_for(&item.text, item.name.as_deref(), &item.args),
                }));
            }
        }
        // A build that does not read command lines suggests no pattern for one.
        #[cfg(not(feature = "shell"))]
        InputKind::Command { .. } => {}
        InputKind::PathPair => {
            if let (Some(a), Some(b)) = (inputs.first(), inputs.get(1)) {
                found.extend(suggest::common_parent_pattern(a, b));
            }
        }
        InputKind::Path { .. } => found.extend(inputs.iter().filter_map(|p| suggest::path_pattern(p))),
        InputKind::Url => found.extend(inputs.iter().filter_map(|u| suggest::url_pattern(u))),
        InputKind::Query | InputKind::McpCall | InputKind::Opaque => {}
    }
    found
}

/// A build without the `analysis` feature has none of the command, path or URL matchers a
/// pattern would need, so it suggests none.
#[cfg(not(feature = "analysis"))]
fn input_patterns(_kind: InputKind, _inputs: &[String], _form: Form) -> Vec<Suggestion> {
    Vec::new()
}

/// The deepest directory holding both paths and its pattern (`^common/`), or `None` when they
/// share only the root: what a history's approved files have in common.
#[cfg(feature = "analysis")]
pub fn common_parent_suggestion(a: &str, b: &str) -> Option<(String, Suggestion)> {
    Some((suggest::common_parent(a, b)?, suggest::common_parent_pattern(a, b)?))
}

/// Without the path matchers there is no pattern to suggest.
#[cfg(not(feature = "analysis"))]
pub fn common_parent_suggestion(_a: &str, _b: &str) -> Option<(String, Suggestion)> {
    None
}

/// Re-exported for learning's common parents.
#[cfg(feature = "analysis")]
pub(crate) use suggest::too_broad_dir;

/// Without the path matchers there are no directories to offer.
#[cfg(not(feature = "analysis"))]
pub(crate) fn too_broad_dir(_dir: &str, _home: Option<&str>) -> bool {
    true
}

impl Policy {
    /// Drops what no prompt may offer: a directory that holds far more than the person approved.
    /// What is shown of each is written out where it hides characters (see [`crate::visible`]).
    fn offerable(&self, found: Vec<Suggestion>) -> Vec<Suggestion> {
        found
            .into_iter()
            .filter(|s| !(s.display.ends_with('/') && too_broad_dir(&s.display, self.host_home())))
            .map(|s| Suggestion { display: crate::visible::visible(&s.display).into_owned(), ..s })
            .collect()
    }

    /// Patterns that would cover parts of this call, one per distinct command, directory or origin.
    pub fn suggestions(&self, tool: &str, inputs: &[String]) -> Vec<Suggestion> {
        self.offerable(unique(input_patterns(self.input_kind(tool), inputs, Form::Offer)))
    }

    /// Rules that would cover the items no allow rule covered, in the form the policy's
    /// allow rules take: a command prefix or a regex for commands, an entry for MCP calls.
    pub(crate) fn suggestions_for(&self, tool: &str, items: &Items) -> Vec<Suggestion> {
        if items.cannot_vouch.is_some() {
            return Vec::new();
        }
        // At most one per item not covered; sized to that, the usual one or two suggestions
        // (a few hundred bytes each) fit the allocator's small blocks, where growing to four would not.
        let mut found = Vec::with_capacity(items.list.iter().filter(|i| i.allowed_by.is_none()).count());
        // A secret file is never offered: a person approves reading it once, or not at all.
        if items.names_secret() {
            return Vec::new();
        }
        for item in items.list.iter().filter(|i| i.allowed_by.is_none()) {
            match (item.kind, item.pair(), item.name.as_deref()) {
                // A Gasoline call is a tool and its action; any other call an MCP server and tool.
                (ItemKind::Call, Some((tool, action)), _) if self.spec().catalogue == CatalogueName::Gasoline => {
                    let pattern = format!("{tool}.{action}");
                    found.push(Suggestion {
                        rule: MatcherKind::ToolAction,
                        pattern: pattern.clone(),
                        display: pattern,
                        source: item.text.clone(),
                    });
                }
                (ItemKind::Call, Some((server, name)), _) => {
                    let entry = format!("{server}:{name}");
                    found.push(Suggestion { rule: MatcherKind::Mcp, pattern: entry.clone(), display: entry, source: item.text.clone() });
                }
                (ItemKind::Command, _, Some(name)) if self.spec().suggest == SuggestionForm::Prefix => {
                    found.push(Suggestion {
                        rule: MatcherKind::Prefix,
                        pattern: name.to_owned(),
                        display: name.to_owned(),
                        source: item.text.clone(),
                    });
                }
                #[cfg(feature = "analysis")]
                (ItemKind::Command, _, Some(name)) => found.extend(suggest::offer_for(&item.text, Some(name), &item.args)),
                _ => {}
            }
        }
        if found.is_empty() && !matches!(self.input_kind(tool), InputKind::Command { .. } | InputKind::McpCall) {
            let inputs: Vec<String> = items.list.iter().filter(|i| i.kind != ItemKind::NormalizedPath).map(|i| i.text.clone()).collect();
            return self.suggestions(tool, &inputs);
        }
        self.offerable(unique(found))
    }

    /// The buttons for a permission prompt about this call, writing "always" choices to `layer`.
    /// A write to a protected path gets only "Allow" and "Deny": no "always" choice could lift it;
    /// nor does a call reading a secret file or holding characters a person cannot see.
    pub fn permission_options(&self, tool: &str, inputs: &[String], layer: &str) -> Vec<PermissionOption> {
        let once = || {
            [
                PermissionOption { kind: OptionKind::AllowOnce, label: "Allow".into(), pattern: None, change: None },
                PermissionOption { kind: OptionKind::DenyOnce, label: "Deny".into(), pattern: None, change: None },
            ]
        };
        let decision = self.decide(tool, inputs);
        // No "always" choice lifts a protected path; none is offered for reading a secret file or
        // for a call holding characters a person cannot see.
        if decision.reason == super::Reason::ProtectedPath || decision.approvable_only_once(inputs) {
            return once().into();
        }
        let mut options = vec![PermissionOption {
            kind: OptionKind::AlwaysAllowTool,
            label: format!("Always allow {}", display_name(tool)),
            pattern: None,
            change: Some(SettingsChange {
                layer: layer.to_owned(),
                tool: tool.to_owned(),
                key: ChangeKey::DefaultMode,
                mode: Some(Outcome::Allow),
                rule: None,
            }),
        }];
        if is_granular(self.input_kind(tool)) {
            // A button for a part an allow rule already covers would change nothing.
            let covered = |source: &str| decision.items.iter().any(|i| i.text == source && i.allowed_by.is_some());
            let zed = self.offerable(unique(input_patterns(self.input_kind(tool), inputs, Form::Zed)));
            for s in zed.into_iter().filter(|s| !covered(&s.source)) {
                options.push(PermissionOption {
                    kind: OptionKind::AlwaysAllowPattern,
                    label: format!("Always allow `{}`", s.display),
                    change: Some(SettingsChange {
                        layer: layer.to_owned(),
                        tool: tool.to_owned(),
                        key: ChangeKey::AlwaysAllow,
                        mode: None,
                        rule: Some(s.rule_spec()),
                    }),
                    pattern: Some(s.pattern),
                });
            }
        }
        options.extend(once());
        options
    }
}

/// Keeps the first suggestion of each pattern.
fn unique(mut found: Vec<Suggestion>) -> Vec<Suggestion> {
    let mut kept = 0;
    for i in 0..found.len() {
        let seen = found.get(i).is_some_and(|s| found.get(..kept).unwrap_or_default().iter().any(|u| u.pattern == s.pattern));
        if !seen {
            found.swap(kept, i);
            kept += 1;
        }
    }
    found.truncate(kept);
    found
}

/// The form "always allow" suggestions take for commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SuggestionForm {
    /// A regex (Zed).
    #[default]
    Regex,
    /// A command prefix: the command word (Cursor's allowlist).
    Prefix,
}

impl PolicySpec {
    /// Applies a change: sets the default or appends the rule (once) in the named layer,
    /// adding a user layer of that name at the end if there is none.
    pub fn apply(&mut self, change: &SettingsChange) {
        let at = match self.layers.iter().position(|l| l.name == change.layer) {
            Some(at) => at,
            None => {
                self.layers.push(LayerSpec { name: change.layer.clone(), kind: LayerKind::User, ..LayerSpec::default() });
                self.layers.len() - 1
            }
        };
        let Some(layer) = self.layers.get_mut(at) else { return };
        let rules = layer.tools.entry(change.tool.clone()).or_default();
        match change.key {
            ChangeKey::DefaultMode => rules.default_mode = change.mode.or(rules.default_mode),
            ChangeKey::AlwaysAllow => {
                if let Some(rule) = &change.rule {
                    if !rules.always_allow.contains(rule) {
                        rules.always_allow.push(rule.clone());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_below;

    /// The in-place [`unique`] against the plain loop: a new list, each pattern's first kept.
    #[test]
    fn unique_keeps_the_first_of_each_pattern_in_order() {
        let mut next = random_below(0x5eed);
        for _ in 0..2_000 {
            let found: Vec<Suggestion> = (0..next(9))
                .map(|n| {
                    let pattern = format!("p{}", next(4));
                    Suggestion { rule: MatcherKind::Regex, pattern, display: format!("d{n}"), source: format!("s{n}") }
                })
                .collect();
            let mut plain: Vec<Suggestion> = Vec::new();
            for s in found.clone() {
                if !plain.iter().any(|u| u.pattern == s.pattern) {
                    plain.push(s);
                }
            }
            assert_eq!(unique(found.clone()), plain, "{found:?}");
        }
    }

    /// A suggestion's matcher name writes the rule a full spec per suggestion held: the same
    /// spec, and the same JSON, `rule` between `pattern` and `display` as before.
    #[test]
    fn a_suggested_matcher_writes_the_rule_spec_it_names() {
        let pattern = "^cargo\\s+build(\\s|$)";
        for (rule, spec) in [
            (MatcherKind::Regex, RuleSpec::regex(pattern, false)),
            (MatcherKind::Prefix, RuleSpec::prefix(pattern)),
            (MatcherKind::Mcp, RuleSpec::mcp(pattern)),
            (MatcherKind::ToolAction, RuleSpec::tool_action(pattern)),
        ] {
            let suggestion =
                Suggestion { pattern: pattern.to_owned(), rule, display: "cargo build".into(), source: "cargo build -r".into() };
            assert_eq!(suggestion.rule_spec(), spec);
            let written = serde_json::to_string(&suggestion).unwrap();
            let expected = format!(
                r#"{{"pattern":{p},"rule":{r},"display":"cargo build","source":"cargo build -r"}}"#,
                p = serde_json::to_string(pattern).unwrap(),
                r = serde_json::to_string(&spec).unwrap()
            );
            assert_eq!(written, expected);
        }
    }
}
