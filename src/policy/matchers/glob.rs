//! The command glob, Claude Code's `Bash(…)` rules.
//!
//! Source: Claude Code, `docs/permissions.md` ("Wildcard patterns"), read from the docs mirror
//! `zhalice2011/claude-code-docs` @021fb77: `*` matches any text including spaces; a trailing ` *`
//! that is the rule's only wildcard also matches the bare command (`Bash(ls *)` matches `ls` and
//! `ls -la`, not `lsof`; `Bash(* --help *)` does not match `npm --help`); `:*` is the same as a
//! trailing ` *` and only at the very end.

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

/// Whether `text` is the pieces joined by any text: the first is a prefix, the last a suffix,
/// the middle ones appear in order (leftmost placement is optimal for `*` globs).
pub(super) fn glob_pieces_match(pieces: &[String], text: &str) -> bool {
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
    fn a_glob_pins_its_first_word_only_when_it_spells_it_out() {
        assert_eq!(glob("git * main").first_word(), Some("git"));
        assert_eq!(glob("ls *").first_word(), Some("ls"));
        assert_eq!(glob("npm run build").first_word(), Some("npm"));
        assert_eq!(glob("ls").first_word(), Some("ls"));
        assert_eq!(glob("ls*").first_word(), None);
        assert_eq!(glob("* --version").first_word(), None);
        assert!(CommandGlob::new("  ").is_err());
    }
}
