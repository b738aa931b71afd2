//! Target `decide`: build a policy, then decide a call — over policies and calls made from small
//! alphabets (via `arbitrary`), so the fuzzer spends its time on rule interplay, not on syntax.
//!
//! A [`Scenario`] is a few layers (trusted or not, with defaults) of rules for a few tools — regexes
//! from curated patterns and from fragments (some invalid), command prefixes, MCP entries, Gasoline
//! patterns, command globs, token prefixes, paths, domains, rules with no or two matchers — the
//! policy's switches, a call of a catalogue tool with inputs made of words and shell syntax, one
//! more rule to add and one allow rule to remove.
//!
//! Properties:
//! - (a) deterministic: deciding twice gives the same [`Decision`]; `outcome_of` (and `outcome`,
//!   `decide`) agree with `decide_call`;
//! - (b) monotone: one more deny rule anywhere never lowers the outcome (so never turns it into
//!   allow); one more confirm rule never turns it into allow and never lowers it except the
//!   documented precedence case below; removing one allow rule never turns a non-allow into allow;
//! - (c) an allow by allow rules means every item was covered by a trusted allow rule of that tool,
//!   carried no hazard (Zed's spelled-out leading assignment aside) and the input was vouched for;
//!   an allow by a default never covers an input the analysis could not vouch for, or whose text is
//!   not what runs, while the tool has deny or confirm rules (the evaluator's stated guarantee);
//! - (d) a path tool's outcome on a path is never lower than on its lexically normalised form;
//! - (e) the spec serialised to JSON and read back is equal and decides the same;
//! - (f) regex rules fire exactly where regex-lite's own `is_match` says: a deny rule of the called
//!   tool that matches an item (or a command tool's raw line) denies, and a regex rule that decided
//!   matched the input it names. Rules span all eight matcher kinds (regex, prefix, MCP entry,
//!   `tool.action`, and the importers' glob, tokens, path and domain).
//! - (g) a write to the control plane never runs unasked: a write path tool's call that names
//!   `.git`, `.vscode` or `.env` in any platform's spelling (read by a reference of its own, not
//!   the engine's) is never allowed; nor is a command line that redirects output into one.

use super::path::normalise;
use arbitrary::{Arbitrary, Unstructured};
use toolgate::policy::{
    Call, CatalogueName, Decision, HookResult, InputKind, InvalidPatternPolicy, LayerSpec, ListKind, MatcherKind, Outcome, Policy,
    PolicySpec, Reason, RuleSpec, SubstitutionPolicy, ToolRulesSpec, UnparsedPolicy,
};
use toolgate::shell::{HazardKind, Shell};

/// An enum of fixed strings the fuzzer picks from.
macro_rules! alphabet {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $text:expr),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($variant),+ }
        impl $name {
            pub fn text(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }
    };
}

alphabet!(
    /// Tool ids of the shipped catalogues, and one the policy describes itself.
    Tool {
        Terminal => "terminal", EditFile => "edit_file", DeletePath => "delete_path", ReadFile => "read_file",
        MovePath => "move_path", CopyPath => "copy_path", Fetch => "fetch", Grep => "grep", WriteFile => "write_file",
        DeleteFile => "delete_file", Mcp => "mcp", UseMcp => "use_mcp_tool", AccessMcpResource => "access_mcp_resource",
        Gasoline => "gasoline", Custom => "custom",
    }
);

alphabet!(
    /// Whole regex patterns of the kinds settings hold: pinned command words, classes, literals,
    /// inline flags, and invalid ones.
    Pattern {
        Git => r"^git\b", Ls => r"^ls\b", Echo => r"^echo\b", Sudo => r"^sudo\b", Cargo => r"^cargo\s+build", GitStatus => r"^git status$",
        Alternation => r"^(git|ls)\b", RmRf => r"rm\s+-rf", Curl => "curl", Word => "^[a-z]+$", Any => ".*", Env => r"\.env",
        DotDot => r"\.\.", Root => "^/", Src => "^src/", SrcDir => r"^src/[^/]+\.rs$", Insensitive => "(?i)GIT", Dollar => r"\$",
        Pipe => r"\|", ShC => r"^(ba)?sh\s+-c", Assignment => r"^[A-Z]+=\S+ git\b", Unclosed => "(", BadRange => "[z-a]",
        BadRepeat => "*x", Github => "^github:", Observe => "observe", Empty => "",
    }
);

alphabet!(
    /// Pieces of regexes, joined to make patterns the curated list lacks (often invalid).
    Fragment {
        Caret => "^", End => "$", Boundary => r"\b", Spaces => r"\s+", Dot => ".", Star => "*", Plus => "+", Question => "?",
        Open => "(", Close => ")", Bar => "|", Lower => "[a-z]", NotSlash => "[^/]", Git => "git", Ls => "ls", Rm => "rm",
        Flag => "-rf", Slash => "/", Env => r"\.env", Backslash => r"\", LiteralDot => r"\.", Status => "status", Digit => r"\d",
        Count => "{2}", Space => " ", Upper => "GIT", NonGreedy => ".*?", Group => "(?:", Flags => "(?i)",
    }
);

alphabet!(
    /// Words and shell syntax that inputs (commands, paths, names) are made of.
    Token {
        Space => " ", Semicolon => ";", And => "&&", Or => "||", Pipe => "|", Background => "&", Newline => "\n",
        Substitution => "$(", Close => ")", Open => "(", Backtick => "`", Single => "'", Double => "\"", BraceOpen => "{ ",
        BraceClose => "}", Redirect => ">", Input => "<", DevNull => "/dev/null", Comment => "#", Backslash => "\\",
        Variable => "$HOME", Assignment => "PAGER=x ", Ls => "ls", Git => "git", Status => "status", Rm => "rm", RmFlags => "-rf",
        Slash => "/", Dot => ".", DotDot => "..", DotEnv => ".env", Src => "src", Main => "main.rs", Curl => "curl", Sh => "sh",
        DashC => "-c", Echo => "echo", Sudo => "sudo", Env => "env", Cargo => "cargo", Build => "build", Star => "*", Tilde => "~",
        Github => "github", CreateIssue => "create_issue", Colon => ":", Observe => "observe", Logs => "logs", Upper => "GIT",
        Letter => "a", DotGit => ".git", DotVscode => ".VSCode.", Stream => "::$DATA", Cp => "cp", Tee => "tee",
    }
);

alphabet!(
    /// One side of an MCP entry, valid or not.
    McpSide { Any => "*", Github => "github", Docs => "docs", CreateIssue => "create_issue", Search => "search", Empty => "", Colon => "a:b", Partial => "git*" }
);

alphabet!(
    /// Gasoline `tool.action` patterns, valid or not.
    GasolinePattern { All => "*", Observe => "observe.*", Logs => "observe.logs", Upper => "OBSERVE.LOGS", Navigate => "interact.navigate", Bad => "observe", Dotted => "a.b.c" }
);

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Allow,
    Confirm,
    Deny,
}

impl Mode {
    fn outcome(self) -> Outcome {
        match self {
            Mode::Allow => Outcome::Allow,
            Mode::Confirm => Outcome::Confirm,
            Mode::Deny => Outcome::Deny,
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum ShellChoice {
    Posix,
    PowerShell,
    Cmd,
    Nushell,
    Unknown,
}

impl ShellChoice {
    fn shell(self) -> Shell {
        match self {
            ShellChoice::Posix => Shell::Posix,
            ShellChoice::PowerShell => Shell::PowerShell,
            ShellChoice::Cmd => Shell::Cmd,
            ShellChoice::Nushell => Shell::Nushell,
            ShellChoice::Unknown => Shell::Unknown,
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Kind {
    Command(ShellChoice),
    Path,
    PathPair,
    Url,
    McpCall,
    Opaque,
    ReadPath,
}

impl Kind {
    fn input_kind(self) -> InputKind {
        match self {
            Kind::Command(shell) => InputKind::Command { shell: shell.shell() },
            Kind::Path => InputKind::Path { access: toolgate::policy::PathAccess::Write },
            Kind::ReadPath => InputKind::Path { access: toolgate::policy::PathAccess::Read },
            Kind::PathPair => InputKind::PathPair,
            Kind::Url => InputKind::Url,
            Kind::McpCall => InputKind::McpCall,
            Kind::Opaque => InputKind::Opaque,
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Catalogue {
    Zed,
    Cursor,
    Roo,
    Gasoline,
    None,
}

impl Catalogue {
    fn name(self) -> CatalogueName {
        match self {
            Catalogue::Zed => CatalogueName::Zed,
            Catalogue::Cursor => CatalogueName::Cursor,
            Catalogue::Roo => CatalogueName::Roo,
            Catalogue::Gasoline => CatalogueName::Gasoline,
            Catalogue::None => CatalogueName::None,
        }
    }
}

alphabet!(
    /// Domain globs, valid or not.
    DomainPattern { Star => "*.example.com", Apex => "example.com", Suffix => "example.*", Github => "github.com", Upper => "GitHub.com", Bad => "http://x", Empty => "" }
);

alphabet!(
    /// Pieces of regexes in the shapes `Fragment` lacks: word assertions, special word boundaries,
    /// POSIX and negated classes, alternation of anchored words.
    RegexPiece {
        Start => "^", End => "$", Bar => "|", Open => "(", Close => ")", NonCapturing => "(?:", Insensitive => "(?i)",
        WordStart => r"\<", WordEnd => r"\>", StartWord => r"\b{start}", EndWord => r"\b{end}", Boundary => r"\b",
        NotBoundary => r"\B", Space => "[[:space:]]", NotWord => "[^[:word:]]", Spaces => r"\s+", Word => r"\w", Dot => ".",
        Star => "*", Plus => "+", Question => "?", Rm => "rm", Git => "git", Hg => "hg", Sudo => "sudo", Curl => "curl", Flags => "-rf",
        Push => "push", Force => "--force", Blank => " ",
    }
);

/// A rule of the kinds the importers bring (command globs, token prefixes, paths, domains), or
/// a regex of the shapes the first alphabets lack.
#[derive(Arbitrary, Debug, Clone)]
pub enum ImportedRule {
    Regex(Vec<RegexPiece>, bool),
    Glob(Vec<Token>),
    Tokens(Vec<Token>),
    Path(Vec<Token>, bool),
    Domain(DomainPattern),
}

impl ImportedRule {
    fn spec(&self) -> RuleSpec {
        let text = |words: &[Token]| words.iter().take(4).map(|w| w.text()).collect::<String>();
        match self {
            ImportedRule::Regex(pieces, case) => RuleSpec::regex(pieces.iter().take(8).map(|p| p.text()).collect::<String>(), *case),
            ImportedRule::Glob(words) => RuleSpec::glob(text(words)),
            ImportedRule::Tokens(words) => RuleSpec::tokens(text(words)),
            ImportedRule::Path(words, rooted) => RuleSpec::path(text(words), rooted.then(|| "/p".to_owned())),
            ImportedRule::Domain(domain) => RuleSpec::domain(domain.text()),
        }
    }
}

/// Where an imported rule goes: a layer (modulo their number), a tool, a list.
#[derive(Arbitrary, Debug, Clone)]
pub struct PlacedRule {
    pub layer: u8,
    pub tool: Tool,
    pub list: Mode,
    pub rule: ImportedRule,
}

/// One rule of any matcher kind, or an invalid one.
#[derive(Arbitrary, Debug, Clone)]
pub enum Rule {
    Pattern(Pattern, bool),
    Fragments(Vec<Fragment>, bool),
    Prefix(Vec<Token>),
    Mcp(McpSide, McpSide),
    ToolAction(GasolinePattern),
    /// No matcher at all: invalid.
    Nothing,
    /// Two matchers: invalid.
    Both(Pattern, Token),
}

impl Rule {
    fn spec(&self) -> RuleSpec {
        match self {
            Rule::Pattern(p, case) => RuleSpec::regex(p.text(), *case),
            Rule::Fragments(f, case) => RuleSpec::regex(f.iter().take(6).map(|f| f.text()).collect::<String>(), *case),
            Rule::Prefix(words) => RuleSpec::prefix(words.iter().take(4).map(|w| w.text()).collect::<String>()),
            Rule::Mcp(server, tool) => RuleSpec::mcp(format!("{}:{}", server.text(), tool.text())),
            Rule::ToolAction(p) => RuleSpec::tool_action(p.text()),
            Rule::Nothing => RuleSpec::default(),
            Rule::Both(p, word) => RuleSpec { prefix: Some(word.text().to_owned()), ..RuleSpec::regex(p.text(), false) },
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
pub struct ToolRules {
    pub tool: Tool,
    pub default_mode: Option<Mode>,
    pub allow: Vec<Rule>,
    pub deny: Vec<Rule>,
    pub confirm: Vec<Rule>,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct Layer {
    pub trusted: bool,
    pub default_mode: Option<Mode>,
    pub tools: Vec<ToolRules>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Hook {
    Allow,
    Ask,
    Reject,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct CallSpec {
    pub tool: Tool,
    pub inputs: Vec<Vec<Token>>,
    pub hook: Option<Hook>,
}

/// Where the extra rule of the monotonicity check goes.
#[derive(Arbitrary, Debug, Clone)]
pub struct Placement {
    /// Modulo the number of layers plus one; the extra value is a new layer at the end.
    pub layer: u8,
    /// The new layer's trust, when one is made.
    pub trusted: bool,
    /// The tool; absent: the call's own.
    pub tool: Option<Tool>,
    /// Position in the list, modulo its length plus one.
    pub position: u8,
}

/// Everything one fuzz input decides.
#[derive(Arbitrary, Debug, Clone)]
pub struct Scenario {
    pub layers: Vec<Layer>,
    pub default_mode: Mode,
    pub legacy_always_allow: bool,
    pub substitutions_deny: bool,
    pub invalid_blocks_tool: bool,
    pub unparsed_deny: bool,
    pub catalogue: Catalogue,
    pub custom_kind: Kind,
    pub terminal_shell: Option<ShellChoice>,
    pub call: CallSpec,
    pub extra: Rule,
    pub placement: Placement,
    /// Which allow rule to remove, modulo their number.
    pub removed: u8,
    /// Rules of the importers' kinds and more regexes. Last, so that inputs kept before it existed decode to the
    /// same scenario (with none).
    pub imported: Vec<PlacedRule>,
}

const MAX_LAYERS: usize = 3;
const MAX_TOOLS: usize = 3;
const MAX_RULES: usize = 4;
const MAX_INPUTS: usize = 3;
const MAX_TOKENS: usize = 16;

fn layer_name(index: usize) -> String {
    format!("layer{index}")
}

impl Scenario {
    /// The policy spec the scenario describes.
    pub fn spec(&self) -> PolicySpec {
        let rules = |list: &[Rule]| list.iter().take(MAX_RULES).map(Rule::spec).collect::<Vec<_>>();
        let layers = self
            .layers
            .iter()
            .take(MAX_LAYERS)
            .enumerate()
            .map(|(i, layer)| {
                let mut tools = std::collections::BTreeMap::new();
                for t in layer.tools.iter().take(MAX_TOOLS) {
                    tools.insert(
                        t.tool.text().to_owned(),
                        ToolRulesSpec {
                            default_mode: t.default_mode.map(Mode::outcome),
                            always_allow: rules(&t.allow),
                            always_deny: rules(&t.deny),
                            always_confirm: rules(&t.confirm),
                        },
                    );
                }
                LayerSpec {
                    name: layer_name(i),
                    trusted: layer.trusted,
                    default_mode: layer.default_mode.map(Mode::outcome),
                    tools,
                    ..LayerSpec::default()
                }
            })
            .collect();
        let mut layers: Vec<LayerSpec> = layers;
        for placed in self.imported.iter().take(MAX_RULES) {
            let count = layers.len();
            let Some(layer) = layers.get_mut(usize::from(placed.layer) % count.max(1)) else { break };
            let rules = layer.tools.entry(placed.tool.text().to_owned()).or_default();
            let list = match placed.list {
                Mode::Allow => &mut rules.always_allow,
                Mode::Confirm => &mut rules.always_confirm,
                Mode::Deny => &mut rules.always_deny,
            };
            list.push(placed.rule.spec());
        }
        let mut tool_kinds: std::collections::BTreeMap<String, InputKind> =
            [(Tool::Custom.text().to_owned(), self.custom_kind.input_kind())].into_iter().collect();
        if let Some(shell) = self.terminal_shell {
            tool_kinds.insert(Tool::Terminal.text().to_owned(), InputKind::Command { shell: shell.shell() });
        }
        PolicySpec {
            layers,
            default_mode: self.default_mode.outcome(),
            always_allow_tool_actions: self.legacy_always_allow,
            substitutions: if self.substitutions_deny { SubstitutionPolicy::Deny } else { SubstitutionPolicy::Confirm },
            invalid_patterns: if self.invalid_blocks_tool { InvalidPatternPolicy::BlockTool } else { InvalidPatternPolicy::FailClosed },
            unparsed_commands: if self.unparsed_deny { UnparsedPolicy::Deny } else { UnparsedPolicy::Confirm },
            catalogue: self.catalogue.name(),
            tool_kinds,
            ..PolicySpec::default()
        }
    }

    /// The call the scenario decides.
    pub fn call(&self) -> Call {
        let inputs =
            self.call.inputs.iter().take(MAX_INPUTS).map(|tokens| tokens.iter().take(MAX_TOKENS).map(|t| t.text()).collect()).collect();
        let hook = self.call.hook.map(|h| match h {
            Hook::Allow => HookResult::Allow,
            Hook::Ask => HookResult::Ask,
            Hook::Reject => HookResult::Reject,
        });
        Call { tool: self.call.tool.text().to_owned(), inputs, hook }
    }
}

pub fn check(data: &[u8]) {
    let mut input = Unstructured::new(data);
    if let Ok(scenario) = Scenario::arbitrary(&mut input) {
        check_scenario(&scenario);
    }
}

/// Every property for one scenario.
pub fn check_scenario(scenario: &Scenario) {
    let spec = scenario.spec();
    let call = scenario.call();
    let policy = Policy::new(spec.clone());
    let decision = policy.decide_call(&call);

    deterministic(&policy, &call, &decision);
    allow_means_covered(&spec, &call, &decision);
    monotone_added(scenario, &spec, &call, &decision, ListKind::AlwaysDeny);
    monotone_added(scenario, &spec, &call, &decision, ListKind::AlwaysConfirm);
    monotone_removed_allow(scenario, &spec, &call, &decision);
    path_never_looser_than_normalised(&policy, &call, &decision);
    serde_round_trip(&spec, &call, &decision);
    regex_rules_fire_as_regex_lite_says(&spec, &policy, &call, &decision);
    control_plane_writes_never_run_unasked(&policy, &call, &decision);
}

/// (a) The same call decides the same way, whichever entry point is used.
fn deterministic(policy: &Policy, call: &Call, decision: &Decision) {
    assert_eq!(&policy.decide_call(call), decision, "(a) deterministic: deciding {call:?} twice differs");
    assert_eq!(policy.outcome_of(call), decision.outcome, "(a) outcome_of disagrees with decide_call for {call:?}");
    if call.hook.is_none() {
        assert_eq!(&policy.decide(&call.tool, &call.inputs), decision, "(a) decide disagrees with decide_call for {call:?}");
        assert_eq!(policy.outcome(&call.tool, &call.inputs), decision.outcome, "(a) outcome disagrees with decide_call for {call:?}");
    }
}

/// Whether any layer gives `tool` a deny or confirm rule (valid or not).
fn restricted(spec: &PolicySpec, tool: &str) -> bool {
    spec.layers.iter().filter_map(|l| l.tools.get(tool)).any(|t| !t.always_deny.is_empty() || !t.always_confirm.is_empty())
}

/// (c) What an allow decision promises about the items.
fn allow_means_covered(spec: &PolicySpec, call: &Call, decision: &Decision) {
    if decision.outcome != Outcome::Allow {
        return;
    }
    let context = || format!("call {call:?}\n  decision {decision:#?}\n  spec {}", serde_json::to_string(spec).unwrap_or_default());
    match decision.reason {
        Reason::AllowRule => {
            assert!(!decision.items.is_empty(), "(c) allowed by rules with no item: {}", context());
            assert!(decision.cannot_vouch.is_none(), "(c) allowed by rules although the input was not vouched for: {}", context());
            for item in &decision.items {
                let Some(rule) = &item.allowed_by else { panic!("(c) allowed, but item {:?} has no allow rule: {}", item.text, context()) };
                let layer = spec.layers.iter().find(|l| l.name == rule.layer);
                assert!(
                    rule.list == ListKind::AlwaysAllow && rule.tool == call.tool && layer.is_some_and(|l| l.trusted),
                    "(c) item {:?} covered by {rule:?}, not a trusted allow rule of the tool: {}",
                    item.text,
                    context()
                );
                // Zed's one exception: a leading assignment is covered by a rule that spells it out.
                let hazards_ok = item.hazards.iter().all(|h| h.kind == HazardKind::EnvAssignment);
                assert!(hazards_ok, "(c) allowed, but item {:?} carries hazards {:?}: {}", item.text, item.hazards, context());
            }
        }
        Reason::ToolDefault | Reason::GlobalDefault | Reason::LegacyAlwaysAllow if restricted(spec, &call.tool) => {
            let expansion = decision.items.iter().any(|i| i.hazards.iter().any(|h| h.kind == HazardKind::Expansion));
            assert!(
                decision.cannot_vouch.is_none() && !expansion,
                "(c) a default allowed an input the deny/confirm rules of {} cannot be checked against: {}",
                call.tool,
                context()
            );
        }
        _ => {}
    }
}

/// The spec with `rule` added to `list` where the placement says.
fn with_rule(spec: &PolicySpec, placement: &Placement, call_tool: &str, rule: RuleSpec, list: ListKind) -> PolicySpec {
    let mut spec = spec.clone();
    let at = usize::from(placement.layer) % (spec.layers.len() + 1);
    if at == spec.layers.len() {
        spec.layers.push(LayerSpec { name: "added".into(), trusted: placement.trusted, ..LayerSpec::default() });
    }
    let tool = placement.tool.map_or_else(|| call_tool.to_owned(), |t| t.text().to_owned());
    if let Some(layer) = spec.layers.get_mut(at) {
        let rules = layer.tools.entry(tool).or_default();
        let target = match list {
            ListKind::AlwaysAllow => &mut rules.always_allow,
            ListKind::AlwaysDeny => &mut rules.always_deny,
            ListKind::AlwaysConfirm => &mut rules.always_confirm,
        };
        let position = usize::from(placement.position) % (target.len() + 1);
        target.insert(position, rule);
    }
    spec
}

/// (b) One more deny or confirm rule anywhere never makes the outcome looser.
fn monotone_added(scenario: &Scenario, spec: &PolicySpec, call: &Call, before: &Decision, list: ListKind) {
    let changed = with_rule(spec, &scenario.placement, &call.tool, scenario.extra.spec(), list);
    let after = Policy::new(changed.clone()).decide_call(call);
    let context = || {
        format!(
            "call {call:?}\n  before {:?} ({:?})\n  after {:?} ({:?}: {})\n  spec after {}",
            before.outcome,
            before.reason,
            after.outcome,
            after.reason,
            after.message,
            serde_json::to_string(&changed).unwrap_or_default()
        )
    };
    assert!(
        after.outcome != Outcome::Allow || before.outcome == Outcome::Allow,
        "(b) monotone: one more {} rule turned the outcome into allow: {}",
        list.settings_key(),
        context()
    );
    // Precedence, as documented (confirm rules > allow rules > defaults, after Zed): a confirm rule
    // that matches — or, failing closed, one that does not compile — answers "confirm" even where
    // the tool's default would have denied. Only a trusted layer may do that: an untrusted one may
    // only make decisions stricter.
    let confirm_over_default_deny = list == ListKind::AlwaysConfirm
        && before.outcome == Outcome::Deny
        && matches!(before.reason, Reason::ToolDefault | Reason::GlobalDefault)
        && matches!(after.reason, Reason::ConfirmRule | Reason::InvalidPattern);
    let placed_in = usize::from(scenario.placement.layer) % (spec.layers.len() + 1);
    let placed_in_trusted = changed.layers.get(placed_in).is_some_and(|l| l.trusted);
    let excused = confirm_over_default_deny && placed_in_trusted;
    assert!(
        after.outcome >= before.outcome || excused,
        "(b) monotone: one more {} rule lowered the outcome: {}",
        list.settings_key(),
        context()
    );
}

/// (b) Removing one allow rule never turns a non-allow into allow.
fn monotone_removed_allow(scenario: &Scenario, spec: &PolicySpec, call: &Call, before: &Decision) {
    if before.outcome == Outcome::Allow {
        return;
    }
    let places: Vec<(usize, String, usize)> = spec
        .layers
        .iter()
        .enumerate()
        .flat_map(|(l, layer)| {
            layer.tools.iter().flat_map(move |(tool, rules)| (0..rules.always_allow.len()).map(move |i| (l, tool.clone(), i)))
        })
        .collect();
    if places.is_empty() {
        return;
    }
    let Some((l, tool, i)) = places.get(usize::from(scenario.removed) % places.len()).cloned() else { return };
    let mut changed = spec.clone();
    let removed = changed.layers.get_mut(l).and_then(|layer| layer.tools.get_mut(&tool)).map(|rules| rules.always_allow.remove(i));
    // Zed's two rules that make allow rules themselves a reason to refuse, both documented: with
    // `invalidPatterns: blockTool` an allow rule that does not compile blocks its tool, and a shell
    // that is not analysed refuses a tool that has allow rules. Removing such a rule lifts that.
    let removed_invalid = || {
        let layer_name = spec.layers.get(l).map(|layer| layer.name.as_str()).unwrap_or_default();
        Policy::new(spec.clone())
            .invalid_patterns()
            .iter()
            .any(|p| p.layer == layer_name && p.tool == tool && p.list == ListKind::AlwaysAllow && p.index == i)
    };
    if before.reason == Reason::UnsupportedShell || (before.reason == Reason::InvalidPattern && removed_invalid()) {
        return;
    }
    let after = Policy::new(changed.clone()).decide_call(call);
    assert!(
        after.outcome != Outcome::Allow,
        "(b) monotone: removing allow rule {removed:?} ({tool}, layer {l}) turned {:?} ({:?}) into allow ({:?}): call {call:?}\n  spec after {}",
        before.outcome,
        before.reason,
        after.reason,
        serde_json::to_string(&changed).unwrap_or_default()
    );
}

/// (d) For path tools, the path as written is never looser than its normalised form.
fn path_never_looser_than_normalised(policy: &Policy, call: &Call, raw: &Decision) {
    if !matches!(policy.input_kind(&call.tool), InputKind::Path { .. } | InputKind::PathPair) {
        return;
    }
    let normal_inputs: Vec<String> = call.inputs.iter().map(|p| normalise(p)).collect();
    if normal_inputs == call.inputs {
        return;
    }
    let normal_call = Call { inputs: normal_inputs, ..call.clone() };
    let normal = policy.decide_call(&normal_call);
    assert!(
        raw.outcome >= normal.outcome,
        "(d) {call:?} is {:?} ({:?}), looser than its normalised form {:?}: {:?} ({:?})",
        raw.outcome,
        raw.reason,
        normal_call.inputs,
        normal.outcome,
        normal.reason
    );
}

/// (e) serialise → parse → decide gives the same answer.
fn serde_round_trip(spec: &PolicySpec, call: &Call, decision: &Decision) {
    let json = serde_json::to_string(spec).unwrap_or_else(|e| panic!("(e) the spec does not serialise: {e}"));
    let back: PolicySpec =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("(e) the serialised spec does not read back: {e}\n{json}"));
    assert_eq!(&back, spec, "(e) serialise → read changed the spec: {json}");
    let call_json = serde_json::to_string(call).unwrap_or_default();
    let call_back: Call = serde_json::from_str(&call_json).unwrap_or_else(|e| panic!("(e) the call does not read back: {e}"));
    assert_eq!(&Policy::new(back).decide_call(&call_back), decision, "(e) serialise → read → decide differs for {call:?}: {json}");
}

/// (f) Regex rules fire exactly where regex-lite's own `is_match` says, with no prefilter or
/// index in between: a deny rule of the called tool that matches one of the decision's items (or,
/// for a command tool, the raw line) denies; a regex rule that decided matched the input it names.
fn regex_rules_fire_as_regex_lite_says(spec: &PolicySpec, policy: &Policy, call: &Call, decision: &Decision) {
    let regex = |rule: &RuleSpec| {
        let pattern = rule.pattern.as_deref().filter(|_| MatcherKind::of(rule) == MatcherKind::Regex)?;
        regex_lite::RegexBuilder::new(pattern).case_insensitive(!rule.case_sensitive).build().ok()
    };
    let command = matches!(policy.input_kind(&call.tool), InputKind::Command { .. });
    let raw_lines = call.inputs.iter().filter(|_| command).map(String::as_str);
    let texts: Vec<&str> = decision.items.iter().map(|i| i.text.as_str()).chain(raw_lines).collect();
    for layer in &spec.layers {
        for rule in layer.tools.get(&call.tool).map(|rules| rules.always_deny.as_slice()).unwrap_or_default() {
            let Some(text) = regex(rule).and_then(|regex| texts.iter().find(|text| regex.is_match(text))) else { continue };
            assert_eq!(
                decision.outcome,
                Outcome::Deny,
                "(f) deny rule {:?} of layer {} matches {text:?} (regex-lite), yet {call:?} is {:?} ({:?})",
                rule.pattern,
                layer.name,
                decision.outcome,
                decision.reason
            );
        }
    }
    let (Some(decided), Some(input)) = (&decision.rule, &decision.matched_input) else { return };
    if decided.matcher != MatcherKind::Regex || decided.tool != call.tool {
        return;
    }
    let spec_rule = spec.layers.iter().find(|l| l.name == decided.layer).and_then(|l| l.tools.get(&decided.tool)).and_then(|rules| {
        match decided.list {
            ListKind::AlwaysAllow => rules.always_allow.get(decided.index),
            ListKind::AlwaysDeny => rules.always_deny.get(decided.index),
            ListKind::AlwaysConfirm => rules.always_confirm.get(decided.index),
        }
    });
    if let Some(regex) = spec_rule.and_then(regex) {
        assert!(regex.is_match(input), "(f) {decided:?} decided {call:?} on {input:?}, which regex-lite says it does not match");
    }
}

/// Whether a path names `.git`, `.vscode` or `.env` as any platform reads it: components split at
/// `/` and `\\`, lower-cased, an NTFS stream (`:…`) and trailing dots and spaces cut.
fn names_control_plane(path: &str) -> bool {
    path.split(['/', '\\']).any(|part| {
        let lower = part.to_lowercase();
        let name = lower.split(':').next().unwrap_or("").trim_end_matches(['.', ' ']);
        matches!(name, ".git" | ".vscode" | ".env")
    })
}

/// (g) A write to the control plane never runs unasked.
fn control_plane_writes_never_run_unasked(policy: &Policy, call: &Call, decision: &Decision) {
    if decision.outcome != Outcome::Allow {
        return;
    }
    let writes = match policy.input_kind(&call.tool) {
        InputKind::Path { access } => access == toolgate::policy::PathAccess::Write,
        InputKind::PathPair => true,
        _ => false,
    };
    if writes {
        assert!(
            !call.inputs.iter().any(|p| names_control_plane(p)),
            "(g) a write to the control plane was allowed: {call:?} {decision:#?}"
        );
    }
    // An output redirect the analysis found, into the control plane.
    for item in decision.items.iter().filter(|i| i.kind == toolgate::policy::ItemKind::Redirect) {
        if let Some((operator, target)) = item.text.split_once(' ') {
            assert!(
                !(operator.contains('>') && names_control_plane(target)),
                "(g) a redirect into the control plane was allowed: {call:?} {decision:#?}"
            );
        }
    }
}
