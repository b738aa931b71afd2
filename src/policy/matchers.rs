//! The matcher kinds imported from other agents' rule formats: a command glob (Claude Code's
//! `Bash(…)`), a token prefix with alternatives (Codex's `prefix_rule`), a gitignore-style path
//! pattern (Claude Code's `Read(…)` / `Edit(…)`) and a domain glob for URLs (Claude Code's
//! `WebFetch(domain:…)`). Each is compiled once, with an error that says what is wrong, and
//! matched without a regex engine.
//!
//! Sources (checked against the peers' own text):
//! - Claude Code, `docs/permissions.md` ("Wildcard patterns", "Read and Edit", "WebFetch"), read
//!   from the docs mirror `zhalice2011/claude-code-docs` @021fb77: `*` matches any text including
//!   spaces; a trailing ` *` that is the rule's only wildcard also matches the bare command
//!   (`Bash(ls *)` matches `ls` and `ls -la`, not `lsof`; `Bash(* --help *)` does not match
//!   `npm --help`); `:*` is the same as a trailing ` *` and only at the very end; paths follow
//!   gitignore (`*` within a segment, `**` across); `*.example.com` matches any depth of
//!   subdomain but not the apex, any other `*` matches only text between two dots, matching is
//!   case-insensitive and a trailing `.` is stripped from rule and host.
//! - Codex, `codex-rs/execpolicy/src/parser.rs` and `src/rule.rs` (openai/codex @11b641a): a
//!   pattern is a non-empty list of tokens, each a string or a non-empty list of alternatives;
//!   a command matches when it has at least as many tokens and each position is equal to the
//!   token or one of its alternatives (exact, case-sensitive).

use super::path::normalize_path;

/// A Claude Code command glob: literal text with `*` standing for any text (spaces included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandGlob {
    /// The literal pieces between the `*`s.
    pieces: Vec<String>,
    /// `prefix *` with no other wildcard: the bare prefix matches too (a word boundary).
    bare_allowed: bool,
    /// The command word every match starts with, when the pattern spells it out in full.
    first_word: Option<String>,
}

impl CommandGlob {
    /// Compiles a glob; a legacy trailing `:*` is read as ` *`.
    pub fn new(pattern: &str) -> Result<Self, String> {
        if pattern.trim().is_empty() {
            return Err("a command glob needs some text".into());
        }
        let pattern = match pattern.strip_suffix(":*") {
            Some(head) => format!("{head} *"),
            None => pattern.to_owned(),
        };
        let pieces: Vec<String> = pattern.split('*').map(str::to_owned).collect();
        let bare_allowed = pieces.len() == 2 && pieces.last().is_some_and(String::is_empty) && pattern.ends_with(" *");
        // The first word is known when the text before the first `*` has whitespace after it
        // (`git * main`, `ls *`), or when there is no `*` at all (`npm run build`). Whitespace is
        // what the rule set's look-up splits a text on (`split_whitespace`), tabs and no-break
        // spaces included, so a glob is filed under the word its matches are looked up by.
        let head = pieces.first().map(String::as_str).unwrap_or_default().trim_start();
        let first_word = match head.find(char::is_whitespace) {
            Some(end) if end > 0 => head.get(..end).map(str::to_owned),
            None if pieces.len() == 1 && !head.is_empty() => Some(head.to_owned()),
            _ => None,
        };
        Ok(CommandGlob { pieces, bare_allowed, first_word })
    }

    /// The word every matching command starts with, if the glob pins one.
    pub fn first_word(&self) -> Option<&str> {
        self.first_word.as_deref()
    }

    /// Whether the whole text matches the glob.
    pub fn is_match(&self, text: &str) -> bool {
        if self.bare_allowed {
            if let Some(prefix) = self.pieces.first().and_then(|p| p.strip_suffix(' ')) {
                if text == prefix {
                    return true;
                }
            }
        }
        glob_pieces_match(&self.pieces, text)
    }
}

/// At most this many wrappers are stripped for a deny or confirm glob; a command behind more
/// is taken to match (fail closed): each form is a copy of the command, so all of them would cost
/// the square of its length.
const MAX_UNWRAPPED_FORMS: usize = 8;

/// The forms of a command a deny or confirm glob also meets, after Claude Code: without its
/// leading assignments (`FOO=bar rm -rf tmp/` is `rm -rf tmp/`), and past each wrapper in turn
/// (`nice -n 5 nohup rm x` is also `nohup rm x` and `rm x`), with the wrappers and their options
/// the hazard checks know (`src/shell/hazards.rs`), a superset of those Claude Code strips — which
/// only makes a deny broader. `None` when more than [`MAX_UNWRAPPED_FORMS`] wrappers are stacked.
pub fn unwrapped_forms(name: &str, args: &[String]) -> Option<Vec<String>> {
    let join = |name: &str, args: &[String]| std::iter::once(name).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
    let mut forms = vec![join(name, args)];
    let (mut name, mut args) = (name, args);
    while let Some((inner, rest)) = crate::shell::unwrap_once(name, args) {
        if forms.len() > MAX_UNWRAPPED_FORMS {
            return None;
        }
        forms.push(join(inner, rest));
        (name, args) = (inner, rest);
    }
    Some(forms)
}

/// Whether `text` is the pieces joined by any text: the first is a prefix, the last a suffix,
/// the middle ones appear in order (leftmost placement is optimal for `*` globs).
fn glob_pieces_match(pieces: &[String], text: &str) -> bool {
    let Some((first, rest)) = pieces.split_first() else { return text.is_empty() };
    let Some(mut remaining) = text.strip_prefix(first.as_str()) else { return false };
    let Some((last, middle)) = rest.split_last() else { return remaining.is_empty() };
    for piece in middle {
        match remaining.find(piece.as_str()) {
            Some(at) => remaining = remaining.get(at + piece.len()..).unwrap_or_default(),
            None => return false,
        }
    }
    remaining.len() >= last.len() && remaining.ends_with(last.as_str())
}

/// A Codex token prefix: per position, the token or its alternatives.
///
/// Written in a spec as positions separated by spaces, alternatives by `|`: `git status|log`
/// is Codex's `["git", ["status", "log"]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenPrefix {
    positions: Vec<Vec<String>>,
}

impl TokenPrefix {
    /// Compiles the spec notation (`git status|log`).
    pub fn new(text: &str) -> Result<Self, String> {
        let mut positions = Vec::new();
        for position in text.split_whitespace() {
            let alternatives: Vec<String> = position.split('|').map(str::to_owned).collect();
            if alternatives.iter().any(String::is_empty) {
                return Err(format!("token position `{position}` has an empty alternative"));
            }
            positions.push(alternatives);
        }
        if positions.is_empty() {
            return Err("a token prefix needs at least one token".into());
        }
        Ok(TokenPrefix { positions })
    }

    /// The positions and their alternatives.
    pub fn positions(&self) -> &[Vec<String>] {
        &self.positions
    }

    /// The alternatives for the first token (the program): what the index files the rule under.
    pub fn first_tokens(&self) -> &[String] {
        self.positions.first().map(Vec::as_slice).unwrap_or_default()
    }

    /// Whether the tokens start with the prefix, position by position.
    pub fn is_match<'t>(&self, tokens: impl IntoIterator<Item = &'t str>) -> bool {
        let mut tokens = tokens.into_iter();
        self.positions.iter().all(|alternatives| tokens.next().is_some_and(|t| alternatives.iter().any(|a| a == t)))
    }
}

/// One segment of a path pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**`: any number of segments, none included.
    AnyDepth,
    /// A segment pattern with `*`, `?` and `[…]`.
    Glob(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Char(char),
    AnyChar,
    Star,
    Class { negated: bool, ranges: Vec<(char, char)> },
}

/// A gitignore-style path pattern, anchored: an absolute pattern (`/home/u/.ssh/**`) or one
/// relative to a root directory (`src/**`). A pattern with no `/` but a trailing one matches at
/// any depth (`.env` is `**/.env`), as gitignore reads it; a pattern that matches a directory
/// matches everything below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    absolute: bool,
    /// The absolute directory relative paths (and a relative pattern) are resolved against.
    root: Option<Vec<String>>,
    /// The pattern's segments then `**`: what it matches, with everything below it.
    below: Vec<Segment>,
}

impl PathPattern {
    /// Compiles a pattern; `root`, when given, must be absolute.
    pub fn new(pattern: &str, root: Option<&str>) -> Result<Self, String> {
        if pattern.is_empty() {
            return Err("a path pattern needs some text".into());
        }
        let root = match root {
            Some(r) if r.starts_with('/') => Some(split_path(&normalize_path(r))),
            Some(r) => return Err(format!("the root `{r}` of a path pattern must be an absolute path")),
            None => None,
        };
        let absolute = pattern.starts_with('/');
        let trimmed = pattern.trim_start_matches('/').trim_end_matches('/');
        let mut segments = Vec::new();
        for part in trimmed.split('/') {
            match part {
                "" | "." => {}
                ".." => return Err(format!("a path pattern may not climb with `..`: `{pattern}`")),
                "**" => segments.push(Segment::AnyDepth),
                other => segments.push(Segment::Glob(segment_tokens(other)?)),
            }
        }
        // gitignore: no slash except a trailing one → the name matches at any depth.
        if !absolute && !trimmed.contains('/') && !segments.is_empty() && segments.first() != Some(&Segment::AnyDepth) {
            segments.insert(0, Segment::AnyDepth);
        }
        if segments.is_empty() {
            // `/` or `//`: everything below the anchor.
            segments.push(Segment::AnyDepth);
        }
        // Consecutive `**` are one.
        segments.dedup_by(|a, b| *a == Segment::AnyDepth && *b == Segment::AnyDepth);
        let mut below = segments.clone();
        if below.last() != Some(&Segment::AnyDepth) {
            below.push(Segment::AnyDepth);
        }
        Ok(PathPattern { absolute, root, below })
    }

    /// Whether the path matches, and `None` when the path and the pattern are anchored
    /// differently (one absolute, one relative) and no root relates them.
    pub fn matches(&self, path: &str) -> Option<bool> {
        let normal = normalize_path(path);
        let path_absolute = normal.starts_with('/');
        let mut parts = split_path(&normal);
        if !path_absolute {
            if parts.first().is_some_and(|p| p == "..") && self.root.is_none() {
                return None;
            }
            if let Some(root) = &self.root {
                parts = resolve(root, &parts);
            } else if self.absolute {
                return None;
            }
        }
        let mut segments_root: Vec<String> = Vec::new();
        if !self.absolute {
            match (&self.root, path_absolute || self.root.is_some()) {
                (Some(root), true) => segments_root.clone_from(root),
                (None, true) => return None,
                (_, false) => {}
            }
        }
        // The path must be under the pattern's anchor.
        let Some(rest) = parts.strip_prefix(segments_root.as_slice()) else { return Some(false) };
        // A pattern that matches a directory matches everything below it: the pattern followed by
        // `**`, for a path with at least one part below the anchor.
        if rest.is_empty() {
            return Some(false);
        }
        Some(segments_match(&self.below, rest))
    }
}

fn split_path(path: &str) -> Vec<String> {
    path.split('/').filter(|p| !p.is_empty() && *p != ".").map(str::to_owned).collect()
}

fn resolve(root: &[String], relative: &[String]) -> Vec<String> {
    let mut parts = root.to_vec();
    for part in relative {
        if part == ".." {
            parts.pop();
        } else {
            parts.push(part.clone());
        }
    }
    parts
}

fn segment_tokens(segment: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => tokens.push(Token::Char(chars.next().ok_or_else(|| format!("`{segment}` ends with a lone `\\`"))?)),
            '*' => {
                if tokens.last() != Some(&Token::Star) {
                    tokens.push(Token::Star);
                }
            }
            '?' => tokens.push(Token::AnyChar),
            '[' => {
                let mut negated = false;
                let mut ranges = Vec::new();
                let mut first = true;
                let mut closed = false;
                let mut pending: Option<char> = None;
                while let Some(c) = chars.next() {
                    if first && (c == '!' || c == '^') {
                        negated = true;
                        first = false;
                        continue;
                    }
                    if c == ']' && !first {
                        closed = true;
                        break;
                    }
                    first = false;
                    if c == '-' && pending.is_some() {
                        let mut peek = chars.clone();
                        match peek.next() {
                            Some(end) if end != ']' => {
                                let start = pending.take().unwrap_or(end);
                                if end < start {
                                    return Err(format!("the range `{start}-{end}` in `{segment}` is backwards"));
                                }
                                ranges.push((start, end));
                                chars = peek;
                                continue;
                            }
                            _ => {}
                        }
                    }
                    if let Some(p) = pending.replace(c) {
                        ranges.push((p, p));
                    }
                }
                if let Some(p) = pending {
                    ranges.push((p, p));
                }
                if !closed {
                    return Err(format!("`[` without a closing `]` in `{segment}`"));
                }
                tokens.push(Token::Class { negated, ranges });
            }
            other => tokens.push(Token::Char(other)),
        }
    }
    Ok(tokens)
}

/// Whether the segments match the whole path: dynamic programming over (segment, part), so a
/// pattern with many `**` stays linear in the path's depth times the pattern's length.
fn segments_match(pattern: &[Segment], path: &[String]) -> bool {
    let parts: Vec<Vec<char>> = path.iter().map(|p| p.chars().collect()).collect();
    // `reach[j]`: the segments so far can consume exactly the first `j` parts.
    let mut reach = vec![false; parts.len() + 1];
    if let Some(first) = reach.first_mut() {
        *first = true;
    }
    for segment in pattern {
        #[cfg(test)]
        crate::test_support::steps(parts.len() + 1);
        let mut next = vec![false; parts.len() + 1];
        match segment {
            Segment::AnyDepth => {
                let mut seen = false;
                for (j, slot) in next.iter_mut().enumerate() {
                    seen |= reach.get(j).copied().unwrap_or(false);
                    *slot = seen;
                }
            }
            Segment::Glob(tokens) => {
                for (j, part) in parts.iter().enumerate() {
                    if reach.get(j).copied().unwrap_or(false) && tokens_match(tokens, part) {
                        if let Some(slot) = next.get_mut(j + 1) {
                            *slot = true;
                        }
                    }
                }
            }
        }
        reach = next;
    }
    reach.last().copied().unwrap_or(false)
}

/// Segment matching with backtracking over the last `*` only (linear for `*`-only globs).
fn tokens_match(tokens: &[Token], name: &[char]) -> bool {
    let (mut t, mut n) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    loop {
        #[cfg(test)]
        crate::test_support::steps(1);
        let token = tokens.get(t);
        let ch = name.get(n);
        match (token, ch) {
            (Some(Token::Star), _) => {
                star = Some((t, n));
                t += 1;
                continue;
            }
            (Some(tok), Some(c)) if single_matches(tok, *c) => {
                t += 1;
                n += 1;
                continue;
            }
            (None, None) => return true,
            _ => {}
        }
        match star {
            Some((st, sn)) if sn < name.len() => {
                star = Some((st, sn + 1));
                t = st + 1;
                n = sn + 1;
            }
            _ => return false,
        }
    }
}

fn single_matches(token: &Token, c: char) -> bool {
    match token {
        Token::Char(x) => *x == c,
        Token::AnyChar => true,
        Token::Star => false,
        Token::Class { negated, ranges } => ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negated,
    }
}

/// A Claude Code domain glob, matched against a URL's host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainGlob {
    /// `*`: every host.
    any: bool,
    /// `*.rest`: any depth of subdomain of `rest`, not `rest` itself.
    subdomains_of: Option<Vec<String>>,
    /// Otherwise the labels, each possibly with `*` that matches within the label.
    labels: Vec<String>,
}

impl DomainGlob {
    /// Compiles a domain glob (`example.com`, `*.example.com`, `example.*`, `*`).
    pub fn new(pattern: &str) -> Result<Self, String> {
        let lower = pattern.trim_end_matches('.').to_ascii_lowercase();
        if lower.is_empty() {
            return Err("a domain needs some text".into());
        }
        if lower.contains(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '*'))) {
            return Err(format!("`{pattern}` is not a domain: only letters, digits, `-`, `_`, `.` and `*`"));
        }
        if lower == "*" {
            return Ok(DomainGlob { any: true, subdomains_of: None, labels: Vec::new() });
        }
        let (subdomains, rest) = match lower.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, lower.as_str()),
        };
        let labels: Vec<String> = rest.split('.').map(str::to_owned).collect();
        if labels.iter().any(String::is_empty) {
            return Err(format!("`{pattern}` has an empty label"));
        }
        Ok(if subdomains {
            DomainGlob { any: false, subdomains_of: Some(labels), labels: Vec::new() }
        } else {
            DomainGlob { any: false, subdomains_of: None, labels }
        })
    }

    /// Whether the host (already lowercased, without a trailing dot) matches.
    pub fn matches_host(&self, host: &str) -> bool {
        if self.any {
            return true;
        }
        let host_labels: Vec<&str> = host.split('.').collect();
        match &self.subdomains_of {
            Some(base) => {
                host_labels.len() > base.len()
                    && host_labels.get(host_labels.len() - base.len()..).is_some_and(|tail| labels_match(base, tail))
            }
            None => host_labels.len() == self.labels.len() && labels_match(&self.labels, &host_labels),
        }
    }

    /// Whether the URL's host matches; `None` when the URL cannot be parsed strictly.
    pub fn matches_url(&self, url: &str) -> Option<bool> {
        url_host(url).map(|host| self.matches_host(&host))
    }
}

fn labels_match(pattern: &[String], host: &[&str]) -> bool {
    pattern.iter().zip(host).all(|(p, h)| {
        let pieces: Vec<String> = p.split('*').map(str::to_owned).collect();
        glob_pieces_match(&pieces, h)
    })
}

/// The host of an `http(s)` URL, lowercased and without a trailing dot; `None` for anything
/// that is not plainly one (other schemes, backslashes, whitespace, percent-escapes or
/// non-ASCII in the authority, an empty host, a bad port) — such a URL never matches an allow
/// rule, and matches every deny and confirm domain rule.
pub fn url_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..end)?;
    if authority.is_empty() || authority.chars().any(|c| c == '\\' || c == '%' || c.is_whitespace() || c.is_control() || !c.is_ascii()) {
        return None;
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\') {
        return None;
    }
    let host_port = match authority.rsplit_once('@') {
        Some((userinfo, host)) if !userinfo.contains(['@', '/']) => host,
        Some(_) => return None,
        None => authority,
    };
    if host_port.starts_with('[') {
        // An IPv6 literal: matched as written between the brackets.
        let close = host_port.find(']')?;
        let host = host_port.get(1..close)?;
        let after = host_port.get(close + 1..)?;
        if !(after.is_empty() || after.strip_prefix(':').is_some_and(valid_port))
            || !host.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return None;
        }
        return Some(host.to_ascii_lowercase());
    }
    let (host, port) = match host_port.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (host_port, None),
    };
    if port.is_some_and(|p| !valid_port(p)) {
        return None;
    }
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    let valid =
        !host.is_empty() && host.split('.').all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    valid.then_some(host)
}

fn valid_port(port: &str) -> bool {
    port.is_empty() || (port.len() <= 5 && port.chars().all(|c| c.is_ascii_digit()) && port.parse::<u32>().is_ok_and(|p| p <= 65535))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(p: &str) -> CommandGlob {
        CommandGlob::new(p).unwrap()
    }

    /// The rows of Claude Code's "Wildcard patterns" table (docs/permissions.md).
    #[test]
    fn command_globs_match_as_claude_codes_documentation_says() {
        for (rule, matches, misses) in [
            ("npm run build", &["npm run build"][..], &["npm run build --watch"][..]),
            ("npm run *", &["npm run build", "npm run test --watch", "npm run"], &["npm install"]),
            (
                "git log * main",
                &["git log --oneline main", "git log -5 main", "git log --output=x main"],
                &["git log main", "git push origin main"],
            ),
            ("git * main", &["git merge main", "git push origin main", "git -c core.fsmonitor=x diff main"], &["git log"]),
            ("* --version", &["node --version", "bash -c echo hi --version"], &["node -v"]),
            ("ls *", &["ls -la", "ls"], &["lsof"]),
            ("ls*", &["ls -la", "lsof"], &[]),
            ("* --help *", &["npm --help x"], &["npm --help"]),
            ("ls:*", &["ls", "ls -la"], &["lsof"]),
            ("npm run test:*", &["npm run test", "npm run test -- -u"], &["npm run testx"]),
            ("git:* push", &[], &["git push", "git status push"]),
        ] {
            let g = glob(rule);
            for m in matches {
                assert!(g.is_match(m), "{rule} should match {m}");
            }
            for m in misses {
                assert!(!g.is_match(m), "{rule} should not match {m}");
            }
        }
    }

    #[test]
    fn deny_forms_see_past_assignments_and_wrappers() {
        let forms = |line: &str| {
            let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
            unwrapped_forms(&words[0], &words[1..])
        };
        assert!(forms("timeout 5 rm x").unwrap().contains(&"rm x".to_owned()));
        assert!(forms("nice -n 5 nohup rm -rf tmp/").unwrap().contains(&"rm -rf tmp/".to_owned()));
        assert!(forms("env A=1 sudo -u root rm x").unwrap().contains(&"rm x".to_owned()));
        assert!(forms("xargs rm").unwrap().contains(&"rm".to_owned()));
        assert!(forms("xargs -n 1 rm").unwrap().contains(&"rm".to_owned()));
        assert!(forms("command -p rm x").unwrap().contains(&"rm x".to_owned()));
        assert!(forms("sudo -T 5 rm x").unwrap().contains(&"rm x".to_owned()));
        assert!(forms("sudo -R /srv rm x").unwrap().contains(&"rm x".to_owned()));
        assert!(forms(&format!("{}rm x", "nohup ".repeat(8))).unwrap().contains(&"rm x".to_owned()));
        assert_eq!(forms(&format!("{}rm x", "nohup ".repeat(9))), None, "too deep: deny and confirm globs match");
        assert_eq!(forms("command -v rm"), Some(vec!["command -v rm".to_owned()]));
        assert_eq!(forms("timeout"), Some(vec!["timeout".to_owned()]));
    }

    #[test]
    fn a_glob_pins_its_first_word_only_when_it_spells_it_out() {
        assert_eq!(glob("git * main").first_word(), Some("git"));
        assert_eq!(glob("ls *").first_word(), Some("ls"));
        assert_eq!(glob("npm run build").first_word(), Some("npm"));
        assert_eq!(glob("ls").first_word(), Some("ls"));
        assert_eq!(glob("ls*").first_word(), None);
        assert_eq!(glob("* --version").first_word(), None);
        assert!(CommandGlob::new("  ").is_err());
    }

    /// Codex execpolicy's documented and tested prefixes.
    #[test]
    fn token_prefixes_match_as_codex_does() {
        for (rule, matches, misses) in [
            ("gh pr view", &["gh pr view 7888", "gh pr view --repo openai/codex"][..], &["gh pr --repo openai/codex view 7888"][..]),
            ("git push|fetch", &["git push origin main", "git fetch"], &["git status"]),
            ("git status", &["git status", "git status -s"], &["git --config color.status=always status"]),
            ("rm", &["rm -rf /some/folder"], &["rmdir x"]),
            ("bash|sh -c|-l", &["bash -c echo hi", "sh -l echo hi"], &["zsh -c x"]),
            (
                "npm i|install --legacy-peer-deps|--no-save",
                &["npm i --legacy-peer-deps", "npm install --no-save leftpad"],
                &["npm i leftpad"],
            ),
        ] {
            let t = TokenPrefix::new(rule).unwrap();
            for m in matches {
                assert!(t.is_match(m.split(' ')), "{rule} should match {m}");
            }
            for m in misses {
                assert!(!t.is_match(m.split(' ')), "{rule} should not match {m}");
            }
        }
        assert!(TokenPrefix::new(" ").is_err());
        assert!(TokenPrefix::new("git a||b").is_err());
    }

    fn path(p: &str, root: Option<&str>) -> PathPattern {
        PathPattern::new(p, root).unwrap()
    }

    /// Claude Code's "Read and Edit" examples, with the anchors already resolved (the importer's job).
    #[test]
    fn path_patterns_match_as_gitignore_and_claude_code_say() {
        let cwd = Some("/p");
        for (rule, root, matches, misses) in [
            ("**/.env", cwd, &["/p/.env", "/p/a/b/.env", ".env", "sub/.env"][..], &["/.env", "/q/.env", "/p/.envrc"][..]),
            (".env", cwd, &["/p/.env", "/p/a/.env", "x/.env"], &["/other/.env"]),
            ("/**/.env", None, &["/.env", "/a/b/.env"], &["/a/b/.envx"]),
            ("src/**", cwd, &["/p/src/app.ts", "src/a/b.ts"], &["/p/vendor/pkg/src/lib.js", "/p/srcx/a"]),
            ("**/src/**", cwd, &["/p/src/app.ts", "/p/vendor/pkg/src/lib.js"], &["/q/src/a"]),
            ("/p/docs/**", None, &["/p/docs/a.md", "/p/docs/x/y.md"], &["/docs/a.md", "/p/.claude/docs/x"]),
            ("/home/u/Documents/*.pdf", None, &["/home/u/Documents/a.pdf"], &["/home/u/Documents/x/a.pdf", "/home/u/Documents/a.txt"]),
            ("src/**/*.ts", cwd, &["src/a/b.ts", "src/b.ts", "/p/src/x/y/z.ts"], &["src/a.js", "/p/lib/src/a.ts"]),
            (".env*", cwd, &[".env", ".env.local", "a/.env.local"], &["env"]),
            ("**/*.key", cwd, &["certs/x.key"], &["certs/x.keys"]),
            ("secrets", cwd, &["secrets/a", "x/secrets/b/c"], &["secretsx/a"]),
            ("[ab]*.txt", cwd, &["a1.txt", "b.txt"], &["c.txt"]),
            ("/tmp/scratch.txt", None, &["/tmp/scratch.txt", "/tmp/x/../scratch.txt"], &["/tmp/scratch.txt.bak"]),
        ] {
            let p = path(rule, root);
            for m in matches {
                assert_eq!(p.matches(m), Some(true), "{rule} should match {m}");
            }
            for m in misses {
                assert_ne!(p.matches(m), Some(true), "{rule} should not match {m}");
            }
        }
    }

    /// No backtracking over `**`: the work is linear in the path's depth and in the pattern's
    /// length. `**/a/**/a/…/c` against `a/a/…/a` has no match, and a matcher that tried every
    /// placement of the `**` would do work growing as the depth to the power of their number.
    #[test]
    fn many_double_stars_on_deep_paths_cost_depth_times_pattern_length() {
        for (tail, part, expected) in [("", "a", true), ("", "b", false), ("c", "a", false)] {
            let work = |stars: usize, depth: usize| {
                let p = path(&format!("{}{tail}", "**/a/".repeat(stars)), Some("/"));
                let deep = format!("/{}", format!("{part}/").repeat(depth));
                crate::test_support::steps_of(|| assert_eq!(p.matches(&deep), Some(expected), "{stars} stars{tail}, {depth} {part}"))
            };
            let base = work(2, 50);
            for (what, steps, factor) in
                [("twice the depth", work(2, 100), 2), ("twice the stars", work(4, 50), 2), ("both", work(4, 100), 4)]
            {
                assert!(steps * 100 <= base * 105 * factor, "{tail:?} on {part}/…: {what} took {steps} steps, against {base}");
            }
            // 40 `**` on 2,000 parts: a few steps per (segment, path part), at most 82 segments
            // (40 `**`, 40 `a`, the tail, the `**` below).
            let many = work(40, 2000);
            assert!(many <= 4 * 82 * 2001, "{tail:?} on {part}/…: {many} steps");
        }
    }

    #[test]
    fn a_path_without_a_root_cannot_relate_absolute_and_relative() {
        assert_eq!(path("/etc/**", None).matches("etc/x"), None);
        assert_eq!(path("src/**", None).matches("/p/src/x"), None);
        assert_eq!(path("src/**", None).matches("src/x"), Some(true));
        assert_eq!(path("src/**", None).matches("../src/x"), None);
        assert!(PathPattern::new("a/../b", None).is_err());
        assert!(PathPattern::new("a[", None).is_err());
        assert!(PathPattern::new("x", Some("rel")).is_err());
    }

    /// Claude Code's "WebFetch" examples.
    #[test]
    fn domain_globs_match_as_claude_codes_documentation_says() {
        for (rule, matches, misses) in [
            (
                "example.com",
                &["https://example.com/x", "http://EXAMPLE.com.:8080/"][..],
                &["https://api.example.com", "https://example.com.evil.net"][..],
            ),
            (
                "*.example.com",
                &["https://api.example.com", "https://a.b.example.com/p?q"],
                &["https://example.com", "https://badexample.com"],
            ),
            ("example.*", &["https://example.org"], &["https://example.evil.com"]),
            ("*", &["https://anything.test"], &["not a url", "ftp://x.com"]),
            ("Docs.GitHub.com.", &["https://docs.github.com/en"], &["https://github.com"]),
            ("api-*.example.com", &["https://api-v2.example.com"], &["https://api.v2.example.com"]),
        ] {
            let d = DomainGlob::new(rule).unwrap();
            for m in matches {
                assert_eq!(d.matches_url(m), Some(true), "{rule} should match {m}");
            }
            for m in misses {
                assert_ne!(d.matches_url(m), Some(true), "{rule} should not match {m}");
            }
        }
        assert!(DomainGlob::new("exa mple.com").is_err());
        assert!(DomainGlob::new("a..b").is_err());
    }

    #[test]
    fn urls_are_parsed_strictly() {
        assert_eq!(url_host("https://user:pw@Example.COM:443/x").as_deref(), Some("example.com"));
        assert_eq!(url_host("http://[::1]:80/").as_deref(), Some("::1"));
        for bad in [
            "example.com",
            "javascript:alert(1)",
            "https://good.com\\@evil.com",
            "https://evil.com%2egood.com",
            "https://",
            "https://a.com:99999",
            "https://a .com",
            "https://ex\u{e4}mple.com",
            "https://a@b@c.com",
            "file:///etc/passwd",
        ] {
            assert_eq!(url_host(bad), None, "{bad}");
        }
    }
}
