//! The Gasoline dialect (Gasoline's design): a YAML `allowed_tools:` list of `*`, `tool.*` and
//! `tool.action` patterns, matched case-insensitively, with the design's error object for a call
//! that is not allowed, a summary for `server_config`, and atomic reload.
//!
//! The list is translated into one layer of the rule model: each pattern becomes a `toolAction`
//! allow rule of the catalogue's one Gasoline tool, whose calls are `(tool, action)` pairs, under a
//! deny default (an empty list allows everything). [`crate::policy::Policy`] decides.

use crate::policy::{Call, CatalogueName, LayerKind, LayerSpec, Outcome, Policy, PolicySpec, RuleSpec, ToolRulesSpec};
use serde::Serialize;
use std::fmt;
use yaml::{Event, Position};

mod yaml;

/// A load error, with the 1-based line and column it points at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GasolineError {
    /// What kind of problem it is, for a program to match on.
    pub code: GasolineProblem,
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column of the problem.
    pub column: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for GasolineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "allowlist line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for GasolineError {}

/// What is wrong with an allowlist file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum GasolineProblem {
    /// The text is not valid YAML, or uses YAML an allowlist file does not (anchors, tags, block
    /// scalars, values over several lines, a second document): the message names it.
    InvalidYaml,
    /// The document is not a mapping with an `allowed_tools:` key.
    NotAMapping,
    /// `allowed_tools` has no value.
    MissingValue,
    /// An `allowed_tools` item is not a string.
    NotAString,
    /// `allowed_tools` is not a list.
    NotAList,
    /// A key other than `allowed_tools`.
    UnknownKey,
    /// A key that is not a plain string.
    UnexpectedStructure,
    /// `allowed_tools` appears twice: YAML keys are unique, and no list is silently dropped.
    DuplicateKey,
    /// An item that is not `*`, `tool.*` or `tool.action`.
    InvalidPattern,
    /// The text is larger than toolgate reads ([`crate::limits::MAX_SETTINGS_BYTES`]).
    TooLarge,
    /// A reload whose text has no list (it is empty, only comments, or `allowed_tools` has no
    /// value) while a list is in force. A file being rewritten in place reads so for a moment,
    /// and taking it for the design's "empty: everything permitted" would open every tool; the
    /// list stays until the text says `allowed_tools: []`.
    NoList,
}

fn error_at(at: Position, code: GasolineProblem, message: String) -> GasolineError {
    GasolineError { code, line: at.line, column: at.column, message }
}

fn invalid_yaml(at: Position, why: &str) -> GasolineError {
    error_at(at, GasolineProblem::InvalidYaml, format!("invalid YAML: {why}"))
}

/// The design's error object for a call that is not allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ToolNotAllowed {
    /// Always `"tool_not_allowed"`.
    pub error: String,
    /// `<tool.action> is not permitted. Allowed: <patterns>`.
    pub message: String,
    /// The tool that was called.
    pub tool: String,
    /// The action that was called (empty when the call had none).
    pub action: String,
    /// The patterns in force, as written.
    pub allowed_tools: Vec<String>,
}

/// What `observe({what: "server_config"})` reports about the allowlist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct AllowlistSummary {
    /// False when the list is empty or missing: everything is allowed.
    pub enabled: bool,
    /// The patterns, as written.
    pub allowed_tools: Vec<String>,
    /// How many patterns there are.
    pub count: usize,
    /// "Allowlist enabled, X tools/actions permitted".
    pub message: String,
}

/// What an allowlist text says about its list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Listing {
    /// No list: no text, only comments, a null document, or `allowed_tools` without a value
    /// (`allowed_tools:`, `~`, `null`), with where that is. What an empty or cut-short file reads as.
    Absent(Position),
    /// The list as written, each pattern with its position; `allowed_tools: []` is an empty one.
    Written(Vec<(String, Position)>),
}

fn is_null(value: &str) -> bool {
    value.is_empty() || value == "~" || value == "null"
}

/// Reads the `allowed_tools` list: the patterns as written, each with its position.
fn read_patterns(text: &str) -> Result<Listing, GasolineError> {
    if let Some(why) = crate::limits::settings_too_large(text) {
        return Err(GasolineError { code: GasolineProblem::TooLarge, line: 1, column: 1, message: format!("the allowlist {why}") });
    }
    let mut events = yaml::read(text).map_err(|e| invalid_yaml(e.at, &e.message))?.into_iter();
    // Where the reader stopped at a construct it does not read, the file is an error, unless it
    // already is one before that.
    let mut next = move || match events.next() {
        Some((Event::Unsupported(why), at)) => Err(invalid_yaml(at, &why)),
        event => Ok(event),
    };
    let Some((first, start)) = next()? else { return Ok(Listing::Absent(Position { line: 1, column: 1 })) };
    match first {
        Event::MappingStart => {}
        Event::Scalar(value) if is_null(&value) => {
            while next()?.is_some() {}
            return Ok(Listing::Absent(start));
        }
        _ => {
            return Err(error_at(
                start,
                GasolineProblem::NotAMapping,
                "the allowlist must be a mapping with an `allowed_tools:` list".into(),
            ))
        }
    }
    let mut patterns = None;
    while let Some((event, at)) = next()? {
        match event {
            Event::MappingEnd => break,
            Event::Scalar(key) if key == "allowed_tools" && patterns.is_some() => {
                return Err(error_at(at, GasolineProblem::DuplicateKey, "`allowed_tools` appears twice: keep one list".into()))
            }
            Event::Scalar(key) if key == "allowed_tools" => {
                let (value, value_at) =
                    next()?.ok_or_else(|| error_at(at, GasolineProblem::MissingValue, "`allowed_tools` has no value".into()))?;
                match value {
                    Event::SequenceStart => {
                        let mut list = Vec::new();
                        while let Some((item, item_at)) = next()? {
                            match item {
                                Event::SequenceEnd => break,
                                Event::Scalar(pattern) => list.push((pattern, item_at)),
                                _ => {
                                    return Err(error_at(
                                        item_at,
                                        GasolineProblem::NotAString,
                                        "each allowed_tools entry must be a string such as \"observe.*\"".into(),
                                    ))
                                }
                            }
                        }
                        patterns = Some(Listing::Written(list));
                    }
                    Event::Scalar(v) if is_null(&v) => patterns = Some(Listing::Absent(at)),
                    _ => return Err(error_at(value_at, GasolineProblem::NotAList, "`allowed_tools` must be a list".into())),
                }
            }
            Event::Scalar(key) => {
                return Err(error_at(
                    at,
                    GasolineProblem::UnknownKey,
                    format!("unknown key `{}`: the allowlist file only has `allowed_tools`", crate::visible::visible(&key)),
                ))
            }
            _ => return Err(error_at(at, GasolineProblem::UnexpectedStructure, "unexpected structure: keys must be plain strings".into())),
        }
    }
    while next()?.is_some() {}
    Ok(patterns.unwrap_or(Listing::Absent(start)))
}

/// Checks one pattern: `*`, `tool.*` or `tool.action` (the rule model's own check).
fn check_pattern(pattern: &str) -> Result<(), String> {
    crate::policy::rules::compile_rule(&RuleSpec::tool_action(pattern)).map(|_| ())
}

/// A loaded allowlist, compiled into the rule model.
#[derive(Debug, Clone)]
pub struct GasolineAllowlist {
    patterns: Vec<String>,
    policy: Policy,
}

/// The name of the layer the allowlist becomes.
pub const LAYER: &str = "gasoline";

/// The catalogue's one Gasoline tool: every call is its `(tool, action)` pair.
pub use crate::policy::catalogue::GASOLINE_CALL as TOOL;

fn layer_for(patterns: &[String]) -> LayerSpec {
    let rules = ToolRulesSpec {
        default_mode: Some(if patterns.is_empty() { Outcome::Allow } else { Outcome::Deny }),
        always_allow: patterns.iter().map(RuleSpec::tool_action).collect(),
        ..ToolRulesSpec::default()
    };
    LayerSpec { name: LAYER.into(), kind: LayerKind::User, tools: [(TOOL.to_owned(), rules)].into_iter().collect(), ..LayerSpec::default() }
}

impl GasolineAllowlist {
    /// Parses and validates YAML text; any error names its line and column and nothing is loaded.
    /// A text with no list permits everything (the design's backward-compatible rule).
    pub fn load(text: &str) -> Result<Self, GasolineError> {
        GasolineAllowlist::read(text).map(|(list, _)| list)
    }

    /// The list a text gives, and where it has no list, if it has none.
    fn read(text: &str) -> Result<(Self, Option<Position>), GasolineError> {
        let (patterns, absent) = match read_patterns(text)? {
            Listing::Absent(at) => (Vec::new(), Some(at)),
            Listing::Written(patterns) => (patterns, None),
        };
        for (pattern, at) in &patterns {
            check_pattern(pattern).map_err(|message| error_at(*at, GasolineProblem::InvalidPattern, message))?;
        }
        let patterns: Vec<String> = patterns.into_iter().map(|(p, _)| p).collect();
        let policy =
            Policy::new(PolicySpec { layers: vec![layer_for(&patterns)], catalogue: CatalogueName::Gasoline, ..PolicySpec::default() });
        Ok((GasolineAllowlist { patterns, policy }, absent))
    }

    /// Replaces the allowlist with new text, or, on any error, keeps the current one and returns
    /// the error. A text with no list while this one has patterns is such an error
    /// ([`GasolineProblem::NoList`]): a file rewritten in place is empty for a moment, and that
    /// must not permit everything; `allowed_tools: []` does.
    pub fn reload(&mut self, text: &str) -> Result<(), GasolineError> {
        let (next, absent) = GasolineAllowlist::read(text)?;
        if let (Some(at), false) = (absent, self.patterns.is_empty()) {
            let message = format!(
                "the text has no list (it is empty, or `allowed_tools` has no value) while {} tools/actions are permitted: a file \
                 cut short reads so, and the list stays in force; to permit every tool/action, write `allowed_tools: []`",
                self.patterns.len()
            );
            return Err(error_at(at, GasolineProblem::NoList, message));
        }
        *self = next;
        Ok(())
    }

    /// The patterns as written.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// The rule-model policy the list became.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The explained decision for `tool.action`.
    pub fn decide(&self, tool: &str, action: &str) -> crate::policy::Decision {
        self.policy.decide_call(&Call { tool: TOOL.to_owned(), inputs: vec![tool.to_owned(), action.to_owned()], hook: None })
    }

    /// Whether `tool.action` may run; if not, the design's error object (the same every time).
    pub fn check(&self, tool: &str, action: &str) -> Result<(), ToolNotAllowed> {
        let decision = self.decide(tool, action);
        if decision.outcome == Outcome::Allow {
            return Ok(());
        }
        Err(ToolNotAllowed {
            error: "tool_not_allowed".into(),
            message: format!(
                "{} is not permitted. Allowed: {}",
                crate::visible::visible(&if action.is_empty() { tool.to_owned() } else { format!("{tool}.{action}") }),
                self.patterns.join(", ")
            ),
            tool: tool.to_owned(),
            action: action.to_owned(),
            allowed_tools: self.patterns.clone(),
        })
    }

    /// For `server_config`: the list and "Allowlist enabled, X tools/actions permitted".
    pub fn summary(&self) -> AllowlistSummary {
        let count = self.patterns.len();
        let enabled = count > 0;
        let message = if enabled {
            format!("Allowlist enabled, {count} tools/actions permitted")
        } else {
            "Allowlist disabled: the list is empty, so all tools/actions are permitted".to_owned()
        };
        AllowlistSummary { enabled, allowed_tools: self.patterns.clone(), count, message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = r#"# Comments supported
allowed_tools:
  - "observe.*"             # Wildcard: all observe modes
  - "generate.reproduction" # Specific: only reproduction
  - "interact.navigate"     # Specific: only navigate
  - "interact.refresh"      # Specific: only refresh
"#;

    #[test]
    fn the_designs_own_file_allows_exactly_its_patterns() {
        let list = GasolineAllowlist::load(SEED).unwrap();
        for (tool, action) in [
            ("observe", "logs"),
            ("observe", "server_config"),
            ("interact", "navigate"),
            ("interact", "refresh"),
            ("generate", "reproduction"),
        ] {
            assert!(list.check(tool, action).is_ok(), "{tool}.{action}");
        }
        for (tool, action) in
            [("interact", "execute_js"), ("generate", "test"), ("configure", "x"), ("interact", "navigatex"), ("interact", "")]
        {
            assert!(list.check(tool, action).is_err(), "{tool}.{action}");
        }
    }

    #[test]
    fn matching_ignores_case() {
        let list = GasolineAllowlist::load(SEED).unwrap();
        assert!(list.check("OBSERVE", "Logs").is_ok());
        assert!(list.check("Interact", "NAVIGATE").is_ok());
        let list = GasolineAllowlist::load("allowed_tools: [\"Interact.Navigate\"]").unwrap();
        assert!(list.check("interact", "navigate").is_ok());
    }

    #[test]
    fn a_denied_call_gets_the_designs_error_object_every_time() {
        let list = GasolineAllowlist::load("allowed_tools:\n  - observe.*\n  - generate.*\n  - interact.navigate\n").unwrap();
        let err = list.check("interact", "execute_js").unwrap_err();
        assert_eq!(
            serde_json::to_value(&err).unwrap(),
            serde_json::json!({
                "error": "tool_not_allowed",
                "message": "interact.execute_js is not permitted. Allowed: observe.*, generate.*, interact.navigate",
                "tool": "interact",
                "action": "execute_js",
                "allowed_tools": ["observe.*", "generate.*", "interact.navigate"]
            })
        );
        assert_eq!(list.check("interact", "execute_js").unwrap_err(), err);
    }

    #[test]
    fn an_empty_or_missing_list_allows_everything_and_star_too() {
        for text in ["", "# only a comment\n", "allowed_tools: []", "allowed_tools:", "allowed_tools: ~", "~"] {
            let list = GasolineAllowlist::load(text).unwrap();
            assert!(list.check("interact", "execute_js").is_ok(), "{text:?}");
            assert!(!list.summary().enabled, "{text:?}");
        }
        let list = GasolineAllowlist::load("allowed_tools: ['*']").unwrap();
        assert!(list.check("anything", "at_all").is_ok());
        assert!(list.summary().enabled);
    }

    #[test]
    fn summary_for_server_config() {
        let s = GasolineAllowlist::load(SEED).unwrap().summary();
        assert_eq!(s.message, "Allowlist enabled, 4 tools/actions permitted");
        assert_eq!(s.allowed_tools, vec!["observe.*", "generate.reproduction", "interact.navigate", "interact.refresh"]);
    }

    #[test]
    fn bad_yaml_and_bad_patterns_are_errors_with_line_and_column() {
        let err = GasolineAllowlist::load("allowed_tools:\n  - observe.*\n  - [unclosed\n").unwrap_err();
        assert!(err.message.starts_with("invalid YAML"), "{err}");
        assert_eq!((err.line, err.column), (3, 5), "the `[` that is not closed: {err}");
        let err = GasolineAllowlist::load("allowed_tools:\n  - observe.*\n  - \"obs*.x\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 5));
        assert!(err.message.contains("invalid pattern \"obs*.x\""), "{err}");
        for bad in ["a.b.c", "observe", ".x", "x.", "*.x", "a b.c", ""] {
            assert!(GasolineAllowlist::load(&format!("allowed_tools: [\"{bad}\"]")).is_err(), "{bad:?}");
        }
        let err = GasolineAllowlist::load("allowed_tool:\n  - observe.*\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, 1));
        assert!(err.message.contains("unknown key `allowed_tool`"), "{err}");
        assert!(GasolineAllowlist::load("allowed_tools: observe.*").is_err());
        assert!(GasolineAllowlist::load("allowed_tools: [{a: b}]").is_err());
        assert!(GasolineAllowlist::load("- observe.*").is_err());
        assert_eq!(err.to_string(), "allowlist line 1, column 1: unknown key `allowed_tool`: the allowlist file only has `allowed_tools`");
    }

    #[test]
    fn a_nul_byte_is_an_error_not_the_end_of_the_list() {
        let err = GasolineAllowlist::load("allowed_tools:\0\n  - \"observe.*\"\n").unwrap_err();
        assert_eq!((err.code, err.line, err.column), (GasolineProblem::InvalidYaml, 1, 15), "{err}");
        let mut list = GasolineAllowlist::load(SEED).unwrap();
        let err = list.reload(&format!("\0{SEED}")).unwrap_err();
        assert_eq!((err.code, err.line, err.column), (GasolineProblem::InvalidYaml, 1, 1), "{err}");
        assert!(list.check("interact", "execute_js").is_err(), "the list in force stays");
        assert!(GasolineAllowlist::load(&format!("{SEED}\0\n  - \"interact.*\"\n")).is_err(), "nothing after a NUL is dropped");
    }

    #[test]
    fn reload_is_atomic() {
        let mut list = GasolineAllowlist::load(SEED).unwrap();
        assert!(list.reload("allowed_tools: [\"broken").is_err());
        assert!(list.check("interact", "navigate").is_ok(), "the previous list stays in force");
        assert!(list.reload("allowed_tools: [\"bad..pattern\"]").is_err());
        assert_eq!(list.patterns().len(), 4);
        list.reload("allowed_tools: [\"interact.execute_js\"]").unwrap();
        assert!(list.check("interact", "execute_js").is_ok());
        assert!(list.check("interact", "navigate").is_err());
    }

    #[test]
    fn a_reload_with_no_list_keeps_the_list_in_force_and_only_an_empty_list_permits_everything() {
        let mut list = GasolineAllowlist::load(SEED).unwrap();
        // What an empty, truncated or cut-short file reads as: no list, not "everything permitted".
        for text in
            ["", "\n", "# nothing yet\n", "allowed_tools:", "allowed_tools:\n", "allowed_tools: ~", "allowed_tools: null", "~", "{}"]
        {
            let err = list.reload(text).unwrap_err();
            assert_eq!((err.code, err.line, err.column), (GasolineProblem::NoList, 1, 1), "{text:?}: {err}");
            assert!(list.check("interact", "execute_js").is_err(), "{text:?}: the list stays in force");
            assert_eq!(list.patterns().len(), 4, "{text:?}");
        }
        let err = list.reload("# the list:\nallowed_tools:\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 1), "at the key without a value: {err}");
        assert_eq!(
            err.message,
            "the text has no list (it is empty, or `allowed_tools` has no value) while 4 tools/actions are permitted: \
             a file cut short reads so, and the list stays in force; to permit every tool/action, write `allowed_tools: []`"
        );
        // Said so, the empty list is the design's "everything permitted", and then no list changes nothing.
        for text in ["allowed_tools: []", "{\"allowed_tools\": []}", "allowed_tools: [] # all of them\n"] {
            let mut list = GasolineAllowlist::load(SEED).unwrap();
            list.reload(text).unwrap();
            assert!(!list.summary().enabled && list.check("interact", "execute_js").is_ok(), "{text:?}");
            list.reload("").unwrap();
            list.reload("allowed_tools:").unwrap();
        }
        // At load there is no list in force: the design's backward-compatible rule holds.
        assert!(!GasolineAllowlist::load("").unwrap().summary().enabled);
    }

    #[test]
    fn decisions_come_from_the_rule_engine() {
        let list = GasolineAllowlist::load(SEED).unwrap();
        let d = list.policy().decide(TOOL, &["Interact".into(), "navigate".into()]);
        assert_eq!(d.rule.map(|r| (r.layer.clone(), r.pattern.clone())), Some((LAYER.to_owned(), "interact.navigate".to_owned())));
    }

    #[test]
    fn tools_named_like_built_ins_get_no_built_in_handling() {
        // As the built-in, `terminal` would be shell-parsed, and `run # x` or `'run'` would reduce to `run`.
        let list = GasolineAllowlist::load("allowed_tools: [\"terminal.run\"]").unwrap();
        assert!(list.check("terminal", "run").is_ok());
        assert!(list.check("terminal", "run # x").is_err());
        assert!(list.check("terminal", "'run'").is_err());
    }

    #[test]
    fn never_panics_on_arbitrary_text() {
        let alphabet =
            ['a', ':', '-', ' ', '\n', '[', ']', '{', '}', '"', '\'', '#', '*', '.', '&', '|', '>', '!', '%', '\t', '@', '`', ','];
        for s in crate::test_support::random_strings(&alphabet, 20_000, 40, 0x2545_F491_4F6C_DD1D) {
            let _ = GasolineAllowlist::load(&s);
            let _ = GasolineAllowlist::load(&format!("allowed_tools:\n  - {s}"));
        }
    }
}
