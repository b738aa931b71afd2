//! The pass every export goes through, so that no format is given an allow rule without the deny
//! and confirm rules that limit it, and no report calls a rule exact that the format does not
//! decide as the policy does.
//!
//! Each agent applies its rules by its own procedure: Claude Code deny, then ask, then allow
//! (code.claude.com/docs/en/permissions, "Manage permissions"); Codex the strictest of all
//! matching rules (openai/codex `codex-rs/execpolicy/README.md`); VS Code a `false` entry before
//! any `true` one (`commandLineAutoApprover.ts` `isCommandAutoApproved`); Cursor deny before
//! allow (cursor.com/docs/cli/reference/permissions); Gemini CLI the highest priority
//! (`policy-engine.ts` `check`). Each exporter writes its deny and confirm rules so its agent
//! applies them before the allow rules it writes. Where a format cannot carry one (Cursor has no
//! ask list, the editor's `permissions.json` no deny list, Codex no path rules, a regex no
//! `Bash(…)` glob), an allow rule of the same tool would run what that rule refuses or asks
//! about. So, before a format writes anything:
//!
//! 1. the policy's presets become layers of their own: they are rules like any other;
//! 2. an untrusted layer's allow rules and allowing defaults are left out, as toolgate ignores them;
//! 3. for each deny or confirm rule the format cannot carry, every allow rule the format would
//!    write that may meet a call the rule matches is left out, and the report says which call and
//!    why. An allow rule *may meet* a strict rule when it lets through a call the strict rule
//!    matches — one of the strict rule's witnesses (lint's [`crate::lint::rule_witnesses`]), the
//!    allow rule's own, or the two joined — or when their texts do not show them apart (the
//!    literal text every match starts with, the MCP server or tool they name). A path rule
//!    reaches further: toolgate applies it to the paths a command names, so it meets every
//!    terminal allow rule that is not one exact command.
//!
//! After the format writes, the files are read back with the same format's importer and each
//! rule reported exact is decided on its witnesses by the policy and by the read-back: where the
//! two differ, the report says so ([`verify`]).

use super::{
    kind_of, list_of, rules_of, ExportReport, ExportResult, ImportContext, ImportSource, PeerFormat, RulePlace, Translation, TERMINAL,
};
use crate::policy::rules::{compile_rule, Subject};
use crate::policy::{InputKind, LayerSpec, ListKind, MatcherKind, Outcome, Policy, PolicySpec, RuleSpec};
use std::collections::BTreeMap;

/// Whether a format carries a rule of a layer: writes something its agent applies to at least
/// every call a deny or confirm rule matches (before any allow rule it writes), or to at most the
/// calls an allow rule matches. `Some(Stricter)` for a deny or confirm rule: what is written
/// matches more (the words every match starts with); `None`: nothing that carries it.
pub(crate) type Carries<'a> = &'a dyn Fn(&RulePlace, &RuleSpec, &LayerSpec) -> Option<Translation>;

/// The policy a format writes, and what the pass left out of it.
pub(crate) struct Guarded {
    /// The policy to write: presets as layers, the allow rules left out removed.
    pub policy: PolicySpec,
    /// The policy as given, presets as layers: what the written files must decide like.
    pub whole: PolicySpec,
    /// For each rule of `policy` (layer, tool, list, index), its list and index in `whole`.
    origin: BTreeMap<(String, String, u8, usize), (ListKind, usize)>,
    /// The untrusted layers' confirm rules written as deny rules (their places in `whole`).
    moved: Vec<RulePlace>,
    /// A report entry for each rule left out.
    left_out: Vec<ExportReport>,
}

/// The policy with its presets as layers (after its own, as [`Policy::new`] adds them).
fn with_presets(policy: &PolicySpec) -> PolicySpec {
    let mut whole = policy.clone();
    #[cfg(feature = "analysis")]
    {
        let mut kinds = crate::policy::catalogue::tools(policy.catalogue);
        kinds.extend(policy.tool_kinds.iter().map(|(tool, kind)| (tool.clone(), *kind)));
        whole.layers.extend(crate::presets::layers_for(&policy.presets, &kinds));
    }
    whole.presets.clear();
    whole
}

/// The tools an allow rule of a tool becomes once a format's file is read back (Claude Code's
/// `Read` is every reading tool's): an allow rule is written only where the policy allows the
/// same on each of them.
pub(crate) type ReadsBackAs<'a> = &'a dyn Fn(&str) -> &'static [&'static str];

/// Leaves out of `policy` what a format must not write: untrusted layers' allow rules and
/// allowing defaults, every allow rule that may meet a deny or confirm rule the format cannot
/// carry, and every allow rule the format would also write for a tool where the policy does not
/// allow the same.
pub(crate) fn guard(format: PeerFormat, policy: &PolicySpec, carries: Carries<'_>, reads_back_as: ReadsBackAs<'_>) -> Guarded {
    let whole = with_presets(policy);
    let mut out = whole.clone();
    let layer_of = |name: &str| whole.layers.iter().find(|l| l.name == name);
    let compiled = Policy::new(whole.clone());
    let refuses_by_default = |tool: &str| compiled.default_for(compiled.tool(tool)).0 == Outcome::Deny;
    // A confirm rule written wider asks for more calls; where the tool refuses by default, those
    // would ask where the policy refuses them: such a rule is left out instead (the calls it
    // matches meet the format's default).
    let widened: Vec<RulePlace> = rules_of(&whole)
        .into_iter()
        .filter(|(place, rule)| {
            place.list == Some(ListKind::AlwaysConfirm)
                && refuses_by_default(&place.tool)
                && layer_of(&place.layer).is_some_and(|layer| layer.trusted && carries(place, rule, layer) == Some(Translation::Stricter))
        })
        .map(|(place, _)| place)
        .collect();
    // The deny and confirm rules the format cannot carry.
    let uncarried: Vec<(RulePlace, &RuleSpec)> = rules_of(&whole)
        .into_iter()
        .filter(|(place, rule)| {
            place.list != Some(ListKind::AlwaysAllow)
                && (widened.contains(place) || layer_of(&place.layer).is_some_and(|layer| carries(place, rule, layer).is_none()))
        })
        .collect();
    let allows: Vec<(RulePlace, &RuleSpec)> =
        rules_of(&whole).into_iter().filter(|(place, _)| place.list == Some(ListKind::AlwaysAllow)).collect();
    let mut why_left_out: Vec<Option<String>> = allows
        .iter()
        .map(|(place, rule)| {
            let layer = layer_of(&place.layer)?;
            if !layer.trusted {
                return Some(format!("layer \"{}\" is not trusted: toolgate ignores its allow rules, so it is not written", layer.name));
            }
            carries(place, rule, layer)?;
            uncarried.iter().find_map(|(strict_place, strict)| {
                meets(&whole, (&place.tool, rule), (strict_place, strict)).map(|how| {
                    let verb = if strict_place.list == Some(ListKind::AlwaysDeny) { "refuses" } else { "asks about" };
                    format!(
                        "{how}, which the {} {} rule \"{}\" of layer \"{}\" {verb}; {} cannot carry that rule, so this allow rule is left out (those calls ask)",
                        strict_place.tool,
                        if strict_place.list == Some(ListKind::AlwaysDeny) { "deny" } else { "confirm" },
                        strict.text(),
                        strict_place.layer,
                        format_name(format)
                    )
                })
            })
        })
        .collect();
    // An allow rule written for one tool and read back for others needs the same allow rule,
    // kept, on each of them; leaving one out can leave out another, so until nothing changes.
    loop {
        let mut changed = false;
        for i in 0..allows.len() {
            let (Some((place, rule)), Some(None)) = (allows.get(i), why_left_out.get(i)) else { continue };
            let Some(layer) = layer_of(&place.layer) else { continue };
            if carries(place, rule, layer).is_none() {
                continue;
            }
            let missing = reads_back_as(&place.tool).iter().copied().filter(|t| *t != place.tool).find(|other| {
                !allows.iter().zip(&why_left_out).any(|((p, r), why)| {
                    why.is_none() && p.tool == *other && same_matcher(r, rule) && layer_of(&p.layer).is_some_and(|l| l.trusted)
                })
            });
            if let Some(other) = missing {
                let why = format!(
                    "{} reads it back as an allow rule for `{other}` too, where the policy does not allow the same, so it is not written",
                    format_name(format)
                );
                if let Some(slot) = why_left_out.get_mut(i) {
                    *slot = Some(why);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut dropped: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    let mut left_out = Vec::new();
    for ((place, rule), why) in allows.into_iter().zip(why_left_out) {
        let (Some(why), Some(index)) = (why, place.index) else { continue };
        dropped.entry((place.layer.clone(), place.tool.clone())).or_default().push(index);
        left_out.push(ExportReport {
            place,
            rule: rule.text().to_owned(),
            translation: Translation::Impossible,
            why: Some(why),
            written: Vec::new(),
        });
    }
    // Where a tool refuses by default, toolgate never lets an untrusted layer's confirm rule
    // lower that (`evaluate.rs`): such a rule is a deny, and is written as one.
    for place in &widened {
        let rule = rules_of(&whole).into_iter().find(|(p, _)| p == place).map(|(_, r)| r.text().to_owned()).unwrap_or_default();
        left_out.push(ExportReport {
            place: place.clone(),
            rule,
            translation: Translation::Impossible,
            why: Some(format!(
                "{} can write it only wider, which would ask where the policy refuses by default; left out, so the calls it matches meet {}'s default",
                format_name(format),
                format_name(format)
            )),
            written: Vec::new(),
        });
    }
    let mut moved = Vec::new();
    let mut origin = BTreeMap::new();
    for layer in &mut out.layers {
        if !layer.trusted && layer.default_mode == Some(Outcome::Allow) {
            layer.default_mode = None;
        }
        for (tool, rules) in &mut layer.tools {
            if !layer.trusted && rules.default_mode == Some(Outcome::Allow) {
                rules.default_mode = None;
            }
            let gone = dropped.get(&(layer.name.clone(), tool.clone()));
            let mut at = |list: ListKind, index: usize, from: (ListKind, usize)| {
                origin.insert((layer.name.clone(), tool.clone(), rank(list), index), from);
            };
            let allows: Vec<(usize, RuleSpec)> = std::mem::take(&mut rules.always_allow)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !gone.is_some_and(|g| g.contains(i)))
                .collect();
            for (new, (old, rule)) in allows.into_iter().enumerate() {
                at(ListKind::AlwaysAllow, new, (ListKind::AlwaysAllow, old));
                rules.always_allow.push(rule);
            }
            let lowered = !layer.trusted && refuses_by_default(tool);
            let confirms: Vec<(usize, RuleSpec)> = std::mem::take(&mut rules.always_confirm).into_iter().enumerate().collect();
            for (old, _) in rules.always_deny.iter().enumerate() {
                at(ListKind::AlwaysDeny, old, (ListKind::AlwaysDeny, old));
            }
            for (old, rule) in confirms {
                let place =
                    RulePlace { layer: layer.name.clone(), tool: tool.clone(), list: Some(ListKind::AlwaysConfirm), index: Some(old) };
                if widened.contains(&place) {
                    continue;
                }
                if lowered {
                    at(ListKind::AlwaysDeny, rules.always_deny.len(), (ListKind::AlwaysConfirm, old));
                    rules.always_deny.push(rule);
                    moved.push(RulePlace {
                        layer: layer.name.clone(),
                        tool: tool.clone(),
                        list: Some(ListKind::AlwaysConfirm),
                        index: Some(old),
                    });
                } else {
                    at(ListKind::AlwaysConfirm, rules.always_confirm.len(), (ListKind::AlwaysConfirm, old));
                    rules.always_confirm.push(rule);
                }
            }
        }
    }
    Guarded { policy: out, whole, origin, moved, left_out }
}

/// A list's position in the order rules are reported: deny, confirm, allow.
fn rank(list: ListKind) -> u8 {
    match list {
        ListKind::AlwaysDeny => 0,
        ListKind::AlwaysConfirm => 1,
        ListKind::AlwaysAllow => 2,
    }
}

/// Whether two rules match the same calls: the same matcher, whatever their examples say.
fn same_matcher(a: &RuleSpec, b: &RuleSpec) -> bool {
    RuleSpec { examples: Default::default(), human: false, ..a.clone() }
        == RuleSpec { examples: Default::default(), human: false, ..b.clone() }
}

impl Guarded {
    /// The format's result with the places of the policy as given, the rules left out reported,
    /// and every default the format did not report on reported, in the policy's order.
    pub(crate) fn finish(self, format: PeerFormat, mut result: ExportResult) -> ExportResult {
        for entry in &mut result.report {
            let (Some(list), Some(index)) = (entry.place.list, entry.place.index) else { continue };
            let key = (entry.place.layer.clone(), entry.place.tool.clone(), rank(list), index);
            if let Some((list, index)) = self.origin.get(&key) {
                entry.place.list = Some(*list);
                entry.place.index = Some(*index);
            }
            if self.moved.contains(&entry.place) {
                let note = format!(
                    "layer \"{}\" is not trusted and the tool refuses by default: toolgate never lets the layer's confirm rule lower that, so it is written as a deny rule",
                    entry.place.layer
                );
                entry.why = Some(entry.why.take().map_or_else(|| note.clone(), |w| format!("{w}; {note}")));
            }
        }
        result.report.extend(self.left_out);
        let mut defaults: Vec<(RulePlace, Outcome)> = Vec::new();
        if self.policy.default_mode != Outcome::Confirm {
            defaults.push((RulePlace { layer: String::new(), tool: "*".into(), list: None, index: None }, self.policy.default_mode));
        }
        for layer in &self.policy.layers {
            if let Some(mode) = layer.default_mode {
                defaults.push((RulePlace { layer: layer.name.clone(), tool: "*".into(), list: None, index: None }, mode));
            }
            for (tool, rules) in &layer.tools {
                if let Some(mode) = rules.default_mode {
                    defaults.push((RulePlace { layer: layer.name.clone(), tool: tool.clone(), list: None, index: None }, mode));
                }
            }
        }
        for (place, mode) in defaults {
            if result.report.iter().any(|e| e.place == place) {
                continue;
            }
            let (translation, why) = unwritten_default(format, mode);
            result.report.push(ExportReport {
                place,
                rule: format!("defaultMode {mode:?}"),
                translation,
                why: Some(why),
                written: Vec::new(),
            });
        }
        let layer_at = |name: &str| self.whole.layers.iter().position(|l| l.name == name).unwrap_or(usize::MAX);
        let list_rank = |list: Option<ListKind>| list.map_or(3, rank);
        result.report.sort_by(|a, b| {
            let key = |e: &ExportReport| {
                (e.place.list.is_none(), layer_at(&e.place.layer), e.place.tool.clone(), list_rank(e.place.list), e.place.index)
            };
            key(a).cmp(&key(b))
        });
        result
    }
}

/// What becomes of a default a format has no place for: the agent's own fallback decides the
/// calls no rule decides, which asks (Codex's depends on its `approval_policy`).
fn unwritten_default(format: PeerFormat, mode: Outcome) -> (Translation, String) {
    if format == PeerFormat::Codex {
        return (
            Translation::Impossible,
            "Codex decides the commands no rule matches by its `approval_policy` (`untrusted` asks for all but its known-safe commands, `on-request` runs them in the sandbox), which a .rules file cannot set".into(),
        );
    }
    let name = format_name(format);
    match mode {
        Outcome::Confirm => (Translation::Exact, format!("{name} asks for calls no rule decides")),
        Outcome::Allow => {
            (Translation::Stricter, format!("not written: {name} asks for calls no rule decides, where the policy allows them"))
        }
        Outcome::Deny => (
            Translation::Impossible,
            format!("not written: {name} has no default here, so calls no rule decides ask, where the policy refuses them"),
        ),
    }
}

/// The format's name as its users know it.
pub(crate) fn format_name(format: PeerFormat) -> &'static str {
    match format {
        PeerFormat::ClaudeCode => "Claude Code",
        PeerFormat::Codex => "Codex",
        PeerFormat::Vscode => "VS Code",
        PeerFormat::CursorCli => "Cursor",
        PeerFormat::CursorEditor => "the Cursor editor's permissions.json",
        PeerFormat::GeminiCli => "Gemini CLI",
    }
}

/// A policy of one layer holding `rules`, deciding as `base` does otherwise (its tools' kinds
/// and its host).
fn probe_policy(base: &PolicySpec, rules: &[(&str, ListKind, &RuleSpec)]) -> Policy {
    let mut layer = LayerSpec { name: "probe".into(), ..LayerSpec::default() };
    for (tool, list, rule) in rules {
        list_of(layer.tools.entry((*tool).to_owned()).or_default(), *list).push((*rule).clone());
    }
    // Without the shell analysis a policy has no host.
    #[cfg_attr(not(feature = "analysis"), allow(unused_mut))]
    let mut spec =
        PolicySpec { layers: vec![layer], catalogue: base.catalogue, tool_kinds: base.tool_kinds.clone(), ..PolicySpec::default() };
    #[cfg(feature = "analysis")]
    {
        spec.host = base.host.clone();
    }
    Policy::new(spec)
}

fn witnesses(tool: &str, rule: &RuleSpec) -> Vec<Vec<String>> {
    let regex = rule.pattern.as_deref().map(|p| crate::lint::regex_witnesses(p, rule.case_sensitive)).unwrap_or_default();
    crate::lint::rule_witnesses(rule, kind_of(tool), &regex)
}

/// Whether an allow rule may meet a call a deny or confirm rule matches; `Some` says how (the
/// call it lets through, or why its text cannot tell).
fn meets(base: &PolicySpec, (tool, allow): (&str, &RuleSpec), (place, strict): (&RulePlace, &RuleSpec)) -> Option<String> {
    let strict_kind = kind_of(&place.tool);
    let reaches_paths = place.tool != tool
        && tool == TERMINAL
        && matches!(strict_kind, InputKind::Path { .. } | InputKind::PathPair)
        && about_paths(strict, place.list.unwrap_or(ListKind::AlwaysDeny));
    // Texts that show the two apart need no probe (the probes cannot find a call both match).
    if !reaches_paths && (place.tool != tool || apart(allow, strict, kind_of(tool))) {
        return None;
    }
    let list = place.list.unwrap_or(ListKind::AlwaysDeny);
    let alone = probe_policy(base, &[(tool, ListKind::AlwaysAllow, allow)]);
    let with = probe_policy(base, &[(tool, ListKind::AlwaysAllow, allow), (&place.tool, list, strict)]);
    let ours = witnesses(tool, allow);
    let theirs = witnesses(&place.tool, strict);
    let mut probes: Vec<Vec<String>> = ours.clone();
    if !reaches_paths {
        probes.extend(theirs.iter().cloned());
    }
    if matches!(kind_of(tool), InputKind::Command { .. }) {
        for a in ours.iter().filter_map(|w| w.first()).take(4) {
            for b in theirs.iter().filter_map(|w| w.first()).take(4) {
                probes.push(vec![format!("{a} {b}")]);
            }
        }
    }
    for inputs in probes {
        if alone.outcome(tool, &inputs) == Outcome::Allow && with.outcome(tool, &inputs) != Outcome::Allow {
            return Some(format!("it allows `{}`", inputs.join(" ")));
        }
    }
    if reaches_paths {
        let one_command = allow.glob.as_deref().is_some_and(|g| !g.contains('*'));
        return (!one_command).then(|| {
            "a command it allows may name a path that rule matches (toolgate applies path rules to the paths a command names)".to_owned()
        });
    }
    Some("its text does not show it never allows a call that rule matches".to_owned())
}

/// Whether a path rule is about particular paths: a rule on the whole tool (`/**`) is not, and
/// toolgate does not apply it to the paths a command names.
fn about_paths(rule: &RuleSpec, list: ListKind) -> bool {
    const PROBES: [&str; 2] = ["/\u{1}toolgate-probe\u{1}/\u{1}", "\u{1}toolgate-probe\u{1}"];
    match compile_rule(rule) {
        Ok(matcher) => {
            let matcher = matcher.for_list(list);
            !PROBES.iter().any(|p| matcher.is_match(&Subject { guessed_path: true, ..Subject::text(p) }))
        }
        Err(_) => true,
    }
}

/// Whether the rules' texts show that no call matches both: the literal text every command
/// they match starts with differs (neither is a prefix of the other), or the MCP server or tool
/// they name differs. False whenever unsure.
fn apart(a: &RuleSpec, b: &RuleSpec, kind: InputKind) -> bool {
    match kind {
        InputKind::Command { .. } => match (command_heads(a), command_heads(b)) {
            (Some(x), Some(y)) => x.iter().all(|x| y.iter().all(|y| !x.starts_with(y.as_str()) && !y.starts_with(x.as_str()))),
            _ => false,
        },
        InputKind::McpCall => match (pair_names(a), pair_names(b)) {
            (Some((s1, t1)), Some((s2, t2))) => differ(s1, s2) || differ(t1, t2),
            _ => false,
        },
        _ => false,
    }
}

fn differ(a: Option<String>, b: Option<String>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a != b)
}

/// An MCP entry's or a `tool.action` pattern's two names, lowercased, `None` for a wildcard.
fn pair_names(rule: &RuleSpec) -> Option<(Option<String>, Option<String>)> {
    let name = |s: &str| (!s.contains('*')).then(|| s.to_ascii_lowercase());
    match MatcherKind::of(rule) {
        MatcherKind::Mcp => rule.text().split_once(':').map(|(s, t)| (name(s), name(t))),
        MatcherKind::ToolAction if rule.text() == "*" => Some((None, None)),
        MatcherKind::ToolAction => rule.text().split_once('.').map(|(s, t)| (name(s), name(t))),
        MatcherKind::Regex
        | MatcherKind::Prefix
        | MatcherKind::Glob
        | MatcherKind::Tokens
        | MatcherKind::Path
        | MatcherKind::Domain
        | MatcherKind::Unknown => None,
    }
}

/// The literal texts one of which every command a rule matches starts with (lowercased, runs of
/// whitespace as one space, a program's directory left out), or `None` when the rule pins none.
fn command_heads(rule: &RuleSpec) -> Option<Vec<String>> {
    // Whether the text's first word is whole: a prefix's and a token's are; a glob's or a
    // regex's only when whitespace follows it in the literal text (or the glob has no `*`).
    let (heads, whole_words): (Vec<String>, bool) = match MatcherKind::of(rule) {
        MatcherKind::Prefix => (vec![rule.text().to_owned()], true),
        MatcherKind::Tokens => (super::claude::expand_tokens(rule.text())?, true),
        MatcherKind::Glob => {
            let glob = rule.text().strip_suffix(":*").map_or_else(|| rule.text().to_owned(), |head| format!("{head} *"));
            (vec![glob.split('*').next().unwrap_or_default().to_owned()], !glob.contains('*'))
        }
        MatcherKind::Regex => (regex_heads(rule.text())?, false),
        MatcherKind::Mcp | MatcherKind::ToolAction | MatcherKind::Path | MatcherKind::Domain | MatcherKind::Unknown => return None,
    };
    let heads: Option<Vec<String>> = heads.iter().map(|h| normal_head(h, whole_words)).collect();
    heads.filter(|h| !h.iter().any(String::is_empty))
}

/// A head lowercased, its whitespace runs one space, and its program's directory left out (a
/// deny rule meets `/usr/bin/git` as `git`); `None` when the program has a directory but may not
/// be whole (`^/usr/bi`), so its name is unknown.
fn normal_head(head: &str, whole_words: bool) -> Option<String> {
    let out = head.split_whitespace().collect::<Vec<_>>().join(" ");
    let whole_first = whole_words || head.trim_start().contains(char::is_whitespace);
    let first_end = out.find(' ').unwrap_or(out.len());
    match out.get(..first_end).and_then(|first| first.rfind('/')) {
        Some(_) if !whole_first => None,
        Some(slash) => Some(out.get(slash + 1..).unwrap_or_default().to_lowercase()),
        None => Some(out.to_lowercase()),
    }
}

/// The literal prefixes of a regex anchored at the start (read case-sensitively: the comparison
/// lowercases them).
pub(crate) fn regex_heads(pattern: &str) -> Option<Vec<String>> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    if !crate::lint::anchored(pattern, true) {
        return None;
    }
    let hir = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).build().parse(pattern).ok()?;
    let seq = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
    let literals = seq.literals()?;
    let heads: Vec<String> = literals.iter().map(|l| String::from_utf8_lossy(l.as_bytes()).into_owned()).collect();
    (!heads.is_empty()).then_some(heads)
}

/// Checks each rule the report calls exact: the files read back with the format's importer must
/// decide the rule's witnesses as the policy does. Where they do not, the report says what the
/// read-back decides instead.
pub(crate) fn verify(format: PeerFormat, whole: &PolicySpec, context: &ImportContext, result: &mut ExportResult) {
    let sources: Vec<ImportSource> =
        result.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let back = match super::import(format, &sources, context) {
        Ok(back) => Policy::new(back.policy),
        Err(errors) => {
            let why = errors.iter().map(|e| e.message.clone()).collect::<Vec<_>>().join("; ");
            for entry in result.report.iter_mut().filter(|e| e.translation == Translation::Exact) {
                entry.translation = Translation::Impossible;
                entry.why = Some(format!("the written files do not read back ({why})"));
            }
            return;
        }
    };
    let policy = Policy::new(whole.clone());
    for entry in result.report.iter_mut().filter(|e| e.translation == Translation::Exact) {
        let (Some(list), Some(index)) = (entry.place.list, entry.place.index) else { continue };
        let rule =
            whole.layers.iter().find(|l| l.name == entry.place.layer).and_then(|l| l.tools.get(&entry.place.tool)).and_then(|rules| {
                match list {
                    ListKind::AlwaysAllow => rules.always_allow.get(index),
                    ListKind::AlwaysConfirm => rules.always_confirm.get(index),
                    ListKind::AlwaysDeny => rules.always_deny.get(index),
                }
            });
        let Some(rule) = rule else { continue };
        for inputs in witnesses(&entry.place.tool, rule) {
            let ours = policy.outcome(&entry.place.tool, &inputs);
            let theirs = back.decide(&entry.place.tool, &inputs);
            if theirs.outcome == ours {
                continue;
            }
            let note = format!(
                "{} decides `{}` as {} where the policy {}: {}",
                format_name(format),
                inputs.join(" "),
                outcome_word(theirs.outcome),
                match ours {
                    Outcome::Allow => "allows it",
                    Outcome::Confirm => "asks",
                    Outcome::Deny => "refuses it",
                },
                theirs.message
            );
            entry.translation = if theirs.outcome > ours { Translation::Stricter } else { Translation::Impossible };
            entry.why = Some(match entry.why.take() {
                Some(before) => format!("{before}; {note}"),
                None => note,
            });
            break;
        }
    }
}

fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Allow => "allowed",
        Outcome::Confirm => "asking",
        Outcome::Deny => "refused",
    }
}
