//! Every matcher kind but regex against a reference written from its documentation: random rule
//! lists answered through a [`RuleSet`] (its word, token and pair indexes, its scanned buckets)
//! must name the first rule whose reference matches — so no index may skip a rule the kind's
//! plain meaning matches, nor report one it does not.
//!
//! The references read only the documentation (docs/), the rule kinds' doc comments and the peers' own texts
//! (Claude Code's `docs/permissions.md`, Codex's `prefix_rule`, Gasoline's allowlist, Cursor's
//! `server:tool` entries). They share no code with the matchers, the pair index or the MCP entry
//! parser, and where two algorithms are possible they take the other one: dynamic programming
//! over whole-text wildcards instead of pieces, recursion over `**` instead of reachability
//! sets, a hand-written URL reader. The shell parser is used only to obtain a command's words, as
//! an item carries them.
#![cfg(test)]
// Text rules compile only with the shell analysis; the MCP entry's build has none of them.
#![cfg(feature = "analysis")]

use super::rules::{compile_rule, RuleSet, Subject};
use super::{ListKind, MatcherKind, RuleRef, RuleSpec};
use crate::shell::{analyze_in, Shell};
use crate::test_support::random_below;
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------------
// The references, one per kind.
// ---------------------------------------------------------------------------------------------

/// `prefix` (Cursor's terminal allow- and blocklists, docs/rule-engine.md, "Rules of eight matcher kinds"): a
/// command prefix on word boundaries — the prefix's whitespace-separated words are the text's
/// first words, each exactly (`git` covers `git log`, not `gitx`). Read on words, so a run of
/// spaces between them is one boundary.
fn prefix_matches(prefix: &str, text: &str) -> bool {
    let wanted: Vec<&str> = prefix.split_whitespace().collect();
    let words: Vec<&str> = text.split_whitespace().collect();
    !wanted.is_empty() && words.len() >= wanted.len() && words[..wanted.len()] == wanted[..]
}

/// `*` stands for any text (spaces included), every other character for itself, and the whole
/// text must be spelled: a table of which pattern prefixes spell which text prefixes.
fn wildcard_matches(pattern: &str, text: &str) -> bool {
    // What comes before the first `*` is spelled as written: a cheap refusal before the table.
    if !text.starts_with(pattern.split('*').next().unwrap_or_default()) {
        return false;
    }
    let text: Vec<char> = text.chars().collect();
    // spells[j]: the pattern so far spells exactly the first `j` characters of the text.
    let mut spells = vec![false; text.len() + 1];
    let mut next = spells.clone();
    spells[0] = true;
    for p in pattern.chars() {
        for j in 0..=text.len() {
            next[j] = if p == '*' { spells[j] || (j > 0 && next[j - 1]) } else { j > 0 && spells[j - 1] && text[j - 1] == p };
        }
        std::mem::swap(&mut spells, &mut next);
    }
    spells[text.len()]
}

/// `glob` (Claude Code's `Bash(…)`, its "Wildcard patterns" section): the whole command text
/// spelled by the rule, `*` standing for any text including spaces; a trailing ` *` that is the
/// rule's only `*` also matches the bare command (`ls *` matches `ls`, not `lsof`); a `:*` at the
/// very end is the same as ` *`, anywhere else it is literal text.
fn glob_matches_text(glob: &str, text: &str) -> bool {
    let glob = match glob.strip_suffix(":*") {
        Some(head) => format!("{head} *"),
        None => glob.to_owned(),
    };
    let bare = glob.matches('*').count() == 1 && glob.strip_suffix(" *") == Some(text);
    bare || wildcard_matches(&glob, text)
}

/// Where a wrapper's command starts among the words after it, read as getopt reads them: options
/// start with `-` and `--` ends them; `with_value`: the options that take the next word as their
/// value; `operands`: the words between the options and the command (`timeout`'s duration).
fn past_options(rest: &[String], with_value: &[&str], operands: usize) -> usize {
    let mut at = 0;
    while let Some(word) = rest.get(at) {
        if word == "--" {
            at += 1;
            break;
        }
        if !word.starts_with('-') || word == "-" {
            break;
        }
        at += if with_value.contains(&word.as_str()) { 2 } else { 1 };
    }
    at + operands
}

/// One wrapper of Claude Code's list (`timeout`, `time`, `nice`, `nohup`, `stdbuf`, `command`,
/// `builtin`, `noglob`, bare `xargs`; docs/permissions.md "Wrappers"), plus `env` and `sudo`
/// (docs/rule-engine.md: deny and confirm globs "see past leading assignments and wrappers"; `matchers.rs`
/// names these two), at the front of the words: where its command starts. `None` when the words do
/// not start with a wrapper that is stripped (the query forms `command -v` and `-V`, `xargs` with
/// flags, any other program) or nothing follows it.
fn wrapped_command_at(words: &[String]) -> Option<usize> {
    let (first, rest) = words.split_first()?;
    let at = match first.as_str() {
        // timeout [-s SIGNAL] [-k DURATION] [--foreground] [--preserve-status] DURATION COMMAND
        "timeout" => Some(past_options(rest, &["-s", "-k", "--signal", "--kill-after"], 1)),
        // bash's `time [-p] COMMAND`; `nohup COMMAND`; `builtin COMMAND`; zsh's `noglob COMMAND`
        "nohup" | "builtin" | "noglob" | "nocorrect" => Some(past_options(rest, &[], 0)),
        // GNU time(1): `time [-f FORMAT] [-o FILE] COMMAND`
        "time" => Some(past_options(rest, &["-f", "-o", "--format", "--output"], 0)),
        // nice [-n N | --adjustment N | -N] COMMAND
        "nice" => Some(past_options(rest, &["-n", "--adjustment"], 0)),
        // stdbuf [-i MODE] [-o MODE] [-e MODE] COMMAND (also `-oL`)
        "stdbuf" => Some(past_options(rest, &["-i", "-o", "-e"], 0)),
        // The query forms `command [-p] -v NAME` and `-V` run nothing and are not stripped.
        "command" if rest.iter().take_while(|w| w.starts_with('-')).any(|w| w.contains(['v', 'V'])) => None,
        "command" => Some(past_options(rest, &[], 0)),
        // Claude Code strips bare `xargs`; with options it still runs its command (GNU xargs(1):
        // these take a value), and a deny or confirm rule seeing past it is only stricter.
        "xargs" => Some(past_options(
            rest,
            &["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars"],
            0,
        )),
        // doas [-u USER] [-C CONFIG] COMMAND; exec [-a NAME] COMMAND; ionice [-c CLASS] [-n LEVEL] [-p PID] COMMAND
        "doas" => Some(past_options(rest, &["-u", "-C"], 0)),
        "exec" => Some(past_options(rest, &["-a"], 0)),
        // Claude Code's never-prefix-allowed wrappers: watch(1) [-n SECONDS] COMMAND, setsid(1)
        // COMMAND, flock(1) [-w SECONDS] LOCKFILE COMMAND
        "watch" => Some(past_options(rest, &["-n", "--interval", "-q", "--equexit", "-s", "--shotsdir"], 0)),
        "setsid" => Some(past_options(rest, &[], 0)),
        "flock" => Some(past_options(rest, &["-w", "--timeout", "-E", "--conflict-exit-code"], 1)),
        "ionice" => Some(past_options(rest, &["-c", "-n", "-p"], 0)),
        // sudo [-u USER] [-g GROUP] [-h HOST] [-p PROMPT] [-C N] [-D DIR] [-r ROLE] [-t TYPE] … COMMAND
        "sudo" => Some(past_options(rest, &["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-R", "-T"], 0)),
        // env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]… COMMAND
        "env" => {
            let mut at = 0;
            while let Some(word) = rest.get(at) {
                if word == "--" {
                    at += 1;
                    break;
                }
                // `-S STRING` splits STRING into the command and its first arguments: the
                // command starts there.
                if word == "-S" {
                    at += 1;
                    break;
                }
                if ["-u", "-C"].contains(&word.as_str()) {
                    at += 2;
                } else if word.starts_with('-') || word.contains('=') {
                    at += 1;
                } else {
                    break;
                }
            }
            Some(at)
        }
        _ => None,
    }?;
    // A wrapper with no command after it is the command itself.
    (at < rest.len()).then_some(at + 1)
}

/// A program's name without its directory.
fn program_name(word: &str) -> &str {
    match word.rfind('/') {
        Some(slash) => &word[slash + 1..],
        None => word,
    }
}

/// `tokens` (Codex's `prefix_rule`, docs/rule-engine.md and `RuleSpec::tokens`): positions separated by
/// whitespace, alternatives by `|`; the command's unquoted words (the parser's, else the text's
/// whitespace-separated words) are at least as many as the positions and each is exactly one of
/// its position's alternatives. In deny and confirm lists a program named by its path also meets
/// the rules for its name (`/usr/bin/git` counts as `git`, Codex's host-executable fallback).
fn tokens_match(rule: &str, subject: &Subject<'_>, by_name: bool) -> bool {
    let positions: Vec<Vec<&str>> = rule.split_whitespace().map(|position| position.split('|').collect()).collect();
    let mut words: Vec<&str> = match subject.words {
        Some((name, args)) => std::iter::once(name).chain(args.iter().map(String::as_str)).collect(),
        None => subject.text.split_whitespace().collect(),
    };
    let fits = |words: &[&str]| words.len() >= positions.len() && positions.iter().zip(words).all(|(alts, word)| alts.contains(word));
    if fits(&words) {
        return true;
    }
    // A path whose last part is `..`, `.` or nothing names a directory, not a program.
    if by_name && !words.is_empty() && !matches!(program_name(words[0]), "" | "." | "..") {
        words[0] = program_name(words[0]);
        return fits(&words);
    }
    false
}

/// A path's parts with `.` and empty parts dropped and `..` climbing: `(absolute, parts)`. A
/// relative path keeps the `..` that climb above its start; an absolute one stops at `/`.
fn path_parts(path: &str) -> (bool, Vec<String>) {
    let absolute = path.starts_with('/');
    let mut parts: Vec<String> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            other => parts.push(other.to_owned()),
        }
    }
    (absolute, parts)
}

/// One segment of a path pattern.
#[derive(Debug, Clone, PartialEq)]
enum PathSegment {
    /// `**`: any number of parts, none included.
    AnyDepth,
    /// A name pattern.
    Name(Vec<NamePiece>),
}

#[derive(Debug, Clone, PartialEq)]
enum NamePiece {
    Literal(char),
    /// `?`
    OneChar,
    /// `*`
    AnyRun,
    /// `[…]`, `[!…]`, `[^…]`
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// gitignore's name patterns: `*` any run of characters, `?` one, `[…]` a class (`!` or `^`
/// negates, `a-z` ranges, a `]` first is literal), `\` quotes the next character; `None` when
/// the segment does not read (a class left open, a lone `\` at the end).
fn name_pattern(segment: &str) -> Option<Vec<NamePiece>> {
    let chars: Vec<char> = segment.chars().collect();
    let mut pieces = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                pieces.push(NamePiece::Literal(*chars.get(i + 1)?));
                i += 2;
            }
            '*' => {
                pieces.push(NamePiece::AnyRun);
                i += 1;
            }
            '?' => {
                pieces.push(NamePiece::OneChar);
                i += 1;
            }
            '[' => {
                let mut j = i + 1;
                let negated = matches!(chars.get(j), Some('!' | '^'));
                if negated {
                    j += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let c = *chars.get(j)?;
                    if c == ']' && !first {
                        break;
                    }
                    first = false;
                    if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|end| *end != ']') {
                        ranges.push((c, chars[j + 2]));
                        j += 3;
                    } else {
                        ranges.push((c, c));
                        j += 1;
                    }
                }
                pieces.push(NamePiece::Class { negated, ranges });
                i = j + 1;
            }
            c => {
                pieces.push(NamePiece::Literal(c));
                i += 1;
            }
        }
    }
    Some(pieces)
}

/// Whether a name pattern spells the whole name, trying every length for each `*`.
fn name_matches(pieces: &[NamePiece], name: &[char]) -> bool {
    match pieces.split_first() {
        None => name.is_empty(),
        Some((NamePiece::AnyRun, rest)) => (0..=name.len()).any(|skip| name_matches(rest, &name[skip..])),
        Some((piece, rest)) => {
            let Some((c, after)) = name.split_first() else { return false };
            let one = match piece {
                NamePiece::Literal(l) => l == c,
                NamePiece::OneChar => true,
                NamePiece::Class { negated, ranges } => ranges.iter().any(|(lo, hi)| lo <= c && c <= hi) != *negated,
                NamePiece::AnyRun => false,
            };
            one && name_matches(rest, after)
        }
    }
}

/// Whether the segments spell the whole run of parts, trying every depth for each `**`.
fn segments_match(segments: &[PathSegment], parts: &[String]) -> bool {
    match segments.split_first() {
        None => parts.is_empty(),
        Some((PathSegment::AnyDepth, rest)) => (0..=parts.len()).any(|skip| segments_match(rest, &parts[skip..])),
        Some((PathSegment::Name(pieces), rest)) => {
            let Some((part, after)) = parts.split_first() else { return false };
            name_matches(pieces, &part.chars().collect::<Vec<_>>()) && segments_match(rest, after)
        }
    }
}

/// A path rule, read from its pattern and root.
#[derive(Debug)]
struct PathRule {
    absolute: bool,
    segments: Vec<PathSegment>,
    root: Option<Vec<String>>,
}

impl PathRule {
    /// gitignore (Claude Code's "Read and Edit" rules follow it): a leading `/` anchors the
    /// pattern at the filesystem's root, else it is anchored at `root`; a pattern with no `/`
    /// other than a trailing one matches a name at any depth (a trailing `/` only says "a
    /// directory", which a path rule cannot see: ignored); `.` and empty segments are nothing,
    /// `..` is refused; `/` or `.` alone is the anchor itself. `None` when the rule is invalid
    /// (empty, a `..` segment, a name pattern that does not read, a root that is not absolute).
    fn read(pattern: &str, root: Option<&str>) -> Option<Self> {
        let root = match root {
            Some(r) if r.starts_with('/') => Some(path_parts(r).1),
            Some(_) => return None,
            None => None,
        };
        if pattern.is_empty() {
            return None;
        }
        let absolute = pattern.starts_with('/');
        let body = pattern.trim_matches('/');
        let mut segments = Vec::new();
        for segment in body.split('/') {
            match segment {
                "" | "." => {}
                ".." => return None,
                "**" => segments.push(PathSegment::AnyDepth),
                name => segments.push(PathSegment::Name(name_pattern(name)?)),
            }
        }
        if !absolute && !body.contains('/') {
            segments.insert(0, PathSegment::AnyDepth);
        }
        Some(PathRule { absolute, segments, root })
    }

    /// `path` (docs/rule-engine.md, "imported kinds", `RuleSpec::path` and `root`): the path, its `.` and `..`
    /// collapsed and, when relative, resolved against `root`, is below the pattern's anchor and
    /// the pattern matches it or a directory above it (a rule for a directory covers what is in
    /// it). `None` when the path and the pattern cannot be related: one absolute and the other
    /// relative with no root to join them, or a relative path climbing out of its unknown start.
    fn matches(&self, path: &str) -> Option<bool> {
        let (path_absolute, mut parts) = path_parts(path);
        let anchor: Vec<String> = match (&self.root, self.absolute, path_absolute) {
            (Some(root), pattern_absolute, _) => {
                if !path_absolute {
                    // Resolved against the root: `..` climbs out of it, never above `/`.
                    let (_, resolved) = path_parts(&format!("/{}/{}", root.join("/"), parts.join("/")));
                    parts = resolved;
                }
                if pattern_absolute {
                    Vec::new()
                } else {
                    root.clone()
                }
            }
            (None, true, true) => Vec::new(),
            // Both relative to the same unknown directory, unless the path climbs out of it.
            (None, false, false) if parts.first().is_none_or(|p| p != "..") => Vec::new(),
            (None, _, _) => return None,
        };
        let Some(below) = parts.strip_prefix(anchor.as_slice()) else { return Some(false) };
        // The anchor itself is not below it.
        let covered = (1..=below.len()).any(|len| self.segments.is_empty() || segments_match(&self.segments, &below[..len]));
        Some(covered)
    }
}

/// A host as a URL parser reaches it: a name, or an address compared as the address it is.
#[derive(Debug, Clone, PartialEq)]
enum Host {
    Name(String),
    V4(std::net::Ipv4Addr),
    V6(std::net::Ipv6Addr),
}

/// An IPv4 address in any of the spellings `inet_aton(3)` accepts, which the WHATWG URL
/// Standard's IPv4 parser reads alike: one to four parts, each decimal, octal (a leading `0`) or
/// hexadecimal (`0x`); the last part fills the bytes the others leave (`127.1` is `127.0.0.1`,
/// `2130706433` is one 32-bit number), every other part is one byte. `None` when it is not one.
fn inet_aton(text: &str) -> Option<std::net::Ipv4Addr> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let number = |part: &str| -> Option<u64> {
        let (digits, radix) = if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (part, 10)
        };
        if digits.is_empty() {
            return (radix == 16).then_some(0);
        }
        u64::from_str_radix(digits, radix).ok()
    };
    let numbers: Vec<u64> = parts.iter().map(|p| number(p)).collect::<Option<_>>()?;
    let (last, leading) = numbers.split_last()?;
    if leading.iter().any(|n| *n > 255) || *last >= 1u64 << (8 * (4 - leading.len())) {
        return None;
    }
    let mut value = *last;
    for (i, n) in leading.iter().enumerate() {
        value += n << (8 * (3 - i));
    }
    Some(std::net::Ipv4Addr::from(u32::try_from(value).ok()?))
}

/// Internationalised names the generators use, in their IDNA (UTS 46) ASCII form. Source: the
/// RFC 3492 and IDNA examples (`bücher` is `xn--bcher-kva`), checked against any browser's `URL`.
const IDN: &[(&str, &str)] = &[("b\u{fc}cher.example", "xn--bcher-kva.example"), ("ex\u{e4}mple.com", "xn--exmple-cua.com")];

/// A host (no port) as a URL parser reads it: an IPv6 literal between brackets; a name whose last
/// label is a number (all digits, or `0x` and hexadecimal digits) read as an IPv4 address; a
/// known internationalised name in its ASCII form; else labels of letters, digits, `-` and `_`
/// in lower case. One trailing dot is dropped.
fn read_host(host: &str) -> Option<Host> {
    if let Some(inside) = host.strip_prefix('[') {
        return inside.strip_suffix(']')?.parse().ok().map(Host::V6);
    }
    let host = host.strip_suffix('.').unwrap_or(host).to_lowercase();
    let host = IDN.iter().find(|(unicode, _)| *unicode == host).map_or(host.clone(), |(_, ascii)| (*ascii).to_owned());
    let last = host.rsplit('.').next().unwrap_or_default();
    let numeric = (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()))
        || (last.starts_with("0x") && last[2..].bytes().all(|b| b.is_ascii_hexdigit()));
    if numeric {
        return inet_aton(&host).map(Host::V4);
    }
    let label_ok = |label: &str| !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (host.split('.').all(label_ok)).then_some(Host::Name(host))
}

/// The host of a URL read strictly (`matchers::url_host`'s documentation and docs/rule-engine.md: a URL that
/// does not parse never matches an allow rule): `http` or `https` in any case; nothing that is
/// not plainly a URL — whitespace, control characters or backslashes anywhere, `%` or IDNA's
/// deviation characters (`ß`, `ς`, ZWJ, ZWNJ) in the authority, more than one `@`; a port of at
/// most five digits up to 65535, or none; the host read as a URL parser reads it.
fn strict_host(url: &str) -> Option<Host> {
    let colon = url.find("://")?;
    let scheme = url[..colon].to_ascii_lowercase();
    let rest = &url[colon + 3..];
    if scheme != "http" && scheme != "https" {
        return None;
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\') {
        return None;
    }
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let deviation = ['%', '\u{df}', '\u{1e9e}', '\u{3c2}', '\u{200c}', '\u{200d}'];
    if authority.is_empty() || authority.contains(deviation) || authority.matches('@').count() > 1 {
        return None;
    }
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let port_ok = |port: &str| {
        port.is_empty() || (port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u32>().unwrap() <= 65535)
    };
    if host_port.starts_with('[') {
        let close = host_port.find(']')? + 1;
        let after = &host_port[close..];
        return (after.is_empty() || after.strip_prefix(':').is_some_and(port_ok)).then(|| read_host(&host_port[..close])).flatten();
    }
    let (host, port) = match host_port.find(':') {
        Some(at) => (&host_port[..at], &host_port[at + 1..]),
        None => (host_port, ""),
    };
    if !port_ok(port) {
        return None;
    }
    read_host(host)
}

/// A domain rule as written: a glob (lowercased, without its trailing dot) when it has a `*`,
/// else the host it names; `None` when it is neither (empty, a character other than letters,
/// digits, `-`, `_`, `.`, `*` outside an IPv6 address, an empty label, a host no URL can name).
fn domain_rule(rule: &str) -> Option<Result<String, Host>> {
    let rule = rule.strip_suffix('.').unwrap_or(rule).to_ascii_lowercase();
    if !rule.contains('*') && (rule.contains(':') || rule.starts_with('[')) {
        let inside = rule.strip_prefix('[').and_then(|r| r.strip_suffix(']')).unwrap_or(&rule);
        return inside.parse().ok().map(|v6| Err(Host::V6(v6)));
    }
    let chars_ok = rule.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '*'));
    let body = rule.strip_prefix("*.").unwrap_or(&rule);
    if !chars_ok || rule.is_empty() || body.split('.').any(str::is_empty) {
        return None;
    }
    if rule.contains('*') {
        return Some(Ok(rule));
    }
    read_host(&rule).map(Err)
}

/// `domain` (Claude Code's `WebFetch(domain:…)`, docs/rule-engine.md): against the URL's strictly read host,
/// case-insensitive, a trailing dot ignored: `*` is every host; `*.rest` is any subdomain of
/// `rest` at any depth, not `rest` itself; any other `*` matches text within one label; a rule
/// naming a host meets that host, an address that address in any spelling — and in deny and
/// confirm lists (`every_form`) an IPv4 address also its IPv4-mapped IPv6 form (RFC 4291
/// §2.5.5.2) and the other way round. `None` when the URL does not read.
fn domain_matches(rule: &str, url: &str, every_form: bool) -> Option<bool> {
    let host = strict_host(url)?;
    let rule = domain_rule(rule)?;
    let as_v4 = |host: &Host| match host {
        Host::V4(v4) => Some(*v4),
        Host::V6(v6) => v6.to_ipv4_mapped(),
        Host::Name(_) => None,
    };
    let glob = match rule {
        Err(named) => {
            let same_address = every_form && as_v4(&named).is_some() && as_v4(&named) == as_v4(&host);
            return Some(named == host || same_address);
        }
        Ok(glob) => glob,
    };
    let labels_match = |rule: &str, labels: &[&str]| {
        let rule_labels: Vec<&str> = rule.split('.').collect();
        rule_labels.len() == labels.len() && rule_labels.iter().zip(labels).all(|(r, h)| wildcard_matches(r, h))
    };
    let glob_matches = |text: &str| {
        let host_labels: Vec<&str> = text.split('.').collect();
        match glob.strip_prefix("*.") {
            _ if glob == "*" => true,
            Some(base) => {
                let depth = base.split('.').count();
                host_labels.len() > depth && labels_match(base, &host_labels[host_labels.len() - depth..])
            }
            None => labels_match(&glob, &host_labels),
        }
    };
    let matched = match &host {
        Host::Name(name) => glob_matches(name),
        Host::V4(v4) => glob_matches(&v4.to_string()),
        // An IPv6 literal is one label no glob label spells (brackets and colons).
        Host::V6(_) => glob == "*",
    };
    let mapped = every_form && matches!(host, Host::V6(_)) && as_v4(&host).is_some_and(|v4| glob_matches(&v4.to_string()));
    Some(matched || mapped)
}

/// Whether a rule's match on a URL needed a URL parser's reading of the host: a rule other than
/// `*` on an IPv6 literal, or a host whose reading the URL does not spell (`2130706433`,
/// `0x7f.1`, an internationalised name).
fn parsed_match(rule: &str, url: &str) -> bool {
    let spelled = |text: String| url.to_lowercase().contains(&text);
    rule != "*"
        && match strict_host(url) {
            Some(Host::V6(_)) => true,
            Some(Host::V4(v4)) => !spelled(v4.to_string()),
            Some(Host::Name(name)) => !spelled(name),
            None => false,
        }
}

/// A server or tool name of an MCP entry (the name rules of the allowlist): not empty, at most
/// 256 UTF-16 units, not only whitespace, no U+FFFD, and no `:` or `*` unless it is `*` itself.
fn mcp_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.encode_utf16().count() <= 256
        && !name.chars().all(|c| c.is_whitespace() || c == '\u{feff}')
        && !name.contains('\u{fffd}')
        && (name == "*" || !name.contains([':', '*']))
}

/// `mcp` (Cursor's `mcpAllowlist` entry `server:tool`, docs/mcp-allowlist.md): exactly one `:` between two valid
/// names; a call's server and tool each equal their side exactly (case matters), a side `*`
/// standing for every name. `None` for an invalid entry.
fn mcp_matches(entry: &str, pair: Option<(&str, &str)>) -> Option<bool> {
    let sides: Vec<&str> = entry.split(':').collect();
    let [server, tool] = sides[..] else { return None };
    if !mcp_name_ok(server) || !mcp_name_ok(tool) {
        return None;
    }
    let side = |pattern: &str, name: &str| pattern == "*" || pattern == name;
    Some(pair.is_some_and(|(s, t)| side(server, s) && side(tool, t)))
}

/// `toolAction` (Gasoline's allowlist: `*`, `tool.*`, `tool.action`, "case-insensitive
/// matching"; names of letters, digits, `_` and `-`): `*` every call, `tool.*` every action of
/// the tool, `tool.action` that one; names compared ignoring ASCII case (a rule's names are
/// ASCII, and the pair index documents ASCII case: a Kelvin sign, which Unicode lowercases to
/// `k`, is not `k`). `None` for an invalid pattern.
fn tool_action_matches(pattern: &str, pair: Option<(&str, &str)>) -> Option<bool> {
    let name_ok = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if pattern == "*" {
        return Some(pair.is_some());
    }
    let parts: Vec<&str> = pattern.split('.').collect();
    let [tool, action] = parts[..] else { return None };
    if !name_ok(tool) || !(action == "*" || name_ok(action)) {
        return None;
    }
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
    Some(pair.is_some_and(|(t, a)| same(tool, t) && (action == "*" || same(action, a))))
}

// ---------------------------------------------------------------------------------------------
// Rules, their references, and what the comparison saw.
// ---------------------------------------------------------------------------------------------

/// A rule of one kind, as a user writes it.
#[derive(Debug, Clone)]
enum Rule {
    Prefix(String),
    Glob(String),
    Tokens(String),
    Path(String, Option<String>),
    Domain(String),
    Mcp(String),
    ToolAction(String),
}

impl Rule {
    fn spec(&self) -> RuleSpec {
        match self {
            Rule::Prefix(t) => RuleSpec::prefix(t),
            Rule::Glob(t) => RuleSpec::glob(t),
            Rule::Tokens(t) => RuleSpec::tokens(t),
            Rule::Path(t, root) => RuleSpec::path(t, root.clone()),
            Rule::Domain(t) => RuleSpec::domain(t),
            Rule::Mcp(t) => RuleSpec::mcp(t),
            Rule::ToolAction(t) => RuleSpec::tool_action(t),
        }
    }

    /// Whether the reference reads the rule at all.
    fn is_valid(&self) -> bool {
        match self {
            Rule::Prefix(t) => t.split_whitespace().next().is_some(),
            Rule::Glob(t) => !t.trim().is_empty(),
            Rule::Tokens(t) => t.split_whitespace().next().is_some() && t.split_whitespace().all(|p| p.split('|').all(|a| !a.is_empty())),
            Rule::Path(t, root) => PathRule::read(t, root.as_deref()).is_some(),
            Rule::Domain(t) => domain_rule(t).is_some(),
            Rule::Mcp(t) => mcp_matches(t, None).is_some(),
            Rule::ToolAction(t) => tool_action_matches(t, None).is_some(),
        }
    }

    /// The reference's answer for a valid rule in `list`, counted in `tally`.
    fn matches(&self, list: ListKind, subject: &Subject<'_>, tally: &mut Tally) -> bool {
        let strict = list != ListKind::AlwaysAllow;
        let (label, matched): (&'static str, bool) = match self {
            Rule::Prefix(t) => ("prefix", prefix_matches(t, subject.text)),
            Rule::Glob(t) => ("glob", glob_matches_text(t, subject.text)),
            Rule::Tokens(t) => ("tokens", tokens_match(t, subject, false)),
            Rule::Path(t, root) => {
                let rule = PathRule::read(t, root.as_deref()).unwrap();
                let answer = rule.matches(subject.text);
                if answer.is_none() && strict {
                    tally.note("path: cannot relate, matched in deny/confirm");
                }
                // Deny and confirm lists also match every spelling a platform reads as the path,
                // each Unicode form against the rule's own.
                let spelled = both_forms(&windows_reading(subject.text));
                let patterns = both_forms(&caseless_nfd(t));
                let roots = root.as_deref().map(|r| both_forms(&caseless_nfd(r)));
                let folded = strict
                    && (0..2).any(|form| {
                        PathRule::read(&patterns[form], roots.as_ref().map(|r| r[form].as_str()))
                            .and_then(|rule| rule.matches(&spelled[form]))
                            .unwrap_or(true)
                    });
                if folded && answer == Some(false) {
                    tally.note("path: matched only as another platform spells it");
                    let ascii_only = PathRule::read(&t.to_lowercase(), root.as_deref().map(str::to_lowercase).as_deref())
                        .and_then(|rule| rule.matches(&windows_reading(&subject.text.to_lowercase())))
                        == Some(true);
                    if !ascii_only && !subject.text.is_ascii() {
                        tally.note("path: matched only in a Unicode reading (folding, NFC or NFD, HFS+-ignored code points)");
                    }
                }
                // An allow rule holds only under every platform's reading: as written and as
                // Windows reads it.
                let answer = if strict || answer != Some(true) {
                    answer
                } else {
                    match windows_allow_reading(subject.text) {
                        Ok(None) => answer,
                        Ok(Some(read)) => {
                            let covered = rule.matches(&read) == Some(true);
                            if !covered {
                                tally.note("path: allow refused under Windows' reading");
                            }
                            Some(covered)
                        }
                        Err(()) => {
                            tally.note("path: allow refused under Windows' reading");
                            Some(false)
                        }
                    }
                };
                let answer = if folded { Some(true) } else { answer };
                let label = match (root.is_some(), strict) {
                    (true, _) => "path with a root",
                    (false, false) => "path without a root in allow",
                    (false, true) => "path without a root in deny/confirm",
                };
                (label, answer.unwrap_or(strict))
            }
            Rule::Domain(t) => {
                let answer = domain_matches(t, subject.text, strict);
                if answer.is_none() && strict {
                    tally.note("domain: unreadable URL, matched in deny/confirm");
                }
                if answer == Some(true) && parsed_match(t, subject.text) {
                    tally.note("domain: matched only as a URL parser reads the host");
                }
                (if strict { "domain in deny/confirm" } else { "domain in allow" }, answer.unwrap_or(strict))
            }
            Rule::Mcp(t) => ("mcp", mcp_matches(t, subject.pair).unwrap()),
            Rule::ToolAction(t) => ("toolAction", tool_action_matches(t, subject.pair).unwrap()),
        };
        tally.count(label, matched);
        matched
    }
}

/// How often each kind (and list variant) matched, and how often a reference took a path only
/// its list's reading allows.
#[derive(Debug, Default)]
struct Tally {
    /// Per kind: (matched, did not match).
    answers: BTreeMap<&'static str, (usize, usize)>,
    /// Matches that only a deny or confirm list's reading gave.
    list_only: BTreeMap<&'static str, usize>,
    /// Subjects looked up.
    lookups: usize,
}

impl Tally {
    fn count(&mut self, label: &'static str, matched: bool) {
        let entry = self.answers.entry(label).or_default();
        if matched {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }

    fn note(&mut self, label: &'static str) {
        *self.list_only.entry(label).or_default() += 1;
    }

    /// Every kind seen both matched and failed to match at least `share` of its answers, and
    /// every list-only reading was taken at least `min` times.
    fn assert_both_answers(&self, share: f64, expected: &[&str], list_only: &[(&str, usize)]) {
        for label in expected {
            let (hits, misses) = self.answers.get(label).copied().unwrap_or_default();
            let total = (hits + misses).max(1) as f64;
            assert!(
                hits as f64 / total >= share && misses as f64 / total >= share,
                "{label}: {hits} matched, {misses} did not; the generators no longer give both answers often"
            );
        }
        for (label, min) in list_only {
            let seen = self.list_only.get(label).copied().unwrap_or_default();
            assert!(seen >= *min, "{label}: taken {seen} times, expected at least {min}");
        }
    }

    fn summary(&self) -> String {
        let mut lines = vec![format!("{} lookups", self.lookups)];
        for (label, (hits, misses)) in &self.answers {
            let total = (hits + misses).max(1);
            lines.push(format!("{label}: {hits} of {} matched ({}%)", hits + misses, hits * 100 / total));
        }
        for (label, n) in &self.list_only {
            lines.push(format!("{label}: {n}"));
        }
        lines.join("\n")
    }
}

/// A rule list compiled by the engine next to the same rules for the references.
struct Trial {
    list: ListKind,
    set: RuleSet,
    rules: Vec<Rule>,
}

impl Trial {
    /// Compiles the rules the references read; the engine must refuse exactly the others.
    fn new(list: ListKind, candidates: Vec<Rule>) -> Self {
        let mut set = RuleSet::default();
        let mut rules = Vec::new();
        for rule in candidates {
            let spec = rule.spec();
            let compiled = compile_rule(&spec);
            assert_eq!(compiled.is_ok(), rule.is_valid(), "{rule:?}: the engine says {compiled:?}");
            let Ok(matcher) = compiled else { continue };
            let origin = RuleRef {
                layer: "user".into(),
                tool: "t".into(),
                list,
                index: rules.len(),
                matcher: MatcherKind::of(&spec),
                pattern: spec.text().into(),
            };
            set.push(matcher.for_list(list), origin);
            rules.push(rule);
        }
        Trial { list, set, rules }
    }

    /// The set answers with the first rule whose reference matches.
    fn check(&self, subject: &Subject<'_>, tally: &mut Tally) {
        let answers: Vec<bool> = self.rules.iter().map(|rule| rule.matches(self.list, subject, tally)).collect();
        let expected = answers.iter().position(|m| *m);
        let found = self.set.first_match(subject).map(|r| r.origin.index);
        assert_eq!(found, expected, "{:?} rules {:?} on {subject:?}", self.list, self.rules);
        tally.lookups += 1;
    }
}

/// The code points HFS+ ignores in names, from git's `is_hfs_dotgit` (utf8.c, the CVE-2014-9390
/// fix): U+200C–U+200F, U+202A–U+202E, U+206A–U+206F, U+FEFF.
const HFS_IGNORED: &[std::ops::RangeInclusive<char>] =
    &['\u{200c}'..='\u{200f}', '\u{202a}'..='\u{202e}', '\u{206a}'..='\u{206f}', '\u{feff}'..='\u{feff}'];

/// Unicode's canonical caseless form (D145: NFD, full case folding, NFD) with the code points
/// HFS+ ignores dropped, from other maintainers than the engine's: `unicode-normalization` and
/// ICU4X's full case folding (lowercased, as Cherokee folds to capitals).
fn caseless_nfd(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let kept: String = text.chars().filter(|c| !HFS_IGNORED.iter().any(|r| r.contains(c))).collect();
    let folded = icu_casemap::CaseMapper::new().fold_string(&kept.nfd().collect::<String>()).into_owned();
    folded.chars().flat_map(char::to_lowercase).nfd().collect()
}

/// Both Unicode forms of a folded text: NFC and NFD.
fn both_forms(nfd: &str) -> [String; 2] {
    use unicode_normalization::UnicodeNormalization;
    [nfd.nfc().collect(), nfd.to_owned()]
}

/// Whether Windows reads `text` as a path outside every directory (a share, a device namespace, a
/// drive-relative path, a reserved device name: Microsoft's "Naming Files, Paths, and
/// Namespaces"), or else the path it reads, `\\` a separator, streams and trailing dots and
/// spaces cut; `Ok(None)` when it reads as written.
fn windows_allow_reading(text: &str) -> Result<Option<String>, ()> {
    let names: Vec<&str> = text.split(['/', '\\']).collect();
    let device = |name: &str| {
        let stem = name.split('.').next().unwrap_or_default().trim_end_matches(' ').to_ascii_uppercase();
        ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(&stem.as_str())
            || ["COM", "LPT"]
                .iter()
                .any(|p| stem.strip_prefix(p).is_some_and(|n| n.chars().count() == 1 && "0123456789\u{b9}\u{b2}\u{b3}".contains(n)))
    };
    let unc = text.starts_with("//")
        || text.starts_with("\\\\")
        || text.starts_with("\\\\")
        || text.starts_with("/\\")
        || text.starts_with("\\/");
    let device_namespace = text.starts_with("\\??\\") || text.starts_with("/??/") || text.starts_with("\\??/") || text.starts_with("/??\\");
    let first = names.first().copied().unwrap_or_default();
    let drive = first.len() >= 2 && first.as_bytes()[0].is_ascii_alphabetic() && first.as_bytes()[1] == b':';
    if unc || device_namespace || (drive && (first.len() > 2 || names.len() == 1)) || names.iter().any(|n| device(n)) {
        return Err(());
    }
    let odd = |n: &&str| n.contains(':') || (*n != "." && *n != ".." && (n.ends_with('.') || n.ends_with(' ')));
    if !text.contains('\\') && !names.iter().any(odd) {
        return Ok(None);
    }
    let read: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if (i == 0 && drive) || *n == "." || *n == ".." {
                return (*n).to_owned();
            }
            let cut = n.split(':').next().unwrap_or_default().trim_end_matches(['.', ' ']);
            if cut.is_empty() && !n.is_empty() {
                ".".to_owned()
            } else {
                cut.to_owned()
            }
        })
        .collect();
    let joined = read.join("/");
    Ok(Some(if drive { format!("/{joined}") } else { joined }))
}

/// The path a lenient platform opens for `text`, written from Microsoft's "Naming Files, Paths,
/// and Namespaces" and "File Streams": case folded (in NFD, see [`caseless_nfd`]), `\\` a separator, the `\\?\`, `\\.\`,
/// `\??\` prefixes (and `UNC\`) gone, a drive the root's first name, a stream (`:…`) and trailing
/// dots and spaces cut from every other name.
fn windows_reading(text: &str) -> String {
    let lower: String = caseless_nfd(text).chars().map(|c| if c == '\\' { '/' } else { c }).collect();
    let mut rest = lower.as_str();
    let mut unc = false;
    for prefix in ["//?/", "//./", "/??/"] {
        if let Some(after) = rest.strip_prefix(prefix) {
            rest = after;
            if let Some(share) = rest.strip_prefix("unc/") {
                rest = share;
                unc = true;
            }
            break;
        }
    }
    let mut names: Vec<String> = Vec::new();
    let mut absolute = unc || rest.starts_with('/');
    for (n, name) in rest.split('/').enumerate() {
        let is_drive = name.len() == 2 && name.ends_with(':') && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
        if is_drive && (n == 0 || (n == 1 && rest.starts_with('/'))) {
            absolute = true;
            names.push(name.to_owned());
            continue;
        }
        let kept = if name == "." || name == ".." {
            name.to_owned()
        } else {
            let before_stream = match name.find(':') {
                Some(at) => &name[..at],
                None => name,
            };
            let cut = before_stream.trim_end_matches(['.', ' ']);
            if cut.is_empty() {
                name.to_owned()
            } else {
                cut.to_owned()
            }
        };
        names.push(kept);
    }
    let mut out = Vec::new();
    for name in names {
        match name.as_str() {
            "" | "." => {}
            ".." if out.last().is_some_and(|l: &String| l != "..") => {
                out.pop();
            }
            ".." if absolute => {}
            _ => out.push(name),
        }
    }
    let joined = out.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

// ---------------------------------------------------------------------------------------------
// Random rules and subjects.
// ---------------------------------------------------------------------------------------------

type Next<'a> = &'a mut dyn FnMut(usize) -> usize;

fn pick<'w>(next: Next<'_>, words: &[&'w str]) -> &'w str {
    words[next(words.len())]
}

/// Programs a command line starts with: capitals, a program by its path, a quoted one.
const PROGRAMS: &[&str] =
    &["git", "git", "git", "git", "Git", "GIT", "gitx", "rm", "rm", "/bin/rm", "ls", "npm", "/usr/bin/git", "./run.sh", "\"rm\""];

/// Words after the program: options, subcommands, quoting, paths, a URL, program names.
const ARGUMENTS: &[&str] = &[
    "status",
    "status",
    "log",
    "push",
    "main",
    "-la",
    "-rf",
    "x",
    "run",
    "run",
    "build",
    "--version",
    "tmp/",
    "'a b'",
    "~/x",
    "../y",
    "https://Example.com:8080/x",
    "git",
    "rm",
];

/// Wrappers, and their options, that Claude Code strips or keeps (and `env`, `sudo`), on which
/// the engine and the reference agree.
const WRAPPERS: &[&str] = &[
    "sudo",
    "sudo -u root",
    "sudo -E",
    "sudo --",
    "env",
    "env --",
    "env X=1",
    "env -i X=1",
    "env -u X",
    "timeout 5",
    "timeout -s KILL 5",
    "timeout --preserve-status 5",
    "nice",
    "nice -n 5",
    "nohup",
    "time",
    "time -p",
    "command",
    "command -v",
    "command -V",
    "builtin",
    "noglob",
    "xargs",
    "xargs -n1",
    "stdbuf -o L",
    "stdbuf -oL",
    "nocorrect",
];

const SPACES: &[&str] = &[" ", " ", " ", "  ", "\t", "\u{a0}"];

/// A command line: maybe assignments, maybe wrappers from `wrappers`, a program and a few
/// arguments, maybe a second command or a redirect.
fn command_line(next: Next<'_>, wrappers: &[&str]) -> String {
    let mut line = String::new();
    if next(6) == 0 {
        line.push_str(pick(next, &["X=1 ", "PAGER=cat ", "A=1 B=2 "]));
    }
    for _ in 0..[0, 0, 0, 0, 1, 1, 2][next(7)] {
        line.push_str(pick(next, wrappers));
        line.push(' ');
    }
    line.push_str(pick(next, PROGRAMS));
    for _ in 0..next(4) {
        line.push_str(pick(next, &[" ", " ", "  "]));
        line.push_str(pick(next, ARGUMENTS));
    }
    match next(8) {
        0 => line.push_str(" && git status"),
        1 => line.push_str(" | rm -rf x"),
        2 => line.push_str(" > out.txt"),
        _ => {}
    }
    line
}

/// Text an item may carry without being a parsed command: words and odd spaces.
fn plain_text(next: Next<'_>) -> String {
    let mut text = String::new();
    if next(8) == 0 {
        text.push_str(pick(next, SPACES));
    }
    if next(8) > 0 {
        text.push_str(pick(next, PROGRAMS));
    }
    for _ in 0..next(4) {
        text.push_str(pick(next, SPACES));
        text.push_str(pick(next, ARGUMENTS));
    }
    text
}

/// A path as a tool may name it: absolute or relative, with `.`, `..`, `//`, `~` and a trailing `/`.
fn path_text(next: Next<'_>) -> String {
    let leads = ["", "", "", "", "/", "/p/", "/p/", "./", "./", "../", "~/", "//", "/p/q/../", "\\\\h\\s\\", "C:", "c:/p/"];
    let mut path = pick(next, &leads).to_owned();
    let names = ["p", "src", "src", "x", ".env", ".env", ".envrc", "..", ".", "", "~", "a1", "b.rs", "q", "bc", "s\u{e9}c"];
    // Other platforms' spellings of the same names: case, trailing dots and spaces, streams, a
    // device name; and Unicode's: long s and the Kelvin sign (CaseFolding.txt), a code point
    // HFS+ ignores, a letter composed, decomposed or in capitals.
    let spellings = [
        "SRC",
        ".ENV",
        ".env.",
        ".env ",
        ".env::$DATA",
        "Src:x",
        "P",
        "nul.txt",
        "\u{17f}rc",
        ".e\u{200c}nv",
        "\u{212a}",
        "se\u{301}c",
        "S\u{c9}C",
        "\u{feff}p",
    ];
    let parts: Vec<&str> = (0..1 + next(4)).map(|_| if next(4) == 0 { pick(next, &spellings) } else { pick(next, &names) }).collect();
    let separator = if next(5) == 0 { "\\" } else { "/" };
    path.push_str(&parts.join(separator));
    if next(6) == 0 {
        path.push('/');
    }
    path
}

/// A URL, mostly one that reads: schemes, userinfo, hosts with capitals, a trailing dot, ports.
fn url_text(next: Next<'_>) -> String {
    let scheme = pick(next, &["https://", "https://", "https://", "https://", "https://", "https://", "http://", "HTTPS://", "ftp://", ""]);
    let userinfo = pick(next, &["", "", "", "", "", "", "", "u@", "u:p@", "a@b@"]);
    let host = pick(
        next,
        &[
            "example.com",
            "example.com",
            "example.com",
            "Example.COM",
            "api.example.com",
            "api.example.com",
            "api.example.com",
            "a.b.example.com",
            "example.org",
            "example.com.",
            "badexample.com",
            "example.com.evil.net",
            "api-v2.example.com",
            "localhost",
            "",
            "exa%6dple.com",
            "ex\u{e4}mple.com",
            "a..b",
            "[::1]",
            // Every spelling of an address a URL parser reads as it (inet_aton(3), the WHATWG
            // URL Standard's IPv4 parser, RFC 4291 §2.5.5.2), and IDNA's.
            "127.0.0.1",
            "2130706433",
            "0x7f.1",
            "0177.0.0.1",
            "127.1",
            "0x7F000001",
            "[::ffff:127.0.0.1]",
            "[::FFFF:7f00:1]",
            "[0:0::1]",
            "169.254.169.254",
            "2852039166",
            "0xa9.0376.43518",
            "1.2.3.4.5",
            "b\u{fc}cher.example",
            "B\u{dc}CHER.example",
            "xn--bcher-kva.example",
            "fa\u{df}.example",
        ],
    );
    let port = pick(next, &["", "", "", "", "", "", "", ":8080", ":", ":99999", ":x"]);
    let tail = pick(next, &["", "", "", "", "", "/", "/x?q=1", "#f", "/@evil.com", "/a b", "\\@evil.com"]);
    format!("{scheme}{userinfo}{host}{port}{tail}")
}

/// First names of a call: MCP servers, Gasoline tools (with a Kelvin sign, which Unicode
/// lowercases to `k`).
const FIRST_NAMES: &[&str] = &["github", "github", "GitHub", "docs", "observe", "Observe", "interact", "*", "x y", "\u{212A}", "k"];

/// Second names of a call: MCP tools, Gasoline actions.
const SECOND_NAMES: &[&str] = &["search", "search", "Search", "create_issue", "navigate", "NAVIGATE", "logs", "*", "x-y", "\u{e9}"];

/// What a rule is matched against: an item's text, and what the evaluator carries with it.
#[derive(Debug)]
struct Item {
    text: String,
    words: Option<(String, Vec<String>)>,
    pair: Option<(String, String)>,
}

impl Item {
    fn text(text: String) -> Self {
        Item { text, words: None, pair: None }
    }

    fn subject<'a>(&'a self, _next: Next<'_>) -> Subject<'a> {
        Subject {
            text: &self.text,
            pair: self.pair.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
            words: self.words.as_ref().map(|(name, args)| (name.as_str(), args.as_slice())),
            guessed_path: false,
        }
    }
}

/// The kinds of input a subject may come from.
#[derive(Debug, Clone, Copy)]
enum Input {
    /// A command line's items, with the parser's words.
    Command,
    /// Text no parser read.
    Text,
    Path,
    Url,
    /// A call's two names (MCP server and tool, Gasoline tool and action).
    Pair,
}

/// The items of a random input: a command line's as the parser makes them, else one.
fn items(input: Input, next: Next<'_>) -> Vec<Item> {
    let parsed = |line: String| -> Vec<Item> {
        analyze_in(Shell::Posix, &line)
            .items
            .into_iter()
            .map(|item| Item { text: item.text, words: item.name.map(|name| (name, item.args)), pair: None })
            .collect()
    };
    match input {
        Input::Command => parsed(command_line(next, WRAPPERS)),
        Input::Text => vec![Item::text(plain_text(next))],
        Input::Path => vec![Item::text(path_text(next))],
        Input::Url => vec![Item::text(url_text(next))],
        Input::Pair => {
            let (a, b) = (pick(next, FIRST_NAMES), pick(next, SECOND_NAMES));
            vec![Item { text: format!("{a}:{b}"), words: None, pair: Some((a.to_owned(), b.to_owned())) }]
        }
    }
}

fn prefix_rule(next: Next<'_>) -> Rule {
    let prefixes = ["git", "git", "Git", "git status", "git  log", "rm", "rm -rf", "ls", "npm run", "/usr/bin/git", "gitx", "  "];
    Rule::Prefix(pick(next, &prefixes).to_owned())
}

fn glob_rule(next: Next<'_>) -> Rule {
    let mut parts = vec![pick(next, &["git", "git", "Git", "rm", "ls", "npm", "/usr/bin/git", "*", "*"])];
    for _ in 0..next(3) {
        parts.push(pick(next, &["status", "log", "push", "main", "-rf", "run", "x", "--version", "*"]));
    }
    let mut glob = parts.join(pick(next, &[" ", " ", " ", " ", " ", "", "\t", "\u{a0}"]));
    glob.push_str(pick(next, &["", " *", " *", " *", ":*", "*", ":* x"]));
    if next(40) == 0 {
        glob = "  ".into();
    }
    Rule::Glob(glob)
}

fn tokens_rule(next: Next<'_>) -> Rule {
    let programs = ["git", "git", "rm", "ls", "npm", "/usr/bin/git", "/bin/rm", "./run.sh", "run.sh", "GIT"];
    let arguments = ["status", "log", "push", "-rf", "x", "run", "main"];
    let mut positions = Vec::new();
    for position in 0..1 + [0, 0, 0, 1, 1, 2][next(6)] {
        let words: &[&str] = if position == 0 { &programs } else { &arguments };
        let alternatives: Vec<&str> = (0..1 + next(2)).map(|_| pick(next, words)).collect();
        positions.push(alternatives.join("|"));
    }
    let mut rule = positions.join(" ");
    if next(40) == 0 {
        rule.push_str(" a||b");
    }
    Rule::Tokens(rule)
}

fn path_rule(next: Next<'_>, root: bool) -> Rule {
    let segments = [
        "src",
        "src",
        "*",
        "**",
        "**",
        ".env",
        ".env*",
        "a?",
        "[ab]*",
        "[!a]*",
        "[a-c]1",
        "~",
        "x",
        "p",
        "*.rs",
        "\\*",
        "q",
        "s\u{e9}c",
        "se\u{301}c",
        "k",
        "s?c",
    ];
    let lead = pick(next, &["", "", "", "/", "/p/", "/p/", "//", "./", "**/"]);
    let body: Vec<&str> = (0..1 + [0, 0, 1, 2][next(4)]).map(|_| pick(next, &segments)).collect();
    let mut pattern = format!("{lead}{}", body.join("/"));
    match next(12) {
        0 | 1 => pattern.push('/'),
        2 => pattern.push_str("/../x"),
        3 => pattern.push_str("/[a"),
        _ => {}
    }
    let root = root.then(|| pick(next, &["/p", "/p", "/", "/p/", "/p/q/..", "//p", "p"]).to_owned());
    Rule::Path(pattern, root)
}

fn domain_rule_text(next: Next<'_>) -> Rule {
    let rules = [
        "example.com",
        "example.com",
        "*.example.com",
        "*.example.com",
        "example.*",
        "*",
        "Example.COM.",
        "api-*.example.com",
        "*.com",
        "a.*.example.com",
        "*.*",
        "ex*e.com",
        "localhost",
        "::1",
        "exa mple.com",
        "a..b",
        "",
        "127.0.0.1",
        "127.0.0.1",
        "0x7f.1",
        "127.*.*.*",
        "[::1]",
        "::ffff:127.0.0.1",
        "169.254.169.254",
        "xn--bcher-kva.example",
        "*.example",
        "b\u{fc}cher.example",
        "1.2.3.4.5",
    ];
    Rule::Domain(pick(next, &rules).to_owned())
}

fn mcp_rule(next: Next<'_>) -> Rule {
    let servers = ["github", "github", "GitHub", "docs", "*", "*", "x y", "a*", "", " ", "observe"];
    let tools = ["search", "search", "Search", "create_issue", "*", "*", "logs", "", "\u{e9}"];
    let entry = match next(12) {
        0 => pick(next, &servers).to_owned(),
        1 => format!("{}:{}:{}", pick(next, &servers), pick(next, &tools), pick(next, &tools)),
        _ => format!("{}:{}", pick(next, &servers), pick(next, &tools)),
    };
    Rule::Mcp(entry)
}

fn tool_action_rule(next: Next<'_>) -> Rule {
    let tools = ["observe", "observe", "Observe", "interact", "github", "k", "x-y", "\u{e9}", "", "*"];
    let actions = ["*", "*", "navigate", "NAVIGATE", "logs", "search", "", "a.b", "x-y"];
    let pattern = match next(10) {
        0 => "*".to_owned(),
        1 => pick(next, &tools).to_owned(),
        _ => format!("{}.{}", pick(next, &tools), pick(next, &actions)),
    };
    Rule::ToolAction(pattern)
}

/// `sets` lists of one to six rules from `rule`, each in a list from `lists` and looked up with
/// `lookups` random inputs from `inputs` (every item of a command line).
fn run(seed: u64, sets: usize, lookups: usize, lists: &[ListKind], rule: fn(Next<'_>) -> Rule, inputs: &[Input]) -> Tally {
    let mut next = random_below(seed);
    let mut tally = Tally::default();
    for _ in 0..sets {
        let list = lists[next(lists.len())];
        let candidates: Vec<Rule> = (0..1 + next(6)).map(|_| rule(&mut next)).collect();
        let trial = Trial::new(list, candidates);
        for _ in 0..lookups {
            let input = inputs[next(inputs.len())];
            for item in items(input, &mut next) {
                let subject = item.subject(&mut next);
                trial.check(&subject, &mut tally);
            }
        }
    }
    println!("{}", tally.summary());
    tally
}

const ALLOW: &[ListKind] = &[ListKind::AlwaysAllow];
const DENY_OR_CONFIRM: &[ListKind] = &[ListKind::AlwaysDeny, ListKind::AlwaysConfirm];
const ANY_LIST: &[ListKind] = &[ListKind::AlwaysAllow, ListKind::AlwaysDeny, ListKind::AlwaysConfirm];
const COMMANDS: &[Input] = &[Input::Command, Input::Command, Input::Command, Input::Text];

// ---------------------------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------------------------

/// The references answer the examples their sources give, so the rest compares the engine with
/// the documented meaning and not with a misreading of it.
#[test]
fn the_references_answer_their_sources_examples() {
    // Cursor's prefixes (docs/rule-engine.md): word boundaries.
    assert!(prefix_matches("git", "git log") && !prefix_matches("git", "gitx") && prefix_matches("npm run", "npm  run build"));
    // Claude Code's "Wildcard patterns" table, and `:*` only at the very end.
    for (glob, matches, misses) in [
        ("npm run build", &["npm run build"][..], &["npm run build --watch"][..]),
        ("npm run *", &["npm run build", "npm run test --watch", "npm run"], &["npm install"]),
        ("git log * main", &["git log --oneline main", "git log -5 main"], &["git log main", "git push origin main"]),
        ("git * main", &["git merge main", "git -c core.fsmonitor=x diff main"], &["git log"]),
        ("* --version", &["node --version", "bash -c echo hi --version"], &["node -v"]),
        ("ls *", &["ls -la", "ls"], &["lsof"]),
        ("ls*", &["ls -la", "lsof"], &[]),
        ("* --help *", &["npm --help x"], &["npm --help"]),
        ("ls:*", &["ls", "ls -la"], &["lsof"]),
        ("git:* push", &["git:x push"], &["git push", "git status push"]),
    ] {
        for text in matches {
            assert!(glob_matches_text(glob, text), "{glob} should match {text}");
        }
        for text in misses {
            assert!(!glob_matches_text(glob, text), "{glob} should not match {text}");
        }
    }
    // Claude Code's "Wrappers": stripped for deny and ask rules, not the query form.
    let deny_glob = |glob: &str, name: &str, args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let text = format!("{name} {}", args.join(" "));
        let item = Item { text, words: Some((name.to_owned(), args)), pair: None };
        reference_forms(&item).iter().any(|form| glob_matches_text(glob, form))
    };
    assert!(deny_glob("npm test *", "timeout", &["30", "npm", "test"]));
    assert!(deny_glob("rm *", "rm", &["-rf", "tmp/"])); // `FOO=bar rm -rf tmp/`: the parser's words
    assert!(deny_glob("grep *", "xargs", &["grep", "pattern"]));
    assert!(deny_glob("grep *", "xargs", &["-n", "1", "grep", "pattern"]));
    assert!(!deny_glob("rm *", "command", &["-v", "rm"]));
    assert!(deny_glob("rm *", "nice", &["-n", "5", "nohup", "rm", "-rf", "x"]));
    assert!(deny_glob("rm *", "/bin/rm", &["-rf", "x"]));
    // Codex's `prefix_rule` examples, and its fallback from a program's path to its name.
    let tokens = |rule: &str, text: &str, by_name: bool| tokens_match(rule, &Subject::text(text), by_name);
    assert!(tokens("gh pr view", "gh pr view 7888", false) && !tokens("gh pr view", "gh pr --repo o/c view 7888", false));
    assert!(tokens("git push|fetch", "git fetch", false) && !tokens("git push|fetch", "git status", false));
    assert!(!tokens("rm", "rmdir x", false) && tokens("git status", "/usr/bin/git status", true));
    assert!(!tokens("git status", "/usr/bin/git status", false));
    // Claude Code's "Read and Edit" examples, with their anchors resolved.
    let path = |pattern: &str, root: Option<&str>, path: &str| PathRule::read(pattern, root).unwrap().matches(path);
    assert_eq!(path("**/.env", Some("/p"), "/p/a/b/.env"), Some(true));
    assert_eq!(path(".env", Some("/p"), "x/.env"), Some(true));
    assert_eq!(path(".env", Some("/p"), "/other/.env"), Some(false));
    assert_eq!(path("src/**", Some("/p"), "/p/src/app.ts"), Some(true));
    assert_eq!(path("src/**", Some("/p"), "/p/vendor/pkg/src/lib.js"), Some(false));
    assert_eq!(path("/home/u/Documents/*.pdf", None, "/home/u/Documents/a.pdf"), Some(true));
    assert_eq!(path("/home/u/Documents/*.pdf", None, "/home/u/Documents/x/a.pdf"), Some(false));
    assert_eq!(path("secrets", Some("/p"), "x/secrets/b/c"), Some(true));
    assert_eq!(path("/tmp/scratch.txt", None, "/tmp/x/../scratch.txt"), Some(true));
    assert_eq!(path("/etc/**", None, "etc/x"), None);
    assert!(PathRule::read("a/../b", None).is_none() && PathRule::read("x", Some("rel")).is_none());
    // Claude Code's "WebFetch" examples, and URLs that are not plainly one.
    assert_eq!(domain_matches("*.example.com", "https://a.b.example.com/p?q", false), Some(true));
    assert_eq!(domain_matches("*.example.com", "https://example.com", true), Some(false));
    assert_eq!(domain_matches("example.com", "http://u:p@EXAMPLE.com.:8080/", false), Some(true));
    assert_eq!(domain_matches("example.*", "https://example.evil.com", true), Some(false));
    assert_eq!(domain_matches("Docs.GitHub.com.", "https://docs.github.com/en", false), Some(true));
    for url in ["https://good.com\\@evil.com", "https://evil.com%2egood.com", "https://a.com:99999", "https://a@b@c.com", "ftp://x.com"] {
        assert_eq!(domain_matches("*", url, true), None, "{url}");
    }
    // inet_aton(3)'s and the WHATWG URL Standard's IPv4 spellings; IPv4-mapped IPv6 (RFC 4291
    // §2.5.5.2) in deny and confirm lists; IDNA.
    for url in ["http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/"] {
        assert_eq!(domain_matches("127.0.0.1", url, false), Some(true), "{url}");
    }
    assert_eq!(domain_matches("127.0.0.1", "http://[::ffff:127.0.0.1]/", true), Some(true));
    assert_eq!(domain_matches("127.0.0.1", "http://[::ffff:127.0.0.1]/", false), Some(false));
    assert_eq!(domain_matches("169.254.*.*", "http://0xa9fea9fe/", false), Some(true));
    assert_eq!(domain_matches("xn--bcher-kva.example", "https://B\u{dc}CHER.example/", false), Some(true));
    assert_eq!(inet_aton("1.2.3.4.5"), None);
    assert_eq!(inet_aton("0x100000000"), None);
    // Cursor's `server:tool` entries and the allowlist's name rules.
    assert_eq!(mcp_matches("github:*", Some(("github", "x"))), Some(true));
    assert_eq!(mcp_matches("github:*", Some(("GitHub", "x"))), Some(false));
    assert_eq!(mcp_matches("*:search", Some(("docs", "search"))), Some(true));
    assert!(mcp_matches("git*:x", None).is_none() && mcp_matches("a:b:c", None).is_none() && mcp_matches(" :x", None).is_none());
    // Gasoline's allowlist examples.
    assert_eq!(tool_action_matches("observe.*", Some(("OBSERVE", "logs"))), Some(true));
    assert_eq!(tool_action_matches("Interact.Navigate", Some(("interact", "NAVIGATE"))), Some(true));
    assert_eq!(tool_action_matches("interact.navigate", Some(("interact", "execute_js"))), Some(false));
    assert!(tool_action_matches("*.x", None).is_none() && tool_action_matches("observe", None).is_none());
}

#[test]
fn prefix_rules_match_when_their_words_are_the_texts_first_words() {
    let tally = run(0x5EED_0001, 1000, 8, ANY_LIST, prefix_rule, COMMANDS);
    tally.assert_both_answers(0.04, &["prefix"], &[]);
}

#[test]
fn allow_globs_match_the_whole_text_with_star_spanning_spaces() {
    let tally = run(0x5EED_0002, 1000, 8, ALLOW, glob_rule, COMMANDS);
    tally.assert_both_answers(0.04, &["glob"], &[]);
}

/// An allow glob is filed under the first word it spells (its text up to the first space) and a
/// text is looked up by its first whitespace-separated word: a glob whose first word holds a tab
/// or a no-break space matches such a text (the set's own scan says so), and must be found.
#[test]
fn allow_globs_whose_first_word_holds_other_whitespace_are_found_by_the_index() {
    let mut tally = Tally::default();
    let mut skipped = Vec::new();
    for (glob, text) in [("git\tstatus *", "git\tstatus x"), ("git\u{a0}status", "git\u{a0}status"), ("\u{a0}git *", "\u{a0}git x")] {
        let trial = Trial::new(ListKind::AlwaysAllow, vec![Rule::Glob(glob.into())]);
        let subject = Subject::text(text);
        assert!(trial.rules[0].matches(ListKind::AlwaysAllow, &subject, &mut tally), "the reference matches {glob:?} on {text:?}");
        assert!(trial.set.first_match_by_scan(&subject).is_some(), "the set's scan matches {glob:?} on {text:?}");
        if trial.set.first_match(&subject).is_none() {
            skipped.push((glob, text));
        }
    }
    assert!(skipped.is_empty(), "allow globs the index skips: {skipped:?}");
}

/// Globs in every list match an item's text as the documentation reads it; a deny or confirm
/// glob meets what a command runs past its wrappers through the item's forms (see
/// `deny_and_confirm_rules_of_every_command_kind_meet_what_a_command_runs`).
#[test]
fn globs_match_the_text_in_every_list() {
    let tally = run(0x5EED_0003, 1000, 8, ANY_LIST, glob_rule, COMMANDS);
    tally.assert_both_answers(0.04, &["glob"], &[]);
}

/// The reference's reading of what a command runs: its words past any number of stripped
/// wrappers (each a form), and each form also with its program named by its base name (Codex's
/// host-executable fallback; a path to a program is that program).
fn reference_forms(item: &Item) -> Vec<String> {
    let Some((name, args)) = &item.words else { return vec![item.text.clone()] };
    let mut words: Vec<String> = std::iter::once(name.clone()).chain(args.iter().cloned()).collect();
    let mut out = vec![item.text.clone()];
    loop {
        out.push(words.join(" "));
        let base = program_name(&words[0]).to_owned();
        if base != words[0] && !matches!(base.as_str(), "" | "." | "..") {
            let mut named = words.clone();
            named[0] = base.clone();
            out.push(named.join(" "));
            words[0] = base;
        }
        match wrapped_command_at(&words) {
            Some(at) => words.drain(..at).for_each(drop),
            None => return out,
        }
    }
}

/// Deny and confirm rules of the command kinds (prefix, glob, tokens) refuse or ask for a
/// command line exactly when the reference reads one of them as matching the raw line or what
/// one of its commands runs: past leading assignments and wrappers, by a path to the program.
/// Decided through a policy, as a user meets it.
#[test]
fn deny_and_confirm_rules_of_every_command_kind_meet_what_a_command_runs() {
    use crate::policy::{LayerSpec, Outcome, Policy, PolicySpec, Reason, ToolRulesSpec};
    let mut next = random_below(0x5EED_0005);
    let (mut held, mut past_wrappers, mut refused_plainly) = (0, 0, 0);
    for _ in 0..600 {
        let list = DENY_OR_CONFIRM[next(2)];
        let rules: Vec<Rule> = (0..1 + next(3))
            .map(|_| match next(3) {
                0 => prefix_rule(&mut next),
                1 => glob_rule(&mut next),
                _ => tokens_rule(&mut next),
            })
            .filter(Rule::is_valid)
            .collect();
        let mut tool = ToolRulesSpec::default();
        let specs: Vec<_> = rules.iter().map(Rule::spec).collect();
        match list {
            ListKind::AlwaysDeny => tool.always_deny = specs,
            _ => tool.always_confirm = specs,
        }
        let spec = PolicySpec {
            default_mode: Outcome::Allow,
            layers: vec![LayerSpec {
                name: "user".into(),
                tools: [("terminal".to_owned(), tool)].into_iter().collect(),
                ..LayerSpec::default()
            }],
            ..PolicySpec::default()
        };
        let policy = Policy::new(spec);
        for _ in 0..12 {
            let line = command_line(&mut next, WRAPPERS);
            let items: Vec<Item> = analyze_in(Shell::Posix, &line)
                .items
                .into_iter()
                .map(|item| Item { text: item.text, words: item.name.map(|name| (name, item.args)), pair: None })
                .collect();
            let reference = |text: &str, words: Option<(&str, &[String])>| {
                let subject = Subject { text, pair: None, words, guessed_path: false };
                rules.iter().any(|rule| match rule {
                    Rule::Prefix(t) => prefix_matches(t, text),
                    Rule::Glob(t) => glob_matches_text(t, text),
                    Rule::Tokens(t) => tokens_match(t, &subject, false),
                    _ => false,
                })
            };
            let on_text = reference(&line, None)
                || items.iter().any(|i| reference(&i.text, i.words.as_ref().map(|(n, a)| (n.as_str(), a.as_slice()))));
            let expected = on_text
                || items.iter().any(|item| {
                    reference_forms(item).iter().any(|form| {
                        let words: Vec<String> = form.split(' ').map(str::to_owned).collect();
                        reference(form, words.split_first().map(|(n, a)| (n.as_str(), a)))
                    })
                });
            let decision = policy.decide("terminal", std::slice::from_ref(&line));
            if decision.reason == Reason::HardcodedDeny {
                continue;
            }
            let by_rule = matches!(decision.reason, Reason::DenyRule | Reason::ConfirmRule);
            assert_eq!(by_rule, expected, "{list:?} {rules:?} on {line:?}: {:?} {}", decision.reason, decision.message);
            held += usize::from(expected);
            past_wrappers += usize::from(expected && !on_text);
            refused_plainly += usize::from(!expected);
        }
    }
    assert!(
        held > 600 && past_wrappers > 150 && refused_plainly > 1500,
        "{held} held, {past_wrappers} only past wrappers, {refused_plainly} not matched"
    );
}

/// Wrapper forms the engine reads further than the reference's list: `command -p`, `sudo`
/// options that take a value, a command after `--`, and sixteen wrappers in a row; past
/// sixteen the program is not read and the line asks.
#[test]
fn deny_globs_see_past_every_wrapper_form_the_documentation_strips() {
    use crate::policy::{Outcome, Policy, PolicySpec, Reason};
    let deny = |glob: &str, line: &str| {
        let spec: PolicySpec = serde_json::from_value(serde_json::json!({
            "defaultMode": "allow",
            "layers": [{ "name": "user", "tools": { "terminal": { "alwaysDeny": [{ "glob": glob }] } } }]
        }))
        .unwrap();
        Policy::new(spec).decide("terminal", &[line.to_owned()])
    };
    let sixteen = format!("{}rm -rf x", "nohup ".repeat(15));
    for (glob, line) in [
        ("rm *", "command -p rm -rf x"),
        ("rm *", "sudo -T 5 rm -rf x"),
        ("rm *", "sudo -R /srv rm -rf x"),
        ("-x *", "sudo -- -x y"),
        ("rm *", sixteen.as_str()),
    ] {
        assert_eq!(deny(glob, line).reason, Reason::DenyRule, "{glob} on {line}");
    }
    let forty = format!("{}rm -rf x", "nohup ".repeat(40));
    let d = deny("rm *", &forty);
    assert_eq!((d.outcome, d.reason), (Outcome::Confirm, Reason::CannotVouch), "{}", d.message);
}

#[test]
fn allow_token_prefixes_match_the_unquoted_words_exactly() {
    let tally = run(0x5EED_0004, 1000, 8, ALLOW, tokens_rule, COMMANDS);
    tally.assert_both_answers(0.04, &["tokens"], &[]);
}

#[test]
fn token_prefixes_match_the_unquoted_words_exactly_in_every_list() {
    let tally = run(0x5EED_000D, 1000, 8, DENY_OR_CONFIRM, tokens_rule, COMMANDS);
    tally.assert_both_answers(0.04, &["tokens"], &[]);
}

#[test]
fn path_rules_with_a_root_match_gitignore_patterns_below_it() {
    let tally = run(0x5EED_0006, 1000, 8, ANY_LIST, |next| path_rule(next, true), &[Input::Path]);
    tally.assert_both_answers(
        0.04,
        &["path with a root"],
        &[
            ("path: matched only as another platform spells it", 200),
            ("path: matched only in a Unicode reading (folding, NFC or NFD, HFS+-ignored code points)", 25),
            ("path: allow refused under Windows' reading", 100),
        ],
    );
}

#[test]
fn path_rules_without_a_root_fail_closed_only_in_deny_and_confirm_lists() {
    let tally = run(0x5EED_0007, 1000, 8, ANY_LIST, |next| path_rule(next, false), &[Input::Path]);
    tally.assert_both_answers(
        0.04,
        &["path without a root in allow", "path without a root in deny/confirm"],
        &[
            ("path: cannot relate, matched in deny/confirm", 500),
            ("path: matched only in a Unicode reading (folding, NFC or NFD, HFS+-ignored code points)", 150),
            ("path: allow refused under Windows' reading", 80),
        ],
    );
}

#[test]
fn domain_rules_match_the_strictly_read_host() {
    let tally = run(0x5EED_0008, 1000, 8, ANY_LIST, domain_rule_text, &[Input::Url, Input::Url, Input::Url, Input::Text]);
    tally.assert_both_answers(
        0.04,
        &["domain in allow", "domain in deny/confirm"],
        &[("domain: unreadable URL, matched in deny/confirm", 500), ("domain: matched only as a URL parser reads the host", 300)],
    );
}

#[test]
fn mcp_entries_match_exact_names_or_a_wildcard_side() {
    let tally = run(0x5EED_0009, 1000, 8, ANY_LIST, mcp_rule, &[Input::Pair, Input::Pair, Input::Pair, Input::Command]);
    tally.assert_both_answers(0.04, &["mcp"], &[]);
}

#[test]
fn tool_action_patterns_match_ignoring_ascii_case() {
    let tally = run(0x5EED_000A, 1000, 8, ANY_LIST, tool_action_rule, &[Input::Pair, Input::Pair, Input::Pair, Input::Text]);
    tally.assert_both_answers(0.04, &["toolAction"], &[]);
}

/// Any kind, any list, any input: the indexes of every kind together still answer with the
/// first rule whose reference matches.
#[test]
fn mixed_rule_lists_answer_with_the_first_rule_the_references_match() {
    let any_rule = |next: Next<'_>| match next(8) {
        0 => prefix_rule(next),
        1 => glob_rule(next),
        2 => tokens_rule(next),
        3 => path_rule(next, true),
        4 => path_rule(next, false),
        5 => domain_rule_text(next),
        6 => mcp_rule(next),
        _ => tool_action_rule(next),
    };
    let inputs = [Input::Command, Input::Command, Input::Text, Input::Path, Input::Path, Input::Url, Input::Url, Input::Pair, Input::Pair];
    let tally = run(0x5EED_000B, 2000, 10, ANY_LIST, any_rule, &inputs);
    let every_kind = [
        "prefix",
        "glob",
        "tokens",
        "path with a root",
        "path without a root in allow",
        "path without a root in deny/confirm",
        "domain in allow",
        "domain in deny/confirm",
        "mcp",
        "toolAction",
    ];
    tally.assert_both_answers(0.01, &every_kind, &[]);
    assert!(tally.lookups > 20_000, "{} lookups", tally.lookups);
}
