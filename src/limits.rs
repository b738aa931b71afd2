//! Budgets on hostile input: the largest inputs the engine reads, and what happens beyond them.
//!
//! The agent writes the commands and a freshly cloned repository may bring the settings, so both
//! are bounded. Within the budgets every decision is analysed in full (the worst case at each
//! limit is measured by `npm run bench`); beyond them nothing is guessed: an input too long to
//! analyse asks (or is refused where the tool's default refuses), and a settings text too large to
//! read is an error naming the limit. Shell nesting is bounded by the parsers themselves (24
//! levels of `$( )`, subshells and `sh -c`; deeper, allow rules are off for the line), and so is
//! the text one analysis reads again in payloads (`shell::read_budget`, 256 KiB in all).

/// The longest command line, path, URL or query a decision analyses: 64 KiB. Real commands are
/// far shorter (Claude Code stops vouching for read-only commands at 10,000 characters). MCP
/// server and tool names have a limit of their own (256 UTF-16 units, [`crate::policy::matchers::mcp_name`]).
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

/// The largest settings text or policy spec read: 4 MiB — tens of thousands of rules.
pub const MAX_SETTINGS_BYTES: usize = 4 * 1024 * 1024;

/// Why a settings text is refused, or `None` when it is within the budget.
pub fn settings_too_large(text: &str) -> Option<String> {
    (text.len() > MAX_SETTINGS_BYTES)
        .then(|| format!("is {} bytes; toolgate reads settings of at most {} bytes (4 MiB)", text.len(), MAX_SETTINGS_BYTES))
}

/// Why an input is not analysed, or `None` when it is within the budget.
pub fn input_too_large(input: &str) -> Option<String> {
    (input.len() > MAX_INPUT_BYTES)
        .then(|| format!("the input is {} bytes; toolgate analyses inputs of at most {} bytes (64 KiB)", input.len(), MAX_INPUT_BYTES))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::policy::{LayerSpec, Outcome, Policy, PolicySpec, Reason, RuleSpec, ToolRulesSpec};

    fn policy(default: Outcome) -> Policy {
        let mut rules = ToolRulesSpec::default();
        rules.always_allow.push(RuleSpec::regex(r"^echo\b", false));
        rules.always_deny.push(RuleSpec::regex(r"rm\s+-rf", false));
        let layer =
            LayerSpec { name: "user".into(), tools: [("terminal".to_owned(), rules)].into_iter().collect(), ..LayerSpec::default() };
        Policy::new(PolicySpec { layers: vec![layer], default_mode: default, ..PolicySpec::default() })
    }

    #[test]
    fn an_input_at_the_limit_is_decided_and_one_byte_more_asks() {
        let p = policy(Outcome::Allow);
        let at_limit = format!("echo {}", "a".repeat(MAX_INPUT_BYTES - 5));
        assert_eq!(at_limit.len(), MAX_INPUT_BYTES);
        assert_eq!(p.decide("terminal", std::slice::from_ref(&at_limit)).outcome, Outcome::Allow);
        let over = format!("{at_limit}a");
        let d = p.decide("terminal", std::slice::from_ref(&over));
        assert_eq!((d.outcome, d.reason), (Outcome::Confirm, Reason::InputTooLarge));
        assert!(d.message.contains("65537 bytes") && d.message.contains("at most 65536"), "{}", d.message);
        assert_eq!(p.outcome("terminal", &[over]), Outcome::Confirm, "the outcome-only path agrees");
    }

    #[test]
    fn an_input_too_large_is_refused_where_the_default_refuses_and_never_allowed() {
        let over = format!("echo {}", "a".repeat(MAX_INPUT_BYTES));
        assert_eq!(policy(Outcome::Deny).decide("terminal", std::slice::from_ref(&over)).outcome, Outcome::Deny);
        // A path or URL is bounded the same way.
        assert_eq!(policy(Outcome::Allow).decide("fetch", &[over]).outcome, Outcome::Confirm);
    }

    #[test]
    fn settings_texts_beyond_the_budget_are_errors_naming_it() {
        let huge = format!("{{\"x\": \"{}\"}}", "a".repeat(MAX_SETTINGS_BYTES));
        let err = crate::input::from_json::<serde_json::Value>("spec", &huge).unwrap_err();
        assert!(err.message.contains("at most 4194304 bytes"), "{err}");
        let err = crate::zed::parse_settings("user", &huge).unwrap_err();
        assert!(err.to_string().starts_with("user settings: is "), "{err}");
        let yaml = format!("allowed_tools:\n  - \"{}\"\n", "a".repeat(MAX_SETTINGS_BYTES));
        let err = crate::gasoline::GasolineAllowlist::load(&yaml).unwrap_err();
        assert_eq!((err.code, err.line, err.column), (crate::gasoline::GasolineProblem::TooLarge, 1, 1));
        // Just within the budget, the same texts are read.
        let fits = format!("{{\"x\": \"{}\"}}", "a".repeat(MAX_SETTINGS_BYTES - 10));
        assert!(crate::input::from_json::<serde_json::Value>("spec", &fits).is_ok());
    }
}
