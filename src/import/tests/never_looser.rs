//! Exports are never looser than the policy they write: random policies of every matcher kind and
//! layer kind are exported to each format and read back with that format's importer (which
//! follows the agent's documented semantics), and a corpus of calls — every rule's own witnesses,
//! commands that name the path rules' witnesses, and random calls made of the rules' words — is
//! decided by both. The read-back never allows what the policy asks about or refuses, and never
//! asks where the policy refuses, except where the format cannot refuse: VS Code (its `false`
//! asks) and a deny rule or default the export's report calls impossible (left out, so the agent
//! asks). A report that says "exact" is true: the read-back decides the rule's witnesses as the
//! policy does. Gemini CLI's files are also decided in Gemini CLI's own order (the highest-ranked
//! table decides), which its importer does not model. Floors keep the test honest: enough calls
//! decided, and enough rules each format writes exactly (leaving everything out is never looser).

use super::super::*;
use super::context;
use crate::policy::{DefaultSource, InputKind, ListKind, Outcome, Policy, Reason};
use std::collections::BTreeMap;

const FORMATS: [PeerFormat; 6] =
    [PeerFormat::ClaudeCode, PeerFormat::Codex, PeerFormat::Vscode, PeerFormat::CursorCli, PeerFormat::CursorEditor, PeerFormat::GeminiCli];

const PROGRAMS: &[&str] = &["git", "rm", "npm", "cargo", "ls", "cat", "curl", "sudo", "find"];
const ARGUMENTS: &[&str] = &["push", "status", "log", "run", "test", "--force", "-rf", "origin", "build", "x"];
const PATHS: &[&str] =
    &["src/**", ".env", "*.key", "/etc/**", "/home/u/.ssh/**", "docs/*.md", "**/secrets/**", "/p/build", "src/main.rs", "/**"];
const DOMAINS: &[&str] = &["example.com", "*.example.com", "*", "api.github.com", "*.github.com", "github.com", "evil.*"];
const MCP_ENTRIES: &[&str] = &["github:*", "github:delete_repo", "github:get_issue", "*:search", "jira:*", "*:*", "jira:create"];
const TOOL_ACTIONS: &[&str] = &["github.*", "github.delete_repo", "jira.search", "*"];
const TOOLS: &[&str] = &["terminal", "read_file", "edit_file", "list_directory", "delete_path", "fetch", "mcp"];

/// The layers a policy draws from: every kind, a local layer and an untrusted project.
const LAYERS: &[(&str, LayerKind, bool)] = &[
    ("managed", LayerKind::Managed, true),
    ("user", LayerKind::User, true),
    ("project", LayerKind::Project, true),
    ("project", LayerKind::Project, false),
    ("local", LayerKind::User, true),
    ("defaults", LayerKind::Defaults, true),
    ("mode", LayerKind::Mode, true),
];

struct Generator {
    below: Box<dyn FnMut(usize) -> usize>,
}

impl Generator {
    fn new(seed: u64) -> Self {
        Generator { below: Box::new(crate::test_support::random_below(seed)) }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.below)(n.max(1))
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        let i = self.below(items.len());
        items.get(i).copied().unwrap_or_default()
    }

    fn command_rule(&mut self) -> RuleSpec {
        let (p, a, b) = (self.pick(PROGRAMS), self.pick(ARGUMENTS), self.pick(ARGUMENTS));
        let regex = |pattern: String, case_sensitive| RuleSpec::regex(pattern, case_sensitive);
        match self.below(15) {
            0 => regex(format!(r"^{p}\b"), true),
            1 => regex(format!(r"^{p}\s+{a}\b"), self.below(2) == 0),
            2 => regex(regex_syntax::escape(a), true),
            3 => regex(format!(r"^{p}\s+({a}|{b})\b"), true),
            4 => RuleSpec::prefix(p),
            5 => RuleSpec::prefix(format!("{p} {a}")),
            6 => RuleSpec::glob(format!("{p} *")),
            7 => RuleSpec::glob(format!("{p} {a} *")),
            8 => RuleSpec::glob(format!("{p} {a}")),
            9 => RuleSpec::glob(format!("* {a}")),
            10 => RuleSpec::glob(format!("{p} * {a}")),
            11 => RuleSpec::glob(format!("{p}:*")),
            12 => RuleSpec::tokens(p),
            13 => RuleSpec::tokens(format!("{p} {a}|{b}")),
            _ => RuleSpec::glob("*"),
        }
    }

    fn rule_for(&mut self, tool: &str) -> RuleSpec {
        match tool {
            TERMINAL => self.command_rule(),
            FETCH => match self.below(6) {
                0 => RuleSpec::regex(r"example\.com", false),
                _ => RuleSpec::domain(self.pick(DOMAINS)),
            },
            MCP_TOOL => match self.below(4) {
                0 => RuleSpec::tool_action(self.pick(TOOL_ACTIONS)),
                _ => RuleSpec::mcp(self.pick(MCP_ENTRIES)),
            },
            _ => match self.below(8) {
                0 => RuleSpec::regex(r"\.env$", true),
                _ => RuleSpec::path(self.pick(PATHS), Some("/p".into())),
            },
        }
    }

    fn policy(&mut self) -> PolicySpec {
        let mut spec = PolicySpec::default();
        spec.tool_kinds.insert(MCP_TOOL.into(), InputKind::McpCall);
        // Half the policies are sparse (a strict rule now and then), half dense; a third have no
        // path rules (which reach every command in toolgate, and no format but Claude Code's and
        // Cursor's can say).
        let dense = self.below(2) == 0;
        let tools: &[&str] = if self.below(3) == 0 { &[TERMINAL, FETCH, MCP_TOOL] } else { TOOLS };
        let count = 1 + self.below(3);
        for _ in 0..count {
            let (name, kind, trusted) = *LAYERS.get(self.below(LAYERS.len())).unwrap();
            if spec.layers.iter().any(|l| l.name == name) {
                continue;
            }
            let mut layer = LayerSpec { name: name.into(), kind, trusted, ..LayerSpec::default() };
            for _ in 0..1 + self.below(3) {
                let tool = self.pick(tools);
                let mut rules = layer.tools.remove(tool).unwrap_or_default();
                for _ in 0..1 + self.below(3) {
                    rules.always_allow.push(self.rule_for(tool));
                }
                for list in [&mut rules.always_confirm, &mut rules.always_deny] {
                    let count = if dense { self.below(3) } else { usize::from(self.below(4) == 0) };
                    for _ in 0..count {
                        list.push(self.rule_for(tool));
                    }
                }
                if self.below(12) == 0 {
                    rules.default_mode = Some([Outcome::Allow, Outcome::Deny][self.below(2)]);
                }
                layer.tools.insert(tool.into(), rules);
            }
            spec.layers.push(layer);
        }
        // Highest authority first, as importers build them.
        let order = |l: &LayerSpec| LAYERS.iter().position(|(n, k, _)| *n == l.name && *k == l.kind).unwrap_or(0);
        spec.layers.sort_by_key(order);
        spec
    }
}

/// The calls every rule of `policy` is checked on: its witnesses, commands naming its paths,
/// and random calls made of the rules' words.
fn corpus(policy: &PolicySpec, seed: u64) -> Vec<(String, Vec<String>)> {
    let mut calls = Vec::new();
    for (place, rule) in rules_of(policy) {
        for inputs in witnesses(&place.tool, rule) {
            if let Some(path) = inputs.first().filter(|_| matches!(kind_of(&place.tool), InputKind::Path { .. })) {
                calls.push((TERMINAL.to_owned(), vec![format!("cat {path}")]));
                calls.push((TERMINAL.to_owned(), vec![format!("rm {path}")]));
            }
            calls.push((place.tool.clone(), inputs));
        }
    }
    calls.extend(super::random_calls(policy, 250, seed));
    calls
}

fn witnesses(tool: &str, rule: &RuleSpec) -> Vec<Vec<String>> {
    let regex = rule.pattern.as_deref().map(|p| crate::lint::regex_witnesses(p, rule.case_sensitive)).unwrap_or_default();
    crate::lint::rule_witnesses(rule, kind_of(tool), &regex)
}

/// What the read-back may not go below for a call the policy decided: the policy's outcome,
/// with a refusal read as a question where the format cannot refuse.
fn floor(format: PeerFormat, tool: &str, decision: &crate::policy::Decision, report: &[ExportReport]) -> Outcome {
    if decision.outcome != Outcome::Deny {
        return decision.outcome;
    }
    if format == PeerFormat::Vscode {
        return Outcome::Confirm;
    }
    let place = match (&decision.rule, &decision.default_source, decision.reason) {
        (Some(rule), _, Reason::DenyRule) => {
            Some(RulePlace { layer: rule.layer.clone(), tool: rule.tool.clone(), list: Some(rule.list), index: Some(rule.index) })
        }
        (_, Some(DefaultSource::Tool { layer }), _) => {
            Some(RulePlace { layer: layer.clone(), tool: tool.to_owned(), list: None, index: None })
        }
        (_, Some(DefaultSource::Global { layer }), _) => {
            Some(RulePlace { layer: layer.clone().unwrap_or_default(), tool: "*".into(), list: None, index: None })
        }
        _ => None,
    };
    let admitted = place.is_some_and(|place| {
        report.iter().any(|r| r.translation == Translation::Impossible && r.written.is_empty() && same_place(&r.place, &place))
    });
    if admitted {
        Outcome::Confirm
    } else {
        Outcome::Deny
    }
}

fn same_place(a: &RulePlace, b: &RulePlace) -> bool {
    a.layer == b.layer && a.tool == b.tool && a.list == b.list && a.index == b.index
}

fn rule_at(spec: &PolicySpec, layer: &str, tool: &str, list: ListKind, index: usize) -> Option<RuleSpec> {
    let rules = spec.layers.iter().find(|l| l.name == layer)?.tools.get(tool)?;
    let list = match list {
        ListKind::AlwaysAllow => &rules.always_allow,
        ListKind::AlwaysConfirm => &rules.always_confirm,
        ListKind::AlwaysDeny => &rules.always_deny,
    };
    list.get(index).cloned()
}

/// Gemini CLI's own order over the exported policy files, independent of the importer's model
/// of it (where a deny always wins): the highest-ranked table that matches decides, a table
/// ranking at its tier (admin 5, user 4) plus its priority in thousandths (`toml-loader.ts`
/// `transformPriority`, `policy-engine.ts` `check`); what no table matches asks. Whether one
/// table matches a call is read with the importer, on that table alone.
struct GeminiOrder {
    tables: Vec<(i64, Outcome, Policy)>,
}

impl GeminiOrder {
    fn new(files: &[ExportedFile]) -> Self {
        let mut tables = Vec::new();
        for file in files {
            let tier = if file.scope == SourceScope::Managed { 5000 } else { 4000 };
            for block in file.text.split("[[rule]]").filter(|b| !b.trim().is_empty()) {
                let text = format!("[[rule]]{block}");
                let value = |key: &str| block.lines().find_map(|l| l.strip_prefix(key)).map(|v| v.trim().trim_matches('"').to_owned());
                let priority: i64 = value("priority = ").and_then(|p| p.parse().ok()).unwrap();
                let decision = match value("decision = ").as_deref() {
                    Some("deny") => Outcome::Deny,
                    Some("ask_user") => Outcome::Confirm,
                    _ => Outcome::Allow,
                };
                let alone =
                    import(PeerFormat::GeminiCli, &[ImportSource { scope: SourceScope::User, text, dir: None }], &context()).unwrap();
                tables.push((tier + priority, decision, Policy::new(alone.policy)));
            }
        }
        tables.sort_by_key(|(rank, _, _)| -rank);
        GeminiOrder { tables }
    }

    /// Gemini CLI's decision on a single command (or a call of another tool).
    fn decide(&self, tool: &str, inputs: &[String]) -> Outcome {
        for (_, decision, alone) in &self.tables {
            let d = alone.decide(tool, inputs);
            let matched = matches!(d.reason, Reason::DenyRule | Reason::ConfirmRule | Reason::AllowRule)
                || (d.reason == Reason::ToolDefault && d.outcome == *decision);
            if matched {
                return *decision;
            }
        }
        Outcome::Confirm
    }
}

/// Whether a command line is one command (Gemini CLI re-checks each part of a longer one).
fn single(tool: &str, inputs: &[String]) -> bool {
    tool != TERMINAL || inputs.iter().all(|i| !["&&", "||", ";", "|", "$(", "`", "\n"].iter().any(|op| i.contains(op)))
}

#[derive(Debug, Default)]
struct Figures {
    calls: usize,
    looser: usize,
    rules: usize,
    exact: usize,
    stricter: usize,
    impossible: usize,
    untrue: usize,
    exact_rules: usize,
    allows_written: usize,
    allows_left_out: usize,
    examples: Vec<String>,
}

/// Random policies of every matcher kind and layer kind, exported to each format and read back:
/// the read-back is never looser than the policy, and every "exact" in a report is true.
#[test]
fn exports_read_back_are_never_looser_than_the_policy() {
    let mut figures: BTreeMap<String, Figures> = BTreeMap::new();
    // Another seed or more rounds for a longer search: TOOLGATE_EXPORT_SEED, TOOLGATE_EXPORT_ROUNDS.
    let number = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let rounds = number("TOOLGATE_EXPORT_ROUNDS", 150);
    let mut generator = Generator::new(number("TOOLGATE_EXPORT_SEED", 0x4E_5EED));
    for round in 0..rounds {
        let spec = generator.policy();
        let policy = Policy::new(spec.clone());
        let calls = corpus(&spec, 0x51_0000 + round);
        for format in FORMATS {
            let figure = figures.entry(format!("{format:?}")).or_default();
            let exported = export(format, &spec, &context());
            let sources: Vec<ImportSource> =
                exported.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
            let back = match import(format, &sources, &context()) {
                Ok(back) => Policy::new(back.policy),
                Err(errors) => panic!("{format:?}: the export does not read back: {errors:?}\n{:#?}", exported.files),
            };
            let gemini = (format == PeerFormat::GeminiCli).then(|| GeminiOrder::new(&exported.files));
            for (tool, inputs) in &calls {
                let ours = policy.decide(tool, inputs);
                let mut theirs = back.outcome(tool, inputs);
                // toolgate's built-in denials are no rule of the policy: no format writes them.
                if let Some(order) = gemini.as_ref().filter(|_| single(tool, inputs) && ours.reason != Reason::HardcodedDeny) {
                    theirs = theirs.min(order.decide(tool, inputs));
                }
                figure.calls += 1;
                if theirs < floor(format, tool, &ours, &exported.report) {
                    figure.looser += 1;
                    if figure.examples.len() < 3 {
                        figure.examples.push(format!(
                            "{tool} {inputs:?}: policy {:?} ({}), read back {theirs:?}\n{}\n{:#?}",
                            ours.outcome,
                            ours.message,
                            serde_json::to_string(&spec).unwrap(),
                            exported.files
                        ));
                    }
                }
            }
            for entry in &exported.report {
                figure.rules += 1;
                if entry.place.list == Some(ListKind::AlwaysAllow) {
                    if entry.written.is_empty() {
                        figure.allows_left_out +=
                            usize::from(entry.why.as_deref().is_some_and(|w| w.contains("so this allow rule is left out")));
                    } else {
                        figure.allows_written += 1;
                    }
                }
                match entry.translation {
                    Translation::Exact => figure.exact += 1,
                    Translation::Stricter => figure.stricter += 1,
                    Translation::Impossible => figure.impossible += 1,
                }
                let (Some(list), Some(index)) = (entry.place.list, entry.place.index) else { continue };
                if entry.translation != Translation::Exact {
                    continue;
                }
                figure.exact_rules += 1;
                let Some(rule) = rule_at(&spec, &entry.place.layer, &entry.place.tool, list, index) else { continue };
                for inputs in witnesses(&entry.place.tool, &rule) {
                    let (ours, theirs) = (policy.outcome(&entry.place.tool, &inputs), back.outcome(&entry.place.tool, &inputs));
                    if ours != theirs {
                        figure.untrue += 1;
                        if figure.examples.len() < 6 {
                            figure.examples.push(format!(
                                "exact {:?} {} on {inputs:?}: policy {ours:?}, read back {theirs:?}",
                                entry.place, entry.rule
                            ));
                        }
                        break;
                    }
                }
            }
        }
    }
    for (format, f) in &figures {
        eprintln!(
            "{format}: {} calls decided, {} looser; {} entries reported: {} exact ({} rules), {} stricter, {} impossible; {} exact but untrue; {} allow rules written, {} left out beside a rule the format cannot carry",
            f.calls, f.looser, f.rules, f.exact, f.exact_rules, f.stricter, f.impossible, f.untrue, f.allows_written, f.allows_left_out
        );
    }
    if let Ok(format) = std::env::var("TOOLGATE_SHOW_FORMAT") {
        for example in figures.get(&format).map(|f| f.examples.as_slice()).unwrap_or_default() {
            eprintln!("{example}\n");
        }
    }
    for (format, f) in &figures {
        assert!(f.looser == 0 && f.untrue == 0, "{format}: {f:#?}");
    }
    // Floors, per 150 policies: enough calls decided, and enough rules each format writes exactly
    // (what a format can say: a pass that left out everything would never be looser).
    let per_150 = |n: usize| n * usize::try_from(rounds).unwrap() / 150;
    for (format, exact) in
        [("ClaudeCode", 650), ("Codex", 80), ("CursorCli", 350), ("CursorEditor", 40), ("GeminiCli", 180), ("Vscode", 140)]
    {
        let f = figures.get(format).unwrap();
        assert!(f.calls >= per_150(40_000), "{format}: only {} calls decided", f.calls);
        assert!(f.exact_rules >= per_150(exact), "{format}: only {} rules exported exactly (floor {exact})", f.exact_rules);
    }
}
