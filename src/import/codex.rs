//! Codex execpolicy `.rules`: `prefix_rule(pattern=[…], decision=…, justification=…,
//! match=[…], not_match=[…])`, read with a small parser for the Starlark subset these files use
//! (calls with keyword or positional arguments, strings, lists, `#` comments, and `NAME = value`
//! assignments), with line:column errors.
//!
//! Source: openai/codex `codex-rs/execpolicy/src/parser.rs` and `README.md` @11b641a: a pattern
//! is a non-empty list whose elements are strings or non-empty lists of alternatives; `decision`
//! is `allow` (the default), `prompt` or `forbidden`; `justification` may not be blank; examples
//! are argv lists or shell strings; all files are united and the strictest matching decision
//! wins — which is toolgate's deny > confirm > allow across layers.
//!
//! Each rule becomes a token-prefix rule on the terminal ([`crate::policy::matchers::TokenPrefix`])
//! in the list of its decision; its `match` / `not_match` examples become the rule's self-tests
//! and are kept on the report. Allow rules are *stricter*: toolgate splits every command line and
//! never lets an allow rule cover a sub-command with a hazard, where Codex matches the argv
//! as a whole. `host_executable` and `network_rule` have no toolgate counterpart.

use super::{
    rules_of, Builder, ExportReport, ExportResult, ExportedFile, ImportContext, ImportError, ImportResult, ImportSource, SourceScope,
    Translation, TERMINAL,
};
use crate::policy::{ExampleInput, ListKind, Outcome, PolicySpec, RuleExamples, RuleSpec};

/// A parsed value of the Starlark subset.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Str(String),
    List(Vec<Value>),
    Bool(bool),
    Int(i64),
    None,
}

/// One call of a rule function, with where it starts.
#[derive(Debug, Clone)]
struct CallExpr {
    name: String,
    line: usize,
    column: usize,
    positional: Vec<Value>,
    keywords: Vec<(String, Value)>,
}

/// A parse error: what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
    vars: Vec<(String, Value)>,
    /// Values copied from names so far: a file cannot make the parser build huge values by
    /// doubling a list through assignments.
    copied: usize,
}

/// The most values names may expand to in one file.
const COPY_BUDGET: usize = 100_000;

impl Value {
    fn size(&self) -> usize {
        match self {
            Value::List(items) => 1 + items.iter().map(Value::size).sum::<usize>(),
            _ => 1,
        }
    }
}

impl Parser {
    fn new(text: &str) -> Self {
        Parser { chars: text.chars().collect(), at: 0, line: 1, column: 1, vars: Vec::new(), copied: 0 }
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError { message: message.into(), line: self.line, column: self.column }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Skips spaces, newlines and comments.
    fn skip(&mut self) {
        while let Some(c) = self.peek() {
            if c == '#' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c.is_whitespace() || c == ';' {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn identifier(&mut self) -> Option<String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            self.bump();
        }
        (self.at > start).then(|| self.chars.get(start..self.at).map(|s| s.iter().collect()).unwrap_or_default())
    }

    fn string(&mut self, quote: char) -> Result<String, ParseError> {
        let triple = self.chars.get(self.at..self.at + 3).is_some_and(|s| s.iter().all(|c| *c == quote));
        let count = if triple { 3 } else { 1 };
        for _ in 0..count {
            self.bump();
        }
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error("a string is not closed")),
                Some('\n') if !triple => return Err(self.error("a string is not closed before the end of the line")),
                Some(c) if c == quote => {
                    if !triple {
                        self.bump();
                        return Ok(out);
                    }
                    if self.chars.get(self.at..self.at + 3).is_some_and(|s| s.iter().all(|c| *c == quote)) {
                        for _ in 0..3 {
                            self.bump();
                        }
                        return Ok(out);
                    }
                    out.push(c);
                    self.bump();
                }
                Some('\\') => {
                    self.bump();
                    let escaped = match self.bump() {
                        Some('n') => '\n',
                        Some('t') => '\t',
                        Some('r') => '\r',
                        Some('0') => '\0',
                        Some(c @ ('\\' | '"' | '\'')) => c,
                        Some('\n') => continue,
                        Some(c) => return Err(self.error(format!("the escape `\\{c}` is not supported"))),
                        None => return Err(self.error("a string is not closed")),
                    };
                    out.push(escaped);
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth > 32 {
            return Err(self.error("lists nest too deeply"));
        }
        self.skip();
        match self.peek() {
            Some(q @ ('"' | '\'')) => self.string(q).map(Value::Str),
            Some('[') => {
                self.bump();
                let mut items = Vec::new();
                loop {
                    self.skip();
                    if self.peek() == Some(']') {
                        self.bump();
                        return Ok(Value::List(items));
                    }
                    items.push(self.value(depth + 1)?);
                    self.skip();
                    match self.peek() {
                        Some(',') => {
                            self.bump();
                        }
                        Some(']') => {}
                        _ => return Err(self.error("expected `,` or `]` in a list")),
                    }
                }
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let (line, column) = (self.line, self.column);
                let name = self.identifier().unwrap_or_default();
                match name.as_str() {
                    "True" => Ok(Value::Bool(true)),
                    "False" => Ok(Value::Bool(false)),
                    "None" => Ok(Value::None),
                    _ => {
                        let value = self.vars.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v).ok_or(ParseError {
                            message: format!(
                                "`{name}` is not defined (only strings, lists, True, False, None and names assigned above are read)"
                            ),
                            line,
                            column,
                        })?;
                        self.copied = self.copied.saturating_add(value.size());
                        if self.copied > COPY_BUDGET {
                            return Err(ParseError { message: "names expand to too many values".into(), line, column });
                        }
                        Ok(value.clone())
                    }
                }
            }
            Some(c) if c.is_ascii_digit() || c == '-' => {
                let (line, column) = (self.line, self.column);
                let mut digits = String::new();
                while self.peek().is_some_and(|c| c.is_ascii_digit() || (digits.is_empty() && c == '-')) {
                    digits.extend(self.bump());
                }
                digits.parse().map(Value::Int).map_err(|_| ParseError { message: format!("`{digits}` is not a number"), line, column })
            }
            Some(c) => Err(self.error(format!("unexpected `{c}`: only strings, lists, numbers and names are read"))),
            None => Err(self.error("expected a value, found the end of the file")),
        }
    }

    /// The file's calls, in order.
    fn calls(&mut self) -> Result<Vec<CallExpr>, ParseError> {
        let mut calls = Vec::new();
        loop {
            self.skip();
            let (line, column) = (self.line, self.column);
            let Some(name) = self.identifier() else {
                return match self.peek() {
                    None => Ok(calls),
                    Some(c) => Err(self.error(format!("unexpected `{c}`: expected a rule such as `prefix_rule(…)`"))),
                };
            };
            self.skip();
            match self.peek() {
                Some('=') => {
                    self.bump();
                    let value = self.value(0)?;
                    self.vars.push((name, value));
                }
                Some('(') => {
                    self.bump();
                    let mut call = CallExpr { name, line, column, positional: Vec::new(), keywords: Vec::new() };
                    loop {
                        self.skip();
                        if self.peek() == Some(')') {
                            self.bump();
                            break;
                        }
                        let save = (self.at, self.line, self.column);
                        let keyword = self.identifier();
                        self.skip();
                        match keyword {
                            Some(key) if self.peek() == Some('=') => {
                                self.bump();
                                if call.keywords.iter().any(|(k, _)| *k == key) {
                                    return Err(self.error(format!("`{key}` is given twice")));
                                }
                                let value = self.value(0)?;
                                call.keywords.push((key, value));
                            }
                            _ => {
                                (self.at, self.line, self.column) = save;
                                if !call.keywords.is_empty() {
                                    return Err(self.error("a positional argument after a keyword argument"));
                                }
                                let value = self.value(0)?;
                                call.positional.push(value);
                            }
                        }
                        self.skip();
                        match self.peek() {
                            Some(',') => {
                                self.bump();
                            }
                            Some(')') => {}
                            _ => return Err(self.error("expected `,` or `)` in a call")),
                        }
                    }
                    calls.push(call);
                }
                _ => return Err(self.error(format!("expected `(` or `=` after `{name}`"))),
            }
        }
    }
}

/// A prefix rule as read.
#[derive(Debug, Clone, PartialEq)]
struct PrefixRule {
    positions: Vec<Vec<String>>,
    decision: ListKind,
    justification: Option<String>,
    examples: RuleExamples,
}

fn rule_error(call: &CallExpr, message: impl Into<String>) -> ParseError {
    ParseError { message: format!("{}: {}", call.name, message.into()), line: call.line, column: call.column }
}

fn argument<'c>(call: &'c CallExpr, name: &str, position: usize) -> Option<&'c Value> {
    call.keywords.iter().find(|(k, _)| k == name).map(|(_, v)| v).or_else(|| call.positional.get(position))
}

fn prefix_rule(call: &CallExpr) -> Result<PrefixRule, ParseError> {
    const PARAMETERS: &[&str] = &["pattern", "decision", "match", "not_match", "justification"];
    if let Some((unknown, _)) = call.keywords.iter().find(|(k, _)| !PARAMETERS.contains(&k.as_str())) {
        return Err(rule_error(call, format!("unknown argument `{unknown}`")));
    }
    if call.positional.len() > PARAMETERS.len() {
        return Err(rule_error(call, "too many arguments"));
    }
    let Some(Value::List(pattern)) = argument(call, "pattern", 0) else { return Err(rule_error(call, "`pattern` must be a list")) };
    let mut positions = Vec::new();
    for token in pattern {
        match token {
            Value::Str(s) => positions.push(vec![s.clone()]),
            Value::List(alternatives) if !alternatives.is_empty() => {
                let mut alts = Vec::new();
                for a in alternatives {
                    match a {
                        Value::Str(s) => alts.push(s.clone()),
                        _ => return Err(rule_error(call, "pattern alternative must be a string")),
                    }
                }
                positions.push(alts);
            }
            Value::List(_) => return Err(rule_error(call, "pattern alternatives cannot be empty")),
            _ => return Err(rule_error(call, "pattern element must be a string or list of strings")),
        }
    }
    if positions.is_empty() {
        return Err(rule_error(call, "pattern cannot be empty"));
    }
    let decision = match argument(call, "decision", 1) {
        None | Some(Value::None) => ListKind::AlwaysAllow,
        Some(Value::Str(d)) => match d.as_str() {
            "allow" => ListKind::AlwaysAllow,
            "prompt" => ListKind::AlwaysConfirm,
            "forbidden" => ListKind::AlwaysDeny,
            other => return Err(rule_error(call, format!("unknown decision `{other}` (allow, prompt or forbidden)"))),
        },
        Some(_) => return Err(rule_error(call, "`decision` must be a string")),
    };
    let justification = match argument(call, "justification", 4) {
        None | Some(Value::None) => None,
        Some(Value::Str(j)) if j.trim().is_empty() => return Err(rule_error(call, "justification cannot be empty")),
        Some(Value::Str(j)) => Some(j.clone()),
        Some(_) => return Err(rule_error(call, "`justification` must be a string")),
    };
    let examples = RuleExamples { matches: examples(call, "match", 2)?, not_match: examples(call, "not_match", 3)? };
    Ok(PrefixRule { positions, decision, justification, examples })
}

fn examples(call: &CallExpr, name: &str, position: usize) -> Result<Vec<ExampleInput>, ParseError> {
    let list = match argument(call, name, position) {
        None | Some(Value::None) => return Ok(Vec::new()),
        Some(Value::List(list)) => list,
        Some(_) => return Err(rule_error(call, format!("`{name}` must be a list"))),
    };
    list.iter()
        .map(|example| match example {
            Value::Str(s) if !s.trim().is_empty() => Ok(ExampleInput::One(s.clone())),
            Value::List(argv) if !argv.is_empty() => {
                let words: Result<Vec<String>, ParseError> = argv
                    .iter()
                    .map(|w| match w {
                        Value::Str(s) => Ok(quote(s)),
                        _ => Err(rule_error(call, "example tokens must be strings")),
                    })
                    .collect();
                words.map(|w| ExampleInput::One(w.join(" ")))
            }
            _ => Err(rule_error(call, "an example must be a non-empty string or list of strings")),
        })
        .collect()
}

/// A word quoted for a POSIX shell when it needs to be.
pub(crate) fn quote(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The token notation of a pattern, or the position that cannot be written in it.
fn notation(positions: &[Vec<String>]) -> Result<String, usize> {
    let mut out = Vec::new();
    for (i, alternatives) in positions.iter().enumerate() {
        if alternatives.iter().any(|a| a.is_empty() || a.contains('|') || a.contains(char::is_whitespace)) {
            return Err(i);
        }
        out.push(alternatives.join("|"));
    }
    Ok(out.join(" "))
}

/// Reads `.rules` files (all united, as Codex unites every layer's files).
pub fn import(sources: &[ImportSource], context: &ImportContext) -> Result<ImportResult, Vec<ImportError>> {
    let mut builder = Builder::default();
    let mut errors = Vec::new();
    for source in sources {
        let trusted = source.scope != SourceScope::Project || context.project_trusted.unwrap_or(true);
        let calls = match Parser::new(&source.text).calls() {
            Ok(calls) => calls,
            Err(e) => {
                errors.push(parse_error(e));
                continue;
            }
        };
        for (n, call) in calls.iter().enumerate() {
            let where_ = format!("{} #{}", call.name, n + 1);
            let text = format!("{}(…) at {}:{}", call.name, call.line, call.column);
            match call.name.as_str() {
                "prefix_rule" => match prefix_rule(call) {
                    Ok(rule) => {
                        let entry = translate(&mut builder, source.scope, trusted, &rule, where_, call);
                        builder.report.push(entry);
                    }
                    Err(e) => errors.push(parse_error(e)),
                },
                "host_executable" => builder.report(
                    source.scope,
                    where_,
                    &text,
                    Translation::Impossible,
                    Some(
                        "toolgate matches a program as written (and deny and prompt rules also by its basename); host paths are not pinned"
                            .into(),
                    ),
                    Vec::new(),
                ),
                "network_rule" => builder.report(
                    source.scope,
                    where_,
                    &text,
                    Translation::Impossible,
                    Some("network rules govern the sandbox's network access, which toolgate does not decide".into()),
                    Vec::new(),
                ),
                other => errors.push(parse_error(rule_error(
                    call,
                    format!("unknown function `{other}` (prefix_rule, host_executable, network_rule)"),
                ))),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(builder.finish(Outcome::Confirm))
}

fn parse_error(e: ParseError) -> ImportError {
    ImportError {
        code: "invalidRules",
        message: format!("{}:{}: {}", e.line, e.column, e.message),
        path: None,
        line: Some(e.line),
        column: Some(e.column),
    }
}

fn translate(
    builder: &mut Builder,
    scope: SourceScope,
    trusted: bool,
    rule: &PrefixRule,
    source: String,
    call: &CallExpr,
) -> super::RuleReport {
    let shown = format!(
        "prefix_rule(pattern={})",
        rule.positions
            .iter()
            .map(|alts| if alts.len() == 1 { format!("{:?}", alts.first().cloned().unwrap_or_default()) } else { format!("{alts:?}") })
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut notes = Vec::new();
    let strict = rule.decision != ListKind::AlwaysAllow;
    // The rules it becomes: one token prefix, or for a deny or prompt rule whose first token a
    // token prefix cannot hold (`"git push"`, `"a|b"`), a word prefix per alternative — its
    // words are the words toolgate renders such a program as — cut after that token.
    let (rules, mut translation): (Vec<RuleSpec>, Translation) = match notation(&rule.positions) {
        Ok(tokens) => (vec![RuleSpec::tokens(tokens)], Translation::Exact),
        Err(0) if strict => {
            let first = rule.positions.first().map(Vec::as_slice).unwrap_or_default();
            let (empty, named): (Vec<&String>, Vec<&String>) = first.iter().partition(|a| a.trim().is_empty());
            notes.push("the first token has spaces or `|`, which a token prefix cannot hold: each alternative became a word prefix, cut after it, which matches more".into());
            if !empty.is_empty() {
                notes.push("an empty program runs nothing: that alternative needs no rule".into());
            }
            (named.iter().map(|a| RuleSpec::prefix(a.as_str())).collect(), Translation::Stricter)
        }
        Err(bad) if !strict || bad == 0 => {
            notes.push(format!("token {} has spaces, `|` or is empty, which a token prefix cannot hold", bad + 1));
            (Vec::new(), Translation::Impossible)
        }
        Err(bad) => {
            notes.push(format!("token {} has spaces, `|` or is empty: the rule is cut before it, so it matches more", bad + 1));
            (
                notation(rule.positions.get(..bad).unwrap_or_default()).ok().map(RuleSpec::tokens).into_iter().collect(),
                Translation::Stricter,
            )
        }
    };
    if rule.decision == ListKind::AlwaysAllow && !rules.is_empty() {
        translation = translation.max(Translation::Stricter);
        notes.push("toolgate splits every command line and never lets an allow rule cover a sub-command with a hazard (a file redirection, a substitution, an executing flag)".into());
    }
    if !trusted && rule.decision == ListKind::AlwaysAllow {
        notes.push("the project is not trusted: its allow rules are ignored (as Codex ignores an untrusted .codex/rules)".into());
    }
    if let Some(j) = &rule.justification {
        notes.push(format!("justification: {j}"));
    }
    let exact = translation == Translation::Exact || !strict;
    let became = rules
        .into_iter()
        .map(|spec| {
            // A rule cut short would fail a `not_match` example the source passes: it keeps them
            // only as written.
            let examples = if exact { rule.examples.clone() } else { RuleExamples::default() };
            builder.add(scope, trusted, TERMINAL, rule.decision, RuleSpec { examples, ..spec })
        })
        .collect();
    super::RuleReport {
        scope,
        source,
        rule: shown,
        line: Some(call.line),
        column: Some(call.column),
        translation,
        why: (!notes.is_empty()).then(|| notes.join("; ")),
        became,
        examples: rule.examples.clone(),
    }
}

// ---- export ----

/// Writes the policy's terminal rules as one `.rules` file per scope.
pub fn export(policy: &PolicySpec) -> ExportResult {
    let mut files: std::collections::BTreeMap<SourceScope, String> = std::collections::BTreeMap::new();
    let mut report = Vec::new();
    for (place, rule) in rules_of(policy) {
        let Some(list) = place.list else { continue };
        let Some(layer) = policy.layers.iter().find(|l| l.name == place.layer) else { continue };
        // Codex loads a project's `.codex/rules` only once the project is trusted: the deny and
        // prompt rules of a project toolgate does not trust yet go to the user's rules.
        let moved = !layer.trusted && list != ListKind::AlwaysAllow && super::scope_of(layer) != SourceScope::User;
        let scope = if moved { SourceScope::User } else { super::scope_of(layer) };
        let decision = match list {
            ListKind::AlwaysAllow => "allow",
            ListKind::AlwaysConfirm => "prompt",
            ListKind::AlwaysDeny => "forbidden",
        };
        let (patterns, mut translation, mut why) = if place.tool != TERMINAL {
            (Vec::new(), Translation::Impossible, Some(format!("Codex rules decide commands only, not `{}`", place.tool)))
        } else {
            export_pattern(rule, list)
        };
        if moved && !patterns.is_empty() {
            translation = translation.max(Translation::Stricter);
            let note =
                "written to the user's rules: Codex loads a project's rules only once the project is trusted; it applies in every project";
            why = Some(why.map_or_else(|| note.to_owned(), |w| format!("{w}; {note}")));
        }
        let mut written = Vec::new();
        for pattern in patterns {
            let mut line = format!("prefix_rule(pattern={pattern}, decision=\"{decision}\"");
            // Codex checks the examples when it loads the file and drops every rule of it if one
            // fails: a rule that matches more than the policy's keeps none.
            let examples = if translation == Translation::Exact {
                [&rule.examples.matches, &rule.examples.not_match]
            } else {
                [&Vec::new(), &Vec::new()]
            };
            for (key, list) in ["match", "not_match"].into_iter().zip(examples) {
                if !list.is_empty() {
                    let items: Vec<String> = list.iter().map(|e| starlark_string(&e.display())).collect();
                    line.push_str(&format!(", {key}=[{}]", items.join(", ")));
                }
            }
            line.push(')');
            let file = files.entry(scope).or_default();
            file.push_str(&line);
            file.push('\n');
            written.push(line);
        }
        report.push(ExportReport { place, rule: rule.text().to_owned(), translation, why, written });
    }
    let files = files.into_iter().map(|(scope, text)| ExportedFile { scope, text }).collect();
    ExportResult { files, report }
}

/// Whether the export writes a `prefix_rule` Codex applies to at least the commands a
/// `forbidden` or `prompt` rule matches (the strictest match wins), or to at most those an allow
/// rule matches.
pub(crate) fn carries(place: &super::RulePlace, rule: &RuleSpec) -> Option<Translation> {
    place.list.filter(|_| place.tool == TERMINAL).map(|list| export_pattern(rule, list).1).filter(|t| *t != Translation::Impossible)
}

fn starlark_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n"))
}

fn pattern_of(positions: &[Vec<&str>]) -> String {
    let items: Vec<String> = positions
        .iter()
        .map(|alts| match alts.as_slice() {
            [one] => starlark_string(one),
            many => format!("[{}]", many.iter().map(|a| starlark_string(a)).collect::<Vec<_>>().join(", ")),
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn export_pattern(rule: &RuleSpec, list: ListKind) -> (Vec<String>, Translation, Option<String>) {
    let allow = list == ListKind::AlwaysAllow;
    if let Some(tokens) = &rule.tokens {
        let positions: Vec<Vec<&str>> = tokens.split_whitespace().map(|p| p.split('|').collect()).collect();
        return (vec![pattern_of(&positions)], Translation::Exact, None);
    }
    if let Some(prefix) = &rule.prefix {
        let positions: Vec<Vec<&str>> = prefix.split_whitespace().map(|w| vec![w]).collect();
        return (vec![pattern_of(&positions)], Translation::Exact, None);
    }
    if let Some(glob) = &rule.glob {
        // `words *` (or `words:*`) is a word prefix; other globs are not token prefixes.
        let head = glob.strip_suffix(" *").or_else(|| glob.strip_suffix(":*"));
        if let Some(head) = head.filter(|h| !h.contains('*') && !h.trim().is_empty()) {
            let positions: Vec<Vec<&str>> = head.split_whitespace().map(|w| vec![w]).collect();
            return (vec![pattern_of(&positions)], Translation::Exact, None);
        }
        if allow {
            return (Vec::new(), Translation::Impossible, Some("a glob that is not a word prefix cannot be a Codex prefix_rule".into()));
        }
    }
    // The strictest match wins: a deny or prompt rule of the words every command it matches
    // starts with refuses or asks more, never less.
    match super::leading_words(rule).filter(|_| !allow) {
        Some(lines) => (
            lines.iter().map(|l| pattern_of(&l.split_whitespace().map(|w| vec![w]).collect::<Vec<_>>())).collect(),
            Translation::Stricter,
            Some("written as the words every command it matches starts with, which match more".into()),
        ),
        None => (
            Vec::new(),
            Translation::Impossible,
            Some(format!("a {} rule cannot be a Codex prefix_rule", crate::policy::MatcherKind::of(rule).name()).to_lowercase()),
        ),
    }
}
