//! External hooks (seed 003, `cursorHooksService`): a hook answers `allow`, `ask` or `reject`.
//! `reject` refuses with the seed's model-visible message; `ask` forces a prompt even in auto-run;
//! `allow` never lifts a requirement the decision found.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum HookResult {
    Allow,
    Ask,
    Reject,
}
