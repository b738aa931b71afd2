//! Layer trust: a layer the user has not trusted yet (a cloned project's settings, the way
//! Claude Code and Gemini CLI gate project rules behind workspace trust) may only make decisions
//! stricter. Its deny and confirm rules count; its allow rules, and any default that would loosen
//! the one in force, are ignored — and a decision names what was ignored.

use super::{LayerSpec, Outcome};
use serde::Serialize;

/// A setting of an untrusted layer that was ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Ignored {
    /// The untrusted layer.
    pub layer: String,
    /// The tool, for a tool's rules or default; absent for the layer's global default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// What was ignored, and why, in words.
    pub message: String,
}

/// Whether an untrusted layer's default may replace `current`: only if it is at least as strict.
pub(crate) fn admit_default(layer: &LayerSpec, tool: Option<&str>, mode: Outcome, current: Outcome) -> Result<(), Ignored> {
    if layer.trusted || mode >= current {
        return Ok(());
    }
    let what = match tool {
        Some(tool) => format!("its default for {tool}"),
        None => "its global default".to_owned(),
    };
    Err(Ignored {
        layer: layer.name.clone(),
        tool: tool.map(str::to_owned),
        message: format!(
            "Layer \"{}\" is not trusted: {what} ({}) was ignored because it would loosen {}",
            layer.name,
            label(mode),
            label(current)
        ),
    })
}

/// The note for an untrusted layer's allow rules, which are never compiled.
pub(crate) fn ignored_allow_rules(layer: &LayerSpec, tool: &str, count: usize) -> Ignored {
    Ignored {
        layer: layer.name.clone(),
        tool: Some(tool.to_owned()),
        message: format!("Layer \"{}\" is not trusted: its {count} always_allow rule(s) for {tool} were ignored", layer.name),
    }
}

fn label(mode: Outcome) -> &'static str {
    match mode {
        Outcome::Allow => "allow",
        Outcome::Confirm => "confirm",
        Outcome::Deny => "deny",
    }
}
