//! The gitignore-style path pattern, Claude Code's `Read(…)` / `Edit(…)` rules.
//!
//! Source: Claude Code, `docs/permissions.md` ("Read and Edit"), read from the docs mirror
//! `zhalice2011/claude-code-docs` @021fb77: paths follow gitignore (`*` within a segment, `**`
//! across).

use crate::policy::path::normalize_path;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
