//! The hard-coded denial no setting can lift: removing `/`, a home directory, the current
//! directory or its parents, in every flag spelling and path form.
//!
//! It works on parsed words, so quoting (`rm -rf '/'`), escapes (`\rm`), paths to the binary
//! (`/bin/rm`), wrappers (`sudo rm`), option order (`rm / -rf`), extra operands
//! (`rm -rf /tmp /`), traversal (`/tmp/../..`), globs (`/*`, `*`) and simple brace
//! expansion (`{x,/}`) all reduce to the same check.

use super::hazards::{base_name, effective_command};
use serde::Serialize;

/// A removal that is always refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CatastrophicRm {
    /// The operand as written (after quote removal).
    pub operand: String,
    /// What it amounts to: `/`, `~`, `$HOME`, `.` or `..`.
    pub target: String,
}

/// Bounds brace expansion so a hostile operand cannot explode.
const MAX_EXPANSIONS: usize = 64;

/// The first operand of an `rm` (possibly behind wrappers) that would remove a protected tree.
pub fn catastrophic_rm(name: &str, args: &[String]) -> Option<CatastrophicRm> {
    let (command, args) = effective_command(name, args);
    if !base_name(command).eq_ignore_ascii_case("rm") {
        return None;
    }
    let mut operands_only = false;
    for arg in args {
        if !operands_only && arg == "--" {
            operands_only = true;
            continue;
        }
        if !operands_only && arg.starts_with('-') && arg.len() > 1 {
            continue;
        }
        for expanded in expand_braces(arg) {
            if let Some(target) = protected_target(&expanded) {
                return Some(CatastrophicRm { operand: arg.clone(), target });
            }
        }
    }
    None
}

/// Expands `pre{a,b}post` alternatives, one group at a time, up to [`MAX_EXPANSIONS`] results.
fn expand_braces(word: &str) -> Vec<String> {
    let mut done = Vec::new();
    let mut pending = vec![word.to_owned()];
    while let Some(current) = pending.pop() {
        if done.len() + pending.len() >= MAX_EXPANSIONS {
            done.push(current);
            continue;
        }
        let group = current.find('{').and_then(|open| {
            let close = open + current.get(open..)?.find('}')?;
            let inner = current.get(open + 1..close)?;
            inner.contains(',').then(|| (open, close, inner.to_owned()))
        });
        match group {
            Some((open, close, inner)) => {
                let (pre, post) = (current.get(..open).unwrap_or_default(), current.get(close + 1..).unwrap_or_default());
                for alternative in inner.split(',') {
                    pending.push(format!("{pre}{alternative}{post}"));
                }
            }
            None => done.push(current),
        }
    }
    done
}

/// What a path operand amounts to, when it is a protected tree.
fn protected_target(operand: &str) -> Option<String> {
    // `dir/*`, `*` and `.*` remove everything in the directory.
    let operand = if operand == "*" || operand == ".*" {
        "."
    } else {
        operand.strip_suffix("/*").or_else(|| operand.strip_suffix("/.*")).map_or(operand, |base| if base.is_empty() { "/" } else { base })
    };
    let (root, rest) = split_root(operand);
    let depth = normalized_depth(rest);
    match root {
        Root::Filesystem => (depth <= 0).then(|| "/".to_owned()),
        Root::Home(name) => (depth <= 0).then_some(name),
        Root::Cwd => (depth <= 0).then(|| if depth == 0 { ".".to_owned() } else { "..".to_owned() }),
    }
}

enum Root {
    Filesystem,
    /// `~`, `~user`, `$HOME`, `${HOME}`.
    Home(String),
    /// The current directory, also as `$PWD`.
    Cwd,
}

fn split_root(path: &str) -> (Root, &str) {
    if let Some(rest) = path.strip_prefix('/') {
        return (Root::Filesystem, rest);
    }
    for home in ["${HOME}", "$HOME"] {
        if let Some(rest) = path.strip_prefix(home).filter(|r| r.is_empty() || r.starts_with('/')) {
            return (Root::Home(home.to_owned()), rest);
        }
    }
    for pwd in ["${PWD}", "$PWD"] {
        if let Some(rest) = path.strip_prefix(pwd).filter(|r| r.is_empty() || r.starts_with('/')) {
            return (Root::Cwd, rest);
        }
    }
    if path.starts_with('~') {
        let end = path.find('/').unwrap_or(path.len());
        let (user, rest) = path.split_at(end);
        return (Root::Home(user.to_owned()), rest);
    }
    (Root::Cwd, path)
}

/// How far below its root a path ends after collapsing `.` and `..`: 0 is the root itself,
/// negative is above it. Components never climb back once above the root, as in the shell.
fn normalized_depth(path: &str) -> i64 {
    let mut depth: i64 = 0;
    let mut lowest: i64 = 0;
    for component in path.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                depth -= 1;
                lowest = lowest.min(depth);
            }
            _ => depth += 1,
        }
    }
    // `/tmp/../..` is `/`; `../x` is a sibling (not protected); `x/../..` is the parent.
    if lowest < 0 && depth <= lowest {
        lowest
    } else if lowest < 0 {
        1
    } else {
        depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(command: &str) -> Option<String> {
        let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        let (name, args) = words.split_first()?;
        catastrophic_rm(name, args).map(|c| c.target)
    }

    #[test]
    fn every_spelling_of_removing_root_is_caught() {
        for command in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm --recursive --force /",
            "rm -rfv /",
            "rm / -rf",
            "rm -rf -- /",
            "rm -rf /*",
            "rm -rf //",
            "rm -rf /tmp/../..",
            "rm -rf /./",
            "rm -rf /tmp /",
            "rm --no-preserve-root -rf /",
            "/bin/rm -rf /",
            "sudo rm -rf /",
            "sudo -u root rm -rf /",
            "env X=1 rm -rf /",
            "rm -rf {tmp,/}",
            "RM -rf /",
            "rm /",
        ] {
            assert_eq!(check(command).as_deref(), Some("/"), "{command}");
        }
    }

    #[test]
    fn home_current_and_parent_directories() {
        for (command, target) in [
            ("rm -rf ~", "~"),
            ("rm -rf ~/", "~"),
            ("rm -rf ~/*", "~"),
            ("rm ~ -rf", "~"),
            ("rm -rf ~/..", "~"),
            ("rm -rf ~bob", "~bob"),
            ("rm -rf $HOME", "$HOME"),
            ("rm -rf ${HOME}/", "${HOME}"),
            ("rm -rf $HOME/x/..", "$HOME"),
            ("rm -rf .", "."),
            ("rm -rf ./", "."),
            ("rm -rf ./*", "."),
            ("rm -rf *", "."),
            ("rm -rf .*", "."),
            ("rm -rf x/..", "."),
            ("rm -rf $PWD", "."),
            ("rm -rf ..", ".."),
            ("rm -rf ../", ".."),
            ("rm -rf ../*", ".."),
            ("rm -rf ../..", ".."),
            ("rm -rf x/../..", ".."),
        ] {
            assert_eq!(check(command).as_deref(), Some(target), "{command}");
        }
    }

    #[test]
    fn ordinary_removals_pass() {
        for command in [
            "rm -rf build",
            "rm -rf ./build",
            "rm -rf /tmp/x",
            "rm -rf ~/project/target",
            "rm -rf ../sibling",
            "rm file.txt",
            "rm -rf $HOME/tmp",
            "rm -- -rf",
            "ls /",
            "rmdir /",
            "echo rm -rf /",
        ] {
            assert_eq!(check(command), None, "{command}");
        }
    }

    #[test]
    fn brace_expansion_is_bounded() {
        let hostile = "{a,b}".repeat(40);
        assert!(expand_braces(&hostile).len() <= MAX_EXPANSIONS + 1);
    }
}
