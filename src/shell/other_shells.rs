//! Command lines of the shells outside the POSIX family: Nushell, Elvish, rc, PowerShell and
//! cmd.exe, each read with its own quoting and chaining rules, and `Unknown`, read not at all.
//!
//! Zed (`crates/util/src/shell.rs`, `ShellKind::supports_posix_chaining`) sends every shell it
//! knows through brush-parser's POSIX grammar. That splits `;` and `|` but misreads what these
//! shells mean by `'…'`, `"…"`, `` ` ``, `^`, `%…%` or `(…)`. Here each shell has a small
//! reader of its own; whatever it does not model sets `cannot_vouch` (allow rules off for the
//! line) while the reader keeps going, so deny rules still see every command it can find.
//!
//! The machinery every one of these readers shares (lists, commands, redirections, payloads)
//! is here; each shell's words, separators, redirections and command-word checks are in a
//! module of its own, whose first lines say what its model covers and what makes it
//! `cannot_vouch`. An `Unknown` shell is one item, the trimmed line, and `cannot_vouch`.
//!
//! In every shell: `sh -c`, `bash -c`, `nu -c`, `elvish -c`, `rc -c`, `pwsh -Command` and
//! `cmd /c` payloads are analysed as commands of their own; control characters, unclosed
//! quotes or brackets and operators without a command are not vouched for; nesting is capped.

use super::cursor::Cursor;
use super::hazards::{hazards_of_command, network_path_hazard, Hazard, HazardKind};
use super::read_budget::{ReadBudget, EXHAUSTED};
use super::runs::{invocation, ScriptText};
use super::word::{is_name, Word};
use super::{add_command, Context, Shell, ShellAnalysis, SubCommand};

mod cmd;
mod elvish;
mod nushell;
mod powershell;
mod rc;

use rc::{RC_CONDITIONS, RC_KEYWORDS};

/// Deepest nesting of substitutions, blocks and shell payloads that is followed.
const MAX_DEPTH: usize = 24;

const MISSING_COMMAND: &str = "an operator is missing the command it needs";

/// Analyses `command` as `shell` would run it.
pub(super) fn analyze(shell: Shell, command: &str) -> ShellAnalysis {
    super::analyze_nested(shell, command, 0, Context::TopLevel, None, &mut ReadBudget::for_line(command), Vec::new())
}

/// Analyses `command` as `shell` (not POSIX, which [`super::analyze_nested`] gives the parser) at
/// `depth`, its items in `context` (and spanning `span_override`), with what is left of the
/// analysis's read budget; `followed_outside` are the byte ranges of substitutions an outer shell
/// already followed.
pub(super) fn analyze_other(
    shell: Shell,
    command: &str,
    depth: usize,
    context: Context,
    span_override: Option<(usize, usize)>,
    budget: &mut ReadBudget,
    followed_outside: Vec<(usize, usize)>,
) -> ShellAnalysis {
    if shell == Shell::Unknown {
        return unknown(command, context, span_override);
    }
    let mut analyzer = Analyzer::new(shell, command, depth, context, span_override, budget.lend());
    analyzer.input.followed_outside = followed_outside;
    analyzer.parse_list(None);
    budget.restore(analyzer.budget);
    ShellAnalysis { items: analyzer.items, cannot_vouch: analyzer.cannot_vouch }
}

/// An unknown shell: the whole line is one item, and nothing is vouched for.
fn unknown(command: &str, context: Context, span_override: Option<(usize, usize)>) -> ShellAnalysis {
    let trimmed = command.trim();
    let mut items = Vec::new();
    if !trimmed.is_empty() {
        let start = command.len() - command.trim_start().len();
        let (start, end) = span_override.unwrap_or((start, start + trimmed.len()));
        items.push(SubCommand::from_blank_separated(trimmed, context, (start, end), Shell::Unknown));
    }
    ShellAnalysis { items, cannot_vouch: Some("the shell is not known, so its command line is not analysed".into()) }
}

/// Where a command line is between commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    AfterCommand,
    AfterOperator,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    Sequence,
    Pipe,
    AndOr,
}

/// A separator found ahead: its length in characters, its kind, and why it is not vouched for.
type SeparatorAhead = (usize, Sep, Option<&'static str>);

struct Analyzer<'t> {
    shell: Shell,
    /// The text being read (a shell payload is one of its own).
    input: Cursor<'t>,
    depth: usize,
    context: Context,
    items: Vec<SubCommand>,
    cannot_vouch: Option<String>,
    /// What the whole analysis may still read again (shell payloads).
    budget: ReadBudget,
}

/// The parts of one command being read.
#[derive(Default)]
struct Pending {
    words: Vec<Word>,
    redirects: Vec<SubCommand>,
    hazards: Vec<Hazard>,
    call_operator: bool,
}

fn opener_of(close: char) -> char {
    match close {
        ')' => '(',
        '}' => '{',
        _ => '[',
    }
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r')
}

impl<'t> Analyzer<'t> {
    fn new(shell: Shell, text: &'t str, depth: usize, context: Context, span_override: Option<(usize, usize)>, budget: ReadBudget) -> Self {
        Analyzer { shell, input: Cursor::new(text, span_override), depth, context, items: Vec::new(), cannot_vouch: None, budget }
    }

    /// Records the first reason allow rules cannot vouch for the line.
    fn distrust(&mut self, reason: &str) {
        if self.cannot_vouch.is_none() {
            self.cannot_vouch = Some(reason.to_owned());
        }
    }

    fn shell_name(&self) -> &'static str {
        match self.shell {
            Shell::Nushell => "Nushell",
            Shell::Elvish => "Elvish",
            Shell::Rc => "rc",
            Shell::PowerShell => "PowerShell",
            Shell::Cmd => "cmd",
            Shell::Posix => "POSIX",
            Shell::Unknown => "unknown",
        }
    }

    // ----- blanks, separators -----

    /// Spaces, tabs, line continuations and comments; stops before a newline.
    fn skip_blanks(&mut self) {
        loop {
            let Some(c) = self.input.peek() else { return };
            let next = self.input.peek_at(1);
            match (self.shell, c) {
                (_, ' ' | '\t' | '\r') => self.input.pos += 1,
                (Shell::Elvish | Shell::Cmd, '^') | (Shell::Rc, '\\') | (Shell::PowerShell, '`') if next == Some('\n') => {
                    self.input.pos += 2;
                }
                (Shell::Elvish | Shell::Cmd, '^') | (Shell::PowerShell, '`')
                    if next == Some('\r') && self.input.peek_at(2) == Some('\n') =>
                {
                    self.input.pos += 3;
                }
                (Shell::PowerShell, '<') if next == Some('#') => {
                    self.distrust("PowerShell block comments are not analysed");
                    self.input.pos += 2;
                    while self.input.peek().is_some() && !self.input.ahead("#>") {
                        self.input.pos += 1;
                    }
                    self.input.pos += 2;
                    self.input.pos = self.input.pos.min(self.input.chars.len());
                }
                (Shell::Nushell | Shell::Elvish | Shell::Rc | Shell::PowerShell, '#') => {
                    while self.input.peek().is_some_and(|c| c != '\n') {
                        self.input.pos += 1;
                    }
                }
                (Shell::PowerShell, c) if c.is_whitespace() && !c.is_ascii() => {
                    self.distrust(&format!("PowerShell reads the Unicode space U+{:04X} as a blank", c as u32));
                    self.input.pos += 1;
                }
                _ => return,
            }
        }
    }

    /// The separator starting here, if any. `command_started` tells PowerShell's trailing
    /// `&` (run in the background) from its call operator.
    fn separator_ahead(&self, command_started: bool) -> Option<SeparatorAhead> {
        let c = self.input.peek()?;
        let next = self.input.peek_at(1);
        match self.shell {
            Shell::Nushell => self.nu_separator(c, next),
            Shell::Elvish => elvish::separator(c, next),
            Shell::Rc => self.rc_separator(c, next),
            Shell::PowerShell => powershell::separator(c, next, command_started),
            Shell::Cmd => cmd::separator(c, next),
            Shell::Posix | Shell::Unknown => None,
        }
    }

    /// Closing brackets that end a nested list in this shell.
    fn is_closer(&self, c: char) -> bool {
        match self.shell {
            Shell::Nushell | Shell::Elvish => matches!(c, ')' | '}' | ']'),
            Shell::Rc | Shell::PowerShell => matches!(c, ')' | '}'),
            Shell::Cmd => c == ')',
            Shell::Posix | Shell::Unknown => false,
        }
    }

    // ----- lists and commands -----

    /// Reads commands up to `close` (consumed) or the end of the input.
    fn parse_list(&mut self, close: Option<char>) {
        let mut state = State::Start;
        loop {
            self.skip_blanks();
            let Some(c) = self.input.peek() else {
                if let Some(close) = close {
                    self.distrust(&format!("a '{}' is never closed", opener_of(close)));
                }
                if state == State::AfterOperator {
                    self.distrust(MISSING_COMMAND);
                }
                return;
            };
            if Some(c) == close {
                self.input.bump();
                if state == State::AfterOperator {
                    self.distrust(MISSING_COMMAND);
                }
                return;
            }
            if c == '\n' {
                self.input.bump();
                if state == State::AfterOperator {
                    // Other shells continue a pipeline or `&&` on the next line; cmd does not.
                    if self.shell == Shell::Cmd {
                        self.distrust(MISSING_COMMAND);
                    }
                } else if self.shell != Shell::Nushell {
                    // In Nushell a `|` opening the next line continues the pipeline.
                    state = State::Start;
                }
                continue;
            }
            if let Some((n, sep, reason)) = self.separator_ahead(state == State::AfterCommand) {
                self.input.pos += n;
                if let Some(reason) = reason {
                    self.distrust(reason);
                }
                match sep {
                    Sep::Sequence => {
                        if state == State::AfterOperator {
                            self.distrust(MISSING_COMMAND);
                        }
                        state = State::Start;
                    }
                    Sep::Pipe | Sep::AndOr => {
                        if state != State::AfterCommand {
                            self.distrust(MISSING_COMMAND);
                        }
                        state = State::AfterOperator;
                    }
                }
                continue;
            }
            if self.is_closer(c) {
                self.distrust(&format!("a '{c}' has no matching '{}'", opener_of(c)));
                self.input.bump();
                continue;
            }
            let before = self.input.pos;
            self.parse_command(close);
            if self.input.pos == before {
                self.distrust(&format!("'{c}' cannot start a {} command", self.shell_name()));
                self.input.bump();
            }
            state = State::AfterCommand;
        }
    }

    /// Parses a nested body (a substitution, block or group) up to `close`, depth-capped.
    fn nested(&mut self, context: Context, close: char) {
        if self.depth >= MAX_DEPTH {
            self.distrust("commands are nested too deeply to follow");
            let start = self.input.offset();
            let open = opener_of(close);
            let mut level = 1usize;
            while let Some(c) = self.input.bump() {
                if c == open {
                    level += 1;
                } else if c == close {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                }
            }
            let raw = self.input.source(start, self.input.offset());
            let raw = raw.strip_suffix(close).unwrap_or(&raw).trim().to_owned();
            if !raw.is_empty() {
                let span = self.input.span(start, self.input.offset());
                self.items.push(SubCommand::from_blank_separated(&raw, context, span, self.shell));
            }
            return;
        }
        let saved = self.context;
        self.context = context;
        self.depth += 1;
        self.parse_list(Some(close));
        self.depth -= 1;
        self.context = saved;
    }

    /// A block or group body: `{|x| … }` parameters are skipped.
    fn block_body(&mut self, word: &mut Word, context: Context) {
        let start = self.input.offset();
        self.input.bump();
        self.skip_blanks();
        while self.input.peek() == Some('\n') {
            self.input.bump();
            self.skip_blanks();
        }
        if self.input.peek() == Some('|') && matches!(self.shell, Shell::Nushell | Shell::Elvish) {
            self.input.bump();
            while self.input.peek().is_some_and(|c| c != '|' && c != '}') {
                self.input.bump();
            }
            if self.input.peek() == Some('|') {
                self.input.bump();
            }
        }
        self.nested(context, '}');
        word.text.push_str(&self.input.source(start, self.input.offset()));
    }

    fn parse_command(&mut self, close: Option<char>) {
        let owner = self.items.len();
        let start = self.input.offset();
        let mut last_end = start;
        let mut cmd = Pending::default();
        loop {
            self.skip_blanks();
            let Some(c) = self.input.peek() else { break };
            if Some(c) == close || c == '\n' {
                break;
            }
            let started = !cmd.words.is_empty() || !cmd.redirects.is_empty();
            if self.separator_ahead(started).is_some() || self.is_closer(c) {
                break;
            }
            if !started && !cmd.call_operator {
                match (self.shell, c) {
                    (Shell::PowerShell, '&') => {
                        self.input.bump();
                        cmd.call_operator = true;
                        continue;
                    }
                    (Shell::Cmd, '@') => {
                        self.input.bump();
                        continue;
                    }
                    (Shell::Rc, '!' | '@')
                        if self
                            .input
                            .peek_at(1)
                            .is_none_or(|n| is_blank(n) || matches!(n, '{' | '}' | ')' | ';' | '&' | '|' | '#' | '\n'))
                            || self.rc_continuation_at(1) =>
                    {
                        // A prefix operator (a line continuation after it is a blank: `!\` and a
                        // newline, then `rm x`, runs `rm x`); with no command after it (the end, a
                        // separator, a comment or the group's closer: `{!}`), it is a syntax rc is
                        // not modelled on, in context or alone.
                        if self.rc_after_blanks(1).is_none_or(|n| matches!(n, '}' | ')' | ';' | '&' | '|' | '#' | '\n')) {
                            self.distrust("an rc '!' or '@' with no command after it is not analysed");
                        }
                        self.input.bump();
                        continue;
                    }
                    (Shell::Rc, '{') => {
                        self.input.bump();
                        self.nested(Context::Group, '}');
                        last_end = self.input.offset();
                        continue;
                    }
                    _ => {}
                }
            }
            if self.shell == Shell::Cmd && c == '(' {
                self.distrust("cmd's parenthesised blocks are not analysed");
                self.input.bump();
                self.nested(Context::Group, ')');
                last_end = self.input.offset();
                continue;
            }
            if self.try_redirect(&mut cmd, close) {
                last_end = self.input.offset();
                continue;
            }
            let before = self.input.pos;
            let word = self.read_word(close);
            if self.input.pos == before {
                if started {
                    self.distrust(&format!("'{c}' cannot appear inside a {} command", self.shell_name()));
                }
                break;
            }
            last_end = word.end;
            if self.shell == Shell::Elvish
                && matches!(self.input.peek(), Some('<' | '>'))
                && !word.text.chars().all(|ch| ch.is_ascii_digit())
            {
                self.distrust("Elvish reads a word glued to '<' or '>' as a file descriptor");
            }
            if self.shell == Shell::Rc && cmd.words.is_empty() && !word.quoted {
                let keyword = word.text.as_str();
                if RC_KEYWORDS.contains(&keyword) {
                    self.distrust(&format!("the rc keyword '{keyword}' is not analysed"));
                    continue;
                }
                if RC_CONDITIONS.contains(&keyword) {
                    self.distrust(&format!("the rc keyword '{keyword}' is not analysed"));
                    self.skip_blanks();
                    if self.input.peek() == Some('(') {
                        // The condition is a command list; the body follows as a command of its own.
                        self.input.bump();
                        self.nested(Context::Group, ')');
                        return;
                    }
                    continue;
                }
            }
            cmd.words.push(word);
        }
        self.finish_command(owner, start, last_end, cmd);
    }

    /// Builds the command's item (inserted before the items found inside its words) and its redirects.
    fn finish_command(&mut self, owner: usize, start: usize, end: usize, cmd: Pending) {
        let Pending { mut words, redirects, mut hazards, call_operator } = cmd;
        if call_operator && words.is_empty() {
            self.distrust("PowerShell's '&' needs a command to call");
        }
        if words.is_empty() && redirects.is_empty() && hazards.is_empty() {
            return;
        }
        // rc: leading `name=value` words are assignments for this command.
        let mut assignments = 0;
        if self.shell == Shell::Rc {
            while let Some(word) = words.get(assignments) {
                let raw = self.input.source(word.start, word.end);
                let Some((name, _)) = raw.split_once('=') else {
                    break;
                };
                if !is_name(name) {
                    break;
                }
                hazards.push(Hazard::new(HazardKind::EnvAssignment, name, "a leading name=value assignment changes how the command runs"));
                assignments += 1;
            }
        }
        if let Some(head) = words.get_mut(assignments) {
            let raw = self.input.text.get(head.start..head.end).unwrap_or_default();
            match self.shell {
                Shell::Nushell if raw.starts_with('^') => {
                    if let Some(stripped) = head.text.strip_prefix('^') {
                        head.text = stripped.to_owned();
                    }
                }
                Shell::Elvish if raw.starts_with("e:") => {
                    if let Some(stripped) = head.text.strip_prefix("e:") {
                        head.text = stripped.to_owned();
                    }
                }
                _ => {}
            }
        }
        for word in &words {
            for (kind, text) in &word.expansions {
                hazards.push(Hazard::expansion(kind, text));
            }
        }
        let name = words.get(assignments).map(|w| w.text.clone());
        let args: Vec<String> = words.iter().skip(assignments + 1).map(|w| w.text.clone()).collect();
        if let Some(head) = words.get(assignments) {
            let raw = self.input.source(head.start, head.end);
            self.check_head(head, &raw, call_operator, &args, &mut hazards);
        }
        // What the command runs, read as every parser reads it (`super::runs`).
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let expanded: Vec<bool> = words.iter().map(|w| !w.expansions.is_empty()).collect();
        let mut invocation = invocation(&texts, assignments, &expanded, self.shell);
        let scripts: Vec<ScriptText> = invocation
            .scripts
            .iter()
            .map(|script| {
                let (text, followed) = script.text(words.iter().map(|w| (w.text.as_str(), w.followed.as_slice())));
                (text, followed, script.shell)
            })
            .collect();
        if let Some(program) = &invocation.program {
            hazards.extend(hazards_of_command(program, &args));
        }
        hazards.extend(network_path_hazard(&args));
        if invocation.unreadable.is_none() && invocation.reads_stdin.is_some() {
            invocation.unreadable = Some("the shell reads its commands from standard input, which the text does not show".to_owned());
        }
        let text = words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
        let (s, e) = self.input.span(start, end);
        let item = SubCommand::command(text, self.context, name, args, invocation, (s, e), hazards);
        let has_command = !item.text.is_empty() || item.name.is_some();
        add_command(&mut self.items, owner, item, has_command, redirects);
        for (script, followed, shell) in scripts {
            self.run_script(&script, shell, (s, e), followed);
        }
    }

    /// Per-shell checks of the command word: keywords, expression statements, built-ins.
    fn check_head(&mut self, head: &Word, raw: &str, call_operator: bool, args: &[String], hazards: &mut Vec<Hazard>) {
        let lower = head.text.to_ascii_lowercase();
        let first = raw.chars().next();
        match self.shell {
            Shell::Nushell => self.nu_check_head(head, first, args, hazards),
            Shell::Elvish => self.elvish_check_head(head, hazards),
            Shell::PowerShell => self.ps_check_head(head, raw, call_operator, args, hazards),
            Shell::Cmd => self.cmd_check_head(&lower, args, hazards),
            Shell::Rc | Shell::Posix | Shell::Unknown => {}
        }
    }

    /// A script the command runs (`sh -c`, `pwsh -Command`, `cmd /c`, `iex '…'`): its commands
    /// are items too, in the shell it is written for.
    fn run_script(&mut self, script: &str, target: Shell, span: (usize, usize), followed: Vec<(usize, usize)>) {
        if self.depth >= MAX_DEPTH {
            self.distrust("commands are nested too deeply to follow");
            return;
        }
        // Out of budget the payload is not followed; the rest of the line still is, for deny rules.
        if !self.budget.take(script) {
            self.distrust(EXHAUSTED);
            return;
        }
        let inner = super::analyze_nested(target, script, self.depth + 1, Context::ShellPayload, Some(span), &mut self.budget, followed);
        self.items.extend(inner.items);
        if let Some(reason) = inner.cannot_vouch {
            self.distrust(&reason);
        }
    }

    // ----- redirections -----

    /// Reads a redirection starting here, if there is one.
    fn try_redirect(&mut self, cmd: &mut Pending, close: Option<char>) -> bool {
        let start = self.input.offset();
        let Some((op, writes, target_follows)) = self.redirect_operator() else {
            return false;
        };
        if !target_follows {
            return true;
        }
        self.skip_blanks();
        let before = self.input.pos;
        let at_end = self.input.peek().is_none_or(|c| c == '\n' || self.is_closer(c)) || self.separator_ahead(true).is_some();
        let target = if at_end { None } else { Some(self.read_word(close)) };
        let Some(target) = target.filter(|_| self.input.pos != before) else {
            self.distrust(&format!("the redirection '{op}' has no target"));
            return true;
        };
        for (kind, text) in &target.expansions {
            cmd.hazards.push(Hazard::expansion(kind, text));
        }
        cmd.hazards.extend(network_path_hazard([&target.text]));
        let null = target.text == "/dev/null"
            || (self.shell == Shell::PowerShell && target.text.eq_ignore_ascii_case("$null"))
            || (self.shell == Shell::Cmd && matches!(target.text.to_ascii_lowercase().as_str(), "nul" | "nul:"));
        if null {
            // `> $null` is no expansion to worry about.
            if self.shell == Shell::PowerShell {
                cmd.hazards.retain(|h| !(h.kind == HazardKind::Expansion && h.subject.eq_ignore_ascii_case("$null")));
            }
            return true;
        }
        let span = self.input.span(start, target.end);
        cmd.redirects.push(SubCommand::redirect(
            format!("{op} {}", target.text),
            &target.text,
            writes,
            self.context,
            span,
            &mut cmd.hazards,
        ));
        true
    }

    /// The redirection operator here, consumed: its text, whether it writes, and whether a
    /// target word follows (descriptor duplications have none).
    fn redirect_operator(&mut self) -> Option<(String, bool, bool)> {
        match self.shell {
            Shell::Nushell => self.nu_redirect(),
            Shell::Elvish | Shell::Cmd | Shell::PowerShell => self.fd_redirect(),
            Shell::Rc => self.rc_redirect(),
            Shell::Posix | Shell::Unknown => None,
        }
    }

    /// `[fd]op[&fd]` redirections of Elvish, PowerShell and cmd.
    fn fd_redirect(&mut self) -> Option<(String, bool, bool)> {
        let mut n = 0;
        let mut fd = String::new();
        if self.shell == Shell::PowerShell && self.input.peek() == Some('*') {
            fd.push('*');
            n = 1;
        } else {
            while let Some(c) = self.input.peek_at(n).filter(char::is_ascii_digit) {
                fd.push(c);
                n += 1;
            }
        }
        let op = match (self.input.peek_at(n), self.input.peek_at(n + 1)) {
            (Some('>'), Some('>')) => ">>",
            (Some('<'), Some('>')) if self.shell == Shell::Elvish => "<>",
            (Some('>'), _) => ">",
            (Some('<'), _) => "<",
            _ => return None,
        };
        // PowerShell's `*` only comes before `>`.
        if fd == "*" && op == "<" {
            return None;
        }
        self.input.pos += n + op.len();
        let writes = op != "<";
        if self.shell == Shell::PowerShell && op == "<" {
            self.distrust("PowerShell reserves '<' for future use");
        }
        if self.input.peek() == Some('&') {
            // `2>&1`, `>&2`, `<&-`: a descriptor duplicated or closed, no file.
            let mut dup = String::from("&");
            self.input.bump();
            while let Some(c) = self.input.peek().filter(|c| c.is_ascii_digit() || *c == '-') {
                dup.push(c);
                self.input.bump();
            }
            if dup.len() == 1 {
                self.distrust(&format!("the redirection '{fd}{op}&' is malformed"));
            }
            return Some((format!("{fd}{op}{dup}"), false, false));
        }
        Some((format!("{fd}{op}"), writes, true))
    }

    // ----- words -----

    /// Checks a character copied into a word: control characters and look-alikes are not vouched for.
    fn push_plain(&mut self, word: &mut Word, c: char) {
        if c.is_control() && !matches!(c, '\t' | '\n') {
            self.distrust(&format!("the command contains the control character U+{:04X}", c as u32));
        } else if c.is_whitespace() && !c.is_ascii() {
            self.distrust(&format!("the command contains the Unicode space U+{:04X}", c as u32));
        }
        word.text.push(c);
    }

    /// Reads the body of a substitution opened at byte `start` (its opener consumed) up to
    /// `close`, and records it in `word` as followed. One an outer shell already followed is
    /// skipped whole: this shell only sees its output.
    fn substitution(&mut self, word: &mut Word, kind: &str, start: usize, context: Context, close: char) {
        if !self.input.skip_followed(start) {
            self.nested(context, close);
        }
        self.input.record_followed(word, kind, start);
    }

    fn read_word(&mut self, close: Option<char>) -> Word {
        match self.shell {
            Shell::Nushell => self.nu_word(),
            Shell::Elvish => self.elvish_word(),
            Shell::Rc => self.rc_word(),
            Shell::PowerShell => self.ps_word(),
            Shell::Cmd => self.cmd_word(close),
            Shell::Posix | Shell::Unknown => Word::at(self.input.offset()),
        }
    }

    /// Reads a quoted string whose only escape is a doubled quote (`'it''s'`), after the opening quote.
    fn doubled_quote_string(&mut self, word: &mut Word, is_quote: fn(char) -> bool) {
        word.quoted = true;
        loop {
            match self.input.bump() {
                None => {
                    self.distrust("a single quote is never closed");
                    return;
                }
                Some(c) if is_quote(c) => {
                    if self.input.peek().is_some_and(is_quote) {
                        self.input.bump();
                        word.text.push('\'');
                    } else {
                        return;
                    }
                }
                Some(c) => self.push_plain(word, c),
            }
        }
    }

    /// Reads a Nushell or Elvish double-quoted string, whose escapes are backslashes, after the
    /// opening quote.
    fn backslash_quoted(&mut self, word: &mut Word) {
        loop {
            match self.input.bump() {
                None => {
                    self.distrust("a double quote is never closed");
                    return;
                }
                Some('"') => return,
                Some('\\') => self.backslash_escape(word),
                Some(c) => self.push_plain(word, c),
            }
        }
    }

    /// Decodes a backslash escape of Nushell or Elvish double-quoted strings (after the backslash).
    fn backslash_escape(&mut self, word: &mut Word) {
        let decoded = match self.input.bump() {
            None => {
                self.distrust("a double quote is never closed");
                return;
            }
            Some('n') => Some('\n'),
            Some('t') => Some('\t'),
            Some('r') => Some('\r'),
            Some('e') => Some('\u{1b}'),
            Some('a') => Some('\u{7}'),
            Some('b') => Some('\u{8}'),
            Some('f') => Some('\u{c}'),
            Some('v') => Some('\u{b}'),
            Some('0') if self.shell == Shell::Nushell => Some('\0'),
            Some(c @ ('"' | '\\' | '\'' | '/' | '(' | ')' | '$')) => Some(c),
            Some('u') if self.input.peek() == Some('{') => {
                self.input.bump();
                let mut value: u32 = 0;
                let mut ok = true;
                while let Some(c) = self.input.peek().filter(|c| *c != '}' && *c != '"') {
                    self.input.bump();
                    match c.to_digit(16).and_then(|d| value.checked_mul(16)?.checked_add(d)) {
                        Some(v) => value = v,
                        None => ok = false,
                    }
                }
                ok &= self.input.bump() == Some('}');
                if ok {
                    char::from_u32(value)
                } else {
                    None
                }
            }
            Some(_) => None,
        };
        match decoded {
            Some(c) => {
                if c.is_control() && !matches!(c, '\t' | '\n') {
                    self.distrust("an escape produces a control character");
                }
                word.text.push(c);
            }
            None => self.distrust(&format!("a {} string escape is not analysed", self.shell_name())),
        }
    }
}

#[cfg(test)]
mod tests;
