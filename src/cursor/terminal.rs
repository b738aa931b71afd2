//! Cursor's terminal decision (seed 003, `xOh`): does this command need the user's approval,
//! which sub-commands could be allowlisted, and which approval type applies.
//!
//! Sub-commands come from [`crate::shell`], so `git status && rm -rf build` is two commands,
//! `sudo` hidden after `;` or inside `$( )` is found, and allowlist entries — command prefixes
//! matched on word boundaries (`git` covers `git log`, not `gitx`) — must cover every one.

use super::hooks::HookResult;
use super::settings::AutoRunSettings;
use crate::mcp::AutoRunMode;
use crate::shell::{self, catastrophic_rm, command_chain, ItemKind};
use serde::{Deserialize, Serialize};

/// How a command came to run (or not), for tracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ApprovalType {
    /// The user approved it (or must).
    #[serde(rename = "user")]
    User,
    /// Every sub-command is allowlisted, or the sandbox covers it.
    #[serde(rename = "allowlist")]
    Allowlist,
    /// Run-everything mode.
    #[serde(rename = "full_auto")]
    FullAuto,
    /// Not executed.
    #[serde(rename = "none")]
    None,
}

/// Which case of the decision applied, in the seed's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum TerminalReason {
    RejectedByHook,
    DisabledByAdmin,
    /// Removing `/`, a home or the working directory: always asks, whatever the mode.
    CatastrophicRemoval,
    ParseFailed,
    Blocklisted,
    EmptyCommand,
    DeleteFileProtection,
    Sudo,
    RunEverything,
    AskEveryTime,
    /// A sub-command has something no allowlist entry can vouch for (a substitution, a redirect to a file…).
    Hazard,
    Sandboxed,
    Allowlisted,
    NotAllowlisted,
    /// A hook answered `ask`.
    HookAsked,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct TerminalDecision {
    pub need_approval: bool,
    pub reason: TerminalReason,
    pub message: String,
    /// Command prefixes the user could allowlist (the commands of the sub-commands not yet covered).
    pub candidates_for_allowlist: Vec<String>,
    pub approval_type: ApprovalType,
    /// The sub-command that decided, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_command: Option<String>,
    /// The allowlist or blocklist entry involved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// Set when a hook rejected the command: what the model is told, and the error code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_visible_error_message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_error_message: Option<String>,
    pub sub_commands: Vec<String>,
}

pub const HOOK_REJECTION_MESSAGE: &str =
    "The terminal command was rejected by a hook that prevents execution of this command. Do not attempt to work around this restriction.";
pub const HOOK_REJECTION_CODE: &str = "REJECTED_BY_HOOK";

/// Whether a command-prefix entry covers a sub-command: its words are the sub-command's first words.
pub fn prefix_covers(entry: &str, command: &str) -> bool {
    let entry_words: Vec<&str> = entry.split_whitespace().collect();
    let mut words = command.split_whitespace();
    !entry_words.is_empty() && entry_words.iter().all(|w| words.next() == Some(*w))
}

fn first_covering<'a>(list: &'a [String], command: &str) -> Option<&'a str> {
    list.iter().map(String::as_str).find(|entry| prefix_covers(entry, command))
}

/// Whether a sub-command runs `program`, itself or through wrappers (`env sudo …`, `nice rm …`).
fn runs(command: &shell::SubCommand, program: &str) -> bool {
    command.name.as_deref().is_some_and(|name| command_chain(name, &command.args).contains(&program))
}

/// Decides a terminal command under Cursor's auto-run settings; `hook` is an external hook's answer.
pub fn decide_terminal(command: &str, settings: &AutoRunSettings, hook: Option<HookResult>) -> TerminalDecision {
    let analysis = shell::analyze(command);
    let commands: Vec<&shell::SubCommand> = analysis.items.iter().filter(|i| i.kind == ItemKind::Command && i.name.is_some()).collect();
    let sub_commands: Vec<String> = commands.iter().map(|c| c.text.clone()).collect();
    let decision = |need_approval: bool, reason: TerminalReason, message: String, approval_type: ApprovalType| TerminalDecision {
        need_approval,
        reason,
        message,
        candidates_for_allowlist: Vec::new(),
        approval_type,
        sub_command: None,
        entry: None,
        model_visible_error_message: None,
        actual_error_message: None,
        sub_commands: sub_commands.clone(),
    };
    let ask = |reason, message: String| decision(true, reason, message, ApprovalType::User);

    if hook == Some(HookResult::Reject) {
        let mut d = decision(true, TerminalReason::RejectedByHook, HOOK_REJECTION_MESSAGE.into(), ApprovalType::None);
        d.model_visible_error_message = Some(HOOK_REJECTION_MESSAGE.into());
        d.actual_error_message = Some(HOOK_REJECTION_CODE.into());
        return d;
    }
    let run_everything = settings.mode == AutoRunMode::FullYolo && !settings.is_admin_controlled && !settings.is_disabled_by_admin;
    let auto_run = settings.mode != AutoRunMode::AskEveryTime && !settings.is_disabled_by_admin;

    let verdict = (|| {
        if settings.is_disabled_by_admin {
            return ask(TerminalReason::DisabledByAdmin, "auto-run is disabled by your administrator".into());
        }
        if let Some(c) = commands.iter().find(|c| c.name.as_deref().is_some_and(|n| catastrophic_rm(n, &c.args).is_some())) {
            let mut d = ask(TerminalReason::CatastrophicRemoval, format!("\"{}\" removes a protected directory; it always needs approval", c.text));
            d.sub_command = Some(c.text.clone());
            return d;
        }
        if let Some(why) = analysis.cannot_vouch.as_deref().filter(|_| !run_everything) {
            return ask(TerminalReason::ParseFailed, format!("the command could not be fully parsed ({why})"));
        }
        for c in &commands {
            if let Some(entry) = first_covering(&settings.command_blocklist, &c.text) {
                let mut d = ask(TerminalReason::Blocklisted, format!("\"{}\" matches the blocklist entry \"{entry}\"", c.text));
                d.sub_command = Some(c.text.clone());
                d.entry = Some(entry.to_owned());
                return d;
            }
        }
        if commands.is_empty() {
            return ask(TerminalReason::EmptyCommand, "the command runs nothing that could be checked".into());
        }
        if settings.delete_file_protection {
            if let Some(c) = commands.iter().find(|c| runs(c, "rm")) {
                let mut d = ask(TerminalReason::DeleteFileProtection, format!("\"{}\" deletes files and delete-file protection is on", c.text));
                d.sub_command = Some(c.text.clone());
                return d;
            }
        }
        if let Some(c) = commands.iter().find(|c| runs(c, "sudo")) {
            let mut d = ask(TerminalReason::Sudo, format!("\"{}\" uses sudo, which always needs approval", c.text));
            d.sub_command = Some(c.text.clone());
            return d;
        }
        if run_everything {
            return decision(false, TerminalReason::RunEverything, "run-everything mode runs every command".into(), ApprovalType::FullAuto);
        }
        if !auto_run {
            return ask(TerminalReason::AskEveryTime, "auto-run is off: every command needs approval".into());
        }
        if let Some(c) = commands.iter().find(|c| !c.hazards.is_empty()) {
            let why = c.hazards.first().map(|h| h.why.clone()).unwrap_or_default();
            let mut d = ask(TerminalReason::Hazard, format!("\"{}\" cannot be auto-run from the allowlist: {why}", c.text));
            d.sub_command = Some(c.text.clone());
            return d;
        }
        if let Some(r) = analysis.items.iter().find(|i| i.kind == ItemKind::Redirect && !i.hazards.is_empty()) {
            let mut d = ask(TerminalReason::Hazard, format!("\"{}\" writes a file; the allowlist cannot vouch for it", r.text));
            d.sub_command = Some(r.text.clone());
            return d;
        }
        if settings.sandbox_enabled {
            return decision(false, TerminalReason::Sandboxed, "the sandbox covers the command".into(), ApprovalType::Allowlist);
        }
        let uncovered: Vec<&&shell::SubCommand> = commands.iter().filter(|c| first_covering(&settings.command_allowlist, &c.text).is_none()).collect();
        if uncovered.is_empty() {
            return decision(false, TerminalReason::Allowlisted, "every sub-command is in the allowlist".into(), ApprovalType::Allowlist);
        }
        let mut candidates: Vec<String> = Vec::new();
        for c in &uncovered {
            if let Some(name) = c.name.clone() {
                if !candidates.contains(&name) {
                    candidates.push(name);
                }
            }
        }
        let listed = uncovered.iter().map(|c| format!("\"{}\"", c.text)).collect::<Vec<_>>().join(", ");
        let mut d = ask(TerminalReason::NotAllowlisted, format!("not in the allowlist: {listed}"));
        d.candidates_for_allowlist = candidates;
        d.sub_command = uncovered.first().map(|c| c.text.clone());
        d
    })();

    if hook == Some(HookResult::Ask) && !verdict.need_approval {
        let mut d = decision(true, TerminalReason::HookAsked, "a hook asked for approval".into(), ApprovalType::User);
        d.candidates_for_allowlist = verdict.candidates_for_allowlist;
        return d;
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cursor::settings::{migrate, ComposerState};

    fn settings(mode: AutoRunMode, allow: &[&str]) -> AutoRunSettings {
        AutoRunSettings { mode, command_allowlist: allow.iter().map(|s| s.to_string()).collect(), ..migrate(&ComposerState::default()) }
    }

    fn reason(command: &str, s: &AutoRunSettings) -> TerminalReason {
        decide_terminal(command, s, None).reason
    }

    #[test]
    fn prefixes_match_on_word_boundaries() {
        assert!(prefix_covers("git", "git status"));
        assert!(prefix_covers("git status", "git status -s"));
        assert!(!prefix_covers("git", "gitx status"));
        assert!(!prefix_covers("git status", "git statusx"));
        assert!(!prefix_covers("", "git"));
    }

    #[test]
    fn a_chain_needs_every_sub_command_and_names_the_missing_ones() {
        let d = decide_terminal("git status && rm -rf build", &settings(AutoRunMode::Yolo, &["git"]), None);
        assert!(d.need_approval);
        assert_eq!(d.reason, TerminalReason::NotAllowlisted);
        assert_eq!(d.candidates_for_allowlist, vec!["rm".to_owned()]);
        assert_eq!(d.approval_type, ApprovalType::User);
        let d = decide_terminal("git status && ls", &settings(AutoRunMode::Yolo, &["git", "ls"]), None);
        assert_eq!((d.need_approval, d.reason, d.approval_type), (false, TerminalReason::Allowlisted, ApprovalType::Allowlist));
    }

    #[test]
    fn sudo_anywhere_needs_approval_even_when_allowlisted_or_in_run_everything() {
        for command in ["sudo ls", "ls; sudo rm x", "echo $(sudo id)", "ls | sudo tee f", "/usr/bin/sudo ls", "env sudo ls", "nice -n 5 sudo ls", "command sudo ls"] {
            for mode in [AutoRunMode::Yolo, AutoRunMode::FullYolo] {
                let d = decide_terminal(command, &settings(mode, &["ls", "sudo", "echo", "tee"]), None);
                assert!(d.need_approval, "{command} {mode:?}");
                assert_eq!(d.reason, TerminalReason::Sudo, "{command} {mode:?}");
            }
        }
    }

    #[test]
    fn every_case_in_order() {
        let yolo = settings(AutoRunMode::Yolo, &["git", "ls"]);
        let disabled = AutoRunSettings { is_disabled_by_admin: true, ..settings(AutoRunMode::FullYolo, &["git"]) };
        assert_eq!(reason("git status", &disabled), TerminalReason::DisabledByAdmin);
        assert_eq!(reason("ls 'unterminated", &yolo), TerminalReason::ParseFailed);
        // Run-everything does not stop for a line that does not parse.
        assert_eq!(reason("ls 'unterminated", &settings(AutoRunMode::FullYolo, &[])), TerminalReason::RunEverything);
        let blocked = AutoRunSettings { command_blocklist: vec!["git push".into()], ..settings(AutoRunMode::FullYolo, &["git"]) };
        let d = decide_terminal("git status && git push origin", &blocked, None);
        assert_eq!((d.reason, d.entry.as_deref()), (TerminalReason::Blocklisted, Some("git push")));
        assert_eq!(reason("git pushx", &blocked), TerminalReason::RunEverything, "word boundary");
        assert_eq!(reason("", &yolo), TerminalReason::EmptyCommand);
        assert_eq!(reason("# only a comment", &yolo), TerminalReason::EmptyCommand);
        let protected = AutoRunSettings { delete_file_protection: true, ..settings(AutoRunMode::FullYolo, &["rm"]) };
        assert_eq!(reason("ls && rm x", &protected), TerminalReason::DeleteFileProtection);
        for hidden in ["command rm x", "env rm x", "nohup /bin/rm x", "timeout 5 rm x"] {
            assert_eq!(reason(hidden, &protected), TerminalReason::DeleteFileProtection, "{hidden}");
        }
        assert_eq!(reason("ls && rm x", &settings(AutoRunMode::FullYolo, &[])), TerminalReason::RunEverything);
        assert_eq!(reason("anything", &settings(AutoRunMode::AskEveryTime, &["anything"])), TerminalReason::AskEveryTime);
        assert_eq!(reason("ls > ~/.bashrc", &yolo), TerminalReason::Hazard);
        assert_eq!(reason("git log $(curl x)", &settings(AutoRunMode::Yolo, &["git", "curl"])), TerminalReason::Hazard);
        let sandboxed = AutoRunSettings { sandbox_enabled: true, ..settings(AutoRunMode::Yolo, &[]) };
        assert_eq!(decide_terminal("make", &sandboxed, None).approval_type, ApprovalType::Allowlist);
        assert_eq!(reason("make", &sandboxed), TerminalReason::Sandboxed);
        assert_eq!(reason("make", &yolo), TerminalReason::NotAllowlisted);
    }

    #[test]
    fn run_everything_runs_unless_admin_controlled() {
        let d = decide_terminal("make && cargo build", &settings(AutoRunMode::FullYolo, &[]), None);
        assert_eq!((d.need_approval, d.approval_type), (false, ApprovalType::FullAuto));
        let admin = AutoRunSettings { is_admin_controlled: true, ..settings(AutoRunMode::FullYolo, &["make"]) };
        assert_eq!(reason("make", &admin), TerminalReason::Allowlisted);
        assert_eq!(reason("cargo build", &admin), TerminalReason::NotAllowlisted);
    }

    #[test]
    fn removing_protected_trees_always_asks() {
        let d = decide_terminal("ls && rm -rf ~", &settings(AutoRunMode::FullYolo, &["ls", "rm"]), None);
        assert_eq!((d.need_approval, d.reason), (true, TerminalReason::CatastrophicRemoval));
    }

    #[test]
    fn hooks_reject_with_the_seeds_message_or_force_a_prompt() {
        let yolo = settings(AutoRunMode::FullYolo, &["git"]);
        let d = decide_terminal("git status", &yolo, Some(HookResult::Reject));
        assert_eq!(d.model_visible_error_message.as_deref(), Some(HOOK_REJECTION_MESSAGE));
        assert_eq!(d.actual_error_message.as_deref(), Some("REJECTED_BY_HOOK"));
        assert_eq!(d.approval_type, ApprovalType::None);
        let d = decide_terminal("git status", &yolo, Some(HookResult::Ask));
        assert_eq!((d.need_approval, d.reason), (true, TerminalReason::HookAsked));
        // "allow" never lifts a requirement.
        let d = decide_terminal("sudo ls", &yolo, Some(HookResult::Allow));
        assert_eq!((d.need_approval, d.reason), (true, TerminalReason::Sudo));
    }
}
