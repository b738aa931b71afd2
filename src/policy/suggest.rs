//! "Always allow" patterns built the way today's Zed builds them.
//!
//! Zed (`crates/agent/src/pattern_extraction.rs`) turns one terminal sub-command into a
//! regex from its leading `VAR=value` assignments, its command name and — when the next word
//! is not a flag — its first argument: `cargo build --release` gives `^cargo\s+build(\s|$)`,
//! `PAGER=blah git log --oneline` gives `^PAGER=blah\s+git\s+log(\s|$)`, `ls -la` gives
//! `^ls\b`. Path commands (`./x.sh`, `/usr/bin/x`) get no pattern. Text is escaped with
//! `regex::escape` and then `\-` is put back to `-` (Zed's `escape_for_pattern`); regex-lite's
//! `escape` escapes the same characters, so the pattern text is identical.
//!
//! Where toolgate is stricter than Zed it stays so, and each place says why:
//! - no pattern for interpreters and wrappers ([`NEVER_SUGGESTED`]), which run other code;
//! - no assignment whose value Zed would have kept quoted (the text has lost the quotes);
//! - no path or URL pattern that would not cover the very input it was drawn from (for paths,
//!   also its normalised form, which is checked too), such as `^\./src/` for `./src/a.rs`;
//! - URL patterns end at the host (`(?:[:/?#]|$)`), so `github.com` does not also cover
//!   `github.com.evil.example`, which Zed's `^https?://github\.com` does.

use super::literal_program::LiteralProgram;
use super::path::normalize_path;
use super::rules::MatcherKind;
use super::suggestion::Suggestion;
#[cfg(feature = "shell")]
use crate::shell::{SubCommand, SubCommandKind};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Commands never offered as an "always allow" pattern: they run other code (interpreters,
/// shells) or another command (wrappers), so a pattern for them would vouch for anything.
/// Sorted and lower-case, for [`never_suggested`]'s binary search.
pub(crate) const NEVER_SUGGESTED: &[&str] = &[
    "ash",
    "bash",
    "builtin",
    "bun",
    "busybox",
    "command",
    "csh",
    "dash",
    "deno",
    "doas",
    "env",
    "eval",
    "exec",
    "fish",
    "ionice",
    "ksh",
    "lua",
    "luajit",
    "mksh",
    "nice",
    "node",
    "nodejs",
    "nohup",
    "osascript",
    "parallel",
    "perl",
    "php",
    "powershell",
    "pwsh",
    "pypy",
    "pypy3",
    "python",
    "python2",
    "python3",
    "ruby",
    "sh",
    "source",
    "stdbuf",
    "su",
    "sudo",
    "tcsh",
    "time",
    "timeout",
    "watch",
    "xargs",
    "zsh",
];

/// The words a terminal pattern is built from.
struct Prefix<'a> {
    assignments: Vec<&'a str>,
    name: &'a str,
    subcommand: Option<&'a str>,
}

/// Zed's `escape_for_pattern`: escape every regex metacharacter except `-`.
fn escape(text: &str) -> Cow<'_, str> {
    // Command words are nearly always made of characters no regex escapes: used as they are.
    if text.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-=/:,@%".contains(&b)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(escape_by_regex_lite(text))
}

/// The plain algorithm [`escape`] must agree with.
fn escape_by_regex_lite(text: &str) -> String {
    regex_lite::escape(text).replace("\\-", "-")
}

/// Zed's `is_plain_command_token`: letters, digits, `-` and `_`, not starting with `-`.
fn is_plain(token: &str) -> bool {
    !token.is_empty() && !token.starts_with('-') && token.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

/// The longest name in [`NEVER_SUGGESTED`] (`powershell`).
const LONGEST_NEVER_SUGGESTED: usize = 10;

/// Whether [`NEVER_SUGGESTED`] holds `name`, ignoring ASCII case: a binary search for the
/// name lower-cased on the stack, where a scan compared it with every entry on each suggestion.
fn never_suggested(name: &str) -> bool {
    let mut lower = [0u8; LONGEST_NEVER_SUGGESTED];
    let Some(folded) = lower.get_mut(..name.len()) else { return false };
    folded.copy_from_slice(name.as_bytes());
    folded.make_ascii_lowercase();
    NEVER_SUGGESTED.binary_search_by(|entry| entry.as_bytes().cmp(folded)).is_ok()
}

/// `NAME=value` or `NAME+=value` with a valid shell name, split into (`NAME=`, value).
fn split_assignment(token: &str) -> Option<(&str, &str)> {
    // A byte scan: `str::find` sets up a searcher per call, and this runs on every suggested
    // word. `=` is ASCII, so its byte is never inside another character.
    let at = token.bytes().position(|b| b == b'=')?;
    let (lhs, value) = (token.get(..at)?, token.get(at + 1..)?);
    let name = lhs.strip_suffix('+').unwrap_or(lhs);
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((lhs, value))
}

/// Zed renders an assignment value as written (quotes included) when it holds anything
/// outside this set (its `shell_value_requires_quoting`); toolgate's text has lost those
/// quotes, so such a value cannot be rendered as Zed does and is refused.
fn value_renders_unquoted(value: &str) -> bool {
    value.chars().all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c))
}

/// Zed's `extract_terminal_command_prefix` over a rendered sub-command: leading assignments,
/// the command word, and the first argument unless it is a flag or an assignment.
fn prefix(text: &str) -> Option<Prefix<'_>> {
    let mut words = text.split_whitespace();
    let mut assignments = Vec::new();
    let name = loop {
        let word = words.next()?;
        match split_assignment(word) {
            Some((_, value)) if value_renders_unquoted(value) => assignments.push(word),
            Some(_) => return None,
            None => break word,
        }
    };
    if !is_plain(name) || never_suggested(name) {
        return None;
    }
    let subcommand = words.next().filter(|w| !w.starts_with('-') && split_assignment(w).is_none());
    Some(Prefix { assignments, name, subcommand })
}

/// Whether `pattern` compiles and, as an always-allow rule (case-insensitive), covers `input`.
fn covers(pattern: &str, input: &str) -> bool {
    // The patterns built here are almost always literal programs: no regex engine needed.
    match LiteralProgram::parse(pattern, false) {
        Some(program) => program.is_match(input),
        None => regex_lite::RegexBuilder::new(pattern).case_insensitive(true).build().is_ok_and(|re| re.is_match(input)),
    }
}

/// `^a\b` for one token, `^a\s+b\s+c(\s|$)` for more, each escaped, written into one string.
fn prefix_pattern(tokens: &[&str]) -> String {
    let mut pattern = String::with_capacity(tokens.iter().map(|t| t.len() + 3).sum::<usize>() + 8);
    pattern.push('^');
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            pattern.push_str("\\s+");
        }
        pattern.push_str(&escape(token));
    }
    pattern.push_str(if tokens.len() == 1 { "\\b" } else { "(\\s|$)" });
    pattern
}

fn build(prefix: &Prefix<'_>, source: &str) -> Option<Suggestion> {
    // Most prefixes have no assignment: their one or two tokens need no vector.
    let (pair, listed): ([&str; 2], Vec<&str>);
    let tokens: &[&str] = if prefix.assignments.is_empty() {
        pair = [prefix.name, prefix.subcommand.unwrap_or_default()];
        pair.get(..1 + usize::from(prefix.subcommand.is_some())).unwrap_or_default()
    } else {
        listed = prefix.assignments.iter().copied().chain([prefix.name]).chain(prefix.subcommand).collect();
        &listed
    };
    let pattern = prefix_pattern(tokens);
    // The program that pattern reads as, built from the tokens instead of read back from it.
    let covered = match LiteralProgram::command_prefix(tokens) {
        Some(program) => program.is_match(source),
        None => covers(&pattern, source),
    };
    covered.then(|| Suggestion { rule: MatcherKind::Regex, pattern, display: tokens.join(" "), source: source.to_owned() })
}

/// The "always allow" pattern for one sub-command as toolgate renders it (`SubCommand.text`:
/// quotes removed, words joined by one space, redirects not included).
#[cfg(test)]
pub(crate) fn command_pattern(text: &str) -> Option<Suggestion> {
    build(&prefix(text)?, text)
}

/// [`command_pattern`] for an analysed item, refused when splitting its text at spaces does
/// not find the item's own command word and first argument — a quoted value with a space
/// (`FOO="a b" git log` renders as `FOO=a b git log`) would otherwise shift every word.
#[cfg(feature = "shell")]
pub(crate) fn command_pattern_of(item: &SubCommand) -> Option<Suggestion> {
    if item.kind != SubCommandKind::Command {
        return None;
    }
    command_pattern_for(&item.text, item.name.as_deref(), &item.args)
}

/// [`command_pattern_of`] from an item's text, command word and arguments.
pub(crate) fn command_pattern_for(text: &str, name: Option<&str>, args: &[String]) -> Option<Suggestion> {
    let found = prefix(text)?;
    let first_arg = args.first().map(String::as_str);
    let same_subcommand = match found.subcommand {
        Some(sub) => first_arg == Some(sub),
        None => first_arg.is_none_or(|a| a.is_empty() || a.starts_with('-') || split_assignment(a).is_some()),
    };
    (name == Some(found.name) && same_subcommand).then(|| build(&found, text)).flatten()
}

/// Programs whose whole-program pattern toolgate offers: each only reads, whatever its
/// arguments (the flags that make one write or run something are hazards no allow rule covers).
/// The plain keys VS Code approves by default in `chat.tools.terminal.autoApprove`
/// (microsoft/vscode `terminalChatAgentToolsConfiguration.ts`, with `sort` from
/// `sortAutoApproveRules.ts` and the PowerShell cmdlets from `powershellAutoApproveRules.ts`),
/// lower-case and sorted for a binary search. Any other program is offered with its sub-command,
/// or as the invocation a person approved.
pub(crate) const READ_ONLY_PROGRAMS: &[&str] = &[
    "basename",
    "cat",
    "cd",
    "cmp",
    "column",
    "compare-object",
    "cut",
    "date",
    "df",
    "dir",
    "dirname",
    "du",
    "echo",
    "file",
    "find",
    "findstr",
    "format-list",
    "format-table",
    "get-childitem",
    "get-content",
    "get-date",
    "get-location",
    "get-random",
    "grep",
    "head",
    "join-path",
    "ls",
    "measure-object",
    "nl",
    "od",
    "out-string",
    "pwd",
    "readlink",
    "realpath",
    "rg",
    "sed",
    "select-object",
    "select-string",
    "set-location",
    "sleep",
    "sort",
    "sort-object",
    "split-path",
    "start-sleep",
    "stat",
    "tail",
    "tr",
    "tree",
    "wc",
    "where-object",
    "which",
    "write-host",
    "write-output",
];

/// Whether a whole-program pattern for `name` is offered: it is on [`READ_ONLY_PROGRAMS`].
fn read_only(name: &str) -> bool {
    READ_ONLY_PROGRAMS.binary_search(&name.to_ascii_lowercase().as_str()).is_ok()
}

/// Programs that run a script, target, package or module their next words name, with the words
/// that make them do so (`npm run`, `docker compose run`, `python -m`); the word after those is
/// what runs. An offer for them names it: approving `npm run lint` is not approving
/// `npm run deploy:prod`. Claude Code's own prefixes stop at `npm run` (its "don't ask again"
/// writes `Bash(npm run:*)`), but the rules people write name the script (`Bash(npm run lint:*)`);
/// Codex proposes the whole token list it was asked about (`prefix_rule` with the command's
/// tokens); Gemini CLI saves only the root command (`npm`).
const RUNNERS: &[(&str, &[&str])] = &[
    ("npm", &["run"]),
    ("npm", &["run-script"]),
    ("npm", &["exec"]),
    ("npm", &["x"]),
    ("pnpm", &["run"]),
    ("pnpm", &["exec"]),
    ("pnpm", &["dlx"]),
    ("yarn", &["run"]),
    ("yarn", &["dlx"]),
    ("yarn", &["exec"]),
    ("bun", &["run"]),
    ("bun", &["x"]),
    ("npx", &[]),
    ("bunx", &[]),
    ("pnpx", &[]),
    ("make", &[]),
    ("just", &[]),
    ("uv", &["run"]),
    ("uv", &["tool", "run"]),
    ("uvx", &[]),
    ("poetry", &["run"]),
    ("pipx", &["run"]),
    ("python", &["-m"]),
    ("python3", &["-m"]),
    ("go", &["run"]),
    ("cargo", &["run"]),
    ("docker", &["compose", "run"]),
    ("docker-compose", &["run"]),
];

/// `^a\s+b\s+c$`: exactly these words.
fn exact_pattern(tokens: &[&str]) -> String {
    let pattern = prefix_pattern(tokens);
    let end = if tokens.len() == 1 { "\\b" } else { "(\\s|$)" };
    format!("{}$", pattern.strip_suffix(end).unwrap_or(&pattern))
}

/// The suggestion of exactly `tokens` (the invocation a person approved), if it covers `source`.
fn exact_suggestion(tokens: &[&str], source: &str) -> Option<Suggestion> {
    let pattern = exact_pattern(tokens);
    covers(&pattern, source).then(|| Suggestion { rule: MatcherKind::Regex, pattern, display: tokens.join(" "), source: source.to_owned() })
}

/// The offer for a script runner: its words up to and including what it runs
/// (`^npm\s+run\s+lint(\s|$)`, `^cargo\s+run\s+--bin\s+server(\s|$)`), or, where an option
/// comes first or nothing is named, the invocation itself. `None` when `words` is no runner.
fn runner_offer(assignments: &[&str], words: &[&str], source: &str) -> Option<Suggestion> {
    let (&name, rest) = words.split_first()?;
    let (_, runner_words) = RUNNERS.iter().filter(|(program, _)| *program == name).find(|(_, sub)| rest.starts_with(sub))?;
    let after = rest.get(runner_words.len()..).unwrap_or_default();
    let head: Vec<&str> = assignments.iter().copied().chain([name]).chain(runner_words.iter().copied()).collect();
    let named: Option<Vec<&str>> = match (name, after) {
        // cargo run names what it runs with --bin, --example or --package.
        ("cargo", [flag, target, ..]) if matches!(*flag, "--bin" | "--example" | "-p" | "--package") && is_plain(target) => {
            Some(head.iter().copied().chain([*flag, *target]).collect())
        }
        ("cargo", _) => None,
        (_, [target, ..]) if !target.starts_with('-') && !target.contains('=') && !target.is_empty() => {
            Some(head.iter().copied().chain([*target]).collect())
        }
        _ => None,
    };
    match named {
        Some(tokens) => {
            let pattern = prefix_pattern(&tokens);
            covers(&pattern, source).then(|| Suggestion {
                rule: MatcherKind::Regex,
                pattern,
                display: tokens.join(" "),
                source: source.to_owned(),
            })
        }
        None => exact_suggestion(&assignments.iter().copied().chain(words.iter().copied()).collect::<Vec<_>>(), source),
    }
}

/// toolgate's own offer for a sub-command (a session's grant, a suggestion, what learning
/// proposes): Zed's pattern, narrowed where Zed's would vouch for more than the person approved —
/// a script runner's names what it runs, and a program [`READ_ONLY_PROGRAMS`] does not list gets
/// no whole-program pattern: its sub-command, or the invocation itself (`mkdir -p build` →
/// `^mkdir\s+-p\s+build$`). Zed's own buttons keep Zed's form ([`command_pattern_for`]).
pub(crate) fn offer_for(text: &str, name: Option<&str>, args: &[String]) -> Option<Suggestion> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let assignments: Vec<&str> = words.iter().copied().take_while(|w| split_assignment(w).is_some()).collect();
    let command: &[&str] = words.get(assignments.len()..).unwrap_or_default();
    // The words must be the item's own: a quoted value with a space would shift them.
    let item_words = std::iter::once(name.unwrap_or_default()).chain(args.iter().map(String::as_str));
    if assignments.iter().any(|a| !split_assignment(a).is_some_and(|(_, v)| value_renders_unquoted(v)))
        || !command.iter().copied().eq(item_words)
    {
        return None;
    }
    if let Some(offer) = runner_offer(&assignments, command, text) {
        return Some(offer);
    }
    let zed = command_pattern_for(text, name, args)?;
    let whole_program = prefix(text).is_some_and(|p| p.subcommand.is_none());
    if whole_program && !name.is_some_and(read_only) {
        return exact_suggestion(&words, text);
    }
    Some(zed)
}

/// A directory too broad to offer or propose: `/`, a directory directly under the root, a home
/// directory (`~`, `$HOME`, `/home/<user>`, `/Users/<user>`, `/root`, a drive's root, or the host's
/// home) — each holds far more than the files a person approved.
pub(crate) fn too_broad_dir(dir: &str, home: Option<&str>) -> bool {
    let dir = dir.replace('\\', "/");
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() || matches!(dir, "~" | "." | "$HOME" | "${HOME}") || home.is_some_and(|h| h.trim_end_matches('/') == dir) {
        return true;
    }
    let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let absolute = dir.starts_with('/');
    let home_dir = matches!(parts.first(), Some(&("home" | "Users"))) && parts.len() <= 2;
    let drive = parts.first().is_some_and(|p| p.len() == 2 && p.ends_with(':'));
    let under_drive = drive && (parts.len() <= 2 || (parts.get(1).is_some_and(|p| p.eq_ignore_ascii_case("users")) && parts.len() <= 3));
    (absolute && (parts.len() <= 1 || home_dir)) || under_drive
}

/// Zed's parent directory of a path (`Path::parent`, `\` turned into `/`), or `None` for a
/// bare name or a file at the root.
fn parent_dir(path: &str) -> Option<String> {
    let parent = Path::new(path).parent()?.to_str()?.replace('\\', "/");
    (!parent.is_empty() && parent != "/").then_some(parent)
}

/// `^dir/` for a directory, kept only if it covers `source` both as written and normalised —
/// the two forms a path tool's input is checked in.
fn dir_pattern(dir: &str, source: &str) -> Option<Suggestion> {
    let pattern = format!("^{}/", escape(dir));
    (covers(&pattern, source) && covers(&pattern, &normalize_path(source))).then(|| Suggestion {
        rule: MatcherKind::Regex,
        pattern,
        display: format!("{dir}/"),
        source: source.to_owned(),
    })
}

/// The pattern for a path tool's input: its parent directory (`src/lib.rs` → `^src/`).
pub(crate) fn path_pattern(path: &str) -> Option<Suggestion> {
    dir_pattern(&parent_dir(path)?, path)
}

/// The deepest directory holding both paths (Zed's `common_parent_dir`, component by
/// component), or `None` when they share nothing but the root.
pub(crate) fn common_parent(a: &str, b: &str) -> Option<String> {
    let (pa, pb) = (Path::new(a).parent()?, Path::new(b).parent()?);
    let common: PathBuf = pa.components().zip(pb.components()).take_while(|(x, y)| x == y).map(|(x, _)| x).collect();
    let common = common.to_str()?.replace('\\', "/");
    (!common.is_empty() && common != "/").then_some(common)
}

/// `^common/` for two paths (Zed's `extract_copy_move_pattern`), kept only if it covers both
/// paths as written and normalised. (Zed's prompt offers a pattern only when both paths share
/// their parent; the common parent covers that case and offers one in more.)
pub(crate) fn common_parent_pattern(source: &str, destination: &str) -> Option<Suggestion> {
    let common = common_parent(source, destination)?;
    let suggestion = dir_pattern(&common, source)?;
    dir_pattern(&common, destination).map(|_| suggestion)
}

/// The host of an `http`/`https` URL, lower-cased; `None` for other schemes or no host.
fn url_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let authority = rest.split(['/', '?', '#', '\\']).next()?;
    let host_port = authority.rsplit('@').next()?;
    let host = if host_port.starts_with('[') { host_port.get(..=host_port.find(']')?)? } else { host_port.split(':').next()? };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// The pattern for a `fetch` URL: its host, as `^https?://host(?:[:/?#]|$)`. Zed writes
/// `^https?://host` with nothing after the host; the ending here keeps `github.com` from
/// also covering `github.com.evil.example` and `github.company.com`.
pub(crate) fn url_pattern(url: &str) -> Option<Suggestion> {
    let host = url_host(url)?;
    let pattern = format!("^https?://{}(?:[:/?#]|$)", escape(&host));
    covers(&pattern, url).then(|| Suggestion { rule: MatcherKind::Regex, pattern, display: host, source: url.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::analyze;

    fn pattern(text: &str) -> Option<String> {
        command_pattern(text).map(|s| s.pattern)
    }

    /// The binary search finds what a case-insensitive scan of the list finds: for every entry in
    /// mixed case, with a character more or less, and for random names.
    #[test]
    fn never_suggested_is_the_scan_of_the_list() {
        let scan = |name: &str| NEVER_SUGGESTED.iter().any(|n| n.eq_ignore_ascii_case(name));
        assert!(NEVER_SUGGESTED.windows(2).all(|w| w[0] < w[1]), "sorted, without repeats");
        assert!(NEVER_SUGGESTED.iter().all(|n| n.len() <= LONGEST_NEVER_SUGGESTED && *n == n.to_ascii_lowercase()));
        let mut names: Vec<String> = Vec::new();
        for entry in NEVER_SUGGESTED {
            let mixed: String = entry.chars().enumerate().map(|(i, c)| if i % 2 == 0 { c.to_ascii_uppercase() } else { c }).collect();
            names.extend([entry.to_string(), mixed, format!("{entry}x"), entry[1..].to_owned(), format!("{entry}{entry}")]);
        }
        names.extend(crate::test_support::random_strings(&['s', 'h', 'E', 'n', 'v', 'é', 'z'], 20_000, 12, 0x5eed_0f11));
        for name in names {
            assert_eq!(never_suggested(&name), scan(&name), "{name:?}");
        }
    }

    fn display(text: &str) -> Option<String> {
        command_pattern(text).map(|s| s.display)
    }

    fn matches(pattern: &str, input: &str) -> bool {
        covers(pattern, input)
    }

    #[test]
    fn command_with_subcommand_gives_command_and_subcommand_pattern() {
        let s = command_pattern("cargo build --release").unwrap();
        assert_eq!(s.pattern, r"^cargo\s+build(\s|$)");
        assert_eq!(s.display, "cargo build");
        assert_eq!(s.source, "cargo build --release");
        assert_eq!(pattern("cargo test -p search").as_deref(), Some(r"^cargo\s+test(\s|$)"));
        assert_eq!(pattern("npm install").as_deref(), Some(r"^npm\s+install(\s|$)"));
        assert_eq!(display("npm install").as_deref(), Some("npm install"));
        assert_eq!(pattern("my_script arg").as_deref(), Some(r"^my_script\s+arg(\s|$)"));
    }

    fn offer(text: &str) -> Option<String> {
        let a = analyze(text);
        let item = a.items.first()?;
        offer_for(&item.text, item.name.as_deref(), &item.args).map(|s| s.pattern)
    }

    /// toolgate's own offer names what a script runner runs, and a program not known to only read
    /// gets no whole-program pattern; Zed's form is kept for Zed's buttons.
    #[test]
    fn offers_name_the_script_a_runner_runs() {
        for (text, expected, covered, not_covered) in [
            ("npm run lint", r"^npm\s+run\s+lint(\s|$)", "npm run lint -- --fix", "npm run deploy:prod"),
            ("pnpm run test", r"^pnpm\s+run\s+test(\s|$)", "pnpm run test", "pnpm run build"),
            ("yarn run lint", r"^yarn\s+run\s+lint(\s|$)", "yarn run lint", "yarn run deploy"),
            ("bun run dev", r"^bun\s+run\s+dev(\s|$)", "bun run dev", "bun run deploy"),
            ("npx prettier --check .", r"^npx\s+prettier(\s|$)", "npx prettier x", "npx eslint"),
            ("pnpm dlx create-vite app", r"^pnpm\s+dlx\s+create-vite(\s|$)", "pnpm dlx create-vite", "pnpm dlx other"),
            ("uv run pytest -q", r"^uv\s+run\s+pytest(\s|$)", "uv run pytest", "uv run x.py"),
            ("poetry run pytest", r"^poetry\s+run\s+pytest(\s|$)", "poetry run pytest -x", "poetry run other"),
            ("python -m pytest tests", r"^python\s+-m\s+pytest(\s|$)", "python -m pytest", "python -m http.server"),
            ("go run ./cmd/server", r"^go\s+run\s+\./cmd/server(\s|$)", "go run ./cmd/server -v", "go run ./cmd/other"),
            ("cargo run --bin server", r"^cargo\s+run\s+--bin\s+server(\s|$)", "cargo run --bin server", "cargo run --bin other"),
            ("docker compose run web", r"^docker\s+compose\s+run\s+web(\s|$)", "docker compose run web sh", "docker compose run db"),
            ("make test", r"^make\s+test(\s|$)", "make test V=1", "make deploy"),
            ("just lint", r"^just\s+lint(\s|$)", "just lint", "just deploy"),
            // An option before what runs, or nothing named: the invocation itself.
            ("npx -y cowsay hi", r"^npx\s+-y\s+cowsay\s+hi$", "npx -y cowsay hi", "npx -y cowsay bye"),
            ("make -j4 test", r"^make\s+-j4\s+test$", "make -j4 test", "make -j4 deploy"),
            ("cargo run", r"^cargo\s+run$", "cargo run", "cargo run --bin x"),
            ("npm run", r"^npm\s+run$", "npm run", "npm run x"),
            // A program no read-only list names: with its sub-command, or the invocation.
            ("mkdir -p build", r"^mkdir\s+-p\s+build$", "mkdir -p build", "mkdir -p /etc/x"),
            ("git push origin main", r"^git\s+push(\s|$)", "git push", "git pull"),
            // A read-only program: the whole program, as Zed offers it.
            ("ls -la", r"^ls\b", "ls src", "lsof"),
        ] {
            assert_eq!(offer(text).as_deref(), Some(expected), "{text}");
            assert!(matches(expected, covered), "{expected} covers {covered}");
            assert!(!matches(expected, not_covered), "{expected} does not cover {not_covered}");
        }
        assert_eq!(pattern("npm run lint").as_deref(), Some(r"^npm\s+run(\s|$)"), "Zed's own form");
        assert!(READ_ONLY_PROGRAMS.windows(2).all(|w| w[0] < w[1]), "sorted for the search");
    }

    #[test]
    fn no_directory_too_broad_is_offered() {
        for dir in ["/", "/etc/", "/home/u/", "/Users/u", "~/", "$HOME/", "C:/", "C:/Users/u", "/root"] {
            assert!(too_broad_dir(dir, None), "{dir}");
        }
        assert!(too_broad_dir("/srv/me", Some("/srv/me")));
        for dir in ["/home/u/project", "/etc/nginx", "src", "/repo/src"] {
            assert!(!too_broad_dir(dir, None), "{dir}");
        }
    }

    #[test]
    fn dashes_are_left_unescaped_like_zed() {
        assert_eq!(pattern("git-lfs pull").as_deref(), Some(r"^git-lfs\s+pull(\s|$)"));
        assert_eq!(pattern("npm run build-all").as_deref(), Some(r"^npm\s+run(\s|$)"));
        assert_eq!(pattern("make build-all").as_deref(), Some(r"^make\s+build-all(\s|$)"));
    }

    #[test]
    fn leading_env_assignments_are_kept_in_the_pattern() {
        let s = command_pattern("PAGER=blah git log --oneline").unwrap();
        assert_eq!(s.pattern, r"^PAGER=blah\s+git\s+log(\s|$)");
        assert_eq!(s.display, "PAGER=blah git log");
        assert_eq!(pattern("A=1 B=2 git log").as_deref(), Some(r"^A=1\s+B=2\s+git\s+log(\s|$)"));
        assert_eq!(pattern("RUST_LOG=debug cargo").as_deref(), Some(r"^RUST_LOG=debug\s+cargo(\s|$)"));
        assert_eq!(pattern("PATH+=/x ls -la").as_deref(), Some(r"^PATH\+=/x\s+ls(\s|$)"));
    }

    #[test]
    fn env_prefixed_pattern_requires_the_same_assignment() {
        let p = pattern("PAGER=blah git log --oneline").unwrap();
        assert!(matches(&p, "PAGER=blah git log --oneline"));
        assert!(matches(&p, "PAGER=blah git log"));
        assert!(!matches(&p, "PAGER=more git log"));
        assert!(!matches(&p, "git log"));
        assert!(!matches(r"^git\b", "PAGER=blah git log"), "an unprefixed pattern does not cover a prefixed command");
    }

    #[test]
    fn assignment_values_zed_keeps_quoted_are_refused() {
        // `PAGER='less -R' git log` renders as `PAGER=less -R git log`: Zed's pattern keeps the
        // quotes, which the text no longer has.
        assert_eq!(command_pattern("PAGER=less -R git log"), None);
        assert_eq!(command_pattern("FOO=a*b git log"), None);
        assert_eq!(command_pattern("FOO=$HOME git log"), None);
    }

    #[test]
    fn redirects_removed_by_the_parser_leave_the_subcommand() {
        let a = analyze("git 2>/dev/null log --oneline");
        let item = a.items.iter().find(|i| i.kind == SubCommandKind::Command).unwrap();
        assert_eq!(item.text, "git log --oneline");
        assert_eq!(command_pattern(&item.text).unwrap().pattern, r"^git\s+log(\s|$)");
        assert_eq!(command_pattern_of(item).unwrap().pattern, r"^git\s+log(\s|$)");
        let a = analyze("git log > out.txt");
        assert_eq!(a.items.len(), 2);
        assert_eq!(command_pattern_of(&a.items[0]).unwrap().pattern, r"^git\s+log(\s|$)");
        assert_eq!(command_pattern_of(&a.items[1]), None, "a redirect item gets no pattern");
    }

    #[test]
    fn path_commands_get_no_pattern() {
        assert_eq!(command_pattern("./script.sh arg"), None);
        assert_eq!(command_pattern("/usr/bin/python arg"), None);
        assert_eq!(command_pattern("../bin/tool"), None);
        assert_eq!(command_pattern("PAGER=blah ./script.sh arg"), None);
        assert_eq!(command_pattern("~/bin/x"), None);
    }

    #[test]
    fn flag_as_second_word_gives_command_only_pattern() {
        let s = command_pattern("ls -la").unwrap();
        assert_eq!(s.pattern, r"^ls\b");
        assert_eq!(s.display, "ls");
        assert_eq!(pattern("rm --force foo").as_deref(), Some(r"^rm\b"));
        assert_eq!(pattern("cat -").as_deref(), Some(r"^cat\b"));
    }

    #[test]
    fn single_word_gives_command_only_pattern() {
        let s = command_pattern("ls").unwrap();
        assert_eq!(s.pattern, r"^ls\b");
        assert_eq!(s.display, "ls");
        let p = s.pattern;
        assert!(matches(&p, "ls"));
        assert!(matches(&p, "ls -R /tmp"));
        assert!(!matches(&p, "lsof"));
        assert!(!matches(&p, "cat file.txt"));
    }

    #[test]
    fn assignment_shaped_first_argument_is_not_a_subcommand() {
        // brush-parser reads `CC=gcc` after the command word as an assignment word, and Zed
        // stops there.
        assert_eq!(pattern("make CC=gcc all").as_deref(), Some(r"^make\b"));
    }

    #[test]
    fn first_argument_that_is_not_a_plain_word_is_still_the_subcommand() {
        // Zed checks only the command word; its first argument is taken as written, escaped.
        assert_eq!(pattern("grep foo").as_deref(), Some(r"^grep\s+foo(\s|$)"));
        assert_eq!(pattern("cat src/main.rs").as_deref(), Some(r"^cat\s+src/main\.rs(\s|$)"));
        assert_eq!(pattern("cat c.sh").as_deref(), Some(r"^cat\s+c\.sh(\s|$)"));
        assert_eq!(pattern("make g++").as_deref(), Some(r"^make\s+g\+\+(\s|$)"));
        assert_eq!(pattern("echo (a|b)*").as_deref(), Some(r"^echo\s+\(a\|b\)\*(\s|$)"));
        assert_eq!(pattern("git show HEAD~1").as_deref(), Some(r"^git\s+show(\s|$)"));
        assert_eq!(pattern("git HEAD~1").as_deref(), Some(r"^git\s+HEAD\~1(\s|$)"));
        assert_eq!(pattern("CXX=g++ make").as_deref(), Some(r"^CXX=g\+\+\s+make(\s|$)"));
    }

    #[test]
    fn command_names_with_other_characters_get_no_pattern() {
        // Zed refuses these too: only letters, digits, `-` and `_` make a command name.
        assert_eq!(command_pattern("g++ main.cpp"), None);
        assert_eq!(command_pattern("c.sh"), None);
        assert_eq!(command_pattern("python3.12 x.py"), None);
        assert_eq!(command_pattern("-x"), None);
    }

    #[test]
    fn interpreters_and_wrappers_get_no_pattern() {
        for text in [
            "bash build.sh",
            "sh -c ls",
            "python3 x.py",
            "node server.js",
            "sudo rm -rf x",
            "env FOO=1 ls",
            "xargs rm",
            "timeout 5 curl x",
            "FOO=1 python x.py",
            "BASH build.sh",
            "Sudo ls",
        ] {
            assert_eq!(command_pattern(text), None, "{text}");
        }
    }

    #[test]
    fn nothing_to_build_from_gives_no_pattern() {
        assert_eq!(command_pattern(""), None);
        assert_eq!(command_pattern("   "), None);
        assert_eq!(command_pattern("FOO=1"), None);
        assert_eq!(command_pattern("FOO=1 BAR=2"), None);
    }

    #[test]
    fn subcommand_pattern_covers_its_subcommand_only() {
        let p = pattern("cargo build --release").unwrap();
        for covered in ["cargo build", "cargo build --release", "cargo build --features foo", "CARGO BUILD"] {
            assert!(matches(&p, covered), "{covered}");
        }
        for other in ["cargo publish", "cargo test", "cargo build-foo", "cargo builder", "npm install", "xcargo build"] {
            assert!(!matches(&p, other), "{other}");
        }
    }

    #[test]
    fn every_pattern_compiles_and_covers_its_source() {
        let sources = [
            "cargo build --release",
            "npm install",
            "PAGER=blah git log --oneline",
            "A=1 B=2 git log",
            "ls -la",
            "ls",
            "git-lfs pull",
            "make g++",
            "cat c.sh",
            "echo (a|b)* [x] {y} ^$ # & ~",
            "grep -rn foo .",
            "make CC=gcc",
            "tar xzf a.tgz",
            "echo aA\n",
            "jq .[0] file.json",
            "CXX=g++ make",
            "kubectl get pods -A",
            "é_ü run",
        ];
        for source in sources {
            let s = command_pattern(source).unwrap_or_else(|| panic!("no pattern for {source:?}"));
            assert!(regex_lite::Regex::new(&s.pattern).is_ok(), "{}", s.pattern);
            assert!(matches(&s.pattern, source), "{} vs {source:?}", s.pattern);
            assert_eq!(s.source, source);
        }
    }

    /// The program built from a suggestion's tokens is the one read back from its pattern, for
    /// random tokens (metacharacters, non-ASCII and control characters among them); and it is built
    /// whenever the tokens are printable ASCII, so the shortcut is the path suggestions take.
    #[test]
    fn a_prefix_program_built_from_tokens_is_the_one_its_pattern_reads_as() {
        let alphabet =
            ["a", "Z", "0", "-", "_", "=", ".", "+", "(", ")", "|", "*", "\\", "$", "^", "[", "#", "~", "<", "é", "\u{1}", "\u{7f}"];
        let mut next = crate::test_support::random_below(0x5EED_CAFE);
        for _ in 0..5000 {
            let tokens: Vec<String> =
                (0..1 + next(18)).map(|_| (0..1 + next(4)).map(|_| alphabet[next(alphabet.len())]).collect()).collect();
            let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
            let pattern = prefix_pattern(&tokens);
            let read_back = LiteralProgram::parse(&pattern, false);
            match LiteralProgram::command_prefix(&tokens) {
                Some(program) => assert_eq!(Some(program), read_back, "{tokens:?} as {pattern}"),
                None => assert_eq!(read_back, None, "{tokens:?} as {pattern}"),
            }
            let printable = tokens.iter().all(|t| t.bytes().all(|b| (b' '..=b'~').contains(&b)));
            assert_eq!(LiteralProgram::command_prefix(&tokens).is_some(), printable && tokens.len() <= 16, "{tokens:?}");
        }
    }

    #[test]
    fn analysed_items_are_cross_checked_against_their_words() {
        let item = |command: &str| analyze(command).items.into_iter().next().unwrap();
        assert_eq!(command_pattern_of(&item("cargo build --release")).unwrap().pattern, r"^cargo\s+build(\s|$)");
        assert_eq!(command_pattern_of(&item("PAGER=blah git log")).unwrap().pattern, r"^PAGER=blah\s+git\s+log(\s|$)");
        assert_eq!(command_pattern_of(&item("ls -la")).unwrap().pattern, r"^ls\b");
        // A quoted value with a space would shift the words of the text.
        assert_eq!(command_pattern_of(&item(r#"FOO="a b" git log"#)), None);
        // A quoted first argument with a space is not the first word of the text.
        assert_eq!(command_pattern_of(&item(r#"git "log x""#)), None);
        assert_eq!(command_pattern_of(&item("./run.sh")), None);
    }

    #[test]
    fn one_pattern_per_sub_command() {
        let a = analyze("cargo test 2>&1 | tail -n 5 && ./script.sh | grep foo");
        let got: Vec<String> = a.items.iter().filter_map(command_pattern_of).map(|s| s.pattern).collect();
        assert_eq!(got, [r"^cargo\s+test(\s|$)", r"^tail\b", r"^grep\s+foo(\s|$)"]);
    }

    #[test]
    fn path_pattern_is_the_parent_directory() {
        let s = path_pattern("/Users/alice/project/src/main.rs").unwrap();
        assert_eq!(s.pattern, "^/Users/alice/project/src/");
        assert_eq!(s.display, "/Users/alice/project/src/");
        assert_eq!(path_pattern("src/lib.rs").unwrap().pattern, "^src/");
        assert_eq!(path_pattern("/my-project/sub-dir/file.rs").unwrap().pattern, "^/my-project/sub-dir/");
        assert_eq!(path_pattern("/path/with (parens)/file.txt").unwrap().pattern, r"^/path/with \(parens\)/");
        assert_eq!(path_pattern("a.b/c+d/x").unwrap().pattern, r"^a\.b/c\+d/");
        assert_eq!(path_pattern("/a/b/").unwrap().pattern, "^/a/");
    }

    #[test]
    fn path_without_a_directory_gets_no_pattern() {
        assert_eq!(path_pattern("file.txt"), None);
        assert_eq!(path_pattern("/file.txt"), None);
        assert_eq!(path_pattern("src/"), None);
        assert_eq!(path_pattern(""), None);
    }

    #[test]
    fn path_pattern_that_misses_the_normalised_path_is_refused() {
        for path in ["./src/main.rs", "src/../x/y.rs", "a//b/c", "a\\b/c.txt"] {
            assert_eq!(path_pattern(path), None, "{path}");
        }
    }

    #[test]
    fn path_pattern_covers_only_its_directory() {
        let p = path_pattern("src/lib.rs").unwrap().pattern;
        assert!(matches(&p, "src/main.rs"));
        assert!(matches(&p, "src/a/b.rs"));
        assert!(!matches(&p, "srcx/main.rs"));
        assert!(!matches(&p, "lib/src/main.rs"));
    }

    #[test]
    fn two_paths_get_the_pattern_of_their_common_parent() {
        let s = common_parent_pattern("src/old.rs", "src/new.rs").unwrap();
        assert_eq!(s.pattern, "^src/");
        assert_eq!(s.source, "src/old.rs");
        assert_eq!(common_parent_pattern("/p/src/old.rs", "/p/dst/new.rs").unwrap().pattern, "^/p/");
        assert_eq!(common_parent_pattern("a.rs", "b.rs"), None);
    }

    #[test]
    fn common_parent_is_the_deepest_shared_directory() {
        assert_eq!(
            common_parent("/Users/alice/project/src/old.rs", "/Users/alice/project/src/new.rs").as_deref(),
            Some("/Users/alice/project/src")
        );
        assert_eq!(
            common_parent("/Users/alice/project/src/old.rs", "/Users/alice/project/dst/new.rs").as_deref(),
            Some("/Users/alice/project")
        );
        assert_eq!(common_parent("src/old.rs", "src/new.rs").as_deref(), Some("src"));
        assert_eq!(common_parent("/home/file.txt", "/tmp/file.txt"), None);
        assert_eq!(common_parent("src/a.rs", "dst/b.rs"), None);
        assert_eq!(common_parent("a.rs", "b.rs"), None);
        assert_eq!(common_parent("/ab/x", "/abc/y"), None, "components, not characters");
        let s = common_parent_pattern("/Users/alice/project/src/old.rs", "/Users/alice/project/dst/new.rs").unwrap();
        assert_eq!((s.pattern.as_str(), s.display.as_str()), ("^/Users/alice/project/", "/Users/alice/project/"));
        assert_eq!(common_parent_pattern("./a/x", "./a/y"), None);
    }

    #[test]
    fn url_pattern_is_the_host_up_to_its_end() {
        let s = url_pattern("https://github.com/user/repo").unwrap();
        assert_eq!(s.pattern, r"^https?://github\.com(?:[:/?#]|$)");
        assert_eq!(s.display, "github.com");
        assert_eq!(url_pattern("http://example.com/path?query=1").unwrap().pattern, r"^https?://example\.com(?:[:/?#]|$)");
        assert_eq!(url_pattern("https://typescript-eslint.io/rules").unwrap().pattern, r"^https?://typescript-eslint\.io(?:[:/?#]|$)");
        assert_eq!(url_pattern("https://GitHub.COM").unwrap().display, "github.com");
        assert_eq!(url_pattern("http://[::1]:8080/x").unwrap().pattern, r"^https?://\[::1\](?:[:/?#]|$)");
        let p = url_pattern("https://docs.rs").unwrap().pattern;
        for covered in ["https://docs.rs", "http://docs.rs/", "https://docs.rs:443/x", "https://docs.rs?q", "https://DOCS.rs/x"] {
            assert!(matches(&p, covered), "{covered}");
        }
        for other in ["https://docs.rs.evil.example/", "https://docs.rsx/", "ftp://docs.rs/"] {
            assert!(!matches(&p, other), "{other}");
        }
    }

    #[test]
    fn urls_a_host_pattern_cannot_cover_get_none() {
        for url in [
            "not a url",
            "ftp://example.com/x",
            "https://",
            "https://user@example.com/",
            "https://evil.com\\@github.com/",
            "file:///etc/passwd",
        ] {
            assert_eq!(url_pattern(url), None, "{url}");
        }
    }

    /// The copy-as-is path of `escape` gives what regex-lite's escape (with `-` put back) gives.
    #[test]
    fn escape_agrees_with_regex_lite_escape() {
        let alphabet = [
            'a', 'Z', '0', '_', '-', '=', '/', ':', ',', '@', '%', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$', '#',
            '&', '~', '\\', ' ', 'é', '!', '\'', '"',
        ];
        let mut copied = 0;
        for s in crate::test_support::random_strings(&alphabet, 20_000, 6, 0x9E37_79B9_7F4A_7C15) {
            let fast = escape(&s);
            copied += usize::from(matches!(fast, Cow::Borrowed(_)));
            assert_eq!(fast, escape_by_regex_lite(&s), "{s:?}");
        }
        assert!(copied > 1_000, "the copy-as-is path was taken {copied} times");
    }

    /// The byte scan in `split_assignment` splits where `str::find` would.
    #[test]
    fn split_assignment_agrees_with_find() {
        fn plain(token: &str) -> Option<(&str, &str)> {
            let at = token.find('=')?;
            let (lhs, value) = (token.get(..at)?, token.get(at + 1..)?);
            let name = lhs.strip_suffix('+').unwrap_or(lhs);
            let mut chars = name.chars();
            let valid =
                chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
            valid.then_some((lhs, value))
        }
        let alphabet = ['a', 'Z', '_', '0', '=', '+', '-', 'é', '€', ' '];
        for s in crate::test_support::random_strings(&alphabet, 20_000, 8, 0x5851_F42D_4C95_7F2D) {
            assert_eq!(split_assignment(&s), plain(&s), "{s:?}");
        }
    }

    #[test]
    fn never_panics_on_arbitrary_text() {
        let alphabet = ['a', ' ', '=', '-', '.', '/', '\\', '[', '(', '+', '$', ':', '@', 'é', '\n', '\t', '_'];
        for s in crate::test_support::random_strings(&alphabet, 20_000, 16, 0x2545_F491_4F6C_DD1D) {
            for found in [command_pattern(&s), path_pattern(&s), url_pattern(&s), common_parent_pattern(&s, "a/b")].into_iter().flatten() {
                assert!(regex_lite::Regex::new(&found.pattern).is_ok(), "{s:?}");
            }
            let _ = common_parent(&s, &s);
        }
    }
}
