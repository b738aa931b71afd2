//! File-operation protections (seed 003): dotfiles, writes outside the workspace, deletes.
//! Each protection is a setting (defaults: dotfiles on, outside-workspace on, delete off) and
//! asks for approval even in auto-run when it applies.

use super::hooks::HookResult;
use super::settings::AutoRunSettings;
use crate::mcp::AutoRunMode;
use crate::policy::path::normalize_path;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum FileOperation {
    Write,
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum FileReason {
    RejectedByHook,
    DisabledByAdmin,
    AskEveryTime,
    DotFile,
    OutsideWorkspace,
    DeleteProtection,
    HookAsked,
    AutoRun,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FileDecision {
    pub need_approval: bool,
    pub reason: FileReason,
    pub message: String,
    /// The path as checked (`.` and `..` collapsed).
    pub normalized_path: String,
}

/// Whether any component of a normalised path is hidden (`.env`, `src/.git/config`).
fn is_dot_file(normalized: &str) -> bool {
    normalized.split('/').any(|part| part.starts_with('.') && part != "." && part != "..")
}

/// Whether a normalised path lies inside one of the roots; relative paths are relative to the first root.
fn inside_workspace(normalized: &str, roots: &[String]) -> bool {
    if !normalized.starts_with('/') {
        return !roots.is_empty() && normalized != ".." && !normalized.starts_with("../");
    }
    roots.iter().map(|r| normalize_path(r)).any(|root| normalized == root || normalized.starts_with(&format!("{}/", root.trim_end_matches('/'))))
}

/// Decides whether a file write or delete needs approval.
pub fn decide_file_operation(operation: FileOperation, path: &str, workspace_roots: &[String], settings: &AutoRunSettings, hook: Option<HookResult>) -> FileDecision {
    let normalized_path = normalize_path(path);
    let (need_approval, reason, message) = if hook == Some(HookResult::Reject) {
        (true, FileReason::RejectedByHook, "rejected by a hook".to_owned())
    } else if settings.is_disabled_by_admin {
        (true, FileReason::DisabledByAdmin, "auto-run is disabled by your administrator".to_owned())
    } else if settings.mode == AutoRunMode::AskEveryTime {
        (true, FileReason::AskEveryTime, "auto-run is off: every change needs approval".to_owned())
    } else if settings.dot_files_protection && is_dot_file(&normalized_path) {
        (true, FileReason::DotFile, format!("{normalized_path} is a dotfile and dotfile protection is on"))
    } else if settings.outside_workspace_protection && !inside_workspace(&normalized_path, workspace_roots) {
        (true, FileReason::OutsideWorkspace, format!("{normalized_path} is outside the workspace and outside-workspace protection is on"))
    } else if settings.delete_file_protection && operation == FileOperation::Delete {
        (true, FileReason::DeleteProtection, format!("deleting {normalized_path} needs approval: delete-file protection is on"))
    } else if hook == Some(HookResult::Ask) {
        (true, FileReason::HookAsked, "a hook asked for approval".to_owned())
    } else {
        (false, FileReason::AutoRun, "no protection applies".to_owned())
    };
    FileDecision { need_approval, reason, message, normalized_path }
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

    fn reason(op: FileOperation, path: &str, s: &AutoRunSettings) -> FileReason {
        decide_file_operation(op, path, &roots(), s, None).reason
    }

    #[test]
    fn defaults_protect_dotfiles_and_the_outside_but_not_deletes() {
        let s = yolo();
        assert_eq!(reason(FileOperation::Write, "src/main.rs", &s), FileReason::AutoRun);
        assert_eq!(reason(FileOperation::Write, ".env", &s), FileReason::DotFile);
        assert_eq!(reason(FileOperation::Write, "src/../.git/config", &s), FileReason::DotFile);
        assert_eq!(reason(FileOperation::Write, "/etc/hosts", &s), FileReason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Write, "../other/x", &s), FileReason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Write, "/home/me/project/src/x.rs", &s), FileReason::AutoRun);
        assert_eq!(reason(FileOperation::Write, "/home/me/project-evil/x", &s), FileReason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Write, "/home/me/project/../x", &s), FileReason::OutsideWorkspace);
        assert_eq!(reason(FileOperation::Delete, "src/old.rs", &s), FileReason::AutoRun);
    }

    #[test]
    fn each_protection_is_a_setting() {
        let s = AutoRunSettings { dot_files_protection: false, outside_workspace_protection: false, delete_file_protection: true, ..yolo() };
        assert_eq!(reason(FileOperation::Write, ".env", &s), FileReason::AutoRun);
        assert_eq!(reason(FileOperation::Write, "/etc/x", &s), FileReason::AutoRun);
        assert_eq!(reason(FileOperation::Delete, "src/old.rs", &s), FileReason::DeleteProtection);
        assert_eq!(reason(FileOperation::Write, "x", &AutoRunSettings { mode: AutoRunMode::AskEveryTime, ..s.clone() }), FileReason::AskEveryTime);
        assert_eq!(reason(FileOperation::Write, "x", &AutoRunSettings { is_disabled_by_admin: true, ..s.clone() }), FileReason::DisabledByAdmin);
        assert_eq!(decide_file_operation(FileOperation::Write, "x", &roots(), &s, Some(HookResult::Ask)).reason, FileReason::HookAsked);
        assert_eq!(decide_file_operation(FileOperation::Write, "x", &roots(), &s, Some(HookResult::Reject)).reason, FileReason::RejectedByHook);
    }
}
