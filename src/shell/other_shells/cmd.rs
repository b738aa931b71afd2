//! cmd.exe's command lines: its words, with `^` escapes and `%VAR%`/`!VAR!` expansions, and
//! the built-ins cmd recognises even when glued to what follows.
//!
//! Covered: `&`, `&&`, `||`, `|`, newlines; `"…"`; `^` escapes; `%VAR%` (hazard and not
//! vouched: cmd expands it before splitting the line, so a value could add commands) and
//! `!VAR!` (hazard); `>`, `>>`, `2>`, `<`, `2>&1`, `> nul`. Not vouched: `(…)` blocks, `if`,
//! `for`, `goto`, `rem`, labels, built-ins glued to their arguments (`rd/s`, `echo.`).

use super::{is_blank, Analyzer, Sep, SeparatorAhead};
use crate::shell::hazards::{Hazard, HazardKind};
use crate::shell::word::Word;

/// cmd built-ins, which cmd recognises even when glued to what follows (`rd/s`, `echo.`).
const CMD_BUILTINS: [&str; 36] = [
    "assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del", "dir", "echo", "endlocal", "erase", "exit", "for",
    "ftype", "goto", "if", "md", "mkdir", "mklink", "move", "path", "pause", "popd", "prompt", "pushd", "rd", "rem", "ren", "rename",
    "rmdir", "set", "start", "type",
];

/// A cmd separator starting at `c` (followed by `next`), if any.
pub(super) fn separator(c: char, next: Option<char>) -> Option<SeparatorAhead> {
    match (c, next) {
        ('&', Some('&')) | ('|', Some('|')) => Some((2, Sep::AndOr, None)),
        ('&', _) => Some((1, Sep::Sequence, None)),
        ('|', _) => Some((1, Sep::Pipe, None)),
        _ => None,
    }
}

impl Analyzer<'_> {
    /// cmd's command word: labels, control commands, built-ins glued to their arguments, and
    /// commands that set variables or run their arguments.
    pub(super) fn cmd_check_head(&mut self, lower: &str, args: &[String], hazards: &mut Vec<Hazard>) {
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

    pub(super) fn cmd_word(&mut self, close: Option<char>) -> Word {
        let start = self.input.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.input.peek() {
            if is_blank(c) || matches!(c, '\n' | '&' | '|' | '<' | '>' | '(') {
                break;
            }
            if c == ')' {
                if close == Some(')') {
                    break;
                }
                self.distrust("a ')' has no matching '('");
            }
            if c.is_ascii_digit() && matches!(self.input.peek_at(1), Some('<' | '>')) {
                // cmd reads `2>` as a redirection even inside a word.
                break;
            }
            match c {
                '"' => {
                    self.input.bump();
                    word.quoted = true;
                    loop {
                        match self.input.peek() {
                            None | Some('\n') => {
                                self.distrust("a double quote is never closed");
                                break;
                            }
                            Some('"') => {
                                self.input.bump();
                                break;
                            }
                            Some('%') => self.cmd_percent(&mut word),
                            Some(c) => {
                                self.input.bump();
                                self.push_plain(&mut word, c);
                            }
                        }
                    }
                }
                '^' => {
                    self.input.bump();
                    match self.input.bump() {
                        None => {}
                        Some('\n') => {
                            // A continuation: the first character of the next line is taken literally.
                            if let Some(next) = self.input.bump() {
                                self.push_plain(&mut word, next);
                            }
                        }
                        Some(escaped) => self.push_plain(&mut word, escaped),
                    }
                }
                '%' => self.cmd_percent(&mut word),
                '!' => self.cmd_delayed(&mut word),
                _ => {
                    self.input.bump();
                    self.push_plain(&mut word, c);
                }
            }
        }
        word.end = self.input.offset();
        word
    }

    /// `%VAR%`, `%VAR:a=b%`, `%~dp0`…: cmd replaces it before it splits the line.
    fn cmd_percent(&mut self, word: &mut Word) {
        let start = self.input.offset();
        let mut n = 1;
        while self.input.peek_at(n).is_some_and(|c| c != '%' && c != '\n') {
            n += 1;
        }
        if self.input.peek_at(n) == Some('%') && n > 1 {
            self.input.pos += n + 1;
            self.distrust("cmd expands %VAR% before it splits the line, so a value could add commands");
            self.input.record(word, "variable", start);
        } else if self.input.peek_at(1).is_some_and(|c| c.is_ascii_digit() || matches!(c, '*' | '~')) {
            self.input.pos += 2;
            self.input.record(word, "batch parameter", start);
        } else {
            self.input.bump();
            word.text.push('%');
        }
    }

    /// `!VAR!`: delayed expansion, when enabled, after the line is split.
    fn cmd_delayed(&mut self, word: &mut Word) {
        let start = self.input.offset();
        let mut n = 1;
        while self.input.peek_at(n).is_some_and(|c| !is_blank(c) && !matches!(c, '!' | '\n' | '&' | '|' | '<' | '>' | '"')) {
            n += 1;
        }
        if self.input.peek_at(n) == Some('!') && n > 1 {
            self.input.pos += n + 1;
            self.input.record(word, "delayed expansion", start);
        } else {
            self.input.bump();
            word.text.push('!');
        }
    }
}
