//! File-operation protections (Cursor's approval-flow design): dotfiles, writes outside the workspace, deletes.
//! Each protection is a setting (defaults: dotfiles on, outside-workspace on, delete off) and
//! asks for approval even in auto-run when it applies. The settings become gates of a policy
//! over Cursor's `write_file` and `delete_file` tools, decided by the one evaluator.

use super::hooks::HookResult;
use super::settings::AutoRunSettings;
use crate::mcp::AutoRunMode;
use crate::policy::catalogue::{CURSOR_DELETE_FILE, CURSOR_WRITE_FILE};
use crate::policy::path::normalize_path;
use crate::policy::{Call, CatalogueName, Condition, Gate, Outcome, Policy, PolicySpec, Reason};
use serde::{Deserialize, Serialize};

/// A file change the agent asks to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum FileOperation {
    /// Create or overwrite a file.
    Write,
    /// Delete a file.
    Delete,
}

impl FileOperation {
    /// The catalogue's tool for the operation.
    pub fn tool(self) -> &'static str {
        match self {
            FileOperation::Write => CURSOR_WRITE_FILE,
            FileOperation::Delete => CURSOR_DELETE_FILE,
        }
    }
}

/// Cursor's view of a file-operation decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FileDecision {
    /// Whether the user must approve the operation.
    pub need_approval: bool,
    /// The protection or setting that decided.
    pub reason: Reason,
    /// The reason in words, naming the path and the protection.
    pub message: String,
    /// The path as checked (`.` and `..` collapsed).
    pub normalized_path: String,
}

/// The protections, in the design's order, as gates.
pub fn file_policy(workspace_roots: &[String], settings: &AutoRunSettings) -> PolicySpec {
    let tools = [CURSOR_WRITE_FILE, CURSOR_DELETE_FILE];
    let ask = |when, reason, message: &str| Gate { message: Some(message.to_owned()), ..Gate::new(when, Outcome::Confirm, reason) };
    let mut gates = Vec::new();
    if settings.is_disabled_by_admin {
        gates.push(ask(Condition::Always, Reason::DisabledByAdmin, "auto-run is disabled by your administrator"));
    }
    if settings.mode == AutoRunMode::AskEveryTime {
        gates.push(ask(Condition::Always, Reason::AskEveryTime, "auto-run is off: every change needs approval"));
    }
    if settings.dot_files_protection {
        gates.push(ask(Condition::HiddenPath, Reason::DotFile, "{item} is a dotfile and dotfile protection is on"));
    }
    if settings.outside_workspace_protection {
        let roots = workspace_roots.to_vec();
        gates.push(ask(
            Condition::OutsideRoots { roots },
            Reason::OutsideWorkspace,
            "{item} is outside the workspace and outside-workspace protection is on",
        ));
    }
    if settings.delete_file_protection {
        let gate = ask(Condition::Always, Reason::DeleteProtection, "deleting {item} needs approval: delete-file protection is on");
        gates.push(gate.for_tools(&[CURSOR_DELETE_FILE]));
    }
    gates.push(Gate { message: Some("no protection applies".into()), ..Gate::new(Condition::Always, Outcome::Allow, Reason::AutoRun) });
    let gates = gates.into_iter().map(|g| if g.tools.is_some() { g } else { g.for_tools(&tools) }).collect();
    PolicySpec { catalogue: CatalogueName::Cursor, gates: Some(gates), ..PolicySpec::default() }
}

/// Decides whether a file write or delete needs approval.
pub fn decide_file_operation(
    operation: FileOperation,
    path: &str,
    workspace_roots: &[String],
    settings: &AutoRunSettings,
    hook: Option<HookResult>,
) -> FileDecision {
    let normalized_path = normalize_path(path);
    let policy = Policy::new(file_policy(workspace_roots, settings));
    let decision = policy.decide_call(&Call { tool: operation.tool().to_owned(), inputs: vec![normalized_path.clone()], hook });
    let message = if decision.reason == Reason::RejectedByHook { "rejected by a hook".to_owned() } else { decision.message };
    FileDecision { need_approval: decision.outcome != Outcome::Allow, reason: decision.reason, message, normalized_path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cursor::settings::{migrate, ComposerState};

    fn yolo() -> AutoRunSettings {
        migrate(&ComposerState { use_yolo_mode: true, ..ComposerState::default() })
    }

    fn roots() -> Vec<String> {
        vec!["/home/me/project".into()]
    }

    fn reason(op: FileOperation, path: &str, s: &AutoRunSettings) -> Reason {
        decide_file_operation(op, path, &roots(), s, None).reason
    }

    #[test]
    fn defaults_protect_dotfiles_and_the_outside_but_not_deletes() {
        let s = yolo();
        assert_eq!(reason(FileOperation::Write, "src/main.rs", &s), Reason::AutoRun);
        assert_eq!(reason(FileOperation::Write, ".env", &s), Reason::DotFile);
        assert_eq!(reason(FileOperation::Write, "src/../.git/config", &s), Reason::DotFile);
        assert_eq!(reason(FileOperation::Write, "/etc/hosts", &s), Reason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Write, "../other/x", &s), Reason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Write, "/home/me/project/src/x.rs", &s), Reason::AutoRun);
        assert_eq!(reason(FileOperation::Write, "/home/me/project-evil/x", &s), Reason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Write, "/home/me/project/../x", &s), Reason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Delete, "src/old.rs", &s), Reason::AutoRun);
    }

    #[test]
    fn each_protection_is_a_setting() {
        let s =
            AutoRunSettings { dot_files_protection: false, outside_workspace_protection: false, delete_file_protection: true, ..yolo() };
        assert_eq!(reason(FileOperation::Write, ".prettierrc", &s), Reason::AutoRun);
        // The control plane asks whatever the settings say.
        assert_eq!(reason(FileOperation::Write, ".env", &s), Reason::ProtectedPath);
        assert_eq!(reason(FileOperation::Write, "/etc/x", &s), Reason::AutoRun);
        assert_eq!(reason(FileOperation::Delete, "src/old.rs", &s), Reason::DeleteProtection);
        assert_eq!(
            reason(FileOperation::Write, "x", &AutoRunSettings { mode: AutoRunMode::AskEveryTime, ..s.clone() }),
            Reason::AskEveryTime
        );
        assert_eq!(
            reason(FileOperation::Write, "x", &AutoRunSettings { is_disabled_by_admin: true, ..s.clone() }),
            Reason::DisabledByAdmin
        );
        assert_eq!(decide_file_operation(FileOperation::Write, "x", &roots(), &s, Some(HookResult::Ask)).reason, Reason::HookAsked);
        assert_eq!(decide_file_operation(FileOperation::Write, "x", &roots(), &s, Some(HookResult::Reject)).reason, Reason::RejectedByHook);
    }

    #[test]
    fn cursors_run_everything_mode_does_not_lift_a_protected_path() {
        let yolo = migrate(&ComposerState { use_yolo_mode: true, ..ComposerState::default() });
        let yolo = crate::cursor::AutoRunSettings { dot_files_protection: false, ..yolo };
        let d = decide_file_operation(FileOperation::Write, ".cursor/mcp.json", &["/work".to_owned()], &yolo, None);
        assert_eq!((d.need_approval, d.reason), (true, Reason::ProtectedPath));
        assert!(!decide_file_operation(FileOperation::Write, "src/main.rs", &["/work".to_owned()], &yolo, None).need_approval);
    }
}
