//! The token prefix with alternatives, Codex's `prefix_rule`.
//!
//! Source: Codex, `codex-rs/execpolicy/src/parser.rs` and `src/rule.rs` (openai/codex @11b641a): a
//! pattern is a non-empty list of tokens, each a string or a non-empty list of alternatives; a
//! command matches when it has at least as many tokens and each position is equal to the token or
//! one of its alternatives (exact, case-sensitive).

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
