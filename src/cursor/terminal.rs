//! Cursor's terminal decision (Cursor's approval-flow design): does this command need the user's approval, which
//! sub-commands could be allowlisted, and which approval type applies.
//!
//! A translation, not a procedure: the auto-run settings become a policy — the allowlist and
//! blocklist as command-prefix rules (matched per sub-command on word boundaries: `git` covers
//! `git log`, not `gitx`), the modes and protections as gates in the design's order — and the one
//! evaluator decides. [`TerminalDecision`] is Cursor's view of the core [`Decision`].

use super::settings::AutoRunSettings;
use crate::mcp::AutoRunMode;
use crate::policy::catalogue::CURSOR_TERMINAL;
use crate::policy::{
    Call, CatalogueName, Condition, Decision, Gate, HookResult, LayerSpec, Outcome, Policy, PolicySpec, Reason, RuleSpec, SuggestionForm,
    ToolRulesSpec, HOOK_REJECTION_MESSAGE,
};
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

impl ApprovalType {
    fn of(reason: Reason) -> Self {
        match reason {
            Reason::RejectedByHook => ApprovalType::None,
            Reason::RunEverything => ApprovalType::FullAuto,
            Reason::Allowlisted | Reason::Sandboxed => ApprovalType::Allowlist,
            _ => ApprovalType::User,
        }
    }
}

/// Cursor's view of a terminal decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct TerminalDecision {
    /// Whether the user must approve the command before it runs.
    pub need_approval: bool,
    /// The gate that decided.
    pub reason: Reason,
    /// The reason in words, naming the sub-command or entry involved.
    pub message: String,
    /// Command prefixes the user could allowlist (the commands of the sub-commands not yet covered).
    pub candidates_for_allowlist: Vec<String>,
    /// How the command comes to run (or not), for tracking.
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
    /// The error code when a hook rejected the command ([`HOOK_REJECTION_CODE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_error_message: Option<String>,
    /// Every command the line would run, as the allowlist sees them.
    pub sub_commands: Vec<String>,
}

/// The error code reported when a hook rejected a command.
pub const HOOK_REJECTION_CODE: &str = "REJECTED_BY_HOOK";

/// The layer Cursor's lists become.
pub const LAYER: &str = "user";

fn gate(when: Condition, outcome: Outcome, reason: Reason, message: Option<&str>) -> Gate {
    Gate { message: message.map(str::to_owned), ..Gate::new(when, outcome, reason) }.for_tools(&[CURSOR_TERMINAL])
}

/// The design's cases, in its order, for these settings.
fn gates(settings: &AutoRunSettings) -> Vec<Gate> {
    let run_everything = settings.mode == AutoRunMode::FullYolo && !settings.is_admin_controlled && !settings.is_disabled_by_admin;
    let auto_run = settings.mode != AutoRunMode::AskEveryTime && !settings.is_disabled_by_admin;
    let ask = |when, reason, message| gate(when, Outcome::Confirm, reason, message);
    let mut gates = Vec::new();
    if settings.is_disabled_by_admin {
        gates.push(ask(Condition::Always, Reason::DisabledByAdmin, Some("auto-run is disabled by your administrator")));
    }
    gates.push(ask(Condition::RemovesProtectedTree, Reason::CatastrophicRemoval, None));
    if !run_everything {
        gates.push(ask(
            Condition::CannotVouch { unless_unrestricted: false },
            Reason::ParseFailed,
            Some("the command could not be fully parsed ({detail})"),
        ));
    }
    gates.push(ask(Condition::ConfirmRule, Reason::Blocklisted, None));
    gates.push(ask(Condition::NothingToCheck, Reason::EmptyCommand, None));
    if settings.delete_file_protection {
        gates.push(ask(Condition::Runs { program: "rm".into() }, Reason::DeleteProtection, None));
    }
    gates.push(ask(Condition::Runs { program: "sudo".into() }, Reason::Sudo, None));
    if run_everything {
        // A line whose program cannot be read runs unread only while nothing is blocklisted.
        gates.push(ask(
            Condition::UnsureInRestrictedTool,
            Reason::CannotVouch,
            Some("the blocklist cannot be checked reliably against this command ({detail}), so it needs approval"),
        ));
        gates.push(gate(Condition::Always, Outcome::Allow, Reason::RunEverything, Some("run-everything mode runs every command")));
    }
    if !auto_run {
        gates.push(ask(Condition::Always, Reason::AskEveryTime, Some("auto-run is off: every command needs approval")));
    }
    gates.push(ask(Condition::AnyHazard, Reason::Hazard, None));
    if settings.sandbox_enabled {
        gates.push(gate(Condition::Always, Outcome::Allow, Reason::Sandboxed, Some("the sandbox covers the command")));
    }
    gates.push(gate(Condition::CommandsAllowed, Outcome::Allow, Reason::Allowlisted, None));
    gates.push(ask(Condition::Always, Reason::NotAllowlisted, None));
    gates
}

/// The policy Cursor's auto-run settings mean for terminal commands.
pub fn terminal_policy(settings: &AutoRunSettings) -> PolicySpec {
    let rules = ToolRulesSpec {
        always_allow: settings.command_allowlist.iter().map(RuleSpec::prefix).collect(),
        always_confirm: settings.command_blocklist.iter().map(RuleSpec::prefix).collect(),
        ..ToolRulesSpec::default()
    };
    PolicySpec {
        layers: vec![LayerSpec {
            name: LAYER.into(),
            tools: [(CURSOR_TERMINAL.to_owned(), rules)].into_iter().collect(),
            ..LayerSpec::default()
        }],
        catalogue: CatalogueName::Cursor,
        suggest: SuggestionForm::Prefix,
        gates: Some(gates(settings)),
        ..PolicySpec::default()
    }
}

/// Cursor's view of a core decision.
pub fn terminal_view(decision: &Decision) -> TerminalDecision {
    let commands = || decision.items.iter().filter(|i| i.kind == crate::policy::ItemKind::Command && i.name.is_some());
    let sub_command = match decision.reason {
        Reason::NotAllowlisted => commands().find(|c| c.allowed_by.is_none()).map(|c| c.text.clone()),
        _ => decision.matched_input.clone(),
    };
    let rejected = decision.reason == Reason::RejectedByHook;
    TerminalDecision {
        need_approval: decision.outcome != Outcome::Allow,
        reason: decision.reason,
        message: decision.message.clone(),
        candidates_for_allowlist: if decision.reason == Reason::NotAllowlisted {
            decision.suggestions.iter().map(|s| s.pattern.clone()).collect()
        } else {
            Vec::new()
        },
        approval_type: ApprovalType::of(decision.reason),
        sub_command,
        entry: decision.rule.as_ref().filter(|_| decision.reason == Reason::Blocklisted).map(|r| r.pattern.clone()),
        model_visible_error_message: rejected.then(|| HOOK_REJECTION_MESSAGE.to_owned()),
        actual_error_message: rejected.then(|| HOOK_REJECTION_CODE.to_owned()),
        sub_commands: commands().map(|c| c.text.clone()).collect(),
    }
}

/// Decides a terminal command under Cursor's auto-run settings; `hook` is an external hook's answer.
pub fn decide_terminal(command: &str, settings: &AutoRunSettings, hook: Option<HookResult>) -> TerminalDecision {
    let policy = Policy::new(terminal_policy(settings));
    terminal_view(&policy.decide_call(&Call { tool: CURSOR_TERMINAL.to_owned(), inputs: vec![command.to_owned()], hook }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cursor::settings::{migrate, ComposerState};

    fn settings(mode: AutoRunMode, allow: &[&str]) -> AutoRunSettings {
        AutoRunSettings { mode, command_allowlist: allow.iter().map(|s| s.to_string()).collect(), ..migrate(&ComposerState::default()) }
    }

    fn reason(command: &str, s: &AutoRunSettings) -> Reason {
        decide_terminal(command, s, None).reason
    }

    #[test]
    fn prefixes_match_on_word_boundaries() {
        let covers = |prefix: &str, command: &str| {
            let words: Vec<String> = prefix.split_whitespace().map(str::to_owned).collect();
            crate::policy::rules::prefix_covers(&words, command)
        };
        assert!(covers("git", "git status"));
        assert!(covers("git status", "git status -s"));
        assert!(!covers("git", "gitx status"));
        assert!(!covers("git status", "git statusx"));
        assert!(!covers("", "git"));
    }

    #[test]
    fn a_chain_needs_every_sub_command_and_names_the_missing_ones() {
        let d = decide_terminal("git status && rm -rf build", &settings(AutoRunMode::Yolo, &["git"]), None);
        assert!(d.need_approval);
        assert_eq!(d.reason, Reason::NotAllowlisted);
        assert_eq!(d.candidates_for_allowlist, vec!["rm".to_owned()]);
        assert_eq!(d.approval_type, ApprovalType::User);
        let d = decide_terminal("git status && ls", &settings(AutoRunMode::Yolo, &["git", "ls"]), None);
        assert_eq!((d.need_approval, d.reason, d.approval_type), (false, Reason::Allowlisted, ApprovalType::Allowlist));
    }

    #[test]
    fn sudo_anywhere_needs_approval_even_when_allowlisted_or_in_run_everything() {
        for command in [
            "sudo ls",
            "ls; sudo rm x",
            "echo $(sudo id)",
            "ls | sudo tee f",
            "/usr/bin/sudo ls",
            "env sudo ls",
            "nice -n 5 sudo ls",
            "command sudo ls",
        ] {
            for mode in [AutoRunMode::Yolo, AutoRunMode::FullYolo] {
                let d = decide_terminal(command, &settings(mode, &["ls", "sudo", "echo", "tee"]), None);
                assert!(d.need_approval, "{command} {mode:?}");
                assert_eq!(d.reason, Reason::Sudo, "{command} {mode:?}");
            }
        }
    }

    #[test]
    fn every_case_in_order() {
        let yolo = settings(AutoRunMode::Yolo, &["git", "ls"]);
        let disabled = AutoRunSettings { is_disabled_by_admin: true, ..settings(AutoRunMode::FullYolo, &["git"]) };
        assert_eq!(reason("git status", &disabled), Reason::DisabledByAdmin);
        assert_eq!(reason("ls 'unterminated", &yolo), Reason::ParseFailed);
        // Run-everything does not stop for a line that does not parse.
        assert_eq!(reason("ls 'unterminated", &settings(AutoRunMode::FullYolo, &[])), Reason::RunEverything);
        let blocked = AutoRunSettings { command_blocklist: vec!["git push".into()], ..settings(AutoRunMode::FullYolo, &["git"]) };
        let d = decide_terminal("git status && git push origin", &blocked, None);
        assert_eq!((d.reason, d.entry.as_deref()), (Reason::Blocklisted, Some("git push")));
        assert_eq!(reason("git pushx", &blocked), Reason::RunEverything, "word boundary");
        assert_eq!(reason("", &yolo), Reason::EmptyCommand);
        assert_eq!(reason("# only a comment", &yolo), Reason::EmptyCommand);
        let protected = AutoRunSettings { delete_file_protection: true, ..settings(AutoRunMode::FullYolo, &["rm"]) };
        assert_eq!(reason("ls && rm x", &protected), Reason::DeleteProtection);
        for hidden in ["command rm x", "env rm x", "nohup /bin/rm x", "timeout 5 rm x"] {
            assert_eq!(reason(hidden, &protected), Reason::DeleteProtection, "{hidden}");
        }
        assert_eq!(reason("ls && rm x", &settings(AutoRunMode::FullYolo, &[])), Reason::RunEverything);
        assert_eq!(reason("anything", &settings(AutoRunMode::AskEveryTime, &["anything"])), Reason::AskEveryTime);
        assert_eq!(reason("ls > ~/.bashrc", &yolo), Reason::Hazard);
        assert_eq!(reason("git log $(curl x)", &settings(AutoRunMode::Yolo, &["git", "curl"])), Reason::Hazard);
        let sandboxed = AutoRunSettings { sandbox_enabled: true, ..settings(AutoRunMode::Yolo, &[]) };
        assert_eq!(decide_terminal("make", &sandboxed, None).approval_type, ApprovalType::Allowlist);
        assert_eq!(reason("make", &sandboxed), Reason::Sandboxed);
        assert_eq!(reason("make", &yolo), Reason::NotAllowlisted);
    }

    #[test]
    fn run_everything_runs_unless_admin_controlled() {
        let d = decide_terminal("make && cargo build", &settings(AutoRunMode::FullYolo, &[]), None);
        assert_eq!((d.need_approval, d.approval_type), (false, ApprovalType::FullAuto));
        let admin = AutoRunSettings { is_admin_controlled: true, ..settings(AutoRunMode::FullYolo, &["make"]) };
        assert_eq!(reason("make", &admin), Reason::Allowlisted);
        assert_eq!(reason("cargo build", &admin), Reason::NotAllowlisted);
    }

    #[test]
    fn removing_protected_trees_always_asks() {
        let d = decide_terminal("ls && rm -rf ~", &settings(AutoRunMode::FullYolo, &["ls", "rm"]), None);
        assert_eq!((d.need_approval, d.reason), (true, Reason::CatastrophicRemoval));
    }

    #[test]
    fn hooks_reject_with_the_seeds_message_or_force_a_prompt() {
        let yolo = settings(AutoRunMode::FullYolo, &["git"]);
        let d = decide_terminal("git status", &yolo, Some(HookResult::Reject));
        assert_eq!(d.model_visible_error_message.as_deref(), Some(HOOK_REJECTION_MESSAGE));
        assert_eq!(d.actual_error_message.as_deref(), Some("REJECTED_BY_HOOK"));
        assert_eq!(d.approval_type, ApprovalType::None);
        let d = decide_terminal("git status", &yolo, Some(HookResult::Ask));
        assert_eq!((d.need_approval, d.reason), (true, Reason::HookAsked));
        // "allow" never lifts a requirement.
        let d = decide_terminal("sudo ls", &yolo, Some(HookResult::Allow));
        assert_eq!((d.need_approval, d.reason), (true, Reason::Sudo));
    }
}
