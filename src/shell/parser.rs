//! A recursive-descent reader for the POSIX/bash command language, as much of it as agents
//! send: words with every quoting form, `;` `&` `&&` `||` `|` `|&` and newlines, `( )` and
//! `{ }`, `$( )`, backticks, `$(( ))`, `${ }`, `<( )` `>( )`, redirections and here-documents.
//!
//! It never guesses: control flow, functions, `[[ ]]`, `(( ))`, control characters and
//! anything unbalanced set `cannot_vouch`, which turns allow rules off for the line, while the
//! parser keeps extracting what it can so deny and confirm rules still see it. Nesting is
//! capped so a hostile line cannot exhaust the stack.

use super::cursor::Cursor;
use super::hazards::{hazards_of_command, network_path_hazard, Hazard, HazardKind};
use super::read_budget::{ReadBudget, EXHAUSTED};
use super::runs::{invocation, Script, ScriptText};
use super::word::{is_name, is_name_char, is_name_start, Word};
use super::{add_command, Context, Shell, ShellAnalysis, SubCommand};

/// Deepest nesting of substitutions, subshells and `sh -c` payloads that is followed.
const MAX_DEPTH: usize = 24;

const RESERVED_WORDS: [&str; 16] =
    ["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "select", "function", "[[", "coproc"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Eof,
    Paren,
    Brace,
}

struct PendingHereDoc {
    delimiter: String,
    strip_tabs: bool,
    expands: bool,
    owner: usize,
    /// The shell whose script the body is, when it is fed to one (`sh <<EOF`).
    feeds: Option<Shell>,
}

/// What a command's standard input is, as far as its redirections say: a shell reading its
/// commands from there runs a here-string's or here-document's text.
#[derive(Default)]
struct Stdin {
    /// A here-string's text, and whether it expands (`<<< "$x"`).
    here_string: Option<(String, bool)>,
    here_doc: bool,
    /// `< file`: a file the text does not show.
    file: bool,
}

pub(super) struct Parser<'t> {
    /// The text being parsed (a backtick body or an `sh -c` payload is one of its own).
    input: Cursor<'t>,
    depth: usize,
    context: Context,
    items: Vec<SubCommand>,
    cannot_vouch: Option<String>,
    heredocs: Vec<PendingHereDoc>,
    /// What the whole analysis may still read again (payloads, backtick bodies).
    budget: ReadBudget,
}

/// Why parsing stopped early.
struct Stop(String);

type Step<T = ()> = Result<T, Stop>;

pub(super) fn parse(command: &str) -> ShellAnalysis {
    parse_nested(command, 0, &mut ReadBudget::for_line(command), Vec::new())
}

/// Parses another shell's payload `command` at `depth` of an analysis that has `budget` left to
/// read (`command` itself already taken from it); `followed_outside` are the byte ranges of
/// substitutions that shell already followed.
pub(super) fn parse_nested(command: &str, depth: usize, budget: &mut ReadBudget, followed_outside: Vec<(usize, usize)>) -> ShellAnalysis {
    let mut parser = Parser::new(command, depth, Context::TopLevel, None, budget.lend());
    parser.input.followed_outside = followed_outside;
    parser.run();
    budget.restore(parser.budget);
    ShellAnalysis { items: parser.items, cannot_vouch: parser.cannot_vouch }
}

fn is_meta(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')')
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, depth: usize, context: Context, span_override: Option<(usize, usize)>, budget: ReadBudget) -> Self {
        Parser {
            input: Cursor::new(text, span_override),
            depth,
            context,
            items: Vec::with_capacity(4),
            cannot_vouch: None,
            heredocs: Vec::new(),
            budget,
        }
    }

    fn run(&mut self) {
        if self.depth > MAX_DEPTH {
            self.distrust("commands are nested too deeply to follow");
            return;
        }
        if let Err(Stop(reason)) = self.parse_list(End::Eof) {
            self.distrust(&reason);
        }
    }

    /// Records the first reason allow rules cannot vouch for the line.
    fn distrust(&mut self, reason: &str) {
        if self.cannot_vouch.is_none() {
            self.cannot_vouch = Some(reason.to_owned());
        }
    }

    /// Spaces, tabs, line continuations and comments; stops before a newline.
    fn skip_blanks(&mut self) {
        loop {
            match self.input.peek() {
                Some(' ' | '\t') => {
                    self.input.pos += 1;
                }
                Some('\\') if self.input.peek_at(1) == Some('\n') => {
                    self.input.pos += 2;
                }
                Some('#') => {
                    while self.input.peek().is_some_and(|c| c != '\n') {
                        self.input.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    /// Consumes a newline and reads the here-documents that were waiting for it.
    fn newline(&mut self) -> Step {
        self.input.bump();
        let pending = std::mem::take(&mut self.heredocs);
        for doc in pending {
            self.read_heredoc(doc)?;
        }
        Ok(())
    }

    fn skip_blank_lines(&mut self) -> Step {
        loop {
            self.skip_blanks();
            if self.input.peek() == Some('\n') {
                self.newline()?;
            } else {
                return Ok(());
            }
        }
    }

    fn parse_list(&mut self, end: End) -> Step {
        loop {
            self.skip_blanks();
            match self.input.peek() {
                None => {
                    // Unclosed groups end with the input: what was read still counts for deny rules.
                    match end {
                        End::Eof => {}
                        End::Paren => self.distrust("a '(' is never closed"),
                        End::Brace => self.distrust("a '{' is never closed"),
                    }
                    return Ok(());
                }
                Some('\n') => self.newline()?,
                Some(';') => {
                    if self.input.peek_at(1) == Some(';') {
                        return Err(Stop("';;' belongs to a case statement, which is not analysed".into()));
                    }
                    // Only a command ends with ';': at the start of a list or after '&' or ';', bash
                    // refuses the line (`ls &; rm x`).
                    self.distrust("a ';' has no command before it");
                    self.input.bump();
                }
                Some('&') if self.input.peek_at(1) != Some('>') => {
                    return Err(Stop("a command line cannot start with '&'".into()));
                }
                Some('|') => return Err(Stop("a command line cannot start with '|'".into())),
                Some(')') => {
                    self.input.bump();
                    return match end {
                        End::Paren => Ok(()),
                        _ => Err(Stop("a ')' has no matching '('".into())),
                    };
                }
                Some('}') if end == End::Brace && self.word_ends_at(1) => {
                    self.input.bump();
                    return Ok(());
                }
                Some(_) => {
                    self.parse_and_or(end)?;
                    self.skip_blanks();
                    match self.input.peek() {
                        Some(';') if self.input.peek_at(1) != Some(';') => {
                            self.input.bump();
                        }
                        Some('&') if !matches!(self.input.peek_at(1), Some('&' | '>')) => {
                            self.input.bump();
                        }
                        None | Some('\n' | ';' | '&' | ')' | '}') => {}
                        // Only after `( … )` or `{ …; }`: bash refuses `(ls) rm x`.
                        Some(_) => self.distrust("a command follows a subshell or group without ';' or a newline"),
                    }
                }
            }
        }
    }

    /// True when the character `ahead` positions away ends a word.
    fn word_ends_at(&self, ahead: usize) -> bool {
        self.input.peek_at(ahead).is_none_or(is_meta)
    }

    fn parse_and_or(&mut self, end: End) -> Step {
        self.parse_pipeline(end)?;
        loop {
            self.skip_blanks();
            if self.input.eat("&&") || self.input.eat("||") {
                self.skip_blank_lines()?;
                self.parse_pipeline(end)?;
            } else {
                return Ok(());
            }
        }
    }

    fn parse_pipeline(&mut self, end: End) -> Step {
        self.skip_blanks();
        // `!` negates the pipeline's status, as often as it is written (`! ! rm x` runs `rm x`).
        while self.input.peek() == Some('!') && self.word_ends_at(1) {
            self.input.bump();
            self.skip_blanks();
        }
        self.parse_command(end)?;
        loop {
            self.skip_blanks();
            if self.input.peek() == Some('|') && self.input.peek_at(1) != Some('|') {
                self.input.bump();
                if self.input.peek() == Some('&') {
                    self.input.bump();
                }
                self.skip_blank_lines()?;
                self.parse_command(end)?;
            } else {
                return Ok(());
            }
        }
    }

    fn parse_command(&mut self, end: End) -> Step {
        self.skip_blanks();
        match self.input.peek() {
            None | Some('\n' | ';' | '&' | '|' | ')') => Err(Stop("an operator is missing the command it needs".into())),
            Some('(') => {
                if self.input.peek_at(1) == Some('(') {
                    self.distrust("arithmetic commands '(( ))' are not analysed");
                }
                self.input.bump();
                self.nested(Context::Subshell, End::Paren)?;
                self.parse_trailing_redirects()
            }
            Some('{') if self.word_ends_at(1) => {
                self.input.bump();
                self.nested(Context::Group, End::Brace)?;
                self.parse_trailing_redirects()
            }
            Some(_) => self.parse_simple(end),
        }
    }

    /// Parses a subshell or group body in this parser, with its own context and depth.
    fn nested(&mut self, context: Context, end: End) -> Step {
        if self.depth >= MAX_DEPTH {
            return Err(Stop("commands are nested too deeply to follow".into()));
        }
        let saved = self.context;
        self.context = context;
        self.depth += 1;
        let result = self.parse_list(end);
        self.depth -= 1;
        self.context = saved;
        result
    }

    /// Redirections after `( … )` or `{ … }` apply to the whole group.
    fn parse_trailing_redirects(&mut self) -> Step {
        let owner = self.items.len();
        let mut redirects = Vec::new();
        let mut hazards = Vec::new();
        loop {
            self.skip_blanks();
            if !self.at_redirect() {
                break;
            }
            self.parse_redirect(owner, &mut redirects, &mut hazards, &mut Stdin::default())?;
        }
        // Hazards of the group's redirections (process substitutions, expansions) go on its last item;
        // output redirections are items of their own, which carry their hazard.
        if let Some(last) = self.items.get_mut(owner.saturating_sub(1)) {
            last.hazards.extend(hazards);
        }
        self.items.extend(redirects);
        Ok(())
    }

    fn at_redirect(&self) -> bool {
        let mut ahead = 0;
        while self.input.peek_at(ahead).is_some_and(|c| c.is_ascii_digit()) {
            ahead += 1;
        }
        match self.input.peek_at(ahead) {
            Some('<' | '>') => self.input.peek_at(ahead + 1) != Some('('),
            Some('&') => ahead == 0 && self.input.peek_at(1) == Some('>'),
            _ => false,
        }
    }

    fn parse_simple(&mut self, end: End) -> Step {
        let start = self.input.offset();
        let owner = self.items.len();
        // The command's own item is inserted at `owner` once its words are known;
        // items found inside its words (substitutions) come after it.
        let mut words: Vec<Word> = Vec::with_capacity(4);
        let mut assignments: Vec<Word> = Vec::new();
        let mut redirects: Vec<SubCommand> = Vec::new();
        let mut hazards: Vec<Hazard> = Vec::new();
        let mut stdin = Stdin::default();
        let mut last_end = start;
        loop {
            self.skip_blanks();
            let Some(c) = self.input.peek() else { break };
            if self.at_redirect() {
                self.parse_redirect(owner, &mut redirects, &mut hazards, &mut stdin)?;
                last_end = self.input.offset();
                continue;
            }
            if matches!(c, '<' | '>') && self.input.peek_at(1) == Some('(') {
                let word = self.parse_process_substitution()?;
                hazards.push(Hazard::expansion("process substitution", &word.text));
                last_end = word.end;
                continue;
            }
            if matches!(c, '\n' | ';' | '&' | '|' | ')') {
                break;
            }
            // `name () BODY`, `function name () BODY`, `function name BODY`: the body is a
            // compound command the function runs later under an allowed-looking name. Not vouched
            // for, but read, so deny and confirm rules see what it runs.
            let function_keyword = words.len() == 2 && words.first().is_some_and(|w| w.text == "function" && !w.quoted);
            if assignments.is_empty()
                && (words.len() == 1 || function_keyword)
                && (c == '(' || (function_keyword && c == '{' && self.word_ends_at(1)))
            {
                self.distrust("function definitions are not analysed");
                if c == '(' {
                    self.input.bump();
                    self.skip_blanks();
                    if self.input.peek() != Some(')') {
                        continue;
                    }
                    self.input.bump();
                    while matches!(self.input.peek(), Some(' ' | '\t' | '\n')) {
                        self.input.bump();
                    }
                }
                if matches!(self.input.peek(), Some('(' | '{')) {
                    self.parse_command(end)?;
                    last_end = self.input.offset();
                }
                break;
            }
            if c == '(' {
                // A syntax error to the shell; still read what is inside so deny rules see it.
                self.distrust("a '(' cannot appear inside a command");
                self.input.bump();
                self.nested(Context::Subshell, End::Paren)?;
                continue;
            }
            if c == '}' && end == End::Brace && self.word_ends_at(1) && !words.is_empty() {
                // `{ ls; }` needs the ';' but `{ ls }` is a common slip: treat '}' as the end.
                break;
            }
            let word = self.parse_word()?;
            last_end = word.end;
            if words.is_empty() && is_assignment(&word) {
                assignments.push(word);
            } else {
                if words.is_empty() && !word.quoted && RESERVED_WORDS.contains(&word.text.as_str()) {
                    self.distrust(&format!("the shell keyword '{}' is not analysed", word.text));
                }
                if words.is_empty() && !word.quoted && word.text == "!" {
                    // A pipeline's own `!` was taken before its first command; bash refuses one
                    // after a `|` (`a | ! | b`).
                    self.distrust("a '!' can only start a pipeline");
                }
                if words.is_empty() && !word.quoted && word.text == "}" {
                    // Where a command starts, '}' can only close a group: bash refuses `ls; }`.
                    self.distrust("a '}' has no matching '{'");
                }
                words.push(word);
            }
        }
        if words.is_empty() && assignments.is_empty() && redirects.is_empty() && hazards.is_empty() {
            return Err(Stop("an operator is missing the command it needs".into()));
        }

        for assignment in &assignments {
            let name = assignment.text.split(['=', '+']).next().unwrap_or_default().to_owned();
            hazards.push(Hazard::new(HazardKind::EnvAssignment, &name, "a leading VAR=value assignment changes how the command runs"));
        }
        for word in assignments.iter().chain(words.iter()) {
            for (kind, text) in &word.expansions {
                hazards.push(Hazard::expansion(kind, text));
            }
        }
        let mut text = String::with_capacity(last_end.saturating_sub(start));
        for word in assignments.iter().chain(words.iter()) {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&word.text);
        }
        // What the command runs: its program past wrappers, the forms deny rules also meet, and
        // the scripts it runs (`sh -c`, `eval`, `su -c` …), read from the words as the shell sees them.
        let all_words: Vec<&Word> = assignments.iter().chain(words.iter()).collect();
        let texts: Vec<&str> = all_words.iter().map(|w| w.text.as_str()).collect();
        let expanded: Vec<bool> = all_words.iter().map(|w| !w.expansions.is_empty()).collect();
        let mut invocation = invocation(&texts, assignments.len(), &expanded, Shell::Posix);
        let mut scripts: Vec<ScriptText> = invocation
            .scripts
            .iter()
            .map(|script: &Script| {
                let (text, followed) = script.text(all_words.iter().map(|w| (w.text.as_str(), w.followed.as_slice())));
                (text, followed, script.shell)
            })
            .collect();
        if let Some(shell) = invocation.reads_stdin {
            match (&stdin.here_string, stdin.here_doc) {
                (Some((_, true)), _) => invocation.unreadable = Some("the shell runs a here-string built from an expansion".into()),
                (Some((text, false)), _) => scripts.push((text.clone(), Vec::new(), shell)),
                (None, true) => {
                    if let Some(doc) = self.heredocs.iter_mut().rev().find(|d| d.owner == owner) {
                        doc.feeds = Some(shell);
                    }
                }
                (None, false) if stdin.file => {
                    invocation.unreadable = Some("the shell runs the commands of a file, which the text does not show".into())
                }
                (None, false) => {
                    invocation.unreadable = Some("the shell reads its commands from standard input, which the text does not show".into())
                }
            }
        }
        drop(all_words);
        // A vector of its own for the arguments: collected from `words` in place, the words'
        // larger buffer would be shrunk by a `realloc` that copies it.
        let mut args: Vec<String> = Vec::with_capacity(words.len().saturating_sub(1));
        let mut texts = words.into_iter().map(|w| w.text);
        let name = texts.next();
        args.extend(texts);
        if let Some(name) = &name {
            hazards.extend(hazards_of_command(name, &args));
        }
        hazards.extend(network_path_hazard(&args));
        let (s, e) = self.input.span(start, last_end);
        let item = SubCommand::command(text, self.context, name, args, invocation, (s, e), hazards);
        let has_command = !item.text.is_empty();
        add_command(&mut self.items, owner, item, has_command, redirects);
        for (script, followed, shell) in scripts {
            self.run_script(&script, shell, (s, e), followed)?;
        }
        Ok(())
    }

    /// A script the command runs (`sh -c`, `eval`, a here-string fed to a shell, `pwsh -Command`):
    /// its commands are items too, in the shell it is written for.
    fn run_script(&mut self, text: &str, shell: Shell, span: (usize, usize), followed: Vec<(usize, usize)>) -> Step {
        if shell == Shell::Posix {
            return self.sub_parse(text, Context::ShellPayload, span, followed);
        }
        if self.depth >= MAX_DEPTH {
            return Err(Stop("commands are nested too deeply to follow".into()));
        }
        if !self.budget.take(text) {
            self.distrust(EXHAUSTED);
            return Ok(());
        }
        let inner = super::analyze_nested(shell, text, self.depth + 1, Context::ShellPayload, Some(span), &mut self.budget, followed);
        self.items.extend(inner.items);
        if let Some(reason) = inner.cannot_vouch {
            self.distrust(&reason);
        }
        Ok(())
    }

    /// Parses separate text (a backtick body, an `sh -c` script) and adopts its items;
    /// `followed_outside` are the text's substitutions this parser already followed.
    fn sub_parse(&mut self, text: &str, context: Context, span: (usize, usize), followed_outside: Vec<(usize, usize)>) -> Step {
        if self.depth >= MAX_DEPTH {
            return Err(Stop("commands are nested too deeply to follow".into()));
        }
        // Out of budget the text is not followed; the rest of the line still is, for deny rules.
        if !self.budget.take(text) {
            self.distrust(EXHAUSTED);
            return Ok(());
        }
        let mut inner = Parser::new(text, self.depth + 1, context, Some(span), self.budget.lend());
        inner.input.followed_outside = followed_outside;
        inner.run();
        self.budget.restore(inner.budget);
        self.items.append(&mut inner.items);
        if let Some(reason) = inner.cannot_vouch {
            self.distrust(&reason);
        }
        Ok(())
    }

    fn parse_process_substitution(&mut self) -> Step<Word> {
        let start = self.input.offset();
        self.input.bump();
        self.input.bump();
        self.nested(Context::ProcessSubstitution, End::Paren)?;
        let end = self.input.offset();
        Ok(Word { text: self.input.source(start, end), start, end, ..Word::default() })
    }

    fn parse_redirect(&mut self, owner: usize, redirects: &mut Vec<SubCommand>, hazards: &mut Vec<Hazard>, stdin: &mut Stdin) -> Step {
        let start = self.input.offset();
        let mut fd = String::new();
        while let Some(c) = self.input.peek().filter(char::is_ascii_digit) {
            fd.push(c);
            self.input.bump();
        }
        let op = ["&>>", "&>", "<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<"]
            .into_iter()
            .find(|op| self.input.eat(op))
            .ok_or_else(|| Stop("a redirection operator is malformed".into()))?;
        self.skip_blanks();
        if matches!(self.input.peek(), Some('<' | '>')) && self.input.peek_at(1) == Some('(') {
            let word = self.parse_process_substitution()?;
            hazards.push(Hazard::expansion("process substitution", &word.text));
            return Ok(());
        }
        if self.input.peek().is_none_or(is_meta) {
            return Err(Stop(format!("the redirection '{op}' has no target")));
        }
        let target = self.parse_word()?;
        for (kind, text) in &target.expansions {
            hazards.push(Hazard::expansion(kind, text));
        }
        hazards.extend(network_path_hazard([&target.text]));
        match op {
            "<<" | "<<-" => {
                self.heredocs.push(PendingHereDoc {
                    delimiter: target.text.clone(),
                    strip_tabs: op == "<<-",
                    expands: !target.quoted,
                    owner,
                    feeds: None,
                });
                stdin.here_doc = true;
                return Ok(());
            }
            "<<<" => {
                stdin.here_string = Some((target.text.clone(), !target.expansions.is_empty()));
                return Ok(());
            }
            "<" if fd.is_empty() || fd == "0" => stdin.file = true,
            // Duplicating a descriptor (`2>&1`, `>&2`, `<&-`) writes no file.
            ">&" | "<&" if target.text.chars().all(|c| c.is_ascii_digit() || c == '-') => return Ok(()),
            _ => {}
        }
        let writes = !matches!(op, "<");
        if target.text == "/dev/null" {
            return Ok(());
        }
        let operator = if op == ">&" { "&>" } else { op };
        let text = format!("{fd}{operator} {}", target.text);
        let span = self.input.span(start, target.end);
        redirects.push(SubCommand::redirect(text, &target.text, writes, self.context, span, hazards));
        Ok(())
    }

    fn read_heredoc(&mut self, doc: PendingHereDoc) -> Step {
        let mut body = String::new();
        loop {
            if self.input.peek().is_none() {
                break;
            }
            let mut line = String::new();
            while let Some(c) = self.input.peek().filter(|c| *c != '\n') {
                line.push(c);
                self.input.bump();
            }
            self.input.bump();
            let candidate = if doc.strip_tabs { line.trim_start_matches('\t') } else { line.as_str() };
            if candidate == doc.delimiter {
                break;
            }
            body.push_str(&line);
            body.push('\n');
        }
        if let Some(shell) = doc.feeds {
            return self.run_heredoc_script(&doc, body, shell);
        }
        if doc.expands {
            if body.contains("$(") || body.contains('`') {
                self.distrust("a here-document runs command substitutions, which are not analysed");
            }
            if let Some(at) = body.find('$') {
                let text: String = body.get(at..).unwrap_or_default().chars().take(24).collect();
                if let Some(item) = self.items.get_mut(doc.owner) {
                    item.hazards.push(Hazard::expansion("parameter expansion in a here-document", &text));
                }
            }
        }
        Ok(())
    }

    /// A here-document fed to a shell (`sh <<EOF`): its body is the shell's script. An unquoted
    /// delimiter lets the outer shell expand the body first (bash(1), "Here Documents"): `\$`,
    /// `` \` ``, `\\` and `\`-newline are undone as it would, and an expansion it would make
    /// leaves the script unknown.
    fn run_heredoc_script(&mut self, doc: &PendingHereDoc, body: String, shell: Shell) -> Step {
        let span = self.items.get(doc.owner).map_or((0, 0), |item| (item.start, item.end));
        let script = if doc.expands {
            let mut out = String::with_capacity(body.len());
            let mut chars = body.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => match chars.peek() {
                        Some('$' | '`' | '\\') => out.extend(chars.next()),
                        Some('\n') => {
                            chars.next();
                        }
                        _ => out.push('\\'),
                    },
                    '$' | '`' => {
                        if let Some(item) = self.items.get_mut(doc.owner) {
                            item.hazards.push(Hazard::new(
                                HazardKind::UnreadableProgram,
                                item.program.as_deref().unwrap_or_default(),
                                "the shell runs a here-document the outer shell expands first, so its commands are not known",
                            ));
                        }
                        return Ok(());
                    }
                    other => out.push(other),
                }
            }
            out
        } else {
            body
        };
        self.run_script(&script, shell, span, Vec::new())
    }

    /// Reads one word, removing quotes and recording expansions.
    fn parse_word(&mut self) -> Step<Word> {
        let start = self.input.offset();
        let mut word = Word::at(start);
        while let Some(c) = self.input.peek() {
            if is_meta(c) {
                break;
            }
            match c {
                '\\' => {
                    self.input.bump();
                    match self.input.bump() {
                        Some('\n') => {}
                        Some(escaped) => {
                            word.quoted = true;
                            word.text.push(escaped);
                        }
                        None => word.text.push('\\'),
                    }
                }
                '\'' => {
                    self.input.bump();
                    word.quoted = true;
                    loop {
                        match self.input.bump() {
                            Some('\'') => break,
                            Some(ch) => word.text.push(ch),
                            None => {
                                self.distrust("a single quote is never closed");
                                break;
                            }
                        }
                    }
                }
                '"' => {
                    self.input.bump();
                    word.quoted = true;
                    self.parse_double_quoted(&mut word)?;
                }
                '$' => self.parse_dollar(&mut word, false)?,
                '`' => self.parse_backticks(&mut word)?,
                _ => {
                    // A run of plain characters is copied in one piece.
                    let from = self.input.offset();
                    while let Some(c) = self.input.peek().filter(|&c| !is_meta(c) && !matches!(c, '\\' | '\'' | '"' | '$' | '`')) {
                        if c.is_control() && c != '\t' {
                            self.distrust(&format!("the command contains the control character U+{:04X}", c as u32));
                        }
                        self.input.pos += 1;
                    }
                    let run = self.input.text.get(from..self.input.offset()).unwrap_or_default();
                    if word.text.is_empty() {
                        word.text = run.to_owned();
                    } else {
                        word.text.push_str(run);
                    }
                }
            }
        }
        word.end = self.input.offset();
        Ok(word)
    }

    fn parse_double_quoted(&mut self, word: &mut Word) -> Step {
        loop {
            match self.input.peek() {
                None => {
                    self.distrust("a double quote is never closed");
                    return Ok(());
                }
                Some('"') => {
                    self.input.bump();
                    return Ok(());
                }
                Some('\\') => {
                    self.input.bump();
                    match self.input.bump() {
                        Some('\n') => {}
                        Some(c @ ('$' | '`' | '"' | '\\')) => word.text.push(c),
                        Some(c) => {
                            word.text.push('\\');
                            word.text.push(c);
                        }
                        None => word.text.push('\\'),
                    }
                }
                Some('$') => self.parse_dollar(word, true)?,
                Some('`') => self.parse_backticks(word)?,
                Some(c) => {
                    if c.is_control() && !matches!(c, '\t' | '\n') {
                        self.distrust(&format!("the command contains the control character U+{:04X}", c as u32));
                    }
                    word.text.push(c);
                    self.input.bump();
                }
            }
        }
    }

    fn parse_dollar(&mut self, word: &mut Word, in_double_quotes: bool) -> Step {
        let start = self.input.offset();
        match self.input.peek_at(1) {
            Some('\'') if !in_double_quotes => {
                self.input.pos += 2;
                word.quoted = true;
                self.parse_ansi_c(word)
            }
            Some('"') if !in_double_quotes => {
                self.input.pos += 2;
                word.quoted = true;
                self.parse_double_quoted(word)
            }
            Some('(') if self.input.peek_at(2) == Some('(') && self.closes_as_arithmetic() => {
                self.input.pos += 3;
                self.skip_balanced('(', ')', 2)?;
                let inner = self.input.source(start, self.input.offset());
                if inner.get(3..).is_some_and(|body| body.contains("$(") || body.contains('`')) {
                    self.distrust("an arithmetic expansion contains a command substitution, which is not analysed");
                }
                self.input.record(word, "arithmetic expansion", start);
                Ok(())
            }
            Some('(') => {
                self.input.pos += 2;
                if !self.input.skip_followed(start) {
                    self.nested(Context::CommandSubstitution, End::Paren)?;
                }
                self.input.record_followed(word, "command substitution", start);
                Ok(())
            }
            Some('{') => {
                self.input.pos += 2;
                let inner_start = self.input.offset();
                self.skip_balanced('{', '}', 1)?;
                let inner = self.input.source(inner_start, self.input.offset());
                if inner.contains("$(") || inner.contains('`') {
                    self.distrust("a ${…} expansion contains a command substitution, which is not analysed");
                }
                self.input.record(word, "parameter expansion", start);
                Ok(())
            }
            Some(c) if is_name_start(c) => {
                self.input.pos += 1;
                while self.input.peek().is_some_and(is_name_char) {
                    self.input.bump();
                }
                self.input.record(word, "parameter expansion", start);
                Ok(())
            }
            Some(c) if c.is_ascii_digit() || matches!(c, '@' | '*' | '#' | '?' | '$' | '!' | '-') => {
                self.input.pos += 2;
                self.input.record(word, "parameter expansion", start);
                Ok(())
            }
            _ => {
                self.input.bump();
                word.text.push('$');
                Ok(())
            }
        }
    }

    /// At `$((`: whether it is an arithmetic expansion. As bash decides it, only when the `(`
    /// after `$(` is closed by a `)` that is directly followed by another; otherwise
    /// (`$((curl e) | sh)`) it is a command substitution whose body starts with a subshell.
    fn closes_as_arithmetic(&self) -> bool {
        let mut ahead = 3;
        let mut depth = 1;
        while let Some(c) = self.input.peek_at(ahead) {
            ahead += 1;
            match c {
                '\\' => ahead += 1,
                '\'' => {
                    while self.input.peek_at(ahead).is_some_and(|c| c != '\'') {
                        ahead += 1;
                    }
                    ahead += 1;
                }
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return self.input.peek_at(ahead) == Some(')');
                    }
                }
                _ => {}
            }
        }
        // Never closed: read as arithmetic, which distrusts the unclosed bracket.
        true
    }

    /// Skips to the close of `depth` already-open brackets, honouring quotes.
    fn skip_balanced(&mut self, open: char, close: char, mut depth: usize) -> Step {
        while depth > 0 {
            match self.input.bump() {
                None => {
                    self.distrust(&format!("a '{open}' is never closed"));
                    return Ok(());
                }
                Some('\\') => {
                    self.input.bump();
                }
                Some('\'') => while self.input.bump().is_some_and(|c| c != '\'') {},
                Some(c) if c == open => depth += 1,
                Some(c) if c == close => depth -= 1,
                Some(_) => {}
            }
        }
        Ok(())
    }

    fn parse_backticks(&mut self, word: &mut Word) -> Step {
        let start = self.input.offset();
        if self.input.skip_followed(start) {
            self.input.record_followed(word, "command substitution", start);
            return Ok(());
        }
        self.input.bump();
        let mut body = String::new();
        loop {
            match self.input.bump() {
                None => {
                    self.distrust("a backtick is never closed");
                    break;
                }
                Some('`') => break,
                Some('\\') => match self.input.bump() {
                    Some(c @ ('`' | '\\' | '$')) => body.push(c),
                    Some(c) => {
                        body.push('\\');
                        body.push(c);
                    }
                    None => body.push('\\'),
                },
                Some(c) => body.push(c),
            }
        }
        let span = self.input.span(start, self.input.offset());
        self.sub_parse(&body, Context::CommandSubstitution, span, Vec::new())?;
        self.input.record_followed(word, "command substitution", start);
        Ok(())
    }

    fn parse_ansi_c(&mut self, word: &mut Word) -> Step {
        loop {
            match self.input.bump() {
                None => {
                    self.distrust("a $'…' quote is never closed");
                    return Ok(());
                }
                Some('\'') => return Ok(()),
                Some('\\') => {
                    let decoded = match self.input.bump() {
                        Some('n') => Some('\n'),
                        Some('t') => Some('\t'),
                        Some('r') => Some('\r'),
                        Some('e' | 'E') => Some('\u{1b}'),
                        Some('a') => Some('\u{7}'),
                        Some('b') => Some('\u{8}'),
                        Some('f') => Some('\u{c}'),
                        Some('v') => Some('\u{b}'),
                        Some('x') => self.read_code(16, 2),
                        Some('u') => self.read_code(16, 4),
                        Some('U') => self.read_code(16, 8),
                        Some('0'..='7') => {
                            self.input.pos -= 1;
                            self.read_code(8, 3)
                        }
                        Some(c) => Some(c),
                        None => {
                            self.distrust("a $'…' quote is never closed");
                            return Ok(());
                        }
                    };
                    match decoded {
                        Some(c) => {
                            if c.is_control() && c != '\t' {
                                self.distrust("a $'…' quote produces a control character");
                            }
                            word.text.push(c);
                        }
                        None => self.distrust("a $'…' quote has an escape that is not analysed"),
                    }
                }
                Some(c) => word.text.push(c),
            }
        }
    }

    fn read_code(&mut self, radix: u32, max: usize) -> Option<char> {
        let mut value: u32 = 0;
        let mut read = 0;
        while read < max {
            let Some(digit) = self.input.peek().and_then(|c| c.to_digit(radix)) else { break };
            value = value.checked_mul(radix)?.checked_add(digit)?;
            self.input.bump();
            read += 1;
        }
        if read == 0 {
            return None;
        }
        char::from_u32(value)
    }
}

/// `NAME=value` or `NAME+=value` with a valid, unquoted name.
fn is_assignment(word: &Word) -> bool {
    // Most words fail on their first byte; '=' is ASCII, so a byte scan finds where
    // `split_once('=')` would split without its searcher.
    let bytes = word.text.as_bytes();
    if !bytes.first().is_some_and(|&b| is_name_start(char::from(b))) {
        return false;
    }
    let Some(eq) = bytes.iter().position(|&b| b == b'=') else { return false };
    let name = word.text.get(..eq).unwrap_or_default();
    is_name(name.strip_suffix('+').unwrap_or(name))
}

#[cfg(test)]
mod tests {
    /// The first-byte check and byte scan answer what splitting at the first `=` answers.
    #[test]
    fn assignment_test_is_the_split_at_the_first_equals_sign() {
        fn plain(text: &str) -> bool {
            let Some((name, _)) = text.split_once('=') else { return false };
            let name = name.strip_suffix('+').unwrap_or(name);
            let mut chars = name.chars();
            chars.next().is_some_and(super::is_name_start) && chars.all(super::is_name_char)
        }
        let alphabet = ['a', 'Z', '_', '7', '=', '+', '-', ' ', 'é', '€'];
        let mut assignments = 0;
        for text in crate::test_support::random_strings(&alphabet, 20_000, 8, 0x6A09_E667_F3BC_C908) {
            let word = super::Word { text, ..super::Word::default() };
            assert_eq!(super::is_assignment(&word), plain(&word.text), "{:?}", word.text);
            assignments += usize::from(plain(&word.text));
        }
        assert!(assignments > 500, "the random words hold too few assignments to compare: {assignments}");
    }
}
