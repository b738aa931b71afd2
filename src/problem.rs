//! A problem with a user's settings, text or list, in the one shape every reader and validator
//! answers with — the JavaScript API ([`crate::api`]) and the settings page ([`crate::settings`])
//! alike — and the readers both of them answer through.

use crate::gasoline::{GasolineAllowlist, GasolineError};
use crate::input::InputError;
use crate::mcp::{EntryError, NameError};
use crate::roo::{self, CatalogueServer, ModeConfig, RestrictionIssue, Severity};
use serde::Serialize;
use serde_json::Value;

/// Something wrong with a user's settings, text or list, where it is, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Problem {
    /// A stable code a program can match on (`invalidPattern`, `invalidYaml`, `nameEmpty`, …).
    pub code: String,
    /// What is wrong, in words a user can act on.
    pub message: String,
    /// Where in the value: `layers[1].tools.terminal.alwaysAllow[0]`, `mcpRestrictions.allowedServers[2]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 1-based position in the text, for text input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column in the text, with `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

/// An answer: the value, or the problems that prevented it.
pub type Answer<T> = Result<T, Vec<Problem>>;

pub(crate) fn code_of<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(code)) => code,
        // An internally tagged enum names its variant under `code` (or `kind`).
        Ok(Value::Object(map)) => ["code", "kind"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_str).map(str::to_owned))
            .or_else(|| map.keys().next().cloned())
            .unwrap_or_else(|| "invalid".to_owned()),
        _ => "invalid".to_owned(),
    }
}

impl From<&InputError> for Problem {
    fn from(e: &InputError) -> Self {
        let code = if e.line.is_some() { "invalidJson" } else { "invalidSettings" };
        Problem {
            code: code.into(),
            message: e.to_string(),
            path: (!e.path.is_empty()).then(|| e.path.clone()),
            line: e.line,
            column: e.column,
        }
    }
}

impl From<&GasolineError> for Problem {
    fn from(e: &GasolineError) -> Self {
        Problem { code: code_of(&e.code), message: e.message.clone(), path: None, line: Some(e.line), column: Some(e.column) }
    }
}

impl From<&NameError> for Problem {
    fn from(e: &NameError) -> Self {
        let code = format!("name{}", capitalise(&code_of(&e.problem)));
        Problem { code, message: e.to_string(), path: None, line: None, column: None }
    }
}

impl From<&EntryError> for Problem {
    fn from(e: &EntryError) -> Self {
        match e {
            EntryError::InvalidName { name } => Problem::from(name),
            other => Problem { code: code_of(other), message: other.to_string(), path: None, line: None, column: None },
        }
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// A Gasoline allowlist from YAML text.
pub fn gasoline_allowlist(text: &str) -> Answer<GasolineAllowlist> {
    GasolineAllowlist::load(text).map_err(|e| vec![Problem::from(&e)])
}

/// The outcome of validating a Roo mode's restrictions: errors (contradictions) and warnings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Validation {
    /// True when there are no errors (warnings may remain).
    pub ok: bool,
    /// Contradictions: restrictions that cannot all hold.
    pub errors: Vec<Problem>,
    /// Probable mistakes, such as a server or tool that is not configured.
    pub warnings: Vec<Problem>,
}

fn issue_problem(issue: &RestrictionIssue) -> Problem {
    Problem { code: code_of(&issue.code), message: issue.message.clone(), path: Some(issue.path.clone()), line: None, column: None }
}

/// Checks a Roo mode's restrictions against each other and the known servers and tools.
pub fn validate_mode(mode: &ModeConfig, catalogue: &[CatalogueServer]) -> Validation {
    let issues = roo::validate(mode, catalogue);
    let pick = |severity| issues.iter().filter(|i| i.severity == severity).map(issue_problem).collect::<Vec<_>>();
    let errors = pick(Severity::Error);
    Validation { ok: errors.is_empty(), errors, warnings: pick(Severity::Warning) }
}
