//! Compiled rules of every matcher kind, indexed so a lookup never scans the whole list.
//!
//! - Regex rules are filed under the command word a pattern pins down (`^git\b`, `^cargo\s+build`)
//!   and prefiltered by a literal every match must contain.
//! - Command-prefix rules are filed under their first word.
//! - MCP entries and Gasoline `tool.action` patterns are hash-compiled (see
//!   [`super::pair_index`]): constant time whatever the list's length.
//! - Imported kinds (see [`super::matchers`]) have buckets of their own, so lists without them
//!   pay one emptiness check: command globs are filed under the first word they spell out,
//!   token prefixes under the basename of each alternative of their first token; path
//!   patterns, domain globs, globs that start with `*` and deny and confirm globs (which also
//!   meet a command past its wrappers) are scanned.
//!
//! Matching returns the earliest rule in policy order, so the indexes change speed, never the
//! answer (tests compare them with a plain scan).

use super::literal_program::LiteralProgram;
use super::literal_sieve::LiteralSieve;
use super::matchers::{CommandGlob, DomainGlob, PathPattern, TokenPrefix};
use super::pair_index::{PairIndex, PairPattern};
use super::path::WindowsReading;
#[cfg(feature = "analysis")]
use super::regex_facts::regex_facts;
use super::word_index::WordIndex;
use super::RuleSpec;
use regex_lite::{Regex, RegexBuilder};
use serde::Serialize;
use std::sync::Arc;

/// Which list of a tool's rules a rule sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ListKind {
    /// Rules that let a call run.
    AlwaysAllow,
    /// Rules that refuse a call.
    AlwaysDeny,
    /// Rules that make a call ask.
    AlwaysConfirm,
}

impl ListKind {
    /// The list's key in Zed's settings.
    pub fn settings_key(self) -> &'static str {
        match self {
            ListKind::AlwaysAllow => "always_allow",
            ListKind::AlwaysDeny => "always_deny",
            ListKind::AlwaysConfirm => "always_confirm",
        }
    }

    /// The list's key in a policy spec.
    pub fn spec_key(self) -> &'static str {
        match self {
            ListKind::AlwaysAllow => "alwaysAllow",
            ListKind::AlwaysDeny => "alwaysDeny",
            ListKind::AlwaysConfirm => "alwaysConfirm",
        }
    }
}

/// Which kind of matcher a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum MatcherKind {
    /// A regular expression (`pattern`).
    Regex,
    /// A command prefix (`prefix`).
    Prefix,
    /// An MCP entry `server:tool` (`mcp`).
    Mcp,
    /// A Gasoline `tool.action` pattern (`toolAction`).
    ToolAction,
    /// A command glob, Claude Code's `Bash(…)` (`glob`).
    Glob,
    /// A token prefix with alternatives, Codex's `prefix_rule` (`tokens`).
    Tokens,
    /// A gitignore-style path pattern (`path`, with `root`).
    Path,
    /// A domain glob matched against a URL's host (`domain`).
    Domain,
    /// A rule with no matcher, or more than one: invalid.
    Unknown,
}

impl MatcherKind {
    /// Every kind a rule can be, with the rule field that holds its text: the one table of kinds.
    /// A kind's place in it, counted from 1, is its [`code`](Self::code) on the result tape. A new
    /// kind is added here and to its `RuleSpec` field; the compiler then asks for its arm in every
    /// match over the kinds (ARCHITECTURE.md, "Where to add things").
    pub const ALL: [(MatcherKind, &'static str); 8] = [
        (MatcherKind::Regex, "pattern"),
        (MatcherKind::Prefix, "prefix"),
        (MatcherKind::Mcp, "mcp"),
        (MatcherKind::ToolAction, "toolAction"),
        (MatcherKind::Glob, "glob"),
        (MatcherKind::Tokens, "tokens"),
        (MatcherKind::Path, "path"),
        (MatcherKind::Domain, "domain"),
    ];

    /// The kind's name in messages ("a glob rule cannot be written for …").
    pub fn name(self) -> &'static str {
        match self {
            MatcherKind::Regex => "regex",
            MatcherKind::Prefix => "prefix",
            MatcherKind::Mcp => "mcp",
            MatcherKind::ToolAction => "toolaction",
            MatcherKind::Glob => "glob",
            MatcherKind::Tokens => "tokens",
            MatcherKind::Path => "path",
            MatcherKind::Domain => "domain",
            MatcherKind::Unknown => "unknown",
        }
    }

    /// The kind as a number: its place in [`ALL`](Self::ALL) counted from 1, `0` for `Unknown`.
    /// The result tape carries a suggestion's kind so (its reader, `tape.js`, reads the same
    /// table: `tests/matcher_codes.rs` holds the two together).
    pub fn code(self) -> u8 {
        Self::ALL.iter().position(|(kind, _)| *kind == self).and_then(|at| u8::try_from(at + 1).ok()).unwrap_or(0)
    }

    /// A rule of this kind with `text` in its field (a regex not case-sensitive, a path with no
    /// root); `Unknown` has no field, so its rule has no matcher.
    pub fn rule(self, text: String) -> RuleSpec {
        match self {
            MatcherKind::Regex => RuleSpec::regex(text, false),
            MatcherKind::Prefix => RuleSpec::prefix(text),
            MatcherKind::Mcp => RuleSpec::mcp(text),
            MatcherKind::ToolAction => RuleSpec::tool_action(text),
            MatcherKind::Glob => RuleSpec::glob(text),
            MatcherKind::Tokens => RuleSpec::tokens(text),
            MatcherKind::Path => RuleSpec::path(text, None),
            MatcherKind::Domain => RuleSpec::domain(text),
            MatcherKind::Unknown => RuleSpec::default(),
        }
    }

    /// This kind's text in `rule`, if the rule sets its field.
    pub fn text_in(self, rule: &RuleSpec) -> Option<&str> {
        match self {
            MatcherKind::Regex => rule.pattern.as_deref(),
            MatcherKind::Prefix => rule.prefix.as_deref(),
            MatcherKind::Mcp => rule.mcp.as_deref(),
            MatcherKind::ToolAction => rule.tool_action.as_deref(),
            MatcherKind::Glob => rule.glob.as_deref(),
            MatcherKind::Tokens => rule.tokens.as_deref(),
            MatcherKind::Path => rule.path.as_deref(),
            MatcherKind::Domain => rule.domain.as_deref(),
            MatcherKind::Unknown => None,
        }
    }

    /// The kind a rule spec asks for; `Unknown` unless exactly one matcher field is set.
    pub fn of(rule: &RuleSpec) -> Self {
        let mut set = Self::ALL.iter().map(|(kind, _)| *kind).filter(|kind| kind.text_in(rule).is_some());
        match (set.next(), set.next()) {
            (Some(kind), None) => kind,
            _ => MatcherKind::Unknown,
        }
    }

    /// What a rule with no matcher, or more than one, is told.
    fn needs_one() -> String {
        let fields: Vec<String> = Self::ALL.iter().map(|(_, field)| format!("`{field}`")).collect();
        match fields.split_last() {
            Some((last, rest)) => format!("a rule needs exactly one of {} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// Where a rule came from: enough to point a user at it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RuleRef {
    /// The layer the rule is in.
    pub layer: String,
    /// The tool the rule is for.
    pub tool: String,
    /// The list the rule is in.
    pub list: ListKind,
    /// Position in that layer's list.
    pub index: usize,
    /// What kind of rule it is.
    pub matcher: MatcherKind,
    /// The rule's text: the regex, prefix, entry or pattern as written.
    pub pattern: String,
}

/// What a rule is matched against: an item's text, and for calls the pair of names.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub text: &'a str,
    /// `(server, tool)` of an MCP call, `(tool, action)` of a Gasoline call.
    pub pair: Option<(&'a str, &'a str)>,
    /// A command's word and arguments, unquoted: what token prefixes match.
    pub words: Option<(&'a str, &'a [String])>,
    /// The text is a word of a command line that may or may not be a path: a path rule that
    /// cannot relate it to its anchor does not match it, even in a deny or confirm list.
    pub guessed_path: bool,
}

impl<'a> Subject<'a> {
    pub fn text(text: &'a str) -> Self {
        Subject { text, pair: None, words: None, guessed_path: false }
    }

    /// A word of a command line that may name a path (see [`Subject::guessed_path`]).
    #[cfg(feature = "shell")]
    pub fn guessed_path(text: &'a str) -> Self {
        Subject { guessed_path: true, ..Subject::text(text) }
    }

    /// The command's first token: its word when analysed, else the text's first word.
    fn first_token(&self) -> &'a str {
        match self.words {
            Some((name, _)) => name,
            None => self.text.split_whitespace().next().unwrap_or_default(),
        }
    }
}

/// Carried by every text matcher (all but [`Matcher::Pair`]). Without the `analysis` feature (the
/// MCP entry's build) it has no value, so those matchers cannot exist there: `compile_rule`
/// refuses them, and the compiler leaves out all the code that reads them.
#[cfg(feature = "analysis")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextMatching;

/// See the other `TextMatching`: uninhabited in a build without the `analysis` feature.
#[cfg(not(feature = "analysis"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextMatching {}

/// A compiled matcher.
#[derive(Debug, Clone)]
// Only `Pair` can be built without the `analysis` feature (see `TextMatching`).
#[cfg_attr(not(feature = "analysis"), allow(dead_code))]
pub enum Matcher {
    Regex(RegexRule, TextMatching),
    /// The prefix's words; a subject matches when they are its first words.
    Prefix(Vec<String>, TextMatching),
    Pair(PairPattern),
    /// A command glob. A deny or confirm glob meets a command past its leading assignments and
    /// wrappers, as Claude Code's deny and ask rules do, through the item's forms
    /// ([`crate::shell::RunForm`]), as every kind does.
    Glob(CommandGlob, TextMatching),
    /// A token prefix. A deny or confirm rule meets `/usr/bin/git` as `git`, as Codex resolves a
    /// program's path to the rules for its name, through the item's forms.
    Tokens(TokenPrefix, TextMatching),
    /// A path pattern; `fail_closed` (deny and confirm lists) when a path it cannot relate matches.
    /// `any_spelling` (deny and confirm lists): the pattern case-folded, matched against the
    /// path as the most lenient platform reads it ([`super::path::any_platform_spelling`]), so
    /// `.GIT/config`, `.git./config`, `.g\u{200C}it/config` and `\\?\C:\r\.git\config` meet a
    /// rule on `.git/**`. An allow rule (not `fail_closed`) must hold under every platform's
    /// reading: as written and as Windows reads it ([`super::path::windows_reading`]), so
    /// `src/..\..\etc\passwd` and `\\host\share\x` are not inside a rule rooted in `src`.
    Path {
        pattern: PathPattern,
        fail_closed: bool,
        any_spelling: Option<Box<FoldedPattern>>,
        text: TextMatching,
    },
    /// A domain glob; `fail_closed` (deny and confirm lists) when a URL that does not parse matches.
    Domain {
        glob: DomainGlob,
        fail_closed: bool,
        text: TextMatching,
    },
}

/// A path pattern and its root case-folded ([`super::path::folded_rule_text`]), in the Unicode
/// forms a path is spelled in: the composed one, and the decomposed one where it differs.
#[derive(Debug, Clone)]
pub struct FoldedPattern {
    composed: PathPattern,
    decomposed: Option<PathPattern>,
}

impl FoldedPattern {
    /// `None` when the folded text is no pattern (then the rule as written still stands).
    // Path rules compile only with the `analysis` feature (see `TextMatching`).
    #[cfg_attr(not(feature = "analysis"), allow(dead_code))]
    fn new(pattern: &str, root: Option<&str>) -> Option<Self> {
        let (pattern, pattern_nfd) = super::path::folded_rule_text(pattern);
        let (root, root_nfd) = root.map(super::path::folded_rule_text).unzip();
        let composed = PathPattern::new(&pattern, root.as_deref()).ok()?;
        let decomposed = match (pattern_nfd, root_nfd.flatten()) {
            (None, None) => None,
            (text, root_text) => PathPattern::new(text.as_deref().unwrap_or(&pattern), root_text.as_deref().or(root.as_deref())).ok(),
        };
        Some(FoldedPattern { composed, decomposed })
    }

    /// Whether any spelling of `path` matches, each Unicode form against the pattern's own;
    /// `unrelated` when the path cannot be related to the pattern's anchor.
    fn matches(&self, path: &str, unrelated: bool) -> bool {
        let spelled = super::path::any_platform_spelling(path);
        let one_form = self.decomposed.is_none() && spelled.forms().nth(1).is_none();
        self.composed.matches(spelled.composed()).unwrap_or(unrelated)
            || (!one_form && self.decomposed.as_ref().unwrap_or(&self.composed).matches(spelled.decomposed()).unwrap_or(unrelated))
    }
}

/// A regex rule with its prefilter.
#[derive(Debug, Clone)]
pub struct RegexRule {
    /// The compiled regex; absent when the pattern is a literal program, which needs none.
    pub regex: Option<Regex>,
    /// A literal every match contains (ASCII-lowercased when the rule ignores case); when the
    /// text lacks it the regex cannot match and is not run.
    pub required: Option<String>,
    pub case_sensitive: bool,
    /// The leading words every match starts with (ASCII-lowercased when the rule ignores case),
    /// by which the rule is indexed; empty when it pins none and is checked against every text.
    pinned: Vec<String>,
    /// The same pattern as a literal program, when it is one: matched without the regex engine.
    literal: Option<LiteralProgram<'static>>,
}

impl RegexRule {
    #[cfg(feature = "analysis")]
    pub fn new(pattern: &str, case_sensitive: bool) -> Result<Self, String> {
        let fold = |text: String| if case_sensitive { text } else { text.to_ascii_lowercase() };
        // A literal program is a valid regex by construction (its test compiles every one), so
        // building a policy of button-made rules compiles no regex at all, and reads its pinned
        // words from the program; a program needs no prefilter.
        if let Some(program) = LiteralProgram::parse(pattern, case_sensitive) {
            let pinned = program.pinned_words().into_iter().map(fold).collect();
            return Ok(RegexRule { regex: None, required: None, case_sensitive, pinned, literal: Some(program) });
        }
        let regex = compile(pattern, case_sensitive)?;
        let facts = regex_facts(pattern);
        let pinned = facts.pinned.into_iter().map(fold).collect();
        Ok(RegexRule { regex: Some(regex), required: facts.required.map(fold), case_sensitive, pinned, literal: None })
    }

    fn is_match(&self, text: &Haystack<'_>) -> bool {
        if let Some(program) = &self.literal {
            return program.is_match(text.text);
        }
        let present = match &self.required {
            None => true,
            Some(literal) if self.case_sensitive => text.text.contains(literal.as_str()),
            Some(literal) => text.lower().contains(literal.as_str()),
        };
        present && self.regex.as_ref().is_some_and(|regex| regex.is_match(text.text))
    }

    /// The required literal to sieve for: set when the regex engine would run after a search for it.
    fn sieved_literal(&self) -> Option<&str> {
        self.literal.is_none().then_some(self.required.as_deref()).flatten()
    }

    /// `is_match` when the caller already knows the required literal is in the text.
    fn is_match_given_literal(&self, text: &str) -> bool {
        self.regex.as_ref().is_some_and(|regex| regex.is_match(text))
    }
}

/// Whether a prefix's words are the first words of `text` (whitespace-separated).
pub fn prefix_covers(prefix: &[String], text: &str) -> bool {
    let mut words = text.split_whitespace();
    !prefix.is_empty() && prefix.iter().all(|w| words.next() == Some(w.as_str()))
}

impl Matcher {
    /// Whether the matcher matches the subject; the plain algorithm, which the indexes must agree with.
    pub fn is_match(&self, subject: &Subject<'_>) -> bool {
        match self {
            Matcher::Regex(rule, _) => rule.is_match(&Haystack::new(subject.text)),
            Matcher::Prefix(words, _) => prefix_covers(words, subject.text),
            Matcher::Pair(pattern) => subject.pair.is_some_and(|(a, b)| pattern.matches(a, b)),
            Matcher::Glob(glob, _) => glob.is_match(subject.text),
            Matcher::Tokens(tokens, _) => {
                let (name, args): (&str, Vec<&str>) = match subject.words {
                    Some((name, args)) => (name, args.iter().map(String::as_str).collect()),
                    None => {
                        let mut words = subject.text.split_whitespace();
                        (words.next().unwrap_or_default(), words.collect())
                    }
                };
                tokens.is_match(std::iter::once(name).chain(args.iter().copied()))
            }
            Matcher::Path { pattern, fail_closed: false, .. } => {
                pattern.matches(subject.text) == Some(true)
                    && match super::path::windows_reading(subject.text) {
                        WindowsReading::Same => true,
                        WindowsReading::Outside(_) => false,
                        WindowsReading::Path(read) => pattern.matches(&read) == Some(true),
                    }
            }
            Matcher::Path { pattern, fail_closed: true, any_spelling, .. } => {
                let unrelated = !subject.guessed_path;
                pattern.matches(subject.text).unwrap_or(unrelated)
                    || any_spelling.as_ref().is_some_and(|folded| folded.matches(subject.text, unrelated))
            }
            Matcher::Domain { glob, fail_closed, .. } => glob.matches_url(subject.text, *fail_closed).unwrap_or(*fail_closed),
        }
    }

    /// The matcher as a rule of this list: path and domain rules in deny and confirm lists match
    /// what they cannot read (a URL that does not parse, a path they cannot relate to their
    /// anchor); in allow lists they never do.
    pub fn for_list(self, list: ListKind) -> Self {
        let fail_closed = list != ListKind::AlwaysAllow;
        match self {
            Matcher::Path { pattern, any_spelling, text, .. } => {
                Matcher::Path { pattern, fail_closed, any_spelling: any_spelling.filter(|_| fail_closed), text }
            }
            Matcher::Domain { glob, text, .. } => Matcher::Domain { glob, fail_closed, text },
            other => other,
        }
    }
}

/// Compiles one rule of any kind; the error says what is wrong with it.
pub fn compile_rule(rule: &RuleSpec) -> Result<Matcher, String> {
    match MatcherKind::of(rule) {
        MatcherKind::Mcp => PairPattern::mcp_entry(rule.text()).map(Matcher::Pair),
        MatcherKind::ToolAction => PairPattern::tool_action(rule.text()).map(Matcher::Pair),
        MatcherKind::Unknown => Err(MatcherKind::needs_one()),
        kind @ (MatcherKind::Regex
        | MatcherKind::Prefix
        | MatcherKind::Glob
        | MatcherKind::Tokens
        | MatcherKind::Path
        | MatcherKind::Domain) => compile_text_rule(kind, rule),
    }
}

/// The text matchers: regex, prefix, glob, token prefix, path and domain rules.
#[cfg(feature = "analysis")]
fn compile_text_rule(kind: MatcherKind, rule: &RuleSpec) -> Result<Matcher, String> {
    let text = TextMatching;
    match kind {
        MatcherKind::Regex => RegexRule::new(rule.text(), rule.case_sensitive).map(|regex| Matcher::Regex(regex, text)),
        MatcherKind::Prefix => {
            let words: Vec<String> = rule.text().split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                return Err("a command prefix needs at least one word".into());
            }
            Ok(Matcher::Prefix(words, text))
        }
        MatcherKind::Glob => CommandGlob::new(rule.text()).map(|glob| Matcher::Glob(glob, text)),
        MatcherKind::Tokens => TokenPrefix::new(rule.text()).map(|tokens| Matcher::Tokens(tokens, text)),
        MatcherKind::Path => {
            let pattern = PathPattern::new(rule.text(), rule.root.as_deref())?;
            let any_spelling = FoldedPattern::new(rule.text(), rule.root.as_deref()).map(Box::new);
            Ok(Matcher::Path { pattern, fail_closed: true, any_spelling, text })
        }
        MatcherKind::Domain => DomainGlob::new(rule.text()).map(|glob| Matcher::Domain { glob, fail_closed: true, text }),
        // Not text rules: `compile_rule` decides them without coming here.
        MatcherKind::Mcp | MatcherKind::ToolAction | MatcherKind::Unknown => compile_rule(rule),
    }
}

/// The MCP entry's build carries only the pair matcher (see [`TextMatching`]): a text rule is
/// invalid there, so its tool fails closed.
#[cfg(not(feature = "analysis"))]
fn compile_text_rule(_kind: MatcherKind, rule: &RuleSpec) -> Result<Matcher, String> {
    Err(format!(
        "\"{}\" needs toolgate/engine: this build of toolgate (its MCP entry) matches only `mcp` and `toolAction` rules",
        rule.text()
    ))
}

/// A compiled rule and where it came from.
#[derive(Debug, Clone)]
pub struct CompiledRule {
    pub matcher: Matcher,
    /// Shared, so a decision names the rule without copying its strings.
    pub origin: Arc<RuleRef>,
}

/// The text being matched, with its ASCII-lowercased form made on first need.
pub struct Haystack<'a> {
    pub text: &'a str,
    lower: std::cell::OnceCell<String>,
}

impl<'a> Haystack<'a> {
    pub fn new(text: &'a str) -> Self {
        Haystack { text, lower: std::cell::OnceCell::new() }
    }

    fn lower(&self) -> &str {
        // Most commands have no capitals: then the text is its own lowercase form.
        if !has_ascii_uppercase(self.text) {
            return self.text;
        }
        self.lower.get_or_init(|| self.text.to_ascii_lowercase())
    }
}

fn has_ascii_uppercase(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_uppercase())
}

/// The rules of one list of one tool, united across layers, in policy order.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    rules: Vec<CompiledRule>,
    /// Case-sensitive regex rules by their exact leading word; prefix rules by their first word.
    exact: WordIndex,
    /// Case-insensitive regex rules by their ASCII-lowercased leading word.
    folded: WordIndex,
    /// Regex rules whose pattern pins no leading word; always checked. Each with its bit in
    /// `sieve` when its required literal is sieved.
    unindexed: Vec<(usize, Option<u32>)>,
    /// The required literals of unindexed rules, found in one pass over the text.
    sieve: LiteralSieve,
    /// MCP entries and `tool.action` patterns.
    pairs: PairIndex,
    /// Command globs by the first word they spell out.
    glob_words: WordIndex,
    /// Token prefixes by the basename of each alternative of their first token.
    token_words: WordIndex,
    /// Imported kinds no index applies to: globs starting with `*`, paths, domains.
    scanned: Vec<usize>,
}

/// Compiles one pattern, case-insensitive unless asked otherwise.
pub fn compile(pattern: &str, case_sensitive: bool) -> Result<Regex, String> {
    RegexBuilder::new(pattern).case_insensitive(!case_sensitive).size_limit(1 << 20).nest_limit(64).build().map_err(|e| e.to_string())
}

/// A program's name without its directory (`/usr/bin/git` → `git`).
fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// The leading run of ASCII word characters of an item, as a pinned word would meet it.
///
/// A byte scan: a non-ASCII character's first byte is no word character either, so it stops at
/// the same (char-boundary) place a scan by `char` would, without decoding UTF-8.
fn leading_word(text: &str) -> &str {
    let len = text.bytes().position(|b| !(b.is_ascii_alphanumeric() || b == b'_')).unwrap_or(text.len());
    text.get(..len).unwrap_or_default()
}

impl RuleSet {
    pub fn push(&mut self, matcher: Matcher, origin: RuleRef) {
        let at = self.rules.len();
        match &matcher {
            Matcher::Regex(rule, _) if rule.pinned.is_empty() => {
                let bit = rule.sieved_literal().and_then(|literal| self.sieve.add(literal, !rule.case_sensitive));
                self.unindexed.push((at, bit));
            }
            Matcher::Regex(rule, _) => {
                for word in &rule.pinned {
                    match rule.case_sensitive {
                        true => self.exact.file(word, at),
                        false => self.folded.file(&word.to_ascii_lowercase(), at),
                    }
                }
            }
            Matcher::Prefix(words, _) => {
                if let Some(first) = words.first() {
                    self.exact.file(first, at);
                }
            }
            Matcher::Pair(pattern) => self.pairs.insert(pattern, at),
            Matcher::Glob(glob, _) => match glob.first_word() {
                Some(word) => self.glob_words.file(word, at),
                None => self.scanned.push(at),
            },
            Matcher::Tokens(tokens, _) => {
                for word in tokens.first_tokens() {
                    self.token_words.file(basename(word), at);
                }
            }
            Matcher::Path { .. } | Matcher::Domain { .. } => self.scanned.push(at),
        }
        self.rules.push(CompiledRule { matcher, origin: Arc::new(origin) });
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The earliest rule (in policy order) that matches the subject.
    pub fn first_match(&self, subject: &Subject<'_>) -> Option<&CompiledRule> {
        if self.rules.is_empty() {
            return None;
        }
        let pair_hit = subject.pair.and_then(|(a, b)| self.pairs.first_match(a, b));
        if self.only_pairs() {
            // MCP allowlists and Gasoline lists: the pair index is the whole answer, and the
            // word lookups below (which find nothing in a set without such rules) are skipped.
            return pair_hit.and_then(|i| self.rules.get(i));
        }
        // Regex rules pin an ASCII word; prefix rules file their whole first word.
        let word = leading_word(subject.text);
        // Only prefix rules, case-sensitive pinned words and command globs are filed by the whole
        // first word: without them, splitting the text (by Unicode whitespace) would find nothing.
        let first_word = if self.exact.is_empty() && self.glob_words.is_empty() {
            ""
        } else {
            subject.text.split_whitespace().next().unwrap_or_default()
        };
        let haystack = Haystack::new(subject.text);
        let mut best: Option<usize> = pair_hit;
        let hit = |r: &CompiledRule| match &r.matcher {
            Matcher::Regex(rule, _) => rule.is_match(&haystack),
            other => other.is_match(subject),
        };
        // Each list is in policy order: its first hit is its earliest, and the earliest of all
        // lists' first hits is the answer whatever order the lists are read in. An empty index
        // is not looked up at all.
        let mut earliest_of = |candidates: &[usize]| {
            for &i in candidates {
                if best.is_some_and(|b| b < i) {
                    break;
                }
                if self.rules.get(i).is_some_and(hit) {
                    best = Some(i);
                    break;
                }
            }
        };
        if !self.exact.is_empty() {
            earliest_of(self.exact.candidates(word));
            if first_word != word {
                earliest_of(self.exact.candidates(first_word));
            }
        }
        if !self.folded.is_empty() {
            if word.bytes().any(|b| b.is_ascii_uppercase()) {
                earliest_of(self.folded.candidates(&word.to_ascii_lowercase()));
            } else {
                earliest_of(self.folded.candidates(word));
            }
        }
        if !self.glob_words.is_empty() {
            earliest_of(self.glob_words.candidates(first_word));
        }
        if !self.token_words.is_empty() {
            earliest_of(self.token_words.candidates(basename(subject.first_token())));
        }
        if !self.scanned.is_empty() {
            earliest_of(&self.scanned);
        }
        let mut present = None;
        for &(i, bit) in &self.unindexed {
            if best.is_some_and(|b| b < i) {
                break;
            }
            let matched = self.rules.get(i).is_some_and(|r| match (&r.matcher, bit) {
                (Matcher::Regex(rule, _), Some(bit)) => {
                    let present = *present.get_or_insert_with(|| self.sieve.present(subject.text));
                    present & (1 << bit) != 0 && rule.is_match_given_literal(subject.text)
                }
                _ => hit(r),
            });
            if matched {
                best = Some(i);
                break;
            }
        }
        best.and_then(|i| self.rules.get(i))
    }

    /// Whether every rule is a pair rule (MCP entry or `tool.action` pattern), so that the pair
    /// index alone decides [`RuleSet::first_match`].
    fn only_pairs(&self) -> bool {
        self.exact.is_empty()
            && self.folded.is_empty()
            && self.unindexed.is_empty()
            && self.glob_words.is_empty()
            && self.token_words.is_empty()
            && self.scanned.is_empty()
    }

    /// The earliest rule that matches the subject and also passes `keep`: a plain scan, for the
    /// rare lookups a condition beyond matching decides (a command with leading assignments).
    pub fn first_match_where(&self, subject: &Subject<'_>, keep: impl Fn(&CompiledRule) -> bool) -> Option<&CompiledRule> {
        self.rules.iter().find(|r| r.matcher.is_match(subject) && keep(r))
    }

    /// The plain algorithm the index must agree with: the first rule, in order, that matches.
    #[cfg(test)]
    pub fn first_match_by_scan(&self, subject: &Subject<'_>) -> Option<&CompiledRule> {
        self.rules.iter().find(|r| r.matcher.is_match(subject))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_read_from_the_field_a_policy_file_names_it_by() {
        for (kind, field) in MatcherKind::ALL {
            let rule: RuleSpec = serde_json::from_value(serde_json::json!({ field: "x.y" })).unwrap();
            assert_eq!((MatcherKind::of(&rule), rule.text()), (kind, "x.y"), "{field}");
            assert_eq!(serde_json::to_value(&rule).unwrap(), serde_json::json!({ field: "x.y" }), "{field}");
            // A decision names the kind as the field is named, except a regex (`pattern`).
            let name = if kind == MatcherKind::Regex { "regex" } else { field };
            assert_eq!(serde_json::to_value(kind).unwrap(), serde_json::json!(name));
        }
        let none = compile_rule(&RuleSpec::default()).unwrap_err();
        let two = compile_rule(&RuleSpec { prefix: Some("ls".into()), ..RuleSpec::regex("ls", false) }).unwrap_err();
        assert_eq!(none, two);
        assert!(MatcherKind::ALL.iter().all(|(_, field)| none.contains(&format!("`{field}`"))), "{none}");
    }

    /// Where a test's rule came from: its position and kind, in a layer and tool that do not matter.
    fn origin(index: usize, rule: &RuleSpec) -> RuleRef {
        RuleRef {
            layer: "u".into(),
            tool: "t".into(),
            list: ListKind::AlwaysAllow,
            index,
            matcher: MatcherKind::of(rule),
            pattern: rule.text().into(),
        }
    }

    fn set(patterns: &[(&str, bool)]) -> RuleSet {
        let mut s = RuleSet::default();
        for (i, (p, cs)) in patterns.iter().enumerate() {
            let origin = RuleRef {
                layer: "user".into(),
                tool: "terminal".into(),
                list: ListKind::AlwaysAllow,
                index: i,
                matcher: MatcherKind::Regex,
                pattern: p.to_string(),
            };
            s.push(Matcher::Regex(RegexRule::new(p, *cs).unwrap(), TextMatching), origin);
        }
        s
    }

    #[test]
    fn the_index_never_changes_the_answer() {
        let patterns = [(r"^git\b", false), (r"status", false), (r"^GIT\s", true), (r"^cargo\b", false), (r"^git\s+push", false)];
        let s = set(&patterns);
        for text in ["git status", "GIT status", "Git push", "cargo build", "gitx status", "echo status", "ls", "git-lfs", "", "GIT  x"] {
            let linear = patterns.iter().position(|(p, cs)| compile(p, *cs).unwrap().is_match(text));
            assert_eq!(s.first_match(&Subject::text(text)).map(|r| r.origin.index), linear, "{text:?}");
        }
    }

    #[test]
    fn the_prefilter_never_changes_the_answer() {
        let patterns = [
            r"mkfs\.",
            r"DROP\s+TABLE",
            r"colou?r",
            r"ab+c",
            r"x{2}abc",
            r"^cargo\b",
            r"/etc/(passwd|shadow)",
            r"[Ss]udo\s",
            r"\x41BC",
            r"(?i)abc",
            r"(?-i)ABC",
        ];
        let texts = [
            "mkfs.ext4",
            "MKFS.x",
            "drop table x",
            "DROP  TABLE",
            "color",
            "colour",
            "abbbc",
            "ac",
            "xxabc",
            "xabc",
            "Cargo b",
            "cat /etc/shadow",
            "Sudo x",
            "sudo",
            "ABC",
            "abc",
        ];
        for cs in [false, true] {
            for p in patterns {
                let re = compile(p, cs).unwrap();
                let rule = RegexRule::new(p, cs).unwrap();
                for t in texts {
                    assert_eq!(rule.is_match(&Haystack::new(t)), re.is_match(t), "{p} cs={cs} on {t:?}");
                }
            }
        }
    }

    #[test]
    fn invalid_patterns_report_the_regex_error() {
        let err = compile("(unclosed", false).unwrap_err();
        assert!(err.contains("unclosed") || err.contains("group"), "{err}");
    }

    /// Rules of every kind in one set, looked up through the indexes and by a plain scan.
    #[test]
    fn the_indexes_never_change_the_answer_for_any_matcher_kind() {
        let rules = [
            RuleSpec::prefix("git"),
            RuleSpec::regex(r"^git\s+push", false),
            RuleSpec::prefix("git status"),
            RuleSpec::prefix("./run.sh"),
            RuleSpec::regex(r"^GIT\b", true),
            RuleSpec::mcp("github:*"),
            RuleSpec::mcp("*:search"),
            RuleSpec::tool_action("observe.*"),
            RuleSpec::tool_action("Interact.Navigate"),
            RuleSpec::regex("status", false),
            RuleSpec::regex("push", true),
            RuleSpec::regex(r"x\s+git", false),
            RuleSpec::mcp("docs:read"),
            RuleSpec::prefix("npm run"),
            RuleSpec::glob("git * push"),
            RuleSpec::glob("* status"),
            RuleSpec::glob("npm run *"),
            RuleSpec::glob("git:*"),
            RuleSpec::glob("x"),
            RuleSpec::tokens("git status|push"),
            RuleSpec::tokens("npm|x run"),
            RuleSpec::tokens("./run.sh"),
            RuleSpec::tokens("/usr/bin/git log"),
            RuleSpec::tokens("git push"),
            RuleSpec::path("src/**", Some("/p".into())),
            RuleSpec::path("/etc/**", None),
            RuleSpec::domain("*.example.com"),
            RuleSpec::domain("example.*"),
        ];
        let mut set = RuleSet::default();
        for (i, rule) in rules.iter().enumerate() {
            let origin = origin(i, rule);
            let list = if i % 3 == 0 { ListKind::AlwaysDeny } else { ListKind::AlwaysAllow };
            set.push(compile_rule(rule).unwrap().for_list(list), origin);
        }
        let words = [
            "git",
            "GIT",
            "gitx",
            "push",
            "PUSH",
            "status",
            "Status",
            "./run.sh",
            "npm",
            "run",
            "x",
            "git-lfs",
            "",
            "src/a",
            "/p/src/b",
            "/etc/x",
            "https://a.example.com",
            "https://example.org/x",
            "git:",
            "/usr/bin/git",
            "/bin/run.sh",
            "log",
        ];
        let names = ["github", "docs", "search", "read", "observe", "interact", "navigate", "NAVIGATE", "x", "*"];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..5000 {
            let text: Vec<&str> = (0..next(4)).map(|_| words[next(words.len())]).collect();
            let text = text.join(if next(2) == 0 { " " } else { "  " });
            let pair = (next(3) > 0).then(|| (names[next(names.len())], names[next(names.len())]));
            // Sometimes an analysed command whose unquoted words differ from its text.
            let args: Vec<String> = (0..next(3)).map(|_| words[next(words.len())].to_owned()).collect();
            let name = words[next(words.len())];
            let words_of = (next(2) == 0).then_some((name, args.as_slice()));
            // Sometimes with its leading word already found, as an item's is.
            let subject = Subject { text: &text, pair, words: words_of, guessed_path: false };
            let indexed = set.first_match(&subject).map(|r| r.origin.index);
            let scanned = set.first_match_by_scan(&subject).map(|r| r.origin.index);
            assert_eq!(indexed, scanned, "{subject:?}");
        }
    }

    /// Sets of a few rules each (so some indexes are empty and their look-ups skipped), over texts
    /// with non-ASCII letters and Unicode whitespace: the indexes answer what a scan answers.
    #[test]
    fn small_sets_of_text_rules_agree_with_a_scan() {
        let rules = [
            RuleSpec::regex(r"^git\b", false),
            RuleSpec::regex(r"^git\s+push", false),
            RuleSpec::regex(r"^GIT\b", true),
            RuleSpec::regex(r"^caf\b", false),
            RuleSpec::regex("status", false),
            RuleSpec::regex("/etc/shadow", false),
            RuleSpec::prefix("git status"),
            RuleSpec::prefix("café"),
            RuleSpec::glob("git *"),
            RuleSpec::tokens("git log|push"),
        ];
        let words = ["git", "GIT", "Git", "push", "status", "café", "caf", "caf\u{e9}x", "x", "", "/etc/shadow", "log", "ß"];
        let spaces = [" ", "  ", "\u{a0}", "\u{2003}", "\t"];
        let mut below = crate::test_support::random_below(5);
        for _ in 0..3000 {
            let mut set = RuleSet::default();
            for i in 0..1 + below(4) {
                let rule = &rules[below(rules.len())];
                let origin = origin(i, rule);
                set.push(compile_rule(rule).unwrap(), origin);
            }
            let mut text = String::new();
            for n in 0..below(4) {
                if n > 0 {
                    text.push_str(spaces[below(spaces.len())]);
                }
                text.push_str(words[below(words.len())]);
            }
            let subject = Subject::text(&text);
            assert_eq!(
                set.first_match(&subject).map(|r| r.origin.index),
                set.first_match_by_scan(&subject).map(|r| r.origin.index),
                "{text:?}"
            );
        }
    }

    /// The byte scan stops where a scan by `char` stops.
    #[test]
    fn the_leading_word_is_the_one_a_char_scan_finds() {
        let by_char = |text: &str| {
            let len = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
            text[..len].to_owned()
        };
        for text in ["git status", "Git status", "café", "caf\u{e9}", "a_b9-c", "", "é", "ab\u{2003}c", "x\u{1F600}y", "__", "9z/x"] {
            assert_eq!(leading_word(text), by_char(text), "{text:?}");
        }
    }

    #[test]
    fn a_set_of_pair_rules_only_answers_from_the_pair_index_as_a_scan_would() {
        let entries = ["github:*", "*:search", "docs:read", "github:create_issue", "*:*", "docs:*"];
        let names = ["github", "docs", "search", "read", "create_issue", "x", "*", "GitHub"];
        let mut seed = 11u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..300 {
            let mut set = RuleSet::default();
            for i in 0..next(5) {
                let rule = if next(4) == 0 {
                    RuleSpec::tool_action(["observe.*", "interact.navigate", "*"][next(3)])
                } else {
                    RuleSpec::mcp(entries[next(entries.len())])
                };
                let origin = origin(i, &rule);
                set.push(compile_rule(&rule).unwrap().for_list(ListKind::AlwaysAllow), origin);
            }
            assert!(set.only_pairs());
            for _ in 0..20 {
                let (a, b) = (names[next(names.len())], names[next(names.len())]);
                let text = format!("{a}:{b}");
                let subject = Subject { text: &text, pair: Some((a, b)), words: None, guessed_path: false };
                let indexed = set.first_match(&subject).map(|r| r.origin.index);
                assert_eq!(indexed, set.first_match_by_scan(&subject).map(|r| r.origin.index), "{subject:?}");
            }
        }
    }

    #[test]
    fn a_rule_needs_exactly_one_matcher() {
        assert!(compile_rule(&RuleSpec::default()).unwrap_err().contains("exactly one"));
        let both = RuleSpec { prefix: Some("git".into()), ..RuleSpec::regex("x", false) };
        assert!(compile_rule(&both).is_err());
        assert!(compile_rule(&RuleSpec::prefix("  ")).is_err());
    }
}
