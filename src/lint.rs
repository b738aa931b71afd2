//! Lint: what is wrong or risky in a policy's rules, with a stable code, a severity, the rule's
//! place in the spec (`layers[1].tools.terminal.alwaysAllow[0]`, the path a [`crate::problem::Problem`]
//! names) and a message a settings page can show.
//!
//! Findings are decided by running the engine itself, not by reading the pattern's text: a
//! rule's *witnesses* are strings its regex matches (drawn from the regex's syntax tree: the
//! literal it pins, one string per alternative, verified by the regex), and
//!
//! - an allow rule is *shadowed* when the evaluator decides every witness by a deny or confirm
//!   rule;
//! - an allow rule *can never match* a rendered sub-command when every witness holds a shell
//!   operator, a quote or a run of whitespace (sub-commands are rendered quotes removed, words
//!   joined by one space);
//! - an allow rule is *broad* when the evaluator lets it allow one of the dangerous-commands
//!   preset's examples (`^git\b` allows `git push --force`), or it matches an interpreter or
//!   wrapper (`^python\b`, `^env\b`, `^sudo\b`);
//! - a deny or confirm rule is *escaped* when an equivalent spelling of the flags its witness
//!   names (`rm -fr`, `rm -r -f`, `rm --recursive --force`) is not matched.
//!
//! Self-test failures ([`crate::policy::ExampleFailure`]) are findings too.

use crate::policy::rules::{self, compile_rule, ListKind, Matcher, Subject};
use crate::policy::{ExampleKind, InputKind, Outcome, Policy, PolicySpec, Reason, RuleRef, RuleSpec};
use crate::presets::{self, Preset};
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use serde::Serialize;
use std::collections::HashMap;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum FindingSeverity {
    /// The rule does not do what it says (it fails closed, or its examples fail).
    Error,
    /// The rule probably does not do what its author meant.
    Warning,
    /// Worth knowing.
    Info,
}

/// What a finding is about. The codes are stable: programs and tests match on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum LintCode {
    /// The rule does not compile (with the character position for a regex); it fails closed.
    InvalidPattern,
    /// The regex uses look-around or a back-reference, which the engine lacks (a peer's engine accepts it).
    UnsupportedRegexFeature,
    /// The same rule appears earlier in the same tool's list (in this or another layer).
    DuplicateRule,
    /// An allow rule no call can reach: a deny or confirm rule decides everything it matches.
    ShadowedAllow,
    /// An allow pattern requires a shell operator (`&&`, `||`, `;`, `|`), which a sub-command never contains unquoted.
    AllowOperator,
    /// An allow pattern requires a quote, which rendering removes.
    AllowQuote,
    /// An allow pattern requires two whitespace characters in a row; words are joined by one space.
    AllowRepeatedSpace,
    /// An allow pattern is not anchored at the start, so it matches anywhere in the input.
    UnanchoredAllow,
    /// An allow rule also allows a dangerous command (`^git\b` allows `git push --force`).
    BroadAllow,
    /// An allow rule covers an interpreter or wrapper, which runs whatever it is given.
    InterpreterAllow,
    /// A deny or confirm rule misses an equivalent spelling of the flags it names.
    DenyEscapes,
    /// An allow rule another allow rule of the same tool already covers entirely (an exact
    /// command under a broader prefix): it can go.
    CoveredAllow,
    /// A `match` example is not decided by its rule.
    ExampleDidNotMatch,
    /// A `notMatch` example is decided by its rule.
    NotMatchExampleMatched,
    /// The rule holds characters a person cannot see or that reorder what is shown (controls,
    /// bidirectional overrides, zero-width characters): what it reads as is not what it matches.
    HiddenCharacters,
}

impl LintCode {
    /// Every code.
    pub const ALL: [LintCode; 15] = [
        LintCode::InvalidPattern,
        LintCode::UnsupportedRegexFeature,
        LintCode::DuplicateRule,
        LintCode::ShadowedAllow,
        LintCode::AllowOperator,
        LintCode::AllowQuote,
        LintCode::AllowRepeatedSpace,
        LintCode::UnanchoredAllow,
        LintCode::BroadAllow,
        LintCode::InterpreterAllow,
        LintCode::DenyEscapes,
        LintCode::CoveredAllow,
        LintCode::ExampleDidNotMatch,
        LintCode::NotMatchExampleMatched,
        LintCode::HiddenCharacters,
    ];

    /// The code as programs match on it (its JSON spelling).
    pub fn name(self) -> &'static str {
        match self {
            LintCode::InvalidPattern => "invalidPattern",
            LintCode::UnsupportedRegexFeature => "unsupportedRegexFeature",
            LintCode::DuplicateRule => "duplicateRule",
            LintCode::ShadowedAllow => "shadowedAllow",
            LintCode::AllowOperator => "allowOperator",
            LintCode::AllowQuote => "allowQuote",
            LintCode::AllowRepeatedSpace => "allowRepeatedSpace",
            LintCode::UnanchoredAllow => "unanchoredAllow",
            LintCode::BroadAllow => "broadAllow",
            LintCode::InterpreterAllow => "interpreterAllow",
            LintCode::DenyEscapes => "denyEscapes",
            LintCode::CoveredAllow => "coveredAllow",
            LintCode::ExampleDidNotMatch => "exampleDidNotMatch",
            LintCode::NotMatchExampleMatched => "notMatchExampleMatched",
            LintCode::HiddenCharacters => "hiddenCharacters",
        }
    }

    /// The code's severity.
    pub fn severity(self) -> FindingSeverity {
        match self {
            LintCode::InvalidPattern
            | LintCode::UnsupportedRegexFeature
            | LintCode::ExampleDidNotMatch
            | LintCode::NotMatchExampleMatched => FindingSeverity::Error,
            LintCode::DuplicateRule | LintCode::CoveredAllow => FindingSeverity::Info,
            _ => FindingSeverity::Warning,
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Finding {
    /// What it is about.
    pub code: LintCode,
    /// How much it matters.
    pub severity: FindingSeverity,
    /// What is wrong, in words a user can act on.
    pub message: String,
    /// The rule's place in the spec (`layers[1].tools.terminal.alwaysAllow[0]`; an example's
    /// place ends in `.examples.match[0]`).
    pub path: String,
    /// The 1-based character position in the pattern where it goes wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The other rule involved (the earlier duplicate, the shadowing rule), by its place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub related: Option<String>,
    /// The input that shows it: the dangerous call allowed, the spelling that escapes, the example.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
}

/// The answer of [`lint`]: `ok` when no finding is an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LintReport {
    /// True when no finding is an error (warnings may remain).
    pub ok: bool,
    /// Every finding, in the order of the spec's rules.
    pub findings: Vec<Finding>,
}

impl LintReport {
    /// A report of these findings.
    pub fn new(findings: Vec<Finding>) -> Self {
        LintReport { ok: !findings.iter().any(|f| f.severity == FindingSeverity::Error), findings }
    }
}

/// Lints a policy spec (compiling it).
pub fn lint(spec: PolicySpec) -> LintReport {
    LintReport::new(lint_policy(&Policy::new(spec)))
}

/// Interpreters and wrappers: a rule that allows them allows whatever they are given.
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "fish", "pwsh", "python", "python3", "node", "deno", "bun", "ruby", "perl", "php", "lua", "env",
    "xargs", "sudo", "doas", "su", "nohup", "nice", "timeout", "time", "exec", "eval", "command", "builtin", "stdbuf", "ionice", "watch",
    "npx", "bunx", "uvx", "pipx",
];

/// How many witnesses a regex gives at most.
const WITNESSES: usize = 12;

/// The longest witness made (nested counted repetitions would otherwise grow without bound).
const WITNESS_LENGTH: usize = 1024;

fn rule_path(layer_index: usize, tool: &str, list: ListKind, index: usize) -> String {
    format!("layers[{layer_index}].tools.{tool}.{}[{index}]", list.spec_key())
}

/// A rule of the spec, with its place.
struct Place<'s> {
    layer_index: usize,
    layer: &'s str,
    trusted: bool,
    tool: &'s str,
    list: ListKind,
    index: usize,
    rule: &'s RuleSpec,
}

impl Place<'_> {
    fn path(&self) -> String {
        rule_path(self.layer_index, self.tool, self.list, self.index)
    }

    fn finding(&self, code: LintCode, message: String) -> Finding {
        // What a finding quotes is shown to a person as written out (see `crate::visible`).
        let message = crate::visible::visible(&message).into_owned();
        Finding { code, severity: code.severity(), message, path: self.path(), column: None, related: None, input: None }
    }

    fn same(&self, r: &RuleRef) -> bool {
        r.layer == self.layer && r.tool == self.tool && r.list == self.list && r.index == self.index
    }
}

/// Lints a compiled policy: its spec's rules (not the presets it includes, which are tested
/// clean) and the failures of their examples.
pub fn lint_policy(policy: &Policy) -> Vec<Finding> {
    let spec = policy.spec();
    let mut findings = Vec::new();
    let mut seen: HashMap<(String, ListKind, rules::MatcherKind, String, bool), String> = HashMap::new();
    for (layer_index, layer) in spec.layers.iter().enumerate() {
        for (tool, rules) in &layer.tools {
            for (list, rules) in [
                (ListKind::AlwaysDeny, &rules.always_deny),
                (ListKind::AlwaysConfirm, &rules.always_confirm),
                (ListKind::AlwaysAllow, &rules.always_allow),
            ] {
                for (index, rule) in rules.iter().enumerate() {
                    let place = Place { layer_index, layer: &layer.name, trusted: layer.trusted, tool, list, index, rule };
                    let key = (tool.clone(), list, rules::MatcherKind::of(rule), rule.text().to_owned(), rule.case_sensitive);
                    if let Some(first) = seen.get(&key) {
                        let mut f = place.finding(
                            LintCode::DuplicateRule,
                            format!("\"{}\" is already a {} rule for {tool} at {first}", rule.text(), list.spec_key()),
                        );
                        f.related = Some(first.clone());
                        findings.push(f);
                        continue;
                    }
                    seen.insert(key, place.path());
                    lint_rule(policy, &place, &mut findings);
                }
            }
        }
    }
    covered_allows(spec, &mut findings);
    findings.extend(policy.example_failures().iter().map(|failure| {
        let code = match failure.kind {
            ExampleKind::Match => LintCode::ExampleDidNotMatch,
            ExampleKind::NotMatch => LintCode::NotMatchExampleMatched,
        };
        Finding {
            code,
            severity: code.severity(),
            message: failure.message(),
            path: failure.path(),
            column: None,
            related: failure.decided_by.as_deref().and_then(|r| rule_place(spec, r)),
            input: Some(failure.inputs.join(" → ")),
        }
    }));
    findings
}

/// Where a rule the evaluator named sits in the spec (presets' rules have no place there).
fn rule_place(spec: &PolicySpec, rule: &RuleRef) -> Option<String> {
    let layer_index = spec.layers.iter().position(|l| l.name == rule.layer)?;
    Some(rule_path(layer_index, &rule.tool, rule.list, rule.index))
}

fn lint_rule(policy: &Policy, place: &Place<'_>, findings: &mut Vec<Finding>) {
    let rule = place.rule;
    let hidden = crate::visible::hidden_in(rule.text());
    if !hidden.is_empty() {
        findings.push(place.finding(
            LintCode::HiddenCharacters,
            format!(
                "\"{}\" holds {}, which a person cannot see or which reorder what is shown: the rule does not read as what it matches",
                crate::visible::visible(rule.text()),
                hidden.join(", ")
            ),
        ));
    }
    let pattern = rule.pattern.as_deref().filter(|_| rules::MatcherKind::of(rule) == rules::MatcherKind::Regex);
    if let Some(pattern) = pattern {
        if let Some(finding) = unsupported_feature(place, pattern) {
            findings.push(finding);
            return;
        }
    }
    let matcher = match compile_rule(rule).map(|m| m.for_list(place.list)) {
        Ok(matcher) => matcher,
        Err(error) => {
            let column = pattern.and_then(regex_error_column);
            let at = column.map(|c| format!(" at character {c}")).unwrap_or_default();
            let mut f =
                place.finding(LintCode::InvalidPattern, format!("\"{}\" is not a valid rule{at}: {error}; it fails closed", rule.text()));
            f.column = column;
            findings.push(f);
            return;
        }
    };
    let kind = policy.input_kind(place.tool);
    let command = matches!(kind, InputKind::Command { .. });
    let witnesses = pattern.map(|p| regex_witnesses(p, rule.case_sensitive)).unwrap_or_default();
    match place.list {
        ListKind::AlwaysAllow => {
            if !place.trusted {
                return;
            }
            if command && pattern.is_some() {
                rendering_checks(place, &witnesses, findings);
            }
            if let Some(p) = pattern {
                if matches!(kind, InputKind::Command { .. } | InputKind::Path { .. } | InputKind::PathPair | InputKind::Url)
                    && !anchored(p, rule.case_sensitive)
                {
                    findings.push(place.finding(
                        LintCode::UnanchoredAllow,
                        format!("\"{p}\" is not anchored with ^, so it matches anywhere in the {}: anchor it at the start", what(kind)),
                    ));
                }
            }
            if command {
                breadth_checks(policy, place, &matcher, findings);
            }
            shadow_check(policy, place, kind, &witnesses, findings);
        }
        ListKind::AlwaysDeny | ListKind::AlwaysConfirm => {
            if command {
                if let Some(f) = escape_check(place, &matcher, &witnesses) {
                    findings.push(f);
                }
            }
        }
    }
}

fn what(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Command { .. } => "command",
        InputKind::Path { .. } | InputKind::PathPair => "path",
        InputKind::Url => "URL",
        _ => "input",
    }
}

// ---- Regex features the engine lacks ----

fn unsupported_feature(place: &Place<'_>, pattern: &str) -> Option<Finding> {
    use regex_syntax::ast::ErrorKind;
    let error = regex_syntax::ast::parse::Parser::new().parse(pattern).err()?;
    let feature = match error.kind() {
        ErrorKind::UnsupportedLookAround => "look-around (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`)",
        ErrorKind::UnsupportedBackreference => "a back-reference (`\\1`)",
        _ => return None,
    };
    let column = error.span().start.column;
    let mut f = place.finding(
        LintCode::UnsupportedRegexFeature,
        format!(
            "\"{pattern}\" uses {feature} at character {column}, which toolgate's linear-time regex engine (regex-lite, as in Zed) does not have; JavaScript regular expressions accept it — VS Code's `/…/` keys in chat.tools.terminal.autoApprove and Gemini CLI's commandRegex and argsPattern — so a rule taken from there must be rewritten without it. Until then it fails closed"
        ),
    );
    f.column = Some(column);
    Some(f)
}

// ---- Witnesses: strings a regex matches ----

/// Up to a dozen strings the regex matches: the shortest for each alternative, verified
/// against the engine's own regex.
pub fn regex_witnesses(pattern: &str, case_sensitive: bool) -> Vec<String> {
    let Some(hir) = parse_hir(pattern, case_sensitive) else { return Vec::new() };
    let Ok(regex) = rules::compile(pattern, case_sensitive) else { return Vec::new() };
    let mut out: Vec<String> = Vec::new();
    for candidate in generate(&hir) {
        // Rendered sub-commands never end in a space: a trailing `\s` wants an operand.
        let trimmed = candidate.trim().to_owned();
        let with_operand = format!("{trimmed} x");
        for text in [trimmed, with_operand, candidate] {
            if regex.is_match(&text) && !out.contains(&text) {
                out.push(text);
                break;
            }
        }
    }
    out
}

fn parse_hir(pattern: &str, case_sensitive: bool) -> Option<Hir> {
    regex_syntax::ParserBuilder::new().unicode(false).utf8(false).case_insensitive(!case_sensitive).build().parse(pattern).ok()
}

fn representative(class: &Class) -> Option<char> {
    let contains = |c: char| match class {
        Class::Unicode(u) => u.ranges().iter().any(|r| r.start() <= c && c <= r.end()),
        Class::Bytes(b) => u8::try_from(c).is_ok_and(|byte| b.ranges().iter().any(|r| r.start() <= byte && byte <= r.end())),
    };
    let preferred = ('a'..='z').chain('0'..='9').chain("-/._:=+,@%".chars()).chain('A'..='Z').chain([' ']);
    preferred.into_iter().find(|c| contains(*c)).or_else(|| match class {
        Class::Unicode(u) => u.ranges().first().map(|r| r.start()),
        Class::Bytes(b) => b.ranges().first().map(|r| char::from(r.start())),
    })
}

fn generate(hir: &Hir) -> Vec<String> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => vec![String::new()],
        HirKind::Literal(lit) => vec![String::from_utf8_lossy(&lit.0).into_owned()],
        HirKind::Class(class) => representative(class).map(|c| vec![c.to_string()]).unwrap_or_default(),
        HirKind::Capture(capture) => generate(&capture.sub),
        HirKind::Repetition(rep) => {
            if rep.min == 0 {
                return vec![String::new()];
            }
            let times = usize::try_from(rep.min.min(8)).unwrap_or(1);
            generate(&rep.sub).into_iter().filter(|w| w.len().saturating_mul(times) <= WITNESS_LENGTH).map(|w| w.repeat(times)).collect()
        }
        HirKind::Concat(parts) => {
            let mut acc = vec![String::new()];
            for part in parts {
                let options = generate(part);
                let mut next = Vec::new();
                for a in &acc {
                    for o in &options {
                        if next.len() < WITNESSES && a.len() + o.len() <= WITNESS_LENGTH {
                            next.push(format!("{a}{o}"));
                        }
                    }
                }
                acc = next;
            }
            acc
        }
        HirKind::Alternation(branches) => {
            let lists: Vec<Vec<String>> = branches.iter().map(generate).collect();
            let mut out = Vec::new();
            // One of each branch first, then the rest.
            let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
            for i in 0..longest {
                for list in &lists {
                    if let Some(w) = list.get(i) {
                        if out.len() < WITNESSES {
                            out.push(w.clone());
                        }
                    }
                }
            }
            out
        }
    }
}

/// Whether every match must start at the start of the input.
pub(crate) fn anchored(pattern: &str, case_sensitive: bool) -> bool {
    fn starts(hir: &Hir) -> bool {
        match hir.kind() {
            HirKind::Look(look) => matches!(look, Look::Start),
            HirKind::Capture(c) => starts(&c.sub),
            HirKind::Repetition(r) => r.min > 0 && starts(&r.sub),
            HirKind::Concat(parts) => parts.first().is_some_and(starts),
            HirKind::Alternation(branches) => branches.iter().all(starts),
            _ => false,
        }
    }
    // A pattern that does not parse is reported as invalid elsewhere.
    parse_hir(pattern, case_sensitive).is_none_or(|hir| starts(&hir))
}

// ---- Allow rules and how commands are rendered ----

fn rendering_checks(place: &Place<'_>, witnesses: &[String], findings: &mut Vec<Finding>) {
    if witnesses.is_empty() {
        return;
    }
    let pattern = place.rule.text();
    let all = |test: &dyn Fn(&str) -> bool| witnesses.iter().all(|w| test(w));
    if all(&|w| ["&&", "||", ";", "|"].iter().any(|op| w.contains(op))) {
        findings.push(place.finding(
            LintCode::AllowOperator,
            format!("\"{pattern}\" requires a shell operator (&&, ||, ;, |), but allow rules see each sub-command on its own, where an operator only appears if it was quoted: write one rule per command"),
        ));
    }
    if all(&|w| w.contains('\'') || w.contains('"')) {
        findings.push(place.finding(
            LintCode::AllowQuote,
            format!("\"{pattern}\" requires a quote, but sub-commands are matched with their quotes removed (`echo 'a b'` is seen as `echo a b`)"),
        ));
    }
    if all(&|w| w.chars().zip(w.chars().skip(1)).any(|(a, b)| a.is_whitespace() && b.is_whitespace())) {
        findings.push(place.finding(
            LintCode::AllowRepeatedSpace,
            format!("\"{pattern}\" requires two whitespace characters in a row, but a sub-command's words are joined by one space"),
        ));
    }
}

/// The dangerous-commands preset's single-command examples: calls no broad allow should allow.
fn dangerous_samples() -> Vec<String> {
    presets::entries(Preset::DangerousCommands)
        .into_iter()
        .flat_map(|e| e.rule.examples.matches.into_iter().map(|m| m.display()))
        .filter(|s| !s.contains('|') && !s.contains("<(") && !s.contains("$("))
        .collect()
}

fn breadth_checks(policy: &Policy, place: &Place<'_>, matcher: &Matcher, findings: &mut Vec<Finding>) {
    let text = place.rule.text();
    if let Some(word) = INTERPRETERS.iter().find(|w| matcher.is_match(&Subject::text(&format!("{w} x")))) {
        let mut f = place.finding(
            LintCode::InterpreterAllow,
            format!("\"{text}\" allows `{word}`, which runs whatever it is given (`{word} …` can run any command or script): allow the specific scripts instead"),
        );
        f.input = Some(format!("{word} x"));
        findings.push(f);
        return;
    }
    for sample in dangerous_samples() {
        if !matcher.is_match(&Subject::text(&sample)) {
            continue;
        }
        let decision = policy.evaluate(place.tool, std::slice::from_ref(&sample), None, crate::policy::Explain::Nothing);
        if decision.outcome == Outcome::Allow && crate::policy::examples::decision_names(&decision, &rule_ref(place)) {
            let mut f = place.finding(
                LintCode::BroadAllow,
                format!("\"{text}\" also allows `{sample}`: narrow it to the subcommands you mean, or add the dangerousCommands preset"),
            );
            f.input = Some(sample);
            findings.push(f);
            return;
        }
    }
}

fn rule_ref(place: &Place<'_>) -> RuleRef {
    RuleRef {
        layer: place.layer.to_owned(),
        tool: place.tool.to_owned(),
        list: place.list,
        index: place.index,
        matcher: rules::MatcherKind::of(place.rule),
        pattern: place.rule.text().to_owned(),
    }
}

/// Inputs that the rule itself matches, by its kind: every kind gives some, each checked
/// against the rule's own matcher, so a caller can decide them with any policy (lint's shadowing
/// check here, the exporters' check that a format can carry a deny or confirm rule in
/// `crate::import`). `regex` holds the regex's witnesses ([`regex_witnesses`]) for a regex rule.
pub(crate) fn rule_witnesses(rule: &RuleSpec, kind: InputKind, regex: &[String]) -> Vec<Vec<String>> {
    let star = |s: &str| if s == "*" { "x".to_owned() } else { s.to_owned() };
    let candidates: Vec<Vec<String>> = match rules::MatcherKind::of(rule) {
        rules::MatcherKind::Regex if kind == InputKind::McpCall => Vec::new(),
        rules::MatcherKind::Regex => regex.iter().map(|w| vec![w.clone()]).collect(),
        rules::MatcherKind::Prefix => vec![vec![rule.text().split_whitespace().collect::<Vec<_>>().join(" ")]],
        rules::MatcherKind::Mcp => rule.text().split_once(':').map(|(s, t)| vec![vec![star(s), star(t)]]).unwrap_or_default(),
        rules::MatcherKind::ToolAction => {
            let (tool, action) = rule.text().split_once('.').unwrap_or((rule.text(), "x"));
            vec![vec![star(tool), star(action)]]
        }
        rules::MatcherKind::Glob => glob_witnesses(rule.text()).into_iter().map(|w| vec![w]).collect(),
        rules::MatcherKind::Tokens => token_witnesses(rule.text()).into_iter().map(|w| vec![w]).collect(),
        rules::MatcherKind::Path => path_witnesses(rule.text(), rule.root.as_deref())
            .into_iter()
            .map(|w| if kind == InputKind::PathPair { vec![w.clone(), w] } else { vec![w] })
            .collect(),
        rules::MatcherKind::Domain => domain_witnesses(rule.text()).into_iter().map(|w| vec![w]).collect(),
        rules::MatcherKind::Unknown => Vec::new(),
    };
    // Only what the rule's own matcher matches (a guess that misses is left out).
    let Ok(matcher) = compile_rule(rule) else { return Vec::new() };
    candidates
        .into_iter()
        .filter(|inputs| match rules::MatcherKind::of(rule) {
            rules::MatcherKind::Regex | rules::MatcherKind::Mcp | rules::MatcherKind::ToolAction => true,
            rules::MatcherKind::Prefix
            | rules::MatcherKind::Glob
            | rules::MatcherKind::Tokens
            | rules::MatcherKind::Path
            | rules::MatcherKind::Domain
            | rules::MatcherKind::Unknown => inputs.first().is_some_and(|text| matcher.is_match(&Subject::text(text))),
        })
        .collect()
}

/// A command glob's witnesses: each `*` as a word, and the bare command a trailing ` *` allows.
fn glob_witnesses(glob: &str) -> Vec<String> {
    let glob = glob.strip_suffix(":*").map_or_else(|| glob.to_owned(), |head| format!("{head} *"));
    let mut out = vec![glob.replace('*', "x")];
    if let Some(head) = glob.strip_suffix(" *").filter(|h| !h.contains('*')) {
        out.push(head.to_owned());
    }
    out
}

/// A token prefix's witnesses: its first few token lines (`git status|log` → `git status`, `git log`).
fn token_witnesses(tokens: &str) -> Vec<String> {
    let mut lines = vec![String::new()];
    for position in tokens.split_whitespace() {
        lines = lines
            .iter()
            .flat_map(|l| position.split('|').map(move |a| if l.is_empty() { a.to_owned() } else { format!("{l} {a}") }))
            .take(WITNESSES)
            .collect();
    }
    lines
}

/// A path pattern's witnesses: each wildcard as a name, the pattern read against its root, and a
/// name that matches at any depth also one directory down.
fn path_witnesses(pattern: &str, root: Option<&str>) -> Vec<String> {
    let mut text = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' | '?' => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                text.push('x');
            }
            '[' => {
                let negated = chars.peek().is_some_and(|n| matches!(n, '!' | '^'));
                let first = chars.clone().find(|n| !matches!(n, '!' | '^'));
                for n in chars.by_ref() {
                    if n == ']' {
                        break;
                    }
                }
                text.push(if negated { 'x' } else { first.unwrap_or('x') });
            }
            c => text.push(c),
        }
    }
    let text = text.trim_end_matches('/').to_owned();
    let joined = |rest: &str| match root {
        Some(root) if !rest.starts_with('/') => format!("{}/{}", root.trim_end_matches('/'), rest.trim_start_matches("./")),
        _ => rest.to_owned(),
    };
    let mut out = vec![joined(&text), joined(&format!("{text}/x"))];
    if !pattern.starts_with('/') && !pattern.trim_end_matches('/').contains('/') {
        out.push(joined(&format!("x/{text}")));
    }
    out
}

/// A domain glob's witnesses: URLs on a host it matches.
fn domain_witnesses(domain: &str) -> Vec<String> {
    let host = match domain {
        "*" => "x.com".to_owned(),
        d => d.strip_prefix("*.").map_or_else(|| d.to_owned(), |rest| format!("x.{rest}")).replace('*', "x"),
    };
    vec![format!("https://{host}/")]
}

fn shadow_check(policy: &Policy, place: &Place<'_>, kind: InputKind, regex: &[String], findings: &mut Vec<Finding>) {
    let witnesses = rule_witnesses(place.rule, kind, regex);
    if witnesses.is_empty() {
        return;
    }
    let mut first: Option<RuleRef> = None;
    for inputs in &witnesses {
        let decision = policy.evaluate(place.tool, inputs, None, crate::policy::Explain::Nothing);
        let by_rule = matches!(decision.reason, Reason::DenyRule | Reason::ConfirmRule);
        match decision.rule.as_deref() {
            Some(r) if by_rule && decision.outcome != Outcome::Allow && !place.same(r) => {
                first.get_or_insert_with(|| r.clone());
            }
            _ => return,
        }
    }
    if let Some(by) = first {
        let verb = if by.list == ListKind::AlwaysDeny { "denies" } else { "asks for" };
        let mut f = place.finding(
            LintCode::ShadowedAllow,
            format!(
                "\"{}\" can never allow anything: {} rule {} \"{}\" of layer \"{}\" {verb} every call it matches",
                place.rule.text(),
                by.list.spec_key(),
                by.index,
                by.pattern,
                by.layer
            ),
        );
        f.related = rule_place(policy.spec(), &by);
        f.input = witnesses.first().map(|w| w.join(" → "));
        findings.push(f);
    }
}

// ---- Deny rules a spelling escapes ----

/// Flags whose spellings are known: per command (and subcommand), each short letter with its
/// long form and the letters that mean the same.
struct Spellings {
    command: &'static [&'static str],
    subcommand: Option<&'static str>,
    flags: &'static [(char, Option<&'static str>, &'static [char])],
}

const SPELLINGS: &[Spellings] = &[
    Spellings {
        command: &["rm"],
        subcommand: None,
        flags: &[('r', Some("--recursive"), &['R']), ('R', Some("--recursive"), &['r']), ('f', Some("--force"), &[])],
    },
    Spellings { command: &["chmod", "chown", "chgrp"], subcommand: None, flags: &[('R', Some("--recursive"), &[])] },
    Spellings {
        command: &["cp"],
        subcommand: None,
        flags: &[('r', Some("--recursive"), &['R']), ('R', Some("--recursive"), &['r']), ('f', Some("--force"), &[])],
    },
    Spellings { command: &["git"], subcommand: Some("push"), flags: &[('f', Some("--force"), &[]), ('d', Some("--delete"), &[])] },
    Spellings { command: &["git"], subcommand: Some("clean"), flags: &[('f', Some("--force"), &[]), ('d', None, &[]), ('x', None, &[])] },
];

fn permutations(items: &[char]) -> Vec<Vec<char>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for (i, first) in items.iter().enumerate() {
        let rest: Vec<char> = items.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, c)| *c).collect();
        for mut tail in permutations(&rest) {
            tail.insert(0, *first);
            out.push(tail);
        }
    }
    out
}

/// The spellings of the witness's flags that mean the same: clusters in every order, separate
/// flags, long forms, equivalent letters, flags after the operands.
fn spellings_of(witness: &str) -> Vec<String> {
    let words: Vec<&str> = witness.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else { return Vec::new() };
    let base = first.rsplit('/').next().unwrap_or(first);
    let Some(table) = SPELLINGS.iter().find(|s| s.command.contains(&base) && s.subcommand.is_none_or(|sub| rest.first() == Some(&sub)))
    else {
        return Vec::new();
    };
    let (head, args) = match table.subcommand {
        Some(_) => (words.get(..2).unwrap_or_default().join(" "), rest.get(1..).unwrap_or_default()),
        None => (first.to_owned(), rest),
    };
    // A letter of the table; a witness of a case-insensitive rule may spell it in the other case.
    let known = |ch: char| {
        let exact = table.flags.iter().find(|(l, _, _)| *l == ch).map(|(l, _, _)| *l);
        exact.or_else(|| table.flags.iter().find(|(l, _, _)| l.eq_ignore_ascii_case(&ch)).map(|(l, _, _)| *l))
    };
    let mut letters: Vec<char> = Vec::new();
    let mut operands: Vec<&str> = Vec::new();
    for arg in args {
        if let Some(long) = arg.strip_prefix("--") {
            match table.flags.iter().find(|(_, l, _)| l.is_some_and(|l| l.trim_start_matches('-') == long)) {
                Some((letter, _, _)) if !letters.contains(letter) => letters.push(*letter),
                Some(_) => {}
                None => operands.push(arg),
            }
        } else if let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.is_empty() && c.chars().all(|ch| known(ch).is_some())) {
            for ch in cluster.chars().filter_map(known) {
                if !letters.contains(&ch) {
                    letters.push(ch);
                }
            }
        } else {
            operands.push(arg);
        }
    }
    if letters.is_empty() || letters.len() > 4 {
        return Vec::new();
    }
    let operands = operands.join(" ");
    let line = |flags: &str, after: bool| {
        let parts: Vec<&str> = if after { vec![&head, &operands, flags] } else { vec![&head, flags, &operands] };
        parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ")
    };
    let long_of = |c: char| table.flags.iter().find(|(l, _, _)| *l == c).and_then(|(_, long, _)| *long);
    // Clusters in every order, then separate flags, then long forms, then equivalent letters.
    let orders = permutations(&letters);
    let mut flag_sets: Vec<String> = orders.iter().map(|order| format!("-{}", order.iter().collect::<String>())).collect();
    flag_sets.extend(orders.iter().map(|order| order.iter().map(|c| format!("-{c}")).collect::<Vec<_>>().join(" ")));
    flag_sets.extend(
        orders
            .iter()
            .map(|order| order.iter().map(|c| long_of(*c).map_or_else(|| format!("-{c}"), str::to_owned)).collect::<Vec<_>>().join(" ")),
    );
    for order in &orders {
        for (i, c) in order.iter().enumerate() {
            for alias in table.flags.iter().find(|(l, _, _)| l == c).map_or(&[][..], |(_, _, a)| a) {
                let mut swapped = order.clone();
                if let Some(slot) = swapped.get_mut(i) {
                    *slot = *alias;
                }
                flag_sets.push(format!("-{}", swapped.iter().collect::<String>()));
            }
        }
    }
    let mut out: Vec<String> = Vec::new();
    for after in [false, true] {
        for flags in &flag_sets {
            let candidate = line(flags, after);
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

fn escape_check(place: &Place<'_>, matcher: &Matcher, witnesses: &[String]) -> Option<Finding> {
    for witness in witnesses {
        if !matcher.is_match(&Subject::text(witness)) {
            continue;
        }
        if let Some(escape) = spellings_of(witness).into_iter().find(|s| !matcher.is_match(&Subject::text(s))) {
            let verb = if place.list == ListKind::AlwaysDeny { "denies" } else { "asks for" };
            let mut f = place.finding(
                LintCode::DenyEscapes,
                format!("\"{}\" {verb} `{witness}` but not `{escape}`, which does the same", place.rule.text()),
            );
            f.input = Some(escape);
            return Some(f);
        }
    }
    None
}

/// The 1-based character column where a regex that does not compile goes wrong, when it can be
/// told: the start of the part the regex parser stopped at.
pub fn regex_error_column(pattern: &str) -> Option<usize> {
    match regex_syntax::ast::parse::Parser::new().parse(pattern) {
        Err(e) => Some(e.span().start.column),
        // The syntax parses, so the engine refused a feature it does not have (regex-lite has no
        // Unicode classes): point at the first one.
        Ok(_) => {
            let mut chars = pattern.char_indices().peekable();
            let mut column = 0;
            while let Some((_, c)) = chars.next() {
                column += 1;
                if c == '\\' {
                    match chars.peek() {
                        Some((_, 'p' | 'P')) => return Some(column),
                        Some(_) => {
                            chars.next();
                            column += 1;
                        }
                        None => {}
                    }
                }
            }
            None
        }
    }
}

#[cfg(test)]
mod tests;

/// What an allow rule matches, in a form another rule's coverage can be decided for.
enum Reach {
    /// Exactly one text, or one `(server, tool)` pair.
    One(String, Option<(String, String)>),
    /// Every command whose first words are these, for the rule's kind.
    Words(rules::MatcherKind, Vec<String>),
}

fn literal_words(text: &str) -> Option<Vec<String>> {
    let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    let plain = words.iter().all(|w| !w.contains(['*', '?', '[', '|', '"', '\'', '\\']));
    (plain && !words.is_empty()).then_some(words)
}

/// An allow rule's reach, when it is a single input or a word prefix; `None` for the rest.
fn reach(rule: &RuleSpec) -> Option<Reach> {
    let kind = rules::MatcherKind::of(rule);
    let text = rule.text();
    match kind {
        rules::MatcherKind::Mcp | rules::MatcherKind::ToolAction if !text.contains('*') => {
            let (a, b) = text.split_once(if kind == rules::MatcherKind::Mcp { ':' } else { '.' })?;
            Some(Reach::One(text.to_owned(), Some((a.to_owned(), b.to_owned()))))
        }
        rules::MatcherKind::Glob => match text.strip_suffix(":*").or_else(|| text.strip_suffix(" *")) {
            Some(head) => literal_words(head).map(|w| Reach::Words(kind, w)),
            None => literal_words(text).map(|_| Reach::One(text.to_owned(), None)),
        },
        rules::MatcherKind::Prefix | rules::MatcherKind::Tokens => literal_words(text).map(|w| Reach::Words(kind, w)),
        // A wildcard entry, a regex, a path or domain pattern: neither one input nor a word prefix.
        rules::MatcherKind::Mcp
        | rules::MatcherKind::ToolAction
        | rules::MatcherKind::Regex
        | rules::MatcherKind::Path
        | rules::MatcherKind::Domain
        | rules::MatcherKind::Unknown => None,
    }
}

/// Allow rules whose every match a broader allow rule of the same tool also matches, in a layer
/// that is trusted (an untrusted layer's allow rules are ignored). A single input is checked with
/// the broader rule's own matcher; a word prefix is covered by a shorter word prefix of its kind.
fn covered_allows(spec: &PolicySpec, findings: &mut Vec<Finding>) {
    struct Allow<'s> {
        path: String,
        layer: usize,
        trusted: bool,
        rule: &'s RuleSpec,
        reach: Option<Reach>,
        matcher: Option<Matcher>,
    }
    let mut by_tool: HashMap<&str, Vec<Allow<'_>>> = HashMap::new();
    for (layer_index, layer) in spec.layers.iter().enumerate() {
        for (tool, rules) in &layer.tools {
            for (index, rule) in rules.always_allow.iter().enumerate() {
                let reach = reach(rule);
                // A single input is never broader than another rule: only the rest are compiled.
                let matcher = match reach {
                    Some(Reach::One(..)) => None,
                    _ => compile_rule(rule).ok(),
                };
                by_tool.entry(tool).or_default().push(Allow {
                    path: rule_path(layer_index, tool, ListKind::AlwaysAllow, index),
                    layer: layer_index,
                    trusted: layer.trusted,
                    rule,
                    reach,
                    matcher,
                });
            }
        }
    }
    let mut tools: Vec<_> = by_tool.into_iter().collect();
    tools.sort_by(|a, b| a.0.cmp(b.0));
    for (tool, allows) in tools {
        for narrow in &allows {
            let Some(reach) = &narrow.reach else { continue };
            let broader = allows.iter().find(|b| {
                if std::ptr::eq(*b, narrow) || b.rule == narrow.rule || !(b.trusted || b.layer == narrow.layer) {
                    return false;
                }
                match (reach, &b.reach) {
                    (Reach::Words(kind, words), Some(Reach::Words(other, prefix))) => {
                        kind == other && prefix.len() < words.len() && words.starts_with(prefix)
                    }
                    (Reach::One(text, pair), _) => b.matcher.as_ref().is_some_and(|m| {
                        let mut subject = Subject::text(text);
                        subject.pair = pair.as_ref().map(|(a, b)| (a.as_str(), b.as_str()));
                        m.is_match(&subject)
                    }),
                    _ => false,
                }
            });
            if let Some(b) = broader {
                findings.push(Finding {
                    code: LintCode::CoveredAllow,
                    severity: LintCode::CoveredAllow.severity(),
                    message: format!(
                        "every {tool} call \"{}\" allows is already allowed by \"{}\" at {}; this rule can go",
                        narrow.rule.text(),
                        b.rule.text(),
                        b.path
                    ),
                    path: narrow.path.clone(),
                    column: None,
                    related: Some(b.path.clone()),
                    input: None,
                });
            }
        }
    }
}
