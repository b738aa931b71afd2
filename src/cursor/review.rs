//! The human review of a tool call (Cursor's approval-flow design): status `none → requested → done`, the options
//! shown per tool kind, header texts, and what a chosen option means — the result, and the
//! allowlist update it carries (commands appended without duplicates; MCP tools through the
//! MCP dialect's insertion). Answering a review that was never requested, or answering twice,
//! is an error and changes nothing.

use super::terminal::ApprovalType;
use crate::mcp;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a review is about; it decides the options shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ReviewKind {
    /// A terminal command.
    Terminal,
    /// An MCP tool call.
    Mcp,
    /// A file edit the agent made.
    Edit,
}

/// Where a review is in its life: `none → requested → done`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ReviewStatus {
    /// Created, not yet shown to the user.
    None,
    /// Shown to the user, waiting for an answer.
    Requested,
    /// Answered or cancelled; it cannot change again.
    Done,
}

/// A button of the review (the design's `*HumanReviewOption`s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ReviewOption {
    /// Run the call this once.
    Run,
    /// Do not run the call.
    Skip,
    /// Do not run the call, and tell the agent what to do instead.
    RejectAndTellWhatToDoDifferently,
    /// Run the command and add its command prefixes to the command allowlist.
    AllowlistCommands,
    /// Run the MCP tool and add it to the MCP allowlist.
    AllowlistTool,
    /// Keep the edit.
    Accept,
    /// Keep the edit and switch the agent to its default mode.
    SwitchToDefaultAgentMode,
}

/// What the review resolved to (the design's `*ReviewResultType`s); `none` when cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ReviewResultType {
    /// The call ran this once.
    Run,
    /// The call was skipped.
    Skip,
    /// The call was refused, with directions for the agent.
    RejectAndTellWhatToDoDifferently,
    /// The command ran and its prefixes were allowlisted.
    AllowlistCommands,
    /// The MCP tool ran and was allowlisted.
    AllowlistTool,
    /// The edit was kept (also when the agent switched to its default mode).
    Accept,
    /// Nothing was chosen: the review was cancelled.
    None,
}

/// One review, as plain data an extension can store between events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Review {
    /// What the review is about.
    pub kind: ReviewKind,
    /// Where the review is: `none`, `requested` or `done`.
    pub status: ReviewStatus,
    /// Terminal: the command prefixes "allowlist commands" would add.
    #[serde(default)]
    pub candidates_for_allowlist: Vec<String>,
    /// MCP: the tool to run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// MCP: the server the tool belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_name: Option<String>,
    /// The option the user chose, once answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected_option: Option<ReviewOption>,
    /// What the user told the agent to do instead, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_feedback_text: Option<String>,
    /// How the call came to run or not, once done (`user` or `none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_type: Option<ApprovalType>,
}

/// What a review is about, given when it is requested.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReviewRequest {
    /// Terminal: the command prefixes the decision offered (`candidatesForAllowlist`).
    #[serde(default)]
    pub candidates_for_allowlist: Vec<String>,
    /// MCP: the tool's name; "allowlist tool" is offered only with one.
    #[serde(default)]
    pub tool_name: Option<String>,
    /// MCP: the server the tool belongs to.
    #[serde(default)]
    pub server_name: Option<String>,
}

/// The allowlists an answer may extend.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Allowlists {
    /// The command prefixes that run without asking.
    #[serde(default)]
    pub command_allowlist: Vec<String>,
    /// The MCP allowlist's `server:tool` entries.
    #[serde(default)]
    pub mcp_allowed_tools: Vec<String>,
}

/// What answering (or cancelling) a review means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReviewOutcome {
    /// What the review resolved to.
    pub result: ReviewResultType,
    /// Whether the tool call goes ahead.
    pub approved: bool,
    /// The new command allowlist to persist, when the answer extended it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_allowlist: Option<Vec<String>>,
    /// The new MCP allowlist to persist, when the answer extended it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp_allowed_tools: Option<Vec<String>>,
    /// The edit review's "switch to default agent mode": the edit is kept and the mode changes.
    pub switch_to_default_agent_mode: bool,
    /// The user's directions for the agent, with a rejection.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
}

impl ReviewOutcome {
    /// Nothing runs and nothing changes: a cancelled review, or the start of an answer.
    fn declined() -> Self {
        ReviewOutcome {
            result: ReviewResultType::None,
            approved: false,
            command_allowlist: None,
            mcp_allowed_tools: None,
            switch_to_default_agent_mode: false,
            feedback: None,
        }
    }
}

/// An illegal transition or answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ReviewError {
    /// The review was already requested.
    AlreadyRequested,
    /// The review was already answered or cancelled.
    AlreadyDone,
    /// The review was answered or cancelled before it was requested.
    NotRequested,
    /// The chosen option is not one this review shows.
    OptionNotOffered {
        /// The option that was chosen.
        option: ReviewOption,
    },
    /// "Allowlist tool" for an MCP review whose names are not valid entries.
    InvalidTool {
        /// Why the names cannot form an allowlist entry.
        message: String,
    },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::AlreadyRequested => f.write_str("this review was already requested"),
            ReviewError::AlreadyDone => f.write_str("this review was already answered or cancelled"),
            ReviewError::NotRequested => f.write_str("this review was never requested, so it cannot be answered"),
            ReviewError::OptionNotOffered { option } => write!(f, "the option {option:?} is not offered for this review"),
            ReviewError::InvalidTool { message } => write!(f, "the tool cannot be allowlisted: {message}"),
        }
    }
}

impl std::error::Error for ReviewError {}

impl Review {
    /// A review of this kind, not yet requested (status `none`).
    pub fn new(kind: ReviewKind) -> Self {
        Review {
            kind,
            status: ReviewStatus::None,
            candidates_for_allowlist: Vec::new(),
            tool_name: None,
            server_name: None,
            selected_option: None,
            final_feedback_text: None,
            approval_type: None,
        }
    }

    /// `none → requested`, recording what the review is about.
    pub fn request(&self, data: ReviewRequest) -> Result<Review, ReviewError> {
        match self.status {
            ReviewStatus::None => Ok(Review {
                status: ReviewStatus::Requested,
                candidates_for_allowlist: data.candidates_for_allowlist,
                tool_name: data.tool_name,
                server_name: data.server_name,
                ..self.clone()
            }),
            ReviewStatus::Requested => Err(ReviewError::AlreadyRequested),
            ReviewStatus::Done => Err(ReviewError::AlreadyDone),
        }
    }

    /// The options shown, in order.
    pub fn options(&self) -> Vec<ReviewOption> {
        use ReviewOption::*;
        match self.kind {
            ReviewKind::Terminal => {
                let mut o = vec![Run, Skip, RejectAndTellWhatToDoDifferently];
                if !self.candidates_for_allowlist.is_empty() {
                    o.push(AllowlistCommands);
                }
                o
            }
            ReviewKind::Mcp => {
                let mut o = vec![Run, Skip, RejectAndTellWhatToDoDifferently];
                if self.tool_name.as_deref().is_some_and(|t| !t.is_empty()) {
                    o.push(AllowlistTool);
                }
                o
            }
            ReviewKind::Edit => vec![Accept, RejectAndTellWhatToDoDifferently, SwitchToDefaultAgentMode],
        }
    }

    /// The question at the top of the review, naming the command or tool when known.
    pub fn header_text(&self) -> String {
        match self.kind {
            ReviewKind::Terminal if !self.candidates_for_allowlist.is_empty() => {
                format!("Run '{}'?", self.candidates_for_allowlist.join(", "))
            }
            ReviewKind::Terminal => "Run command?".to_owned(),
            ReviewKind::Mcp => {
                match (self.tool_name.as_deref().filter(|t| !t.is_empty()), self.server_name.as_deref().filter(|s| !s.is_empty())) {
                    (Some(tool), Some(server)) => format!("Run {tool} on {server}?"),
                    (Some(tool), None) => format!("Run {tool}?"),
                    (None, _) => "Run MCP tool?".to_owned(),
                }
            }
            ReviewKind::Edit => "Keep this edit?".to_owned(),
        }
    }

    /// `requested → done` with the chosen option; returns the finished review and what it means.
    pub fn answer(
        &self,
        option: ReviewOption,
        feedback: Option<String>,
        lists: &Allowlists,
    ) -> Result<(Review, ReviewOutcome), ReviewError> {
        match self.status {
            ReviewStatus::None => return Err(ReviewError::NotRequested),
            ReviewStatus::Done => return Err(ReviewError::AlreadyDone),
            ReviewStatus::Requested => {}
        }
        if !self.options().contains(&option) {
            return Err(ReviewError::OptionNotOffered { option });
        }
        let mut outcome = ReviewOutcome::declined();
        match option {
            ReviewOption::Run => (outcome.result, outcome.approved) = (ReviewResultType::Run, true),
            ReviewOption::Accept => (outcome.result, outcome.approved) = (ReviewResultType::Accept, true),
            ReviewOption::Skip => outcome.result = ReviewResultType::Skip,
            ReviewOption::RejectAndTellWhatToDoDifferently => {
                outcome.result = ReviewResultType::RejectAndTellWhatToDoDifferently;
                outcome.feedback = feedback.clone();
            }
            ReviewOption::SwitchToDefaultAgentMode => {
                (outcome.result, outcome.approved, outcome.switch_to_default_agent_mode) = (ReviewResultType::Accept, true, true);
            }
            ReviewOption::AllowlistCommands => {
                let mut list = lists.command_allowlist.clone();
                for candidate in &self.candidates_for_allowlist {
                    if !list.contains(candidate) {
                        list.push(candidate.clone());
                    }
                }
                (outcome.result, outcome.approved, outcome.command_allowlist) = (ReviewResultType::AllowlistCommands, true, Some(list));
            }
            ReviewOption::AllowlistTool => {
                let tool = self.tool_name.clone().unwrap_or_default();
                let server = self.server_name.clone().unwrap_or_default();
                let added = mcp::add_tool(&lists.mcp_allowed_tools, &server, &tool);
                if added.status == mcp::AddStatus::Invalid {
                    return Err(ReviewError::InvalidTool { message: added.message.unwrap_or_default() });
                }
                (outcome.result, outcome.approved, outcome.mcp_allowed_tools) = (ReviewResultType::AllowlistTool, true, Some(added.list));
            }
        }
        let done = Review {
            status: ReviewStatus::Done,
            selected_option: Some(option),
            final_feedback_text: outcome.feedback.clone(),
            approval_type: Some(if outcome.approved { ApprovalType::User } else { ApprovalType::None }),
            ..self.clone()
        };
        Ok((done, outcome))
    }

    /// `requested → done` without an answer: the call does not run.
    pub fn cancel(&self) -> Result<(Review, ReviewOutcome), ReviewError> {
        match self.status {
            ReviewStatus::Requested => Ok((
                Review { status: ReviewStatus::Done, approval_type: Some(ApprovalType::None), ..self.clone() },
                ReviewOutcome::declined(),
            )),
            ReviewStatus::None => Err(ReviewError::NotRequested),
            ReviewStatus::Done => Err(ReviewError::AlreadyDone),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ReviewOption::*;
    use super::*;

    fn requested(kind: ReviewKind, candidates: &[&str], tool: Option<&str>, server: Option<&str>) -> Review {
        Review::new(kind)
            .request(ReviewRequest {
                candidates_for_allowlist: candidates.iter().map(|s| s.to_string()).collect(),
                tool_name: tool.map(str::to_owned),
                server_name: server.map(str::to_owned),
            })
            .unwrap()
    }

    #[test]
    fn options_per_kind() {
        assert_eq!(
            requested(ReviewKind::Terminal, &["rm"], None, None).options(),
            [Run, Skip, RejectAndTellWhatToDoDifferently, AllowlistCommands]
        );
        assert_eq!(requested(ReviewKind::Terminal, &[], None, None).options(), [Run, Skip, RejectAndTellWhatToDoDifferently]);
        assert_eq!(
            requested(ReviewKind::Mcp, &[], Some("create_issue"), Some("github")).options(),
            [Run, Skip, RejectAndTellWhatToDoDifferently, AllowlistTool]
        );
        assert_eq!(requested(ReviewKind::Mcp, &[], None, Some("github")).options(), [Run, Skip, RejectAndTellWhatToDoDifferently]);
        assert_eq!(
            requested(ReviewKind::Edit, &[], None, None).options(),
            [Accept, RejectAndTellWhatToDoDifferently, SwitchToDefaultAgentMode]
        );
    }

    #[test]
    fn header_texts() {
        assert_eq!(requested(ReviewKind::Terminal, &["rm", "curl"], None, None).header_text(), "Run 'rm, curl'?");
        assert_eq!(requested(ReviewKind::Terminal, &[], None, None).header_text(), "Run command?");
        assert_eq!(requested(ReviewKind::Mcp, &[], Some("create_issue"), Some("github")).header_text(), "Run create_issue on github?");
        assert_eq!(requested(ReviewKind::Mcp, &[], Some("create_issue"), None).header_text(), "Run create_issue?");
        assert_eq!(requested(ReviewKind::Mcp, &[], None, None).header_text(), "Run MCP tool?");
        assert_eq!(requested(ReviewKind::Edit, &[], None, None).header_text(), "Keep this edit?");
    }

    #[test]
    fn legal_transitions_and_results() {
        let lists = Allowlists::default();
        for (option, result, approved) in [
            (Run, ReviewResultType::Run, true),
            (Skip, ReviewResultType::Skip, false),
            (RejectAndTellWhatToDoDifferently, ReviewResultType::RejectAndTellWhatToDoDifferently, false),
        ] {
            let (done, outcome) = requested(ReviewKind::Terminal, &[], None, None).answer(option, Some("use make".into()), &lists).unwrap();
            assert_eq!(
                (done.status, done.selected_option, outcome.result, outcome.approved),
                (ReviewStatus::Done, Some(option), result, approved)
            );
            assert_eq!(done.approval_type, Some(if approved { ApprovalType::User } else { ApprovalType::None }));
        }
        let (done, outcome) = requested(ReviewKind::Terminal, &[], None, None)
            .answer(RejectAndTellWhatToDoDifferently, Some("use make".into()), &lists)
            .unwrap();
        assert_eq!((done.final_feedback_text.as_deref(), outcome.feedback.as_deref()), (Some("use make"), Some("use make")));
        let (_, outcome) = requested(ReviewKind::Edit, &[], None, None).answer(SwitchToDefaultAgentMode, None, &lists).unwrap();
        assert!(outcome.approved && outcome.switch_to_default_agent_mode && outcome.result == ReviewResultType::Accept);
        let (done, outcome) = requested(ReviewKind::Mcp, &[], Some("t"), Some("s")).cancel().unwrap();
        assert_eq!((done.status, outcome.result, outcome.approved), (ReviewStatus::Done, ReviewResultType::None, false));
    }

    #[test]
    fn illegal_transitions_are_errors() {
        let none = Review::new(ReviewKind::Terminal);
        assert_eq!(none.answer(Run, None, &Allowlists::default()).unwrap_err(), ReviewError::NotRequested);
        assert_eq!(none.cancel().unwrap_err(), ReviewError::NotRequested);
        let req = requested(ReviewKind::Terminal, &[], None, None);
        assert_eq!(req.request(ReviewRequest::default()).unwrap_err(), ReviewError::AlreadyRequested);
        let (done, _) = req.answer(Run, None, &Allowlists::default()).unwrap();
        assert_eq!(done.answer(Run, None, &Allowlists::default()).unwrap_err(), ReviewError::AlreadyDone);
        assert_eq!(done.cancel().unwrap_err(), ReviewError::AlreadyDone);
        assert_eq!(done.request(ReviewRequest::default()).unwrap_err(), ReviewError::AlreadyDone);
        assert_eq!(
            req.answer(AllowlistCommands, None, &Allowlists::default()).unwrap_err(),
            ReviewError::OptionNotOffered { option: AllowlistCommands }
        );
        assert_eq!(req.answer(Accept, None, &Allowlists::default()).unwrap_err(), ReviewError::OptionNotOffered { option: Accept });
    }

    #[test]
    fn allowlisting_commands_appends_without_duplicates() {
        let lists = Allowlists { command_allowlist: vec!["git".into(), "rm".into()], ..Allowlists::default() };
        let (_, outcome) = requested(ReviewKind::Terminal, &["rm", "curl"], None, None).answer(AllowlistCommands, None, &lists).unwrap();
        assert_eq!(outcome.command_allowlist, Some(vec!["git".to_owned(), "rm".to_owned(), "curl".to_owned()]));
        assert!(outcome.approved);
    }

    #[test]
    fn allowlisting_a_tool_uses_the_mcp_insertion() {
        let lists = Allowlists { mcp_allowed_tools: vec!["github:*".into()], ..Allowlists::default() };
        let (_, outcome) =
            requested(ReviewKind::Mcp, &[], Some("create_issue"), Some("github")).answer(AllowlistTool, None, &lists).unwrap();
        assert_eq!(outcome.mcp_allowed_tools, Some(vec!["github:*".to_owned()]), "already covered by the wildcard");
        let (_, outcome) = requested(ReviewKind::Mcp, &[], Some("search"), Some("docs")).answer(AllowlistTool, None, &lists).unwrap();
        assert_eq!(outcome.mcp_allowed_tools, Some(vec!["github:*".to_owned(), "docs:search".to_owned()]));
        let err = requested(ReviewKind::Mcp, &[], Some("bad:name"), Some("docs")).answer(AllowlistTool, None, &lists).unwrap_err();
        assert!(matches!(err, ReviewError::InvalidTool { .. }));
    }
}
