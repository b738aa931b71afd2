//! What an allow rule never covers.
//!
//! An allow rule says "this command is fine"; it cannot know that this particular call
//! writes a file, changes the environment, runs a substitution, or passes the one flag
//! that turns a read-only tool into one that executes or writes. Those are *hazards*: an
//! item that has one is never allowed by a rule (the tool's default still applies). The
//! flag hazards are the table [`EXECUTING_FLAGS`], looked up through wrappers such as
//! `sudo` and `env` (the wrapper model is `src/shell/runs.rs`).

use super::runs::{base_name, effective_command};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::sync::OnceLock;

/// The kind of a hazard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum HazardKind {
    /// Output redirected to a file (`> ~/.bashrc`); `/dev/null` is exempt.
    OutputRedirect,
    /// A leading `VAR=value` (`PAGER=… git log`, `LD_PRELOAD=…`).
    EnvAssignment,
    /// `$VAR`, `${…}`, `$(…)`, backticks, `$((…))`, `<(…)`, `>(…)`: the text is not what runs.
    Expansion,
    /// A flag from [`EXECUTING_FLAGS`].
    ExecutingFlag,
    /// A word names a network (UNC) path, `\\host\share` or `//host/share`: on Windows, opening it
    /// reads from that host and sends it the user's credentials (NTLM).
    NetworkPath,
    /// The text holds characters a person cannot see or that reorder what is shown (controls,
    /// bidirectional overrides, zero-width characters; see `crate::visible`): what a person
    /// approves would not be what runs.
    HiddenCharacters,
    /// The program that runs cannot be read from the text: its name is an expansion, it runs a
    /// script file or its standard input, an alias may rename it, or it is an interpreter given
    /// inline code (see `src/shell/runs.rs`).
    UnreadableProgram,
}

/// Why one item cannot be covered by an allow rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Hazard {
    /// What kind of hazard it is.
    pub kind: HazardKind,
    /// What triggered it: the redirect target, variable name, expansion text or flag.
    pub subject: String,
    /// Why it keeps allow rules off, in words.
    pub why: String,
}

impl Hazard {
    pub(crate) fn new(kind: HazardKind, subject: &str, why: &str) -> Self {
        Hazard { kind, subject: subject.to_owned(), why: why.to_owned() }
    }

    pub(crate) fn expansion(kind: &str, text: &str) -> Self {
        Hazard::new(HazardKind::Expansion, text, &format!("{kind}: the command that runs is not the text the rules see"))
    }
}

/// How a rule recognises the dangerous use of a command.
#[derive(Debug, Clone, Copy)]
pub enum FlagMatch {
    /// Any use of the command.
    Always,
    /// One of these options: exactly, as `--long=value`, or a two-letter short option with its value attached.
    Option(&'static [&'static str]),
    /// A short-option cluster containing this letter (`-i`, `-ni`, `-i.bak`).
    ShortCluster(char),
    /// One of these options before the first non-option word (git's global options).
    GlobalOption(&'static [&'static str]),
    /// A sed script with an `e` (execute) or `w`/`W` (write) command or flag.
    SedScript,
    /// An awk program that can run commands or write files (`system`, `|`, `>`, `getline`).
    AwkProgram,
}

/// One entry of the table: which commands, which use, why it matters, and where that is shown.
#[derive(Debug, Clone, Copy)]
pub struct FlagRule {
    pub commands: &'static [&'static str],
    pub matches: FlagMatch,
    pub why: &'static str,
    /// The manual page, advisory or peer rule that shows the flag runs or writes.
    pub source: &'static str,
}

const CODEX_SAFE: &str = "Codex is_safe_command (openai/codex codex-rs/core/src/command_safety/is_safe_command.rs)";

/// The flags that make read-only tools execute or write. Documented in docs/rule-engine.md.
pub const EXECUTING_FLAGS: &[FlagRule] = &[
    FlagRule {
        commands: &["find"],
        matches: FlagMatch::Option(&["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]),
        why: "find runs commands or deletes/writes files with this option", source: "find(1); Codex is_safe_command (UNSAFE_FIND_OPTIONS); VS Code's chat.tools.terminal.autoApprove defaults"
    },
    FlagRule {
        commands: &["git"],
        matches: FlagMatch::GlobalOption(&["-c", "--config-env", "-p", "--paginate", "--exec-path"]),
        why: "git's global option can set a pager or other command to run", source: "git(1) -c, --config-env, -p, --exec-path; Codex is_safe_command (git -c/--config-env)"
    },
    FlagRule {
        commands: &["git"],
        matches: FlagMatch::Option(&[
            "--output",
            "--ext-diff",
            "--exec",
            "--extcmd",
            "--upload-pack",
            "--receive-pack",
            "--open-files-in-pager",
            "-O",
        ]),
        why: "git writes a file or runs an external command with this option", source: "git-diff(1) --output, --ext-diff; git-grep(1) -O; Codex is_safe_command (UNSAFE_GIT_FLAGS)"
    },
    FlagRule { commands: &["rg"], matches: FlagMatch::Option(&["--pre"]), why: "ripgrep runs the --pre command on every file", source: "rg(1) --pre; Codex is_safe_command" },
    FlagRule {
        commands: &["rg"],
        matches: FlagMatch::Option(&["--hostname-bin", "--search-zip"]),
        why: "ripgrep runs the --hostname-bin program, or decompression programs with --search-zip",
        source: CODEX_SAFE,
    },
    FlagRule { commands: &["rg"], matches: FlagMatch::ShortCluster('z'), why: "rg -z runs decompression programs", source: CODEX_SAFE },
    FlagRule {
        commands: &["sed", "gsed"],
        matches: FlagMatch::ShortCluster('I'),
        why: "BSD sed -I edits files in place",
        source: "FreeBSD/macOS sed(1) -I extension; VS Code's chat.tools.terminal.autoApprove defaults (sed with e, i, I, f)",
    },
    FlagRule {
        commands: &["man"],
        matches: FlagMatch::Option(&["-P", "--pager", "-H", "--html"]),
        why: "man runs the given pager or browser command",
        source: "man-db man(1) -P pager, -H browser; GTFOBins \"man\" (the pager runs commands)",
    },
    FlagRule {
        commands: &["base64"],
        matches: FlagMatch::Option(&["-o", "--output"]),
        why: "base64 writes its output to a file",
        source: "macOS/BSD base64(1) -o, --output; Codex is_safe_command (base64 without -o/--output)",
    },
    FlagRule {
        commands: &["tree"],
        matches: FlagMatch::ShortCluster('o'),
        why: "tree -o writes its output to a file",
        source: "tree(1) -o filename",
    },
    FlagRule {
        commands: &["top"],
        matches: FlagMatch::Option(&["-k", "-r"]),
        why: "top kills or renices processes with this option",
        source: "VS Code's chat.tools.terminal.autoApprove defaults (microsoft/vscode @00a3a64: /top\\b.*-(k|r)\\b/ asks)",
    },
    FlagRule {
        commands: &["date"],
        matches: FlagMatch::Option(&["-s", "--set"]),
        why: "date -s sets the system clock",
        source: "GNU date(1) -s, --set",
    },
    FlagRule {
        commands: &["sed", "gsed"],
        matches: FlagMatch::Option(&["--in-place", "-f", "--file"]),
        why: "sed edits files in place, or reads a script that cannot be checked", source: "sed(1) -i, -f; VS Code's chat.tools.terminal.autoApprove defaults (sed with e, i, I, f)"
    },
    FlagRule { commands: &["sed", "gsed"], matches: FlagMatch::ShortCluster('i'), why: "sed -i edits files in place", source: "sed(1) -i; VS Code's chat.tools.terminal.autoApprove defaults" },
    FlagRule { commands: &["sed", "gsed"], matches: FlagMatch::SedScript, why: "the sed script executes commands (e) or writes files (w)", source: "GNU sed manual, \"e command\" and \"w filename\"; Claude Code advisory: sed command validation bypass allows arbitrary file writes (fixed in 2.0.31)" },
    FlagRule {
        commands: &["awk", "gawk", "mawk", "nawk"],
        matches: FlagMatch::AwkProgram,
        why: "the awk program can run commands or write files", source: "POSIX awk: system(), print > file, command | getline"
    },
    FlagRule {
        commands: &["awk", "gawk", "mawk", "nawk"],
        matches: FlagMatch::Option(&["-f", "--file"]),
        why: "the awk program comes from a file that cannot be checked", source: "POSIX awk -f progfile"
    },
    FlagRule { commands: &["xargs"], matches: FlagMatch::Always, why: "xargs runs its arguments as a command", source: "xargs(1); VS Code's chat.tools.terminal.autoApprove defaults (xargs asks)" },
    FlagRule { commands: &["eval", "source", "."], matches: FlagMatch::Always, why: "runs text or a script as shell commands", source: "bash(1), eval and source builtins; VS Code's chat.tools.terminal.autoApprove defaults (eval asks)" },
    FlagRule {
        commands: &["python", "python2", "python3", "pypy", "pypy3"],
        matches: FlagMatch::ShortCluster('c'),
        why: "python -c runs inline code", source: "python(1) -c"
    },
    FlagRule { commands: &["perl"], matches: FlagMatch::ShortCluster('e'), why: "perl -e runs inline code", source: "perlrun(1) -e" },
    FlagRule { commands: &["perl"], matches: FlagMatch::ShortCluster('E'), why: "perl -E runs inline code", source: "perlrun(1) -E" },
    FlagRule { commands: &["ruby"], matches: FlagMatch::ShortCluster('e'), why: "ruby -e runs inline code", source: "ruby(1) -e" },
    FlagRule {
        commands: &["node", "nodejs", "bun", "deno"],
        matches: FlagMatch::Option(&["-e", "--eval", "-p", "--print", "eval"]),
        why: "runs inline JavaScript", source: "node(1) -e, -p; deno eval; bun -e"
    },
    FlagRule { commands: &["php"], matches: FlagMatch::Option(&["-r", "--run"]), why: "php -r runs inline code", source: "php(1) -r" },
    FlagRule { commands: &["lua", "luajit"], matches: FlagMatch::Option(&["-e"]), why: "lua -e runs inline code", source: "lua(1) -e" },
    FlagRule {
        commands: &["tar", "gtar", "bsdtar"],
        matches: FlagMatch::Option(&[
            "--to-command",
            "--use-compress-program",
            "-I",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "-F",
        ]),
        why: "tar runs an external command with this option", source: "GNU tar manual: --to-command, --use-compress-program, --checkpoint-action, --info-script, --new-volume-script"
    },
    FlagRule { commands: &["zip"], matches: FlagMatch::Option(&["-TT", "--unzip-command"]), why: "zip runs the given test command", source: "zip(1) -TT, --unzip-command" },
    FlagRule {
        commands: &["sort"],
        matches: FlagMatch::Option(&["-o", "--output", "--compress-program"]),
        why: "sort writes its output to a file or runs a compressor", source: "sort(1) -o, --compress-program"
    },
    FlagRule {
        commands: &["curl"],
        matches: FlagMatch::Option(&[
            "-o",
            "--output",
            "-O",
            "--remote-name",
            "--remote-name-all",
            "-D",
            "--dump-header",
            "-c",
            "--cookie-jar",
            "-K",
            "--config",
            "--trace",
            "--trace-ascii",
            "--libcurl",
            "--stderr",
            "--output-dir",
        ]),
        why: "curl writes a file (or reads its options from one) with this option", source: "curl(1) -o, -O, -D, -c, -K, --trace, --libcurl, --stderr, --output-dir"
    },
    FlagRule { commands: &["env"], matches: FlagMatch::Option(&["-S", "--split-string"]), why: "env -S splits a string into a command", source: "env(1) -S, --split-string" },
];

fn option_matches(arg: &str, option: &str) -> bool {
    if arg == option {
        return true;
    }
    if let Some(long) = option.strip_prefix("--") {
        // getopt_long takes any unambiguous prefix of a long option (`--out=x` is `--output=x`);
        // whether another option shares the prefix is not known here, so every prefix counts.
        let given = arg.strip_prefix("--").map(|rest| rest.split_once('=').map_or(rest, |(name, _)| name));
        return given.is_some_and(|given| !given.is_empty() && long.starts_with(given));
    }
    if option.starts_with('-') && option.len() > 2 {
        return arg.strip_prefix(option).is_some_and(|rest| rest.starts_with('='));
    }
    // `-ofile`: a two-letter short option with its value attached.
    option.len() == 2 && option.starts_with('-') && arg.starts_with(option) && !arg.starts_with("--")
}

fn short_cluster_has(arg: &str, letter: char) -> bool {
    arg.strip_prefix('-').filter(|rest| !rest.starts_with('-')).and_then(|rest| rest.chars().next().map(|first| (first, rest))).is_some_and(
        |(first, rest)| {
            // Letters up to the first non-letter: `-i.bak` has `i`; `-n5` has `n`.
            first.is_ascii_alphabetic() && rest.chars().take_while(char::is_ascii_alphabetic).any(|c| c == letter)
        },
    )
}

fn sed_script_writes_or_executes(args: &[String]) -> bool {
    let mut scripts: Vec<&str> = Vec::new();
    let mut iter = args.iter().peekable();
    let mut explicit = false;
    while let Some(arg) = iter.next() {
        if arg == "-e" || arg == "--expression" {
            explicit = true;
            if let Some(script) = iter.next() {
                scripts.push(script);
            }
        } else if let Some(script) = arg.strip_prefix("--expression=") {
            explicit = true;
            scripts.push(script);
        } else if !arg.starts_with('-') && !explicit && scripts.is_empty() {
            scripts.push(arg);
        }
    }
    scripts.iter().any(|script| sed_commands_execute_or_write(script))
}

/// Looks for `e`, `w` or `W` as a sed command, or `e`/`w` among the flags of an `s` command.
fn sed_commands_execute_or_write(script: &str) -> bool {
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            's' | 'y' => {
                // s/re/replacement/flags with any delimiter.
                let Some(&delim) = chars.get(i + 1) else { return false };
                let mut seen = 0;
                i += 2;
                while let Some(&ch) = chars.get(i) {
                    if ch == '\\' {
                        i += 2;
                        continue;
                    }
                    if ch == delim {
                        seen += 1;
                        if seen == 2 {
                            break;
                        }
                    }
                    i += 1;
                }
                i += 1;
                while let Some(&flag) = chars.get(i) {
                    if c == 's' && matches!(flag, 'e' | 'w' | 'W') {
                        return true;
                    }
                    if !flag.is_ascii_alphanumeric() {
                        break;
                    }
                    i += 1;
                }
            }
            'e' | 'w' | 'W' => return true,
            // Text after a/i/c commands and labels are not commands.
            'a' | 'i' | 'c' | ':' | 'b' | 't' | 'T' => {
                while chars.get(i).is_some_and(|ch| *ch != '\n' && *ch != ';') {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    false
}

fn awk_program_executes_or_writes(args: &[String]) -> bool {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if matches!(arg.as_str(), "-F" | "-v" | "--assign" | "--field-separator") {
            iter.next();
            continue;
        }
        if arg.starts_with('-') {
            continue;
        }
        return ["system", "|", ">", "getline"].iter().any(|needle| arg.contains(needle));
    }
    false
}

fn rule_applies(rule: &FlagRule, args: &[String]) -> Option<String> {
    match rule.matches {
        FlagMatch::Always => Some(String::new()),
        FlagMatch::Option(options) => {
            args.iter().take_while(|a| a.as_str() != "--").find(|a| options.iter().any(|o| option_matches(a, o))).cloned()
        }
        FlagMatch::ShortCluster(letter) => args.iter().take_while(|a| a.as_str() != "--").find(|a| short_cluster_has(a, letter)).cloned(),
        FlagMatch::GlobalOption(options) => {
            args.iter().take_while(|a| a.starts_with('-')).find(|a| options.iter().any(|o| option_matches(a, o))).cloned()
        }
        FlagMatch::SedScript => sed_script_writes_or_executes(args).then(|| "script".to_owned()),
        FlagMatch::AwkProgram => awk_program_executes_or_writes(args).then(|| "program".to_owned()),
    }
}

/// Whether a word (or the value of `--opt=value`) names a network path as Windows reads it: a UNC
/// name `\\host\share`, its `\\?\UNC\`, `\\.\UNC\` and `\??\UNC\` spellings, or
/// `//host/share`, which Git Bash, MSYS and Cygwin pass on as UNC. Sources: Microsoft, "Naming
/// Files, Paths, and Namespaces" (UNC names, the `\\?\` and `\\.\` prefixes) and "Object
/// Manager namespace" (`\??\`);
/// Claude Code's docs, "Network paths on Windows", and changelog 2.1.216, 2.1.233–2.1.234.
pub(crate) fn names_network_path(word: &str) -> bool {
    let value = word.split_once('=').map_or(word, |(_, v)| v);
    [word, value].into_iter().any(|w| {
        let lower = w.to_ascii_lowercase();
        let host_after =
            |prefix: &str| lower.strip_prefix(prefix).is_some_and(|rest| rest.chars().next().is_some_and(|c| c.is_alphanumeric()));
        ["\\\\?\\unc\\", "\\\\.\\unc\\", "\\??\\unc\\", "//?/unc/", "//./unc/"].iter().any(|p| lower.starts_with(p))
            || host_after("\\\\")
            || (host_after("//") && lower.get(2..).is_some_and(|rest| rest.contains('/')))
    })
}

/// The network-path hazard of a command's words, if one names such a path.
pub(crate) fn network_path_hazard<'a>(words: impl IntoIterator<Item = &'a String>) -> Option<Hazard> {
    let word = words.into_iter().find(|w| names_network_path(w))?;
    Some(Hazard::new(
        HazardKind::NetworkPath,
        word,
        "names a network path: on Windows, opening it reads from another host and sends it your credentials",
    ))
}

/// Every command the hazard checks know, by name: those [`EXECUTING_FLAGS`] lists, each with its
/// rules in table order, and the wrappers, with no rules unless the table lists them too.
fn flag_index() -> &'static FxHashMap<&'static str, Vec<&'static FlagRule>> {
    static BY_COMMAND: OnceLock<FxHashMap<&'static str, Vec<&'static FlagRule>>> = OnceLock::new();
    BY_COMMAND.get_or_init(|| {
        let mut index: FxHashMap<&'static str, Vec<&'static FlagRule>> = FxHashMap::default();
        for wrapper in super::runs::wrapper_names() {
            index.entry(wrapper).or_default();
        }
        for rule in EXECUTING_FLAGS {
            for command in rule.commands {
                index.entry(command).or_default().push(rule);
            }
        }
        index
    })
}

/// The rules of [`EXECUTING_FLAGS`] that name this command, in table order; looked up, not scanned.
fn rules_for(command: &str) -> impl Iterator<Item = &'static FlagRule> {
    flag_index().get(command).into_iter().flatten().copied()
}

/// Whether a command name is a wrapper or has executing-flag rules: a command that is neither
/// (most are) has no such hazard, whatever its arguments. One look-up instead of a scan of the
/// wrappers and a look-up of the rules.
fn has_flag_checks(command: &str) -> bool {
    flag_index().contains_key(command)
}

/// The executing-flag hazards of one command, looked up through wrappers.
pub(crate) fn hazards_of_command(name: &str, args: &[String]) -> Vec<Hazard> {
    if !has_flag_checks(base_name(name)) {
        return Vec::new();
    }
    hazards_through_wrappers(name, args)
}

/// [`hazards_of_command`] without its prefilter: the command and, through its wrappers, the
/// command it runs, each checked against its rules.
fn hazards_through_wrappers(name: &str, args: &[String]) -> Vec<Hazard> {
    let mut found = Vec::new();
    let effective = effective_command(name, args);
    let wrapped = (effective.0 != name).then_some(effective);
    for (command, command_args) in std::iter::once((name, args)).chain(wrapped) {
        let base = base_name(command);
        for rule in rules_for(base) {
            if let Some(flag) = rule_applies(rule, command_args) {
                let subject = if flag.is_empty() { base.to_owned() } else { format!("{base} {flag}") };
                found.push(Hazard::new(HazardKind::ExecutingFlag, &subject, rule.why));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn flagged(command: &str) -> bool {
        let w = words(command);
        let (name, args) = w.split_first().unwrap();
        !hazards_of_command(name, args).is_empty()
    }

    /// The byte search finds the last path component `rsplit` finds.
    #[test]
    fn base_name_is_the_last_path_component() {
        let alphabet = ['a', '/', '.', 'é', '\\', ' '];
        for s in crate::test_support::random_strings(&alphabet, 5_000, 10, 0x9E37_79B9_7F4A_7C15) {
            assert_eq!(base_name(&s), s.rsplit('/').next().unwrap_or(&s), "{s:?}");
        }
    }

    /// The prefilter answers as the checks do: a command it skips has no executing-flag hazard,
    /// whatever its arguments, and every command it keeps is checked in full.
    #[test]
    fn commands_the_prefilter_skips_have_no_flag_hazards() {
        let mut names: Vec<String> = EXECUTING_FLAGS.iter().flat_map(|r| r.commands.iter().map(|c| c.to_string())).collect();
        names.extend(crate::shell::runs::wrapper_names().map(str::to_owned));
        names.extend(["", "gitx", "GIT", "ls", "cmd5", "Sudo", "find.exe"].map(String::from));
        let with_paths: Vec<String> = names.iter().map(|n| format!("/usr/bin/{n}")).collect();
        names.extend(with_paths);
        // Arguments: options and values, and the listed commands, which a wrapper runs.
        let mut words: Vec<&str> =
            vec!["-exec", "-c", "x", "--", "-u", "root", "A=1", "-i", "s/a/b/e", "BEGIN{system(\"x\")}", "-o", "--output=f"];
        words.extend(EXECUTING_FLAGS.iter().flat_map(|r| r.commands.iter().copied()));
        let mut next = crate::test_support::random_below(0xC0FF_EE11);
        let mut flagged = 0;
        for _ in 0..20_000 {
            let name = &names[next(names.len())];
            let args: Vec<String> = (0..next(5)).map(|_| words[next(words.len())].to_owned()).collect();
            let full = hazards_through_wrappers(name, &args);
            assert_eq!(hazards_of_command(name, &args), full, "{name} {args:?}");
            flagged += usize::from(!full.is_empty());
        }
        assert!(flagged > 500, "too few flagged commands to compare: {flagged}");
    }

    /// The index by command gives the rules a scan of the table gives, in the same order.
    #[test]
    fn rules_are_looked_up_as_the_table_lists_them() {
        let mut names: Vec<&str> = EXECUTING_FLAGS.iter().flat_map(|r| r.commands.iter().copied()).collect();
        names.extend(["", "gitx", "GIT", "ls"]);
        for name in names {
            let scanned: Vec<_> = EXECUTING_FLAGS.iter().filter(|r| r.commands.contains(&name)).map(|r| (r.commands, r.why)).collect();
            let looked_up: Vec<_> = rules_for(name).map(|r| (r.commands, r.why)).collect();
            assert_eq!(looked_up, scanned, "{name}");
        }
    }

    #[test]
    fn options_match_exactly_with_values_or_attached() {
        assert!(option_matches("--output=x", "--output"));
        assert!(option_matches("-ofile", "-o"));
        assert!(option_matches("-fprint", "-fprint"));
        assert!(!option_matches("-fprintx", "-fprint"));
        assert!(!option_matches("--outputs", "--output"));
        // GNU long options may be abbreviated to any unambiguous prefix.
        assert!(option_matches("--out=x", "--output"));
        assert!(option_matches("--outp", "--output"));
        assert!(!option_matches("--", "--output"));
        assert!(!option_matches("--outx=1", "--output"));
    }

    #[test]
    fn network_paths_in_every_spelling_windows_reads() {
        for word in [
            r"\\host\share\x",
            r"\\?\UNC\host\share",
            r"\\.\unc\host\s",
            r"\??\UNC\h\s",
            "//host/share/x",
            "--file=\\\\h\\s",
            "//?/UNC/h/s",
        ] {
            assert!(names_network_path(word), "{word}");
        }
        for word in ["/usr/bin", "./x", "https://example.com/x", "//", "\\\\?\\C:\\x", "C:\\x", "a//b", "x=y"] {
            assert!(!names_network_path(word), "{word}");
        }
    }

    #[test]
    fn short_clusters() {
        assert!(short_cluster_has("-i", 'i'));
        assert!(short_cluster_has("-ni", 'i'));
        assert!(short_cluster_has("-i.bak", 'i'));
        assert!(!short_cluster_has("--in", 'i'));
        assert!(!short_cluster_has("-n", 'i'));
    }

    #[test]
    fn the_table_flags_what_it_lists_and_leaves_plain_uses_alone() {
        for bad in [
            "find . -name x -exec rm {} ;",
            "find . -delete",
            "git -c core.pager=sh log",
            "git --paginate log",
            "git diff --output=/tmp/x",
            "git diff --ext-diff",
            "rg --pre ./x foo",
            "rg --pre=./x foo",
            "sed -i s/a/b/ f",
            "sed -ni p f",
            "sed s/a/b/e f",
            "sed -e 1e f",
            "sed w/tmp/x f",
            "xargs rm",
            "python3 -c print(1)",
            "node -e x",
            "perl -pe s/a/b/",
            "sort -o out in",
            "curl -o x http://e",
            "awk {system(\"sh\")} f",
            "tar -I sh -xf a.tar",
            "sudo find . -delete",
            "env A=1 find / -delete",
            "timeout 5 find . -exec ls ;",
            "/usr/bin/find . -delete",
        ] {
            assert!(flagged(bad), "{bad}");
        }
        for fine in [
            "find . -name x",
            "git log -p",
            "git status",
            "rg foo",
            "sed s/a/b/ f",
            "sed -n p f",
            "python3 x.py",
            "sort in",
            "curl http://e",
            "awk {print} f",
            "tar -xf a.tar",
            "sed s/west/east/ f",
        ] {
            assert!(!flagged(fine), "{fine}");
        }
    }
}
