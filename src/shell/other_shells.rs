//! Command lines of the shells outside the POSIX family: Nushell, Elvish, rc, PowerShell and
//! cmd.exe, each read with its own quoting and chaining rules, and `Unknown`, read not at all.
//!
//! Zed (`crates/util/src/shell.rs`, `ShellKind::supports_posix_chaining`) sends every shell it
//! knows through brush-parser's POSIX grammar. That splits `;` and `|` but misreads what these
//! shells mean by `'…'`, `"…"`, `` ` ``, `^`, `%…%` or `(…)`. Here each shell has a small
//! reader of its own; whatever it does not model sets `cannot_vouch` (allow rules off for the
//! line) while the reader keeps going, so deny rules still see every command it can find.
//!
//! What each model covers, and what makes it `cannot_vouch`:
//! - **Nushell**: `;`, `|`, newlines, `e>|`-style pipes; `'…'`, `"…"` with escapes, backtick
//!   words, `r#'…'#`; `^cmd`; `(…)` subexpressions, `$"…"`/`$'…'` interpolation and `$var`
//!   (hazards; the code inside is analysed); `o>`/`e>`/`o+e>` redirections, `save` (a
//!   hazard); `>` is a comparison, not a redirection. Not vouched: `{…}` blocks, closures and
//!   records, `[…]` lists, keywords (`let`, `def`, `if`, `do`, `source`…), statements that
//!   are expressions (`$env.X = …`, a quoted head), `&&`, `||`, `2>`, a `#` inside a word.
//! - **Elvish**: `;`, `|`, newlines, `^` line continuations, comments; `'…'` (`''`), `"…"` with
//!   escapes; `$var` (hazard), `(…)` output capture (a substitution, analysed), `&opt=value`,
//!   `e:cmd`, redirections with descriptors. Not vouched: `{…}` lambdas and braced lists, `[…]`,
//!   keywords (`var`, `set`, `fn`, `if`, `use`…), `&&`, `||`, a word glued to `>` as its descriptor.
//! - **rc**: `;`, `&`, `&&`, `||`, `|`, `|[2]`, newlines, `\` continuations, comments; `'…'`
//!   (`''`); `$var`, `$#var`, `` `{…} `` and `<{…}`/`>{…}` (hazards; analysed); `{…}` groups;
//!   `>`, `>>`, `<`, `>[2=1]`; `name=value` prefixes. Not vouched: `(…)` lists, `^` joining
//!   separate words, keywords (`if`, `for`, `while`, `switch`, `fn`, `not`), here-documents.
//! - **PowerShell**: `;`, `|`, newlines, `&&`, `||`, trailing `&`, `` ` `` continuations,
//!   comments; `'…'` (`''`), `"…"` with `` ` `` escapes; the call operator `&`; `$var`, `$(…)`,
//!   `@(…)`, `(…)`, `@splat` (hazards; the code inside is analysed); `>`, `>>`, `2>`, `*>`,
//!   `2>&1`, `> $null`. Not vouched: `{…}` script blocks, `@{…}`, here-strings, `<#…#>`,
//!   `--%`, `<`, keywords, statements that are expressions (`$x = …`, a quoted or `[type]` head),
//!   typographic quotes, dashes and spaces (PowerShell reads them as `'`, `"`, `-`, blanks).
//! - **cmd**: `&`, `&&`, `||`, `|`, newlines; `"…"`; `^` escapes; `%VAR%` (hazard and not
//!   vouched: cmd expands it before splitting the line, so a value could add commands) and
//!   `!VAR!` (hazard); `>`, `>>`, `2>`, `<`, `2>&1`, `> nul`. Not vouched: `(…)` blocks,
//!   `if`, `for`, `goto`, `rem`, labels, built-ins glued to their arguments (`rd/s`, `echo.`).
//! - **Unknown**: one item, the trimmed line, and `cannot_vouch`.
//!
//! In every shell: `sh -c`, `bash -c`, `nu -c`, `elvish -c`, `rc -c`, `pwsh -Command` and
//! `cmd /c` payloads are analysed as commands of their own; control characters, unclosed
//! quotes or brackets and operators without a command are not vouched for; nesting is capped.

use super::hazards::{hazards_of_command, network_path_hazard, Hazard, HazardKind};
use super::read_budget::{ReadBudget, EXHAUSTED};
use super::runs::{invocation, ScriptText};
use super::{Context, Shell, ShellAnalysis, SubCommand, SubCommandKind};

/// Deepest nesting of substitutions, blocks and shell payloads that is followed.
const MAX_DEPTH: usize = 24;

const MISSING_COMMAND: &str = "an operator is missing the command it needs";

/// Nushell's redirection tokens (each a whole word), and whether they append.
const NU_REDIRECTS: [(&str, bool); 16] = [
    ("o>", false),
    ("out>", false),
    ("e>", false),
    ("err>", false),
    ("o+e>", false),
    ("e+o>", false),
    ("out+err>", false),
    ("err+out>", false),
    ("o>>", true),
    ("out>>", true),
    ("e>>", true),
    ("err>>", true),
    ("o+e>>", true),
    ("e+o>>", true),
    ("out+err>>", true),
    ("err+out>>", true),
];

/// Nushell tokens that pipe stderr (or both streams) to the next command.
const NU_PIPES: [&str; 6] = ["e>|", "err>|", "o+e>|", "e+o>|", "out+err>|", "err+out>|"];

const NU_KEYWORDS: [&str; 30] = [
    "alias",
    "const",
    "def",
    "def-env",
    "export",
    "export-env",
    "extern",
    "for",
    "hide",
    "hide-env",
    "if",
    "else",
    "let",
    "let-env",
    "loop",
    "match",
    "module",
    "mut",
    "overlay",
    "plugin",
    "return",
    "source",
    "source-env",
    "try",
    "catch",
    "use",
    "while",
    "do",
    "break",
    "continue",
];

const ELVISH_KEYWORDS: [&str; 15] =
    ["var", "set", "tmp", "del", "fn", "use", "if", "elif", "else", "while", "for", "try", "catch", "finally", "pragma"];

/// rc keywords whose parenthesised part is a command list (`if(test -f x) rm x`).
const RC_CONDITIONS: [&str; 4] = ["if", "while", "for", "switch"];
const RC_KEYWORDS: [&str; 4] = ["fn", "not", "case", "else"];

const PS_KEYWORDS: [&str; 35] = [
    "if",
    "elseif",
    "else",
    "switch",
    "foreach",
    "for",
    "while",
    "do",
    "until",
    "function",
    "filter",
    "workflow",
    "param",
    "begin",
    "process",
    "end",
    "try",
    "catch",
    "finally",
    "trap",
    "throw",
    "return",
    "break",
    "continue",
    "exit",
    "class",
    "enum",
    "using",
    "data",
    "dynamicparam",
    "configuration",
    "parallel",
    "sequence",
    "inlinescript",
    "hidden",
];

/// PowerShell commands that run text or other commands, or redefine what a name runs.
const PS_EXECUTING: [&str; 17] = [
    "iex",
    "invoke-expression",
    "icm",
    "invoke-command",
    "start-process",
    "saps",
    "start",
    "start-job",
    "sajb",
    "invoke-item",
    "ii",
    "add-type",
    "set-alias",
    "sal",
    "new-alias",
    "nal",
    "import-module",
];

/// cmd built-ins, which cmd recognises even when glued to what follows (`rd/s`, `echo.`).
const CMD_BUILTINS: [&str; 36] = [
    "assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del", "dir", "echo", "endlocal", "erase", "exit", "for",
    "ftype", "goto", "if", "md", "mkdir", "mklink", "move", "path", "pause", "popd", "prompt", "pushd", "rd", "rem", "ren", "rename",
    "rmdir", "set", "start", "type",
];

/// Analyses `command` as `shell` would run it.
pub(super) fn analyze(shell: Shell, command: &str) -> ShellAnalysis {
    analyze_nested(shell, command, 0, Context::TopLevel, None, &mut ReadBudget::for_line(command), Vec::new())
}

/// Analyses `command` at `depth`, its items in `context` (and spanning `span_override`), with
/// what is left of the analysis's read budget (`command` itself already taken from it);
/// `followed_outside` are the byte ranges of substitutions an outer shell already followed.
pub(super) fn analyze_nested(
    shell: Shell,
    command: &str,
    depth: usize,
    context: Context,
    span_override: Option<(usize, usize)>,
    budget: &mut ReadBudget,
    followed_outside: Vec<(usize, usize)>,
) -> ShellAnalysis {
    match shell {
        Shell::Posix => {
            // Only reached for payloads; parse it as the POSIX parser does and adopt its items.
            let mut analysis = super::parser::parse_nested(command, depth, budget, followed_outside);
            for item in &mut analysis.items {
                if item.context == Context::TopLevel {
                    item.context = context;
                }
                if let Some((start, end)) = span_override {
                    item.start = start;
                    item.end = end;
                }
            }
            analysis
        }
        Shell::Unknown => unknown(command, context, span_override),
        _ => {
            let mut analyzer = Analyzer::new(shell, command, depth, context, span_override, budget.lend());
            analyzer.followed_outside = followed_outside;
            analyzer.parse_list(None);
            budget.restore(analyzer.budget);
            ShellAnalysis { items: analyzer.items, cannot_vouch: analyzer.cannot_vouch }
        }
    }
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

/// A word after quote removal.
#[derive(Debug, Default)]
struct Word {
    text: String,
    start: usize,
    end: usize,
    quoted: bool,
    /// (kind, source text) of each expansion or substitution in the word.
    expansions: Vec<(String, String)>,
    /// Byte ranges of `text` holding the verbatim source of substitutions already followed. When
    /// the word is (part of) a shell's payload they are this shell's, not the payload's, to run.
    followed: Vec<(usize, usize)>,
}

impl Word {
    fn at(start: usize) -> Self {
        Word { start, end: start, ..Word::default() }
    }
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
    text: &'t str,
    chars: Vec<(usize, char)>,
    len: usize,
    pos: usize,
    depth: usize,
    context: Context,
    /// Byte span every item gets when the text is not the caller's input (a shell payload).
    span_override: Option<(usize, usize)>,
    items: Vec<SubCommand>,
    cannot_vouch: Option<String>,
    /// What the whole analysis may still read again (shell payloads).
    budget: ReadBudget,
    /// Byte ranges of `text` holding substitutions an outer shell already ran (see
    /// [`Word::followed`]): this shell sees their output, so they are not followed again.
    followed_outside: Vec<(usize, usize)>,
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

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}')
}

fn is_double_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201C}' | '\u{201D}' | '\u{201E}')
}

fn is_typographic_dash(c: char) -> bool {
    matches!(c, '\u{2013}' | '\u{2014}' | '\u{2015}')
}

impl<'t> Analyzer<'t> {
    fn new(shell: Shell, text: &'t str, depth: usize, context: Context, span_override: Option<(usize, usize)>, budget: ReadBudget) -> Self {
        #[cfg(test)]
        crate::test_support::steps(text.len());
        Analyzer {
            shell,
            text,
            chars: super::parser::char_table(text),
            len: text.len(),
            pos: 0,
            depth,
            context,
            span_override,
            items: Vec::new(),
            cannot_vouch: None,
            budget,
            followed_outside: Vec::new(),
        }
    }

    // ----- input -----

    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    /// Every character the reader looks at comes through here (tests count them).
    fn peek_at(&self, ahead: usize) -> Option<char> {
        #[cfg(test)]
        crate::test_support::steps(1);
        self.chars.get(self.pos + ahead).map(|(_, c)| *c)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn offset(&self) -> usize {
        self.chars.get(self.pos).map_or(self.len, |(i, _)| *i)
    }

    /// Whether the input continues with `literal`.
    fn ahead(&self, literal: &str) -> bool {
        literal.chars().enumerate().all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn source(&self, start: usize, end: usize) -> String {
        #[cfg(test)]
        crate::test_support::steps(end.saturating_sub(start));
        self.text.get(start..end).unwrap_or_default().to_owned()
    }

    fn span(&self, start: usize, end: usize) -> (usize, usize) {
        self.span_override.unwrap_or((start, end))
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

    /// Checks a character copied into a word: control characters and look-alikes are not vouched for.
    fn push_plain(&mut self, word: &mut Word, c: char) {
        if c.is_control() && !matches!(c, '\t' | '\n') {
            self.distrust(&format!("the command contains the control character U+{:04X}", c as u32));
        } else if c.is_whitespace() && !c.is_ascii() {
            self.distrust(&format!("the command contains the Unicode space U+{:04X}", c as u32));
        }
        word.text.push(c);
    }

    /// Appends an expansion's source text to the word and records it.
    fn record(&self, word: &mut Word, kind: &str, start: usize) {
        let text = self.source(start, self.offset());
        word.text.push_str(&text);
        word.expansions.push((kind.to_owned(), text));
    }

    /// Reads the body of a substitution opened at byte `start` (its opener consumed) up to
    /// `close`, and records it in `word` as followed. One an outer shell already followed is
    /// skipped whole: this shell only sees its output.
    fn substitution(&mut self, word: &mut Word, kind: &str, start: usize, context: Context, close: char) {
        if let Some(&(_, end)) = self.followed_outside.iter().find(|(from, _)| *from == start) {
            self.pos = self.chars.partition_point(|(at, _)| *at < end);
        } else {
            self.nested(context, close);
        }
        let from = word.text.len();
        self.record(word, kind, start);
        word.followed.push((from, word.text.len()));
    }

    // ----- blanks, separators -----

    /// Spaces, tabs, line continuations and comments; stops before a newline.
    /// Whether an rc line continuation (`\` and a newline) starts `ahead` characters on.
    fn rc_continuation_at(&self, ahead: usize) -> bool {
        self.peek_at(ahead) == Some('\\') && self.peek_at(ahead + 1) == Some('\n')
    }

    /// The first character from `ahead` on that is neither a blank nor an rc line continuation.
    fn rc_after_blanks(&self, mut ahead: usize) -> Option<char> {
        loop {
            match self.peek_at(ahead)? {
                ' ' | '\t' | '\r' => ahead += 1,
                '\\' if self.rc_continuation_at(ahead) => ahead += 2,
                other => return Some(other),
            }
        }
    }

    fn skip_blanks(&mut self) {
        loop {
            let Some(c) = self.peek() else { return };
            let next = self.peek_at(1);
            match (self.shell, c) {
                (_, ' ' | '\t' | '\r') => self.pos += 1,
                (Shell::Elvish | Shell::Cmd, '^') | (Shell::Rc, '\\') | (Shell::PowerShell, '`') if next == Some('\n') => {
                    self.pos += 2;
                }
                (Shell::Elvish | Shell::Cmd, '^') | (Shell::PowerShell, '`') if next == Some('\r') && self.peek_at(2) == Some('\n') => {
                    self.pos += 3;
                }
                (Shell::PowerShell, '<') if next == Some('#') => {
                    self.distrust("PowerShell block comments are not analysed");
                    self.pos += 2;
                    while self.peek().is_some() && !self.ahead("#>") {
                        self.pos += 1;
                    }
                    self.pos += 2;
                    self.pos = self.pos.min(self.chars.len());
                }
                (Shell::Nushell | Shell::Elvish | Shell::Rc | Shell::PowerShell, '#') => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                (Shell::PowerShell, c) if c.is_whitespace() && !c.is_ascii() => {
                    self.distrust(&format!("PowerShell reads the Unicode space U+{:04X} as a blank", c as u32));
                    self.pos += 1;
                }
                _ => return,
            }
        }
    }

    /// Whether a Nushell token equal to `literal` starts here.
    fn nu_token_ahead(&self, literal: &str) -> bool {
        let n = literal.chars().count();
        self.ahead(literal) && self.peek_at(n).is_none_or(|c| is_blank(c) || matches!(c, '\n' | ';' | '|' | ')' | '}' | ']'))
    }

    /// The separator starting here, if any. `command_started` tells PowerShell's trailing
    /// `&` (run in the background) from its call operator.
    fn separator_ahead(&self, command_started: bool) -> Option<SeparatorAhead> {
        let c = self.peek()?;
        let next = self.peek_at(1);
        match self.shell {
            Shell::Nushell => {
                if c == ';' {
                    return Some((1, Sep::Sequence, None));
                }
                if let Some(pipe) = NU_PIPES.iter().find(|p| self.nu_token_ahead(p)) {
                    return Some((pipe.chars().count(), Sep::Pipe, None));
                }
                if let Some(pipe) = ["o>|", "out>|"].iter().find(|p| self.nu_token_ahead(p)) {
                    return Some((pipe.chars().count(), Sep::Pipe, Some("Nushell rejects 'o>|'")));
                }
                if self.nu_token_ahead("&&") {
                    return Some((2, Sep::AndOr, Some("Nushell has no '&&' (it uses ';' and 'and')")));
                }
                match (c, next) {
                    ('|', Some('|')) => Some((2, Sep::AndOr, Some("Nushell has no '||' operator"))),
                    ('|', _) => Some((1, Sep::Pipe, None)),
                    _ => None,
                }
            }
            Shell::Elvish => match (c, next) {
                (';', _) => Some((1, Sep::Sequence, None)),
                ('|', Some('|')) => Some((2, Sep::AndOr, Some("Elvish has no '||' operator"))),
                ('|', _) => Some((1, Sep::Pipe, None)),
                ('&', Some('&')) => Some((2, Sep::AndOr, Some("Elvish has no '&&' operator"))),
                _ => None,
            },
            Shell::Rc => match (c, next) {
                (';', _) => Some((1, Sep::Sequence, None)),
                ('&', Some('&')) | ('|', Some('|')) => Some((2, Sep::AndOr, None)),
                ('&', _) => Some((1, Sep::Sequence, None)),
                ('|', Some('[')) => {
                    // `|[2]` or `|[2=1]`: a pipe of other descriptors.
                    let mut n = 2;
                    while self.peek_at(n).is_some_and(|c| c.is_ascii_digit() || c == '=') {
                        n += 1;
                    }
                    if self.peek_at(n) == Some(']') {
                        Some((n + 1, Sep::Pipe, None))
                    } else {
                        Some((1, Sep::Pipe, Some("an rc pipe's descriptor list is malformed")))
                    }
                }
                ('|', _) => Some((1, Sep::Pipe, None)),
                _ => None,
            },
            Shell::PowerShell => match (c, next) {
                (';', _) => Some((1, Sep::Sequence, None)),
                ('&', Some('&')) | ('|', Some('|')) => Some((2, Sep::AndOr, None)),
                ('|', _) => Some((1, Sep::Pipe, None)),
                ('&', next) if command_started => {
                    let glued = next.is_some_and(|n| !is_blank(n) && !matches!(n, '\n' | ';' | '|' | ')' | '}'));
                    Some((1, Sep::Sequence, glued.then_some("PowerShell does not allow '&' inside a command")))
                }
                _ => None,
            },
            Shell::Cmd => match (c, next) {
                ('&', Some('&')) | ('|', Some('|')) => Some((2, Sep::AndOr, None)),
                ('&', _) => Some((1, Sep::Sequence, None)),
                ('|', _) => Some((1, Sep::Pipe, None)),
                _ => None,
            },
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
            let Some(c) = self.peek() else {
                if let Some(close) = close {
                    self.distrust(&format!("a '{}' is never closed", opener_of(close)));
                }
                if state == State::AfterOperator {
                    self.distrust(MISSING_COMMAND);
                }
                return;
            };
            if Some(c) == close {
                self.bump();
                if state == State::AfterOperator {
                    self.distrust(MISSING_COMMAND);
                }
                return;
            }
            if c == '\n' {
                self.bump();
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
                self.pos += n;
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
                self.bump();
                continue;
            }
            let before = self.pos;
            self.parse_command(close);
            if self.pos == before {
                self.distrust(&format!("'{c}' cannot start a {} command", self.shell_name()));
                self.bump();
            }
            state = State::AfterCommand;
        }
    }

    /// Parses a nested body (a substitution, block or group) up to `close`, depth-capped.
    fn nested(&mut self, context: Context, close: char) {
        if self.depth >= MAX_DEPTH {
            self.distrust("commands are nested too deeply to follow");
            let start = self.offset();
            let open = opener_of(close);
            let mut level = 1usize;
            while let Some(c) = self.bump() {
                if c == open {
                    level += 1;
                } else if c == close {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                }
            }
            let raw = self.source(start, self.offset());
            let raw = raw.strip_suffix(close).unwrap_or(&raw).trim().to_owned();
            if !raw.is_empty() {
                let span = self.span(start, self.offset());
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
        let start = self.offset();
        self.bump();
        self.skip_blanks();
        while self.peek() == Some('\n') {
            self.bump();
            self.skip_blanks();
        }
        if self.peek() == Some('|') && matches!(self.shell, Shell::Nushell | Shell::Elvish) {
            self.bump();
            while self.peek().is_some_and(|c| c != '|' && c != '}') {
                self.bump();
            }
            if self.peek() == Some('|') {
                self.bump();
            }
        }
        self.nested(context, '}');
        word.text.push_str(&self.source(start, self.offset()));
    }

    fn parse_command(&mut self, close: Option<char>) {
        let owner = self.items.len();
        let start = self.offset();
        let mut last_end = start;
        let mut cmd = Pending::default();
        loop {
            self.skip_blanks();
            let Some(c) = self.peek() else { break };
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
                        self.bump();
                        cmd.call_operator = true;
                        continue;
                    }
                    (Shell::Cmd, '@') => {
                        self.bump();
                        continue;
                    }
                    (Shell::Rc, '!' | '@')
                        if self.peek_at(1).is_none_or(|n| is_blank(n) || matches!(n, '{' | '}' | ')' | ';' | '&' | '|' | '#' | '\n'))
                            || self.rc_continuation_at(1) =>
                    {
                        // A prefix operator (a line continuation after it is a blank: `!\` and a
                        // newline, then `rm x`, runs `rm x`); with no command after it (the end, a
                        // separator, a comment or the group's closer: `{!}`), it is a syntax rc is
                        // not modelled on, in context or alone.
                        if self.rc_after_blanks(1).is_none_or(|n| matches!(n, '}' | ')' | ';' | '&' | '|' | '#' | '\n')) {
                            self.distrust("an rc '!' or '@' with no command after it is not analysed");
                        }
                        self.bump();
                        continue;
                    }
                    (Shell::Rc, '{') => {
                        self.bump();
                        self.nested(Context::Group, '}');
                        last_end = self.offset();
                        continue;
                    }
                    _ => {}
                }
            }
            if self.shell == Shell::Cmd && c == '(' {
                self.distrust("cmd's parenthesised blocks are not analysed");
                self.bump();
                self.nested(Context::Group, ')');
                last_end = self.offset();
                continue;
            }
            if self.try_redirect(&mut cmd, close) {
                last_end = self.offset();
                continue;
            }
            let before = self.pos;
            let word = self.read_word(close);
            if self.pos == before {
                if started {
                    self.distrust(&format!("'{c}' cannot appear inside a {} command", self.shell_name()));
                }
                break;
            }
            last_end = word.end;
            if self.shell == Shell::Elvish && matches!(self.peek(), Some('<' | '>')) && !word.text.chars().all(|ch| ch.is_ascii_digit()) {
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
                    if self.peek() == Some('(') {
                        // The condition is a command list; the body follows as a command of its own.
                        self.bump();
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
                let raw = self.source(word.start, word.end);
                let Some((name, _)) = raw.split_once('=') else {
                    break;
                };
                let mut chars = name.chars();
                if !(chars.next().is_some_and(is_name_start) && chars.all(is_name_char)) {
                    break;
                }
                hazards.push(Hazard::new(HazardKind::EnvAssignment, name, "a leading name=value assignment changes how the command runs"));
                assignments += 1;
            }
        }
        if let Some(head) = words.get_mut(assignments) {
            let raw = self.text.get(head.start..head.end).unwrap_or_default();
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
            let raw = self.source(head.start, head.end);
            self.check_head(head, &raw, call_operator, &args, &mut hazards);
        }
        // What the command runs, read as every parser reads it (`super::runs`).
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let expanded: Vec<bool> = words.iter().map(|w| !w.expansions.is_empty()).collect();
        let invocation = invocation(&texts, assignments, &expanded, self.shell);
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
        let unreadable = invocation.unreadable.clone().or_else(|| {
            invocation.reads_stdin.map(|_| "the shell reads its commands from standard input, which the text does not show".to_owned())
        });
        if let Some(why) = unreadable {
            let subject = invocation.program.clone().or_else(|| name.clone()).unwrap_or_default();
            hazards.push(Hazard::new(HazardKind::UnreadableProgram, &subject, &why));
        }
        let text = words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
        let (s, e) = self.span(start, end);
        if !text.is_empty() || name.is_some() {
            let item = SubCommand {
                text,
                kind: SubCommandKind::Command,
                context: self.context,
                name,
                program: invocation.program,
                runs_as: invocation.forms,
                args,
                start: s,
                end: e,
                hazards,
            };
            let at = owner.min(self.items.len());
            self.items.insert(at, item);
            self.items.extend(redirects);
        } else {
            let mut redirects = redirects;
            if let Some(first) = redirects.first_mut() {
                first.hazards.extend(hazards);
            }
            self.items.extend(redirects);
        }
        for (script, followed, shell) in scripts {
            self.run_script(&script, shell, (s, e), followed);
        }
    }

    /// Per-shell checks of the command word: keywords, expression statements, built-ins.
    fn check_head(&mut self, head: &Word, raw: &str, call_operator: bool, args: &[String], hazards: &mut Vec<Hazard>) {
        let lower = head.text.to_ascii_lowercase();
        let first = raw.chars().next();
        match self.shell {
            Shell::Nushell => {
                if !head.quoted && NU_KEYWORDS.contains(&head.text.as_str()) {
                    self.distrust(&format!("the Nushell keyword '{}' is not analysed", head.text));
                }
                if matches!(first, Some('$' | '(' | '[' | '{' | '\'' | '"' | '`' | '0'..='9')) {
                    self.distrust("Nushell evaluates this statement as an expression, which is not analysed");
                }
                match head.text.as_str() {
                    "run-external" => {
                        hazards.push(Hazard::new(HazardKind::ExecutingFlag, "run-external", "run-external runs its arguments as a command"))
                    }
                    "load-env" | "with-env" => {
                        hazards.push(Hazard::new(HazardKind::EnvAssignment, &head.text, "sets environment variables for what runs next"))
                    }
                    "save" => {
                        let target = args.iter().find(|a| !a.starts_with('-')).cloned().unwrap_or_default();
                        hazards.push(Hazard::new(HazardKind::OutputRedirect, &target, "save writes its input to a file"));
                    }
                    _ => {}
                }
            }
            Shell::Elvish => {
                if !head.quoted && ELVISH_KEYWORDS.contains(&head.text.as_str()) {
                    self.distrust(&format!("the Elvish keyword '{}' is not analysed", head.text));
                }
                if matches!(head.text.as_str(), "set-env" | "unset-env") {
                    hazards.push(Hazard::new(HazardKind::EnvAssignment, &head.text, "changes the environment of what runs next"));
                }
            }
            Shell::PowerShell => {
                if !head.quoted && PS_KEYWORDS.contains(&lower.as_str()) {
                    self.distrust(&format!("the PowerShell keyword '{}' is not analysed", head.text));
                }
                // After the call operator `&` any of these names the command to call.
                let expression = !call_operator
                    && match first {
                        Some('$' | '(' | '@' | '[' | '0'..='9') => true,
                        Some(c) => is_single_quote(c) || is_double_quote(c) || (c == '-' && raw.len() > 1 && !raw.starts_with("--")),
                        None => false,
                    };
                if expression {
                    self.distrust("PowerShell evaluates this statement as an expression, which is not analysed");
                }
                if PS_EXECUTING.contains(&lower.as_str()) {
                    hazards.push(Hazard::new(
                        HazardKind::ExecutingFlag,
                        &head.text,
                        "runs a command or code given as text, or changes what a name runs",
                    ));
                }
                if matches!(lower.as_str(), "set-item" | "si" | "set-content" | "sc" | "new-item" | "ni")
                    && args.iter().any(|a| a.to_ascii_lowercase().starts_with("env:"))
                {
                    hazards.push(Hazard::new(HazardKind::EnvAssignment, &head.text, "sets an environment variable"));
                }
            }
            Shell::Cmd => self.check_cmd_head(&lower, args, hazards),
            Shell::Rc | Shell::Posix | Shell::Unknown => {}
        }
    }

    fn check_cmd_head(&mut self, lower: &str, args: &[String], hazards: &mut Vec<Hazard>) {
        if lower.starts_with([';', ',', '=']) {
            self.distrust("cmd skips leading ';', ',' and '=' before the command word");
        }
        if lower.starts_with(':') {
            self.distrust("cmd labels and '::' comments are not analysed");
        }
        if matches!(lower, "if" | "for" | "goto" | "rem") {
            self.distrust(&format!("the cmd command '{lower}' is not analysed"));
        }
        if let Some(builtin) = CMD_BUILTINS.iter().find(|b| {
            lower.strip_prefix(**b).and_then(|rest| rest.chars().next()).is_some_and(|c| !c.is_ascii_alphanumeric() && c != '_' && c != '-')
        }) {
            self.distrust(&format!("cmd reads '{lower}' as its built-in '{builtin}' with more arguments"));
        }
        if lower.chars().skip(1).any(|c| matches!(c, '/' | ',' | ';' | '=' | '+' | '[' | ']')) {
            self.distrust(&format!("cmd splits the command word '{lower}' in ways that are not analysed"));
        }
        match lower {
            "set" if args.iter().any(|a| a.contains('=') || a.eq_ignore_ascii_case("/p") || a.eq_ignore_ascii_case("/a")) => {
                let name = args.iter().find(|a| a.contains('=')).and_then(|a| a.split('=').next()).unwrap_or("set");
                hazards.push(Hazard::new(HazardKind::EnvAssignment, name, "set changes a variable for the commands that follow"));
            }
            "call" | "start" => hazards.push(Hazard::new(HazardKind::ExecutingFlag, lower, "runs its arguments as a command")),
            _ => {}
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
        let inner = analyze_nested(target, script, self.depth + 1, Context::ShellPayload, Some(span), &mut self.budget, followed);
        self.items.extend(inner.items);
        if let Some(reason) = inner.cannot_vouch {
            self.distrust(&reason);
        }
    }

    // ----- redirections -----

    /// Reads a redirection starting here, if there is one.
    fn try_redirect(&mut self, cmd: &mut Pending, close: Option<char>) -> bool {
        let start = self.offset();
        let Some((op, writes, target_follows)) = self.redirect_operator() else {
            return false;
        };
        if !target_follows {
            return true;
        }
        self.skip_blanks();
        let before = self.pos;
        let at_end = self.peek().is_none_or(|c| c == '\n' || self.is_closer(c)) || self.separator_ahead(true).is_some();
        let target = if at_end { None } else { Some(self.read_word(close)) };
        let Some(target) = target.filter(|_| self.pos != before) else {
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
        let mut item_hazards = Vec::new();
        if writes {
            let hazard = Hazard::new(HazardKind::OutputRedirect, &target.text, "output is redirected to a file");
            cmd.hazards.push(hazard.clone());
            item_hazards.push(hazard);
        }
        let (s, e) = self.span(start, target.end);
        cmd.redirects.push(SubCommand {
            text: format!("{op} {}", target.text),
            kind: SubCommandKind::Redirect,
            context: self.context,
            name: None,
            program: None,
            runs_as: Vec::new(),
            args: Vec::new(),
            start: s,
            end: e,
            hazards: item_hazards,
        });
        true
    }

    /// The redirection operator here, consumed: its text, whether it writes, and whether a
    /// target word follows (descriptor duplications have none).
    fn redirect_operator(&mut self) -> Option<(String, bool, bool)> {
        match self.shell {
            Shell::Nushell => {
                if let Some((token, _)) = NU_REDIRECTS.iter().find(|(t, _)| self.nu_token_ahead(t)) {
                    self.pos += token.chars().count();
                    return Some(((*token).to_owned(), true, true));
                }
                for (token, target) in [("2>&1", false), ("2>", true)] {
                    if self.nu_token_ahead(token) {
                        self.distrust(&format!("Nushell rejects '{token}'"));
                        self.pos += token.chars().count();
                        return Some((token.to_owned(), true, target));
                    }
                }
                None
            }
            Shell::Elvish | Shell::Cmd | Shell::PowerShell => self.fd_redirect(),
            Shell::Rc => self.rc_redirect(),
            Shell::Posix | Shell::Unknown => None,
        }
    }

    /// `[fd]op[&fd]` redirections of Elvish, PowerShell and cmd.
    fn fd_redirect(&mut self) -> Option<(String, bool, bool)> {
        let mut n = 0;
        let mut fd = String::new();
        if self.shell == Shell::PowerShell && self.peek() == Some('*') {
            fd.push('*');
            n = 1;
        } else {
            while let Some(c) = self.peek_at(n).filter(char::is_ascii_digit) {
                fd.push(c);
                n += 1;
            }
        }
        let op = match (self.peek_at(n), self.peek_at(n + 1)) {
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
        self.pos += n + op.len();
        let writes = op != "<";
        if self.shell == Shell::PowerShell && op == "<" {
            self.distrust("PowerShell reserves '<' for future use");
        }
        if self.peek() == Some('&') {
            // `2>&1`, `>&2`, `<&-`: a descriptor duplicated or closed, no file.
            let mut dup = String::from("&");
            self.bump();
            while let Some(c) = self.peek().filter(|c| c.is_ascii_digit() || *c == '-') {
                dup.push(c);
                self.bump();
            }
            if dup.len() == 1 {
                self.distrust(&format!("the redirection '{fd}{op}&' is malformed"));
            }
            return Some((format!("{fd}{op}{dup}"), false, false));
        }
        Some((format!("{fd}{op}"), writes, true))
    }

    /// rc's `>`, `>>`, `<`, `<<`, with `[2]`, `[2=1]` or `[2=]` descriptors.
    fn rc_redirect(&mut self) -> Option<(String, bool, bool)> {
        let c = self.peek()?;
        if !matches!(c, '<' | '>') || self.peek_at(1) == Some('{') {
            return None;
        }
        let mut op = String::from(c);
        self.bump();
        if self.peek() == Some(c) {
            op.push(c);
            self.bump();
        }
        if op == "<<" {
            self.distrust("rc here-documents are not analysed");
        }
        let mut duplicate = false;
        if self.peek() == Some('[') {
            let mut descriptor = String::from("[");
            self.bump();
            while let Some(d) = self.peek().filter(|d| d.is_ascii_digit() || *d == '=') {
                descriptor.push(d);
                self.bump();
            }
            if self.peek() == Some(']') {
                self.bump();
                descriptor.push(']');
            } else {
                self.distrust("an rc redirection's descriptor list is malformed");
            }
            duplicate = descriptor.contains('=');
            op.push_str(&descriptor);
        }
        if duplicate {
            return Some((op, false, false));
        }
        let writes = c == '>';
        Some((op, writes, true))
    }

    // ----- words -----

    fn read_word(&mut self, close: Option<char>) -> Word {
        match self.shell {
            Shell::Nushell => self.nu_word(),
            Shell::Elvish => self.elvish_word(),
            Shell::Rc => self.rc_word(),
            Shell::PowerShell => self.ps_word(),
            Shell::Cmd => self.cmd_word(close),
            Shell::Posix | Shell::Unknown => Word::at(self.offset()),
        }
    }

    /// Reads a quoted string whose only escape is a doubled quote (`'it''s'`), after the opening quote.
    fn doubled_quote_string(&mut self, word: &mut Word, is_quote: fn(char) -> bool) {
        word.quoted = true;
        loop {
            match self.bump() {
                None => {
                    self.distrust("a single quote is never closed");
                    return;
                }
                Some(c) if is_quote(c) => {
                    if self.peek().is_some_and(is_quote) {
                        self.bump();
                        word.text.push('\'');
                    } else {
                        return;
                    }
                }
                Some(c) => self.push_plain(word, c),
            }
        }
    }

    /// Reads up to the closing `quote`, without escapes.
    fn plain_string(&mut self, word: &mut Word, quote: char) {
        word.quoted = true;
        loop {
            match self.bump() {
                None => {
                    self.distrust(&format!("a {quote} quote is never closed"));
                    return;
                }
                Some(c) if c == quote => return,
                Some(c) => self.push_plain(word, c),
            }
        }
    }

    /// Decodes a backslash escape of Nushell or Elvish double-quoted strings (after the backslash).
    fn backslash_escape(&mut self, word: &mut Word) {
        let decoded = match self.bump() {
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
            Some('u') if self.peek() == Some('{') => {
                self.bump();
                let mut value: u32 = 0;
                let mut ok = true;
                while let Some(c) = self.peek().filter(|c| *c != '}' && *c != '"') {
                    self.bump();
                    match c.to_digit(16).and_then(|d| value.checked_mul(16)?.checked_add(d)) {
                        Some(v) => value = v,
                        None => ok = false,
                    }
                }
                ok &= self.bump() == Some('}');
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

    // Nushell

    fn nu_word(&mut self) -> Word {
        let start = self.offset();
        let mut word = Word::at(start);
        if self.peek() == Some('r') && self.peek_at(1) == Some('#') {
            self.nu_raw_string(&mut word);
        }
        while let Some(c) = self.peek() {
            if is_blank(c) || matches!(c, '\n' | '|' | ';' | ')' | '}' | ']') {
                break;
            }
            match c {
                '\'' => {
                    self.bump();
                    self.plain_string(&mut word, '\'');
                }
                '`' => {
                    self.bump();
                    self.plain_string(&mut word, '`');
                }
                '"' => {
                    self.bump();
                    word.quoted = true;
                    self.nu_double(&mut word);
                }
                '$' => self.nu_dollar(&mut word),
                '(' => {
                    let at = self.offset();
                    self.bump();
                    self.substitution(&mut word, "subexpression", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("Nushell blocks, closures and records are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                '[' => {
                    self.distrust("Nushell lists are not analysed");
                    let at = self.offset();
                    self.bump();
                    self.nested(Context::Group, ']');
                    word.text.push_str(&self.source(at, self.offset()));
                }
                '#' => {
                    self.distrust("Nushell versions differ on a '#' inside a word");
                    self.bump();
                    word.text.push('#');
                }
                _ => {
                    self.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.offset();
        word
    }

    /// `r#'…'#` with any number of `#`.
    fn nu_raw_string(&mut self, word: &mut Word) {
        let mut hashes = 0;
        while self.peek_at(1 + hashes) == Some('#') {
            hashes += 1;
        }
        if self.peek_at(1 + hashes) != Some('\'') {
            return;
        }
        self.pos += 2 + hashes;
        word.quoted = true;
        let closing: String = std::iter::once('\'').chain(std::iter::repeat_n('#', hashes)).collect();
        loop {
            if self.peek().is_none() {
                self.distrust("a raw string is never closed");
                return;
            }
            if self.ahead(&closing) {
                self.pos += hashes + 1;
                return;
            }
            if let Some(c) = self.bump() {
                self.push_plain(word, c);
            }
        }
    }

    fn nu_double(&mut self, word: &mut Word) {
        loop {
            match self.bump() {
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

    fn nu_dollar(&mut self, word: &mut Word) {
        let start = self.offset();
        match self.peek_at(1) {
            Some(quote @ ('"' | '\'')) => {
                // `$"…(expr)…"`: interpolation runs the code in parentheses.
                self.pos += 2;
                word.quoted = true;
                let mut runs_code = false;
                let mut literal = Word::at(start);
                loop {
                    match self.bump() {
                        None => {
                            self.distrust("an interpolated string is never closed");
                            break;
                        }
                        Some(c) if c == quote => break,
                        Some('\\') if quote == '"' => self.backslash_escape(&mut literal),
                        Some('(') => {
                            runs_code = true;
                            self.nested(Context::CommandSubstitution, ')');
                        }
                        Some(c) => self.push_plain(&mut literal, c),
                    }
                }
                if runs_code {
                    self.record(word, "string interpolation", start);
                } else {
                    // Without `(…)` the string is only text.
                    word.text.push_str(&literal.text);
                }
            }
            Some('(') => {
                self.pos += 2;
                self.substitution(word, "subexpression", start, Context::CommandSubstitution, ')');
            }
            Some(c) if is_name_start(c) || c.is_ascii_digit() => {
                self.bump();
                while self.peek().is_some_and(|c| is_name_char(c) || matches!(c, '-' | '.' | '?' | '!')) {
                    self.bump();
                }
                self.record(word, "variable", start);
            }
            _ => {
                self.bump();
                word.text.push('$');
            }
        }
    }

    // Elvish

    fn elvish_word(&mut self) -> Word {
        let start = self.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.peek() {
            let at_start = self.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '|' | ')' | '}' | ']' | '<' | '>' | '#') {
                break;
            }
            if c == '&' && !at_start {
                break;
            }
            if c == '^' && matches!(self.peek_at(1), Some('\n' | '\r')) {
                break;
            }
            match c {
                '\'' => {
                    self.bump();
                    self.doubled_quote_string(&mut word, |q| q == '\'');
                }
                '"' => {
                    self.bump();
                    word.quoted = true;
                    loop {
                        match self.bump() {
                            None => {
                                self.distrust("a double quote is never closed");
                                break;
                            }
                            Some('"') => break,
                            Some('\\') => self.backslash_escape(&mut word),
                            Some(c) => self.push_plain(&mut word, c),
                        }
                    }
                }
                '$' => {
                    let at = self.offset();
                    self.bump();
                    if self.peek() == Some('@') {
                        self.bump();
                    }
                    let name_start = self.pos;
                    while self.peek().is_some_and(|c| is_name_char(c) || matches!(c, ':' | '-' | '~')) {
                        self.bump();
                    }
                    if self.pos == name_start {
                        self.distrust("a '$' has no variable name");
                    }
                    self.record(&mut word, "variable", at);
                }
                '(' => {
                    let at = self.offset();
                    self.bump();
                    self.substitution(&mut word, "output capture", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("Elvish lambdas and braced lists are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                '[' => {
                    self.distrust("Elvish lists, maps and indexing are not analysed");
                    let at = self.offset();
                    self.bump();
                    self.nested(Context::Group, ']');
                    word.text.push_str(&self.source(at, self.offset()));
                }
                '^' => {
                    self.distrust("Elvish rejects a '^' that does not end a line");
                    self.bump();
                    word.text.push('^');
                }
                _ => {
                    self.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.offset();
        word
    }

    // rc

    fn rc_word(&mut self) -> Word {
        let start = self.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.peek() {
            let at_start = self.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '&' | '|' | ')' | '{' | '}' | '#') {
                break;
            }
            if c == '\\' && self.peek_at(1) == Some('\n') {
                break;
            }
            if matches!(c, '<' | '>') {
                if at_start && self.peek_at(1) == Some('{') {
                    // `<{…}` / `>{…}`: process substitution.
                    self.pos += 2;
                    self.substitution(&mut word, "process substitution", start, Context::ProcessSubstitution, '}');
                    continue;
                }
                break;
            }
            match c {
                '\'' => {
                    self.bump();
                    self.doubled_quote_string(&mut word, |q| q == '\'');
                }
                '`' => self.rc_backquote(&mut word),
                '$' => {
                    let at = self.offset();
                    self.bump();
                    if matches!(self.peek(), Some('#' | '"')) {
                        self.bump();
                    }
                    while self.peek() == Some('$') {
                        self.bump();
                    }
                    let name_start = self.pos;
                    while self.peek().is_some_and(|c| is_name_char(c) || c == '*') {
                        self.bump();
                    }
                    if self.pos == name_start {
                        self.distrust("a '$' has no variable name");
                    }
                    if self.peek() == Some('(') {
                        // `$x(1 2)`: a subscript list.
                        let mut subscript = Word::at(self.offset());
                        self.rc_list(&mut subscript);
                        word.expansions.append(&mut subscript.expansions);
                    }
                    self.record(&mut word, "variable", at);
                }
                '(' if !word.quoted && RC_CONDITIONS.contains(&word.text.as_str()) => break,
                '(' => {
                    self.distrust("rc lists are not analysed");
                    self.rc_list(&mut word);
                }
                '^' => {
                    // A free caret joins its neighbours; where a word ends (a blank, an operator, a
                    // closer, a redirection) it has nothing to join.
                    self.bump();
                    let word_ends = |n: char| is_blank(n) || matches!(n, '\n' | ';' | '&' | '|' | '#' | ')' | '{' | '}' | '<' | '>');
                    if at_start || self.peek().is_none_or(word_ends) || (self.peek() == Some('\\') && self.peek_at(1) == Some('\n')) {
                        self.distrust("an rc '^' joins separate words, which is not analysed");
                    }
                }
                _ => {
                    self.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.offset();
        word
    }

    /// `` `{cmd} ``, `` ``(ifs){cmd} ``, or Byron rc's `` `cmd ``.
    fn rc_backquote(&mut self, word: &mut Word) {
        let start = self.offset();
        if self.peek_at(1) == Some('{') {
            self.pos += 2;
            self.substitution(word, "command substitution", start, Context::CommandSubstitution, '}');
            return;
        }
        self.bump();
        if self.peek() == Some('`') {
            self.bump();
            self.distrust("rc's ``(separators){…} substitution is not analysed");
            if self.peek() == Some('(') {
                let mut separators = Word::at(self.offset());
                self.rc_list(&mut separators);
            }
        }
        if self.peek() == Some('{') {
            self.bump();
            self.nested(Context::CommandSubstitution, '}');
        } else {
            self.distrust("rc's `command substitution without braces is not analysed");
            if self.depth < MAX_DEPTH {
                self.depth += 1;
                let at = self.offset();
                let inner = self.rc_word();
                self.depth -= 1;
                if !inner.text.is_empty() {
                    let span = self.span(at, inner.end);
                    self.items.push(SubCommand::from_blank_separated(&inner.text, Context::CommandSubstitution, span, self.shell));
                }
            }
        }
        self.record(word, "command substitution", start);
    }

    /// `(a b c)`: the words of an rc list, appended to `word` joined by spaces.
    fn rc_list(&mut self, word: &mut Word) {
        self.bump();
        if self.depth >= MAX_DEPTH {
            self.distrust("commands are nested too deeply to follow");
            self.nested(Context::Group, ')');
            return;
        }
        self.depth += 1;
        let mut first = true;
        loop {
            self.skip_blanks();
            match self.peek() {
                None => {
                    self.distrust("a '(' is never closed");
                    break;
                }
                Some(')') => {
                    self.bump();
                    break;
                }
                Some('\n') => {
                    self.bump();
                }
                Some(c) => {
                    let before = self.pos;
                    let mut inner = self.rc_word();
                    if self.pos == before {
                        self.distrust(&format!("'{c}' cannot appear in an rc list"));
                        self.bump();
                        continue;
                    }
                    if !first {
                        word.text.push(' ');
                    }
                    first = false;
                    word.text.push_str(&inner.text);
                    word.quoted |= inner.quoted;
                    word.expansions.append(&mut inner.expansions);
                }
            }
        }
        self.depth -= 1;
    }

    // PowerShell

    fn ps_word(&mut self) -> Word {
        let start = self.offset();
        let mut word = Word::at(start);
        if self.ahead("--%") {
            // Stop-parsing: the rest of the line goes to the program as it is.
            self.distrust("PowerShell's stop-parsing token '--%' is not analysed");
            while self.peek().is_some_and(|c| c != '\n' && c != '|') {
                if let Some(c) = self.bump() {
                    self.push_plain(&mut word, c);
                }
            }
            word.end = self.offset();
            return word;
        }
        while let Some(c) = self.peek() {
            let at_start = self.offset() == start;
            if is_blank(c) || matches!(c, '\n' | ';' | '|' | '&' | ')' | '}' | '<' | '>') {
                break;
            }
            if c.is_whitespace() && !c.is_ascii() {
                break;
            }
            if c == '`' && matches!(self.peek_at(1), Some('\n' | '\r')) {
                break;
            }
            match c {
                c if is_single_quote(c) => {
                    if c != '\'' {
                        self.distrust("PowerShell reads a typographic quote as a quote");
                    }
                    self.bump();
                    self.doubled_quote_string(&mut word, is_single_quote);
                }
                c if is_double_quote(c) => {
                    if c != '"' {
                        self.distrust("PowerShell reads a typographic quote as a quote");
                    }
                    self.bump();
                    word.quoted = true;
                    self.ps_double(&mut word);
                }
                '`' => {
                    self.bump();
                    self.ps_backtick(&mut word);
                }
                '$' => self.ps_dollar(&mut word, false),
                '@' if at_start => self.ps_at(&mut word),
                '(' => {
                    if !at_start {
                        self.distrust("a '(' inside a PowerShell word is not analysed");
                    }
                    let at = self.offset();
                    self.bump();
                    self.substitution(&mut word, "subexpression", at, Context::CommandSubstitution, ')');
                }
                '{' => {
                    self.distrust("PowerShell script blocks are not analysed");
                    self.block_body(&mut word, Context::Group);
                }
                c if is_typographic_dash(c) => {
                    self.distrust("PowerShell reads a typographic dash as '-'");
                    self.bump();
                    word.text.push('-');
                }
                _ => {
                    self.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.offset();
        word
    }

    /// A backtick escape (after the backtick), outside or inside double quotes.
    fn ps_backtick(&mut self, word: &mut Word) {
        let decoded = match self.bump() {
            None => return,
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('0') => '\0',
            Some('a') => '\u{7}',
            Some('b') => '\u{8}',
            Some('e') => '\u{1b}',
            Some('f') => '\u{c}',
            Some('v') => '\u{b}',
            Some(c) => c,
        };
        if decoded.is_control() && !matches!(decoded, '\t' | '\n') {
            self.distrust("a backtick escape produces a control character");
        }
        word.text.push(decoded);
    }

    fn ps_double(&mut self, word: &mut Word) {
        loop {
            match self.peek() {
                None => {
                    self.distrust("a double quote is never closed");
                    return;
                }
                Some(c) if is_double_quote(c) => {
                    self.bump();
                    if self.peek().is_some_and(is_double_quote) {
                        self.bump();
                        word.text.push('"');
                    } else {
                        return;
                    }
                }
                Some('`') => {
                    self.bump();
                    self.ps_backtick(word);
                }
                Some('$') => self.ps_dollar(word, true),
                Some(c) => {
                    self.bump();
                    self.push_plain(word, c);
                }
            }
        }
    }

    fn ps_dollar(&mut self, word: &mut Word, in_quotes: bool) {
        let start = self.offset();
        match self.peek_at(1) {
            Some('(') => {
                self.pos += 2;
                self.substitution(word, "subexpression", start, Context::CommandSubstitution, ')');
            }
            Some('{') => {
                self.pos += 2;
                while self.peek().is_some_and(|c| c != '}') {
                    self.bump();
                }
                if self.bump().is_none() {
                    self.distrust("a '${' is never closed");
                }
                self.record(word, "variable", start);
            }
            Some(c) if is_name_char(c) || matches!(c, '?' | '^' | '$') => {
                self.pos += 2;
                if is_name_char(c) {
                    while self.peek().is_some_and(|c| is_name_char(c) || c == ':' || c == '?') {
                        self.bump();
                    }
                }
                if !in_quotes && matches!(self.peek(), Some('.' | '[')) {
                    self.distrust("PowerShell member access and indexing are not analysed");
                }
                self.record(word, "variable", start);
            }
            _ => {
                self.bump();
                word.text.push('$');
            }
        }
    }

    /// `@(…)`, `@{…}`, `@'…'@`, `@"…"@` and `@splat` at the start of a word.
    fn ps_at(&mut self, word: &mut Word) {
        let start = self.offset();
        match self.peek_at(1) {
            Some('(') => {
                self.pos += 2;
                self.substitution(word, "array subexpression", start, Context::CommandSubstitution, ')');
            }
            Some('{') => {
                self.distrust("PowerShell hashtables are not analysed");
                self.bump();
                self.block_body(word, Context::Group);
            }
            Some(q) if is_single_quote(q) || is_double_quote(q) => {
                self.distrust("PowerShell here-strings are not analysed");
                self.pos += 2;
                loop {
                    match self.bump() {
                        None => break,
                        Some('\n') if self.peek() == Some(q) && self.peek_at(1) == Some('@') => {
                            self.pos += 2;
                            break;
                        }
                        Some(_) => {}
                    }
                }
                self.record(word, "here-string", start);
            }
            Some(c) if is_name_char(c) => {
                self.bump();
                while self.peek().is_some_and(is_name_char) {
                    self.bump();
                }
                self.record(word, "splatting", start);
            }
            _ => {
                self.bump();
                word.text.push('@');
            }
        }
    }

    // cmd

    fn cmd_word(&mut self, close: Option<char>) -> Word {
        let start = self.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.peek() {
            if is_blank(c) || matches!(c, '\n' | '&' | '|' | '<' | '>' | '(') {
                break;
            }
            if c == ')' {
                if close == Some(')') {
                    break;
                }
                self.distrust("a ')' has no matching '('");
            }
            if c.is_ascii_digit() && matches!(self.peek_at(1), Some('<' | '>')) {
                // cmd reads `2>` as a redirection even inside a word.
                break;
            }
            match c {
                '"' => {
                    self.bump();
                    word.quoted = true;
                    loop {
                        match self.peek() {
                            None | Some('\n') => {
                                self.distrust("a double quote is never closed");
                                break;
                            }
                            Some('"') => {
                                self.bump();
                                break;
                            }
                            Some('%') => self.cmd_percent(&mut word),
                            Some(c) => {
                                self.bump();
                                self.push_plain(&mut word, c);
                            }
                        }
                    }
                }
                '^' => {
                    self.bump();
                    match self.bump() {
                        None => {}
                        Some('\n') => {
                            // A continuation: the first character of the next line is taken literally.
                            if let Some(next) = self.bump() {
                                self.push_plain(&mut word, next);
                            }
                        }
                        Some(escaped) => self.push_plain(&mut word, escaped),
                    }
                }
                '%' => self.cmd_percent(&mut word),
                '!' => self.cmd_delayed(&mut word),
                _ => {
                    self.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.offset();
        word
    }

    /// `%VAR%`, `%VAR:a=b%`, `%~dp0`…: cmd replaces it before it splits the line.
    fn cmd_percent(&mut self, word: &mut Word) {
        let start = self.offset();
        let mut n = 1;
        while self.peek_at(n).is_some_and(|c| c != '%' && c != '\n') {
            n += 1;
        }
        if self.peek_at(n) == Some('%') && n > 1 {
            self.pos += n + 1;
            self.distrust("cmd expands %VAR% before it splits the line, so a value could add commands");
            self.record(word, "variable", start);
        } else if self.peek_at(1).is_some_and(|c| c.is_ascii_digit() || matches!(c, '*' | '~')) {
            self.pos += 2;
            self.record(word, "batch parameter", start);
        } else {
            self.bump();
            word.text.push('%');
        }
    }

    /// `!VAR!`: delayed expansion, when enabled, after the line is split.
    fn cmd_delayed(&mut self, word: &mut Word) {
        let start = self.offset();
        let mut n = 1;
        while self.peek_at(n).is_some_and(|c| !is_blank(c) && !matches!(c, '!' | '\n' | '&' | '|' | '<' | '>' | '"')) {
            n += 1;
        }
        if self.peek_at(n) == Some('!') && n > 1 {
            self.pos += n + 1;
            self.record(word, "delayed expansion", start);
        } else {
            self.bump();
            word.text.push('!');
        }
    }
}

#[cfg(test)]
mod tests;
