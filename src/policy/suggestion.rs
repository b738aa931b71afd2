//! A rule that would cover part of a call: what "always allow" suggestions and permission
//! buttons offer, drawn by the suggesters of each input kind.

use super::rules::MatcherKind;
use super::RuleSpec;
use serde::Serialize;

/// A rule that would cover part of a call.
///
/// Its rule is always `pattern` in one matcher's field, so it is kept as that matcher's name
/// and written out as a [`RuleSpec`] only where one is wanted ([`Suggestion::rule_spec`], and
/// the serialized form): a full spec per suggestion was a few hundred bytes to fill and drop
/// and a second copy of the pattern, on every decision that asks.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Suggestion {
    /// The rule's text: the regex, command prefix or MCP entry to add to `always_allow`.
    pub pattern: String,
    /// The rule to add: `pattern` in the field of one matcher kind.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "RuleSpec"))]
    pub rule: MatcherKind,
    /// What to show the user: `cargo`, `src/`, `github.com`.
    pub display: String,
    /// The part of the call it was drawn from.
    pub source: String,
}

impl Suggestion {
    /// The rule to add, as a policy spec writes it.
    pub fn rule_spec(&self) -> RuleSpec {
        self.rule.rule(self.pattern.clone())
    }
}

/// `{ pattern, rule, display, source }`, the rule as its [`RuleSpec`].
impl Serialize for Suggestion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("Suggestion", 4)?;
        out.serialize_field("pattern", &self.pattern)?;
        out.serialize_field("rule", &self.rule_spec())?;
        out.serialize_field("display", &self.display)?;
        out.serialize_field("source", &self.source)?;
        out.end()
    }
}
