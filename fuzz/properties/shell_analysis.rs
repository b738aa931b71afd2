//! Target `shell_analysis`: any bytes, read as lossy UTF-8, through every [`Shell`].
//!
//! Properties, per shell:
//! - no panic, and the same analysis twice (and `analyze` is `analyze_in(Posix, …)`);
//! - every item's byte range lies inside the line on character boundaries;
//! - when the line is vouched for (`cannot_vouch` is `None`), each command item's own source text,
//!   analysed again, is vouched for too and has an item naming the same program with the same
//!   arguments (a sub-command means the same thing on its own);
//! - POSIX only: a vouched command re-spelt with every word single-quoted is vouched for and reads
//!   back as the same program and arguments (the rendering loses nothing rules rely on).

use toolgate::shell::{analyze, analyze_in, Context, Shell, ShellAnalysis, SubCommand, SubCommandKind};

/// Every shell the engine knows.
pub const SHELLS: [Shell; 7] = [Shell::Posix, Shell::Nushell, Shell::Elvish, Shell::Rc, Shell::PowerShell, Shell::Cmd, Shell::Unknown];

/// Longest line worth analysing: the parser is linear, and longer inputs only slow the fuzzer.
const MAX_LINE: usize = 4096;

pub fn check(data: &[u8]) {
    if data.len() > MAX_LINE {
        return;
    }
    let line = String::from_utf8_lossy(data);
    for shell in SHELLS {
        check_line(shell, &line);
    }
}

/// All properties for one line in one shell.
pub fn check_line(shell: Shell, line: &str) {
    let first = analyze_in(shell, line);
    assert_eq!(first, analyze_in(shell, line), "deterministic: {shell:?} analysed {line:?} differently twice");
    if shell == Shell::Posix {
        assert_eq!(first, analyze(line), "analyze is analyze_in(Posix) for {line:?}");
    }
    for item in &first.items {
        assert!(
            item.start <= item.end && line.get(item.start..item.end).is_some(),
            "range {}..{} of {item:?} is not a slice of {line:?} ({shell:?})",
            item.start,
            item.end
        );
        if item.kind == SubCommandKind::Redirect {
            assert!(item.name.is_none(), "a redirect names no program: {item:?} in {line:?} ({shell:?})");
        }
    }
    if first.cannot_vouch.is_some() {
        return;
    }
    for item in first.items.iter().filter(|i| i.kind == SubCommandKind::Command && i.name.is_some()) {
        // A payload item's range is the whole `sh -c …` command, not the payload's own text.
        if item.context != Context::ShellPayload {
            check_source_again(shell, line, item);
        }
        // An empty command word (`''`) runs nothing; the analysis may drop such a command alone.
        if shell == Shell::Posix && item.name.as_deref() != Some("") {
            check_requoted(line, item);
        }
    }
}

fn same_command(a: &SubCommand, b: &SubCommand) -> bool {
    a.kind == SubCommandKind::Command && a.name == b.name && a.args == b.args
}

/// A vouched sub-command's source text, on its own, is vouched and runs the same program.
fn check_source_again(shell: Shell, line: &str, item: &SubCommand) {
    let source = line.get(item.start..item.end).unwrap_or_default();
    let again = analyze_in(shell, source);
    assert!(
        again.cannot_vouch.is_none(),
        "sub-command source vouched in context, not alone ({shell:?}): {source:?} from {line:?}: {:?}",
        again.cannot_vouch
    );
    assert!(
        again.items.iter().any(|i| same_command(i, item)),
        "sub-command source names another program alone ({shell:?}): {source:?} from {line:?}\n  in context: {item:?}\n  alone: {:?}",
        again.items
    );
}

/// POSIX single quotes: everything literal, `'` itself as `'\''`.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The command re-spelt with every word quoted reads back as the same program and arguments.
fn check_requoted(line: &str, item: &SubCommand) {
    let words: Vec<String> = item.name.iter().chain(item.args.iter()).map(|w| quote(w)).collect();
    let respelt = words.join(" ");
    let again: ShellAnalysis = analyze(&respelt);
    assert!(again.cannot_vouch.is_none(), "re-quoted command not vouched: {respelt:?} (from {line:?}): {:?}", again.cannot_vouch);
    let first = again.items.first();
    assert!(
        first.is_some_and(|i| i.context == Context::TopLevel && same_command(i, item)),
        "re-quoted command reads back differently: {respelt:?} (from {line:?})\n  was: {item:?}\n  now: {first:?}"
    );
}
