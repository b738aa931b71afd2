//! The fuzz corpus as regression tests: every file kept in `tests/fuzz-corpus/<target>/` goes
//! through the same property checks the fuzz target runs (`fuzz/properties/`, included by path),
//! on stable and without cargo-fuzz. A `crash-*` file is an input that broke a property; each has
//! a test of its own, named after the property, so a fix shows up as that test turning green.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

// The fuzz crate uses every item; this test only calls each target's `check`.
#[allow(dead_code)]
#[path = "../fuzz/properties/mod.rs"]
mod properties;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus").join(target)
}

/// The corpus files of a target, crash inputs excepted (they have tests of their own), by name.
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = corpus_dir(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file() && !p.file_name().unwrap().to_string_lossy().starts_with("crash-"))
        .collect();
    files.sort();
    files
}

/// Runs every corpus file through `check`, then fails naming each file whose check panicked.
fn replay(target: &str, check: fn(&[u8])) {
    let files = corpus(target);
    assert!(!files.is_empty(), "no corpus for {target}");
    let failed: Vec<String> = files
        .iter()
        .filter(|file| {
            let data = std::fs::read(file).unwrap();
            catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|file| file.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{target}: {} of {} corpus files break a property:\n{}", failed.len(), files.len(), failed.join("\n"));
}

#[test]
fn shell_analysis_corpus_keeps_its_properties() {
    replay("shell_analysis", properties::shell_analysis::check);
}

#[test]
fn settings_readers_corpus_keeps_its_properties() {
    replay("settings_readers", properties::settings_readers::check);
}

#[test]
fn mcp_names_corpus_keeps_its_properties() {
    replay("mcp_names", properties::mcp_names::check);
}

#[test]
fn decide_corpus_keeps_its_properties() {
    replay("decide", properties::decide::check);
}

/// Runs one crash input of `target` through its property check.
fn crash(target: &str, name: &str, check: fn(&[u8])) {
    let path = corpus_dir(target).join(name);
    check(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
}

// ---- Inputs that broke a property. Each test fails while its bug is open, whatever the environment. ----

/// `! ! ls`: bash runs `ls` (the second `!` negates again); the analysis reports a command named `!`
/// with argument `ls`, so rules on `ls` (`^rm\b` for `! ! rm -rf x`) never see it.
#[test]
fn crash_shell_double_bang_sub_command_names_the_program_bash_runs() {
    crash("shell_analysis", "crash-double-bang", properties::shell_analysis::check);
}

/// `!;f` in rc: `!` is read as a command in context but as nothing when analysed alone.
#[test]
fn crash_shell_rc_bang_word_sub_command_means_the_same_alone() {
    crash("shell_analysis", "crash-rc-bang-word", properties::shell_analysis::check);
}

/// `f^#` in rc: `f^` is vouched for before a comment, but not alone (a trailing `^` joins words).
#[test]
fn crash_shell_rc_caret_before_comment_sub_command_is_vouched_alone_too() {
    crash("shell_analysis", "crash-rc-caret-comment", properties::shell_analysis::check);
}

/// `x[$3!|!|1`: a `!` after a `|` was a command named `!` in context and a bare negation alone; bash
/// refuses it, so it is not vouched for.
#[test]
fn crash_shell_bang_after_pipe_sub_command_is_vouched_alone_too() {
    crash("shell_analysis", "crash-bang-after-pipe", properties::shell_analysis::check);
}

/// `{ }{!}` in rc: a `!` right before a group's closer was a command named `!` in context and a
/// prefix operator with no command alone; it is not vouched for either way (found by the
/// 10 M-execution campaign; fuzz/RESULTS.md).
#[test]
fn crash_shell_rc_bang_before_closer_sub_command_is_vouched_alone_too() {
    crash("shell_analysis", "crash-rc-bang-before-closer", properties::shell_analysis::check);
}

/// `!>{!\u{a4}^}` in rc: a `^` right before a closer (`}`, `)`) was vouched for in context and
/// not alone, where it ends the input; it joins nothing either way and is not vouched for (found
/// by the `shell_analysis` campaign; fuzz/RESULTS.md).
#[test]
fn crash_shell_rc_caret_before_closer_sub_command_is_vouched_alone_too() {
    crash("shell_analysis", "crash-rc-caret-before-closer", properties::shell_analysis::check);
}

/// `!\\` and a newline, then a blank, in rc: the continuation after the prefix operator `!` made
/// it a command named `!` in context, where alone it was an operator with no command (and
/// `!\\` + newline + `rm x` a command named `!`, not `rm`). Found by the `shell_analysis`
/// campaign; fuzz/RESULTS.md.
#[test]
fn crash_shell_rc_bang_continuation_sub_command_is_vouched_alone_too() {
    crash("shell_analysis", "crash-rc-bang-continuation", properties::shell_analysis::check);
}

/// A Roo mode whose `allowedServers` lists `*`: Roo compares names exactly, but the entry `*:*` allowed
/// every server (found by the 10 M-execution `settings_readers` campaign; fuzz/RESULTS.md).
#[test]
fn crash_settings_roo_star_server_is_never_looser_than_the_seed() {
    crash("settings_readers", "crash-roo-star-server", properties::settings_readers::check);
}

/// An untrusted layer's confirm rule (here one that does not compile) turns a default deny into confirm.
#[test]
fn crash_decide_untrusted_confirm_rule_never_lowers_the_outcome() {
    crash("decide", "crash-untrusted-confirm-lowers-deny", properties::decide::check);
}

/// `substitutions: deny`, `unparsedCommands: confirm`: an allowing default allows a line the analysis
/// cannot vouch for although the tool has a deny rule.
#[test]
fn crash_decide_fallback_never_allows_an_unvouched_line_of_a_restricted_tool() {
    crash("decide", "crash-fallback-allows-unvouched", properties::decide::check);
}

/// `alwaysAllowToolActions` turns the confirm fallback into allow before the unvouched-line guard.
#[test]
fn crash_decide_legacy_always_allow_never_allows_an_unvouched_input_of_a_restricted_tool() {
    crash("decide", "crash-legacy-allows-unvouched", properties::decide::check);
}

/// `PAGER=x` with allow rules `""` then `.`: the assignment exception looks only at the first
/// matching allow rule, so removing `""` turns the tool's default deny into allow.
#[test]
fn crash_decide_removing_an_allow_rule_never_turns_a_decision_into_allow() {
    crash("decide", "crash-assignment-cover-first-rule-only", properties::decide::check);
}

/// A confirm token rule `..` on a path tool: `/////..` was taken for a program named `..` (a
/// program's path meets the rules for its name), so the written path asked where its normalised
/// form `/` fell to the default deny.
#[test]
fn crash_decide_a_path_is_never_looser_than_its_normalised_form() {
    crash("decide", "crash-token-name-of-dot-dot-path", properties::decide::check);
}

/// A confirm token rule `///` on a path tool over a denying default: the written `///` asked, the
/// `/` it names was denied. A path is now also decided in normal form, the stricter standing.
#[test]
fn crash_decide_a_spelling_of_a_path_never_loosens_its_default() {
    crash("decide", "crash-confirm-on-a-spelling-of-a-path", properties::decide::check);
}
