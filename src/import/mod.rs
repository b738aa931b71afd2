//! Other agents' permission rules, read into one policy and written back out.
//!
//! Each format has a file of its own: [`claude`] (Claude Code `settings.json` `permissions`),
//! [`codex`] (Codex `.rules`), [`vscode`] (VS Code `chat.tools.terminal.autoApprove`),
//! [`cursor`] (Cursor CLI `permissions` and the editor's allowlists, [`cursor::editor`]) and
//! [`gemini`] (Gemini CLI policy TOML and the `tools.*` keys of its `settings.json`,
//! [`gemini::settings`]). An import answers with the policy and a report that
//! names, for every source rule, what it became (layer, tool, list, index) and whether the
//! translation is [`Translation::Exact`], [`Translation::Stricter`] or
//! [`Translation::Impossible`], and why. A translation is never looser: where toolgate cannot say
//! what the source says, the rule becomes something that asks or refuses more, and the report
//! says so. An export answers with the files and the same report for the policy's rules.
//!
//! Imported rules use the Zed catalogue's tool ids (`terminal`, `read_file`, `edit_file`,
//! `fetch`, …) plus one tool the importers describe in the spec's `toolKinds`: [`MCP_TOOL`], an
//! MCP call (`[server, tool]`).

pub mod claude;
pub mod codex;
pub mod cursor;
pub mod gemini;
mod guard;
pub mod vscode;

use crate::policy::{InputKind, LayerKind, LayerSpec, ListKind, PolicySpec, RuleExamples, RuleSpec, ToolRulesSpec};
use serde::{Deserialize, Serialize};

/// The tool imported MCP rules are for: its input is `[server, tool]`.
pub const MCP_TOOL: &str = "mcp";
/// The terminal tool of the Zed catalogue.
pub const TERMINAL: &str = "terminal";
/// The fetch tool of the Zed catalogue.
pub const FETCH: &str = "fetch";
/// Zed tools that read a path.
pub const READ_TOOLS: &[&str] = &["read_file", "list_directory"];
/// Zed tools that write to a path (an edit, a new file, a deletion, a move or copy).
pub const WRITE_TOOLS: &[&str] =
    &["edit_file", "save_file", "delete_path", "create_directory", "move_path", "copy_path", "restore_file_from_disk"];
/// The writing tools an allow rule for edits covers: changing a file's content, never deleting,
/// moving or creating directories.
pub const EDIT_TOOLS: &[&str] = &["edit_file", "save_file"];
/// Zed tools whose input is a search, not a path: a path rule cannot see what they read.
pub const SEARCH_TOOLS: &[&str] = &["grep", "find_path"];

/// The formats toolgate reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum PeerFormat {
    /// Claude Code `settings.json` `permissions`.
    ClaudeCode,
    /// Codex execpolicy `.rules` (`prefix_rule(…)`).
    Codex,
    /// VS Code `chat.tools.terminal.autoApprove`.
    Vscode,
    /// Cursor CLI `cli-config.json` / `.cursor/cli.json` `permissions` (the editor's
    /// `permissions.json` lists are read too).
    CursorCli,
    /// The Cursor editor's `~/.cursor/permissions.json` (`mcpAllowlist`, `terminalAllowlist`):
    /// read as with `CursorCli`, written as that file.
    CursorEditor,
    /// Gemini CLI policy TOML (`[[rule]]`), and `settings.json` (`tools.allowed`, `tools.core`,
    /// `tools.confirmationRequired`, `tools.exclude`).
    GeminiCli,
}

/// Which settings scope a source file is. Highest authority first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum SourceScope {
    /// Set by an administrator (Claude Code managed settings, Codex requirements).
    Managed,
    /// Personal settings of one project (Claude Code `.claude/settings.local.json`).
    Local,
    /// A project's (workspace's) settings.
    Project,
    /// The user's own settings.
    User,
    /// The source tool's shipped defaults (VS Code's default auto-approve rules).
    Defaults,
}

impl SourceScope {
    /// The layer name the scope's rules go to.
    pub fn layer_name(self) -> &'static str {
        match self {
            SourceScope::Managed => "managed",
            SourceScope::Local => "local",
            SourceScope::Project => "project",
            SourceScope::User => "user",
            SourceScope::Defaults => "defaults",
        }
    }

    fn layer_kind(self) -> LayerKind {
        match self {
            SourceScope::Managed => LayerKind::Managed,
            SourceScope::Local | SourceScope::User => LayerKind::User,
            SourceScope::Project => LayerKind::Project,
            SourceScope::Defaults => LayerKind::Defaults,
        }
    }
}

/// One source file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ImportSource {
    /// Which scope the file is.
    pub scope: SourceScope,
    /// The file's text.
    pub text: String,
    /// The directory Claude Code anchors a `/path` rule of this file at (the project root for a
    /// project file, `~/.claude` for the user's); derived from the context when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub dir: Option<String>,
}

/// Where the rules will be applied: what path anchors resolve against.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ImportContext {
    /// The working directory (absolute): relative path rules and relative call paths are read
    /// against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub cwd: Option<String>,
    /// The home directory (absolute), for `~/` rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub home: Option<String>,
    /// The project root (absolute), for a project file's `/path` rules. Default: `cwd`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub project_dir: Option<String>,
    /// False until the user has trusted the project: its allow rules are then ignored, as Claude
    /// Code and Codex ignore them. Default: true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub project_trusted: Option<bool>,
    /// Whether the source tool's shipped defaults are included as a layer of their own (VS Code's
    /// default auto-approve rules). Default: true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub include_defaults: Option<bool>,
}

/// How faithful a translation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Translation {
    /// Decides as the source does.
    Exact,
    /// Asks or refuses where the source would not; never allows where the source would not.
    Stricter,
    /// Cannot be said: the rule was left out (only where leaving it out is not looser, or the
    /// report says what took its place).
    Impossible,
}

/// How a source's domain rule translates. toolgate reads the rule and the URL's host as a WHATWG
/// URL parser does (`http://2130706433/` is `127.0.0.1`), as the agents' own URL parsers read a
/// host; a deny or ask rule on an IPv4 address also meets its IPv4-mapped IPv6 spelling
/// (`[::ffff:127.0.0.1]`, RFC 4291 §2.5.5.2), which a source comparing host names does not: stricter.
fn domain_translation(domain: &str, list: ListKind) -> (Translation, Option<String>) {
    let address = crate::policy::matchers::DomainGlob::new(domain).is_ok_and(|glob| glob.names_an_ipv4_address());
    if address && list != ListKind::AlwaysAllow {
        let why = "toolgate also refuses or asks for the address's other form, IPv4 or IPv4-mapped IPv6 ([::ffff:a.b.c.d]), which connects to the same host";
        (Translation::Stricter, Some(why.to_owned()))
    } else {
        (Translation::Exact, None)
    }
}

/// Where a translated rule sits in the policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RulePlace {
    /// The layer's name.
    pub layer: String,
    /// The tool id.
    pub tool: String,
    /// The list, or none for a default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub list: Option<ListKind>,
    /// Position in that list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub index: Option<usize>,
}

/// What one source rule became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RuleReport {
    /// The source file's scope.
    pub scope: SourceScope,
    /// Where in the source: `permissions.allow[2]`, `prefix_rule #3`.
    pub source: String,
    /// The rule as written.
    pub rule: String,
    /// 1-based position in the text, where the format has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub line: Option<usize>,
    /// 1-based column, with `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub column: Option<usize>,
    /// How faithful the translation is.
    pub translation: Translation,
    /// Why it is not exact (or what to know when it is).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub why: Option<String>,
    /// The rules (or defaults) it became.
    pub became: Vec<RulePlace>,
    /// Calls the source rule says it matches and does not (Codex `match` / `not_match`), kept so
    /// they can become the rule's self-tests.
    #[serde(skip_serializing_if = "RuleExamples::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub examples: RuleExamples,
}

/// An imported policy and what became of every source rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ImportResult {
    /// The policy.
    pub policy: PolicySpec,
    /// One entry per source rule (and per setting that shapes decisions, such as a default mode).
    pub report: Vec<RuleReport>,
}

/// What an export could not say for one rule of the policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ExportReport {
    /// The rule's place in the policy.
    pub place: RulePlace,
    /// The rule's text.
    pub rule: String,
    /// How faithful the written rule is.
    pub translation: Translation,
    /// Why it is not exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub why: Option<String>,
    /// What was written for it.
    pub written: Vec<String>,
}

/// One file an export writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ExportedFile {
    /// Which scope the file is for.
    pub scope: SourceScope,
    /// The file's text.
    pub text: String,
}

/// An exported policy: the files, and what could not be said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ExportResult {
    /// The files, one per scope that has rules.
    pub files: Vec<ExportedFile>,
    /// One entry per rule (and default) of the policy.
    pub report: Vec<ExportReport>,
}

/// Why a source could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// A stable code (`invalidJson`, `invalidRules`, `invalidSettings`).
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// Where in the file (a JSON path), when known.
    pub path: Option<String>,
    /// 1-based line, for text errors.
    pub line: Option<usize>,
    /// 1-based column, with `line`.
    pub column: Option<usize>,
}

/// Reads sources of one format into a policy.
pub fn import(format: PeerFormat, sources: &[ImportSource], context: &ImportContext) -> Result<ImportResult, Vec<ImportError>> {
    #[cfg_attr(not(feature = "analysis"), allow(unused_mut))]
    let mut result = match format {
        PeerFormat::ClaudeCode => claude::import(sources, context),
        PeerFormat::Codex => codex::import(sources, context),
        PeerFormat::Vscode => vscode::import(sources, context),
        PeerFormat::CursorCli | PeerFormat::CursorEditor => cursor::import(sources, context),
        PeerFormat::GeminiCli => gemini::import(sources, context),
    }?;
    // The rules were read against this working directory and home; the policy reads commands'
    // `~`, `$HOME` and relative paths against the same, or a `Read(~/…)` deny would not reach
    // `cat $HOME/…`. (Without the shell analysis no command is read, and a policy has no host.)
    #[cfg(feature = "analysis")]
    {
        let host = &mut result.policy.host;
        if host.cwd.is_none() {
            host.cwd.clone_from(&context.cwd);
        }
        if host.home.is_none() {
            host.home.clone_from(&context.home);
        }
    }
    for entry in &mut result.report {
        show_written_out(&mut entry.why);
    }
    Ok(result)
}

/// A report's words for a person quote rules as written: any character they hide is written out
/// (see [`crate::visible`]).
fn show_written_out(why: &mut Option<String>) {
    if let Some(text) = why.as_mut() {
        if crate::visible::has_hidden(text) {
            *text = crate::visible::visible(text).into_owned();
        }
    }
}

/// Writes a policy in one format. The files are never looser than the policy under the
/// agent's documented semantics: an allow rule that may meet a deny or confirm rule the format
/// cannot carry is left out, and each rule reported exact is checked against the files read
/// back ([`guard`]).
pub fn export(format: PeerFormat, policy: &PolicySpec, context: &ImportContext) -> ExportResult {
    let carries = |place: &RulePlace, rule: &RuleSpec, layer: &LayerSpec| match format {
        PeerFormat::ClaudeCode => claude::carries(place, rule, context),
        PeerFormat::Codex => codex::carries(place, rule),
        PeerFormat::Vscode => vscode::carries(place, rule),
        PeerFormat::CursorCli => cursor::carries(place, rule, context),
        PeerFormat::CursorEditor => cursor::editor::carries(place, rule, layer),
        PeerFormat::GeminiCli => gemini::carries(place, rule, layer),
    };
    let reads_back_as = |tool: &str| match format {
        PeerFormat::ClaudeCode | PeerFormat::CursorCli => match tool {
            "read_file" | "list_directory" => READ_TOOLS,
            t if WRITE_TOOLS.contains(&t) => EDIT_TOOLS,
            _ => &[],
        },
        PeerFormat::GeminiCli => gemini::reads_back_as(tool),
        PeerFormat::Codex | PeerFormat::Vscode | PeerFormat::CursorEditor => &[],
    };
    let guarded = guard::guard(format, policy, &carries, &reads_back_as);
    let written = match format {
        PeerFormat::ClaudeCode => claude::export(&guarded.policy, context),
        PeerFormat::Codex => codex::export(&guarded.policy),
        PeerFormat::Vscode => vscode::export(&guarded.policy),
        PeerFormat::CursorCli => cursor::export(&guarded.policy, context),
        PeerFormat::CursorEditor => cursor::editor::export(&guarded.policy),
        PeerFormat::GeminiCli => gemini::export(&guarded.policy),
    };
    let whole = guarded.whole.clone();
    let mut result = guarded.finish(format, written);
    guard::verify(format, &whole, context, &mut result);
    for entry in &mut result.report {
        show_written_out(&mut entry.why);
    }
    result
}

/// Builds the layers of an import: one per scope, highest authority first, rules appended as
/// they are translated and their places recorded.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    layers: std::collections::BTreeMap<SourceScope, LayerSpec>,
    pub report: Vec<RuleReport>,
    mcp_used: bool,
}

impl Builder {
    fn layer(&mut self, scope: SourceScope, trusted: bool) -> &mut LayerSpec {
        self.layers.entry(scope).or_insert_with(|| LayerSpec {
            name: scope.layer_name().into(),
            kind: scope.layer_kind(),
            trusted,
            ..LayerSpec::default()
        })
    }

    /// Adds a rule; returns its place.
    pub fn add(&mut self, scope: SourceScope, trusted: bool, tool: &str, list: ListKind, rule: RuleSpec) -> RulePlace {
        if tool == MCP_TOOL {
            self.mcp_used = true;
        }
        let layer = self.layer(scope, trusted);
        let layer_name = layer.name.clone();
        let target = list_of(layer.tools.entry(tool.to_owned()).or_default(), list);
        target.push(rule);
        RulePlace { layer: layer_name, tool: tool.to_owned(), list: Some(list), index: Some(target.len().saturating_sub(1)) }
    }

    /// Sets a tool's default in a scope's layer; returns its place.
    pub fn tool_default(&mut self, scope: SourceScope, trusted: bool, tool: &str, mode: crate::policy::Outcome) -> RulePlace {
        let layer = self.layer(scope, trusted);
        layer.tools.entry(tool.to_owned()).or_default().default_mode = Some(mode);
        RulePlace { layer: layer.name.clone(), tool: tool.to_owned(), list: None, index: None }
    }

    /// Sets a layer's global default; returns its place (tool `*`).
    pub fn layer_default(&mut self, scope: SourceScope, trusted: bool, mode: crate::policy::Outcome) -> RulePlace {
        let layer = self.layer(scope, trusted);
        layer.default_mode = Some(mode);
        RulePlace { layer: layer.name.clone(), tool: "*".into(), list: None, index: None }
    }

    /// Records what a source rule became.
    pub fn report(
        &mut self,
        scope: SourceScope,
        source: String,
        rule: &str,
        translation: Translation,
        why: Option<String>,
        became: Vec<RulePlace>,
    ) {
        self.report.push(RuleReport {
            scope,
            source,
            rule: rule.to_owned(),
            line: None,
            column: None,
            translation,
            why,
            became,
            examples: RuleExamples::default(),
        });
    }

    /// The policy: layers in scope order (highest authority first).
    pub fn finish(self, default_mode: crate::policy::Outcome) -> ImportResult {
        let mut policy = PolicySpec { layers: self.layers.into_values().collect(), default_mode, ..PolicySpec::default() };
        if self.mcp_used {
            policy.tool_kinds.insert(MCP_TOOL.into(), InputKind::McpCall);
        }
        ImportResult { policy, report: self.report }
    }
}

pub(crate) fn list_of(rules: &mut ToolRulesSpec, list: ListKind) -> &mut Vec<RuleSpec> {
    match list {
        ListKind::AlwaysAllow => &mut rules.always_allow,
        ListKind::AlwaysDeny => &mut rules.always_deny,
        ListKind::AlwaysConfirm => &mut rules.always_confirm,
    }
}

/// A rule of a tool's kind that matches every call of it.
pub(crate) fn match_all(kind: InputKind) -> RuleSpec {
    match kind {
        InputKind::Command { .. } => RuleSpec::glob("*"),
        InputKind::Path { .. } | InputKind::PathPair => RuleSpec::path("/**", Some("/".into())),
        InputKind::Url => RuleSpec::domain("*"),
        InputKind::McpCall => RuleSpec::mcp("*:*"),
        InputKind::Query | InputKind::Opaque => RuleSpec::regex("^", false),
    }
}

/// The input kind of a tool of the Zed catalogue (or the imported MCP tool).
pub(crate) fn kind_of(tool: &str) -> InputKind {
    if tool == MCP_TOOL {
        return InputKind::McpCall;
    }
    crate::policy::catalogue::tools(crate::policy::CatalogueName::Zed).get(tool).copied().unwrap_or(InputKind::Opaque)
}

/// Whether a rule matches every call of its tool (what [`match_all`] writes).
pub(crate) fn is_match_all(rule: &RuleSpec) -> bool {
    rule.glob.as_deref() == Some("*")
        || (rule.path.as_deref() == Some("/**") && rule.root.as_deref() == Some("/"))
        || rule.domain.as_deref() == Some("*")
        || rule.mcp.as_deref() == Some("*:*")
        || rule.pattern.as_deref() == Some("^")
}

/// A host an agent's domain rule names, as a rule of toolgate's domain matcher, with how exactly
/// it translates; `Err` says why the matcher cannot say it. The matcher reads a URL's host as the
/// WHATWG URL parser does (`src/policy/matchers/domain.rs`), so an IP address in any spelling
/// translates; a name outside ASCII does not (a URL carries it as punycode, `xn--…`). An importer
/// makes a deny or ask it cannot say cover every fetch (fail closed) and leaves such an allow out.
pub(crate) fn domain_rule(host: &str, list: ListKind) -> Result<(RuleSpec, Translation, Option<String>), String> {
    let host = host.trim().trim_end_matches('.');
    if !host.is_ascii() {
        return Err(format!(
            "`{}` is a name outside ASCII, which a URL carries as punycode: write its `xn--` form for toolgate's domain matcher",
            crate::visible::visible(host)
        ));
    }
    crate::policy::matchers::DomainGlob::new(host)?;
    let (translation, why) = domain_translation(host, list);
    Ok((RuleSpec::domain(host), translation, why))
}

/// A command glob that matches every command a case-sensitive regex anchored at the start
/// matches: its leading literal text, each run of whitespace as one space (a sub-command's words
/// are joined by one), then `*` (`^git\s+push\b` → `git push*`). `None` when the regex pins no
/// literal text, ignores case, or its text holds a `*` (a glob has no literal star).
pub(crate) fn covering_glob(rule: &RuleSpec) -> Option<String> {
    use regex_syntax::hir::{Class, HirKind, Look};
    let pattern = rule.pattern.as_deref().filter(|_| rule.case_sensitive)?;
    let hir = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).build().parse(pattern).ok()?;
    let parts = match hir.kind() {
        HirKind::Concat(parts) => parts.as_slice(),
        _ => std::slice::from_ref(&hir),
    };
    let (first, rest) = parts.split_first()?;
    if !matches!(first.kind(), HirKind::Look(Look::Start)) {
        return None;
    }
    let is_space = |class: &Class| match class {
        Class::Bytes(bytes) => bytes.ranges().iter().all(|r| (r.start()..=r.end()).all(|b| b.is_ascii_whitespace() || b == 0x0b)),
        Class::Unicode(chars) => chars.ranges().iter().all(|r| (r.start()..=r.end()).all(char::is_whitespace)),
    };
    let mut text = String::new();
    let mut whole = true;
    for (at, part) in rest.iter().enumerate() {
        match part.kind() {
            HirKind::Literal(literal) => match std::str::from_utf8(&literal.0) {
                Ok(piece) if !piece.contains('*') && !piece.contains(char::is_whitespace) => text.push_str(piece),
                _ => {
                    whole = false;
                    break;
                }
            },
            HirKind::Repetition(rep) if rep.min >= 1 && matches!(rep.sub.kind(), HirKind::Class(c) if is_space(c)) => text.push(' '),
            HirKind::Class(class) if is_space(class) => text.push(' '),
            HirKind::Look(Look::End) if at + 1 == rest.len() => {}
            _ => {
                whole = false;
                break;
            }
        }
    }
    let ends_exactly = whole && rest.last().is_some_and(|p| matches!(p.kind(), HirKind::Look(Look::End)));
    let text = text.trim_end().to_owned();
    (!text.is_empty() && !text.contains("  ")).then(|| if ends_exactly { text } else { format!("{text}*") })
}

/// Word prefixes one of which every command a rule matches starts with, as whole words (`git`
/// for `^git\s+push\b`, `git push` for the glob `git push * --force`): what a format that has
/// only word prefixes writes for a deny or confirm rule it cannot say exactly, which then
/// matches more. `None` when the rule pins no whole word (`* --force`, `^git\b`, which also
/// matches `git-lfs`) or ignores case.
pub(crate) fn leading_words(rule: &RuleSpec) -> Option<Vec<String>> {
    let words_of = |head: &str, whole: bool| -> Vec<String> {
        let mut words: Vec<String> = head.split_whitespace().map(str::to_owned).collect();
        if !whole && !head.ends_with(char::is_whitespace) {
            words.pop();
        }
        words
    };
    let heads: Vec<Vec<String>> = match crate::policy::MatcherKind::of(rule) {
        crate::policy::MatcherKind::Prefix => vec![words_of(rule.text(), true)],
        crate::policy::MatcherKind::Tokens => claude::expand_tokens(rule.text())?.iter().map(|l| words_of(l, true)).collect(),
        crate::policy::MatcherKind::Glob => {
            let glob = rule.text().strip_suffix(":*").map_or_else(|| rule.text().to_owned(), |head| format!("{head} *"));
            let head = glob.split('*').next().unwrap_or_default();
            vec![words_of(head, !glob.contains('*'))]
        }
        crate::policy::MatcherKind::Regex if rule.case_sensitive => {
            guard::regex_heads(rule.text())?.iter().map(|h| words_of(h, false)).collect()
        }
        crate::policy::MatcherKind::Regex
        | crate::policy::MatcherKind::Mcp
        | crate::policy::MatcherKind::ToolAction
        | crate::policy::MatcherKind::Path
        | crate::policy::MatcherKind::Domain
        | crate::policy::MatcherKind::Unknown => return None,
    };
    if heads.iter().any(Vec::is_empty) {
        return None;
    }
    let mut lines: Vec<String> = heads.iter().map(|w| w.join(" ")).collect();
    lines.sort();
    lines.dedup();
    Some(lines)
}

/// Every rule of a policy with its place, in layer order.
pub(crate) fn rules_of(policy: &PolicySpec) -> Vec<(RulePlace, &RuleSpec)> {
    let mut out = Vec::new();
    for layer in &policy.layers {
        for (tool, rules) in &layer.tools {
            for (list, items) in [
                (ListKind::AlwaysDeny, &rules.always_deny),
                (ListKind::AlwaysConfirm, &rules.always_confirm),
                (ListKind::AlwaysAllow, &rules.always_allow),
            ] {
                for (index, rule) in items.iter().enumerate() {
                    out.push((RulePlace { layer: layer.name.clone(), tool: tool.clone(), list: Some(list), index: Some(index) }, rule));
                }
            }
        }
    }
    out
}

/// The scope a policy layer is exported to.
pub(crate) fn scope_of(layer: &LayerSpec) -> SourceScope {
    match (layer.name.as_str(), layer.kind) {
        ("local", _) => SourceScope::Local,
        (_, LayerKind::Managed) => SourceScope::Managed,
        (_, LayerKind::Defaults) => SourceScope::Defaults,
        (_, LayerKind::Project) => SourceScope::Project,
        _ => SourceScope::User,
    }
}

#[cfg(test)]
mod tests;
