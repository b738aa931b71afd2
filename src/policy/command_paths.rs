//! The paths a command line names, so path rules and protected paths reach the terminal:
//! redirect targets, the words of each command (and the value of `--opt=value`, `of=value`),
//! and the string literals of an awk program — each marked whether the command may write it.
//!
//! A word is only a guess at a path (`status` in `git status` is none), so these paths are
//! checked only against deny, confirm and protection, which can only make a decision stricter;
//! and a path rule that cannot relate a guessed relative path to its absolute anchor does not
//! match it (see [`super::rules::Subject::guessed_path`]).

use super::items::{ItemKind, Items};
#[cfg(feature = "shell")]
use crate::shell::HazardKind;
use serde::{Deserialize, Serialize};

/// What the host knows about where commands run, to read `~`, `$HOME` and `$PWD` in them and
/// to place relative paths.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HostPaths {
    /// The user's home directory (absolute): what `~` and `$HOME` name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub home: Option<String>,
    /// The directory commands run in (absolute): what `$PWD` and relative paths are read against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub cwd: Option<String>,
}

impl HostPaths {
    /// Whether the host said nothing.
    pub fn is_empty(&self) -> bool {
        self.home.is_none() && self.cwd.is_none()
    }
}

/// One path a command line names.
#[cfg(feature = "shell")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NamedPath {
    /// The path, with `~`, `$HOME` and `$PWD` read and made absolute where the host said how.
    pub path: String,
    /// Whether the command may write it (an output redirect, a command not known to only read).
    pub written: bool,
    /// The item (sub-command or redirect) that names it.
    pub item: usize,
}

/// Commands that only read the paths they are given, unless a flag of the engine's hazard table
/// makes them write (`sort -o`, `find -delete`, `tree -o`): the read-only commands all of
/// Codex's `is_safe_command`, Claude Code's read-only set and VS Code's auto-approve defaults
/// name (see `src/policy/presets/README.md` for each source), without `cd` (a later command of the line
/// writes relative to where it went).
#[cfg(feature = "shell")]
const READERS: &[&str] = &[
    "cat", "head", "tail", "grep", "egrep", "fgrep", "rg", "ls", "stat", "wc", "file", "du", "df", "diff", "cmp", "nl", "tac", "sort",
    "uniq", "cut", "tr", "column", "tree", "find", "base64", "echo", "printf", "pwd", "which", "realpath", "readlink", "basename",
    "dirname", "rev", "paste", "numfmt", "jq",
];

/// Commands whose operands are files, so every operand counts as a path (beside [`READERS`]):
/// Claude Code applies its Read and Edit rules to "file commands Claude Code recognizes in Bash,
/// such as cat, head, tail, and sed" (code.claude.com/docs/en/permissions, "Read and Edit");
/// these are the POSIX and GNU coreutils that copy, move, link, create, remove or change files,
/// and the viewers and archivers that name them.
#[cfg(feature = "shell")]
const FILE_COMMANDS: &[&str] = &[
    "cp", "mv", "install", "ln", "tee", "touch", "rm", "rmdir", "mkdir", "truncate", "dd", "chmod", "chown", "chgrp", "sed", "awk", "gawk",
    "mawk", "nawk", "less", "more", "xxd", "od", "hexdump", "strings", "scp", "rsync", "tar", "zip", "unzip", "vi", "vim", "nano",
];

/// Whether a word of another command looks like a path: it has a `/`, starts with `.` or `~`,
/// or has a dot inside (`key.pem`). A bare word (`build` in `npm run build`) is not taken for
/// one: Claude Code reverted reading it as a path (anthropics/claude-code#91995 tells the story
/// of `npm run build` denied under `Read(./**/build/**)`).
#[cfg(feature = "shell")]
fn looks_like_path(word: &str) -> bool {
    word.contains('/') || word.starts_with(['.', '~']) || word.trim_matches('.').contains('.')
}

/// Whether a word can name a path at all: not a URL, not empty, not an option without a value.
fn path_like(word: &str) -> bool {
    !word.is_empty() && !word.contains("://") && !word.starts_with('-')
}

/// The words of an argument that may name a path: the argument, and the value of `--opt=value`
/// or `name=value`.
fn candidates(arg: &str) -> impl Iterator<Item = &str> {
    let value = arg.split_once('=').map(|(_, value)| value);
    std::iter::once(arg).filter(|a| path_like(a)).chain(value.filter(|v| path_like(v)))
}

/// The string literals of an awk program (`getline < "/secrets/key"`, `print > "x"`).
#[cfg(feature = "shell")]
fn awk_strings(program: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = program.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut literal = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => literal.extend(chars.next()),
                '"' => break,
                other => literal.push(other),
            }
        }
        out.push(literal);
    }
    out
}

/// Reads `~`, `$HOME`, `${HOME}`, `$PWD`, `${PWD}` at the start of a word where the host named
/// them, and places a relative path in the host's working directory.
pub(crate) fn expand(word: &str, host: &HostPaths) -> String {
    let mut word = word.to_owned();
    if let Some(home) = &host.home {
        for prefix in ["~", "$HOME", "${HOME}"] {
            if let Some(rest) = word.strip_prefix(prefix).filter(|rest| rest.is_empty() || rest.starts_with('/')) {
                word = format!("{}{rest}", home.trim_end_matches('/'));
                break;
            }
        }
    }
    if let Some(cwd) = &host.cwd {
        for prefix in ["$PWD", "${PWD}"] {
            if let Some(rest) = word.strip_prefix(prefix).filter(|rest| rest.is_empty() || rest.starts_with('/')) {
                word = format!("{}{rest}", cwd.trim_end_matches('/'));
                break;
            }
        }
        if !word.starts_with(['/', '~', '$']) {
            word = format!("{}/{word}", cwd.trim_end_matches('/'));
        }
    }
    word
}

/// Every path the command line's items name.
#[cfg(feature = "shell")]
pub(crate) fn named_paths(items: &Items, host: &HostPaths) -> Vec<NamedPath> {
    let mut out = Vec::new();
    let mut push = |word: &str, written: bool, item: usize| out.push(NamedPath { path: expand(word, host), written, item });
    for (at, item) in items.list.iter().enumerate() {
        match item.kind {
            ItemKind::Redirect => {
                if let Some((operator, target)) = item.text.split_once(' ') {
                    push(target, operator.contains('>'), at);
                }
            }
            ItemKind::Command => {
                let Some(name) = item.name.as_deref() else { continue };
                // What runs, through its wrappers (`sudo tee x` writes x).
                let (program, program_args) = crate::shell::effective_command(name, &item.args);
                let base = program.rsplit('/').next().unwrap_or(program);
                let reader = READERS.contains(&base);
                // A reader only reads, unless a flag of the hazard table makes it write (`sort -o`).
                let written = !reader || item.hazards.iter().any(|h| h.kind == HazardKind::ExecutingFlag);
                let awk = matches!(base, "awk" | "gawk" | "mawk" | "nawk");
                let file_command = reader || FILE_COMMANDS.contains(&base);
                for arg in &item.args {
                    for word in candidates(arg).filter(|w| file_command || looks_like_path(w)) {
                        push(word, written, at);
                    }
                }
                if awk {
                    // The program is the first operand; its strings name files it reads or writes.
                    if let Some(program_text) = program_args.iter().find(|a| !a.starts_with('-')) {
                        for literal in awk_strings(program_text) {
                            if path_like(&literal) {
                                push(&literal, written, at);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The words of a command (0 its command word, then its arguments) that name a secret file
/// ([`super::secrets`]), read as [`named_paths`] reads them: an allow rule covers the command
/// only if it spells each of them out.
pub(crate) fn secret_words(args: &[String], host: &HostPaths) -> Vec<usize> {
    args.iter()
        .enumerate()
        .filter(|(_, arg)| candidates(arg).any(|word| super::secrets::secret(&expand(word, host)).is_some()))
        .map(|(at, _)| at + 1)
        .collect()
}

/// Marks the words of each item that name a secret file (see [`super::secrets`]), reading a
/// command's paths where `host` says; an allow rule covers the item only if it spells each out.
pub(crate) fn mark_secrets(items: &mut Items, host: &HostPaths) {
    use super::items::WHOLE_PATH;
    for item in items.list.iter_mut().filter(|i| super::secrets::may_name_secret(&i.text)) {
        item.secret_words = match (item.kind, item.name.as_deref()) {
            (ItemKind::Path | ItemKind::NormalizedPath, _) if super::secrets::secret(&item.text).is_some() => vec![WHOLE_PATH],
            (ItemKind::Command, Some(_)) => secret_words(&item.args, host),
            _ => Vec::new(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::items;
    use crate::policy::InputKind;

    fn paths(line: &str, host: &HostPaths) -> Vec<(String, bool)> {
        let inputs = [line.to_owned()];
        let items = items::of(InputKind::Command { shell: crate::shell::Shell::Posix }, &inputs);
        named_paths(&items, host).into_iter().map(|p| (p.path, p.written)).collect()
    }

    #[test]
    fn a_line_names_its_redirect_targets_words_and_awk_strings() {
        let none = HostPaths::default();
        let has = |line: &str, path: &str, written: bool| {
            let found = paths(line, &none);
            assert!(found.contains(&(path.to_owned(), written)), "{line}: {found:?}");
        };
        has("echo x > .git/hooks/pre-commit", ".git/hooks/pre-commit", true);
        has("cat < ~/.ssh/id_rsa", "~/.ssh/id_rsa", false);
        has("cat ~/.ssh/id_rsa", "~/.ssh/id_rsa", false);
        has("cp ~/.ssh/id_rsa /tmp", "~/.ssh/id_rsa", true);
        has("cp ~/.ssh/id_rsa /tmp", "/tmp", true);
        has("sudo tee -a .bashrc", ".bashrc", true);
        has("sort -o .git/config x", ".git/config", true);
        has("dd if=x of=.git/config", ".git/config", true);
        has("git --git-dir=.git log", ".git", true);
        // awk can write (`print > "f"`), so what it names counts as written.
        has(r#"awk 'BEGIN{while((getline l < "/secrets/key") > 0) print l}'"#, "/secrets/key", true);
        has("sh -c 'cat .env'", ".env", false);
        // A URL, an option and nothing at all are no paths.
        assert!(paths("curl https://x/.env -s", &none).iter().all(|(p, _)| p != "https://x/.env" && p != "-s"));
    }

    #[test]
    fn home_and_working_directory_are_read_where_the_host_names_them() {
        let host = HostPaths { home: Some("/home/u/".into()), cwd: Some("/work".into()) };
        for (line, path) in [
            ("cat ~/.ssh/id_rsa", "/home/u/.ssh/id_rsa"),
            ("cat $HOME/.ssh/id_rsa", "/home/u/.ssh/id_rsa"),
            ("cat ${HOME}/.ssh/id_rsa", "/home/u/.ssh/id_rsa"),
            ("cat $PWD/.env", "/work/.env"),
            ("cat .env", "/work/.env"),
            ("cat /etc/passwd", "/etc/passwd"),
            ("cat ~other/x", "~other/x"),
        ] {
            let found = paths(line, &host);
            assert!(found.iter().any(|(p, _)| p == path), "{line}: {found:?}");
        }
    }
}
