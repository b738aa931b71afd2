//! Command lines of shells other than the POSIX family (placeholder: nothing is vouched for).

use super::{Shell, ShellAnalysis};

/// Analyses `command` as `shell` would run it.
pub(super) fn analyze(shell: Shell, command: &str) -> ShellAnalysis {
    let _ = command;
    ShellAnalysis { items: Vec::new(), cannot_vouch: Some(format!("the {shell:?} shell's syntax is not analysed")) }
}
