//! External hooks (Cursor's approval-flow design, `cursorHooksService`): a hook answers `allow`, `ask` or `reject`.
//! `reject` refuses with the design's model-visible message; `ask` forces a prompt even in auto-run;
//! `allow` never lifts a requirement the decision found. Hooks are part of every core call
//! ([`crate::policy::Call::hook`]), so the evaluator applies them the same way for every tool.

pub use crate::policy::HookResult;
