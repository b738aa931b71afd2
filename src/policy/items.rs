//! A call's *items*: what its rules are matched against, by the tool's input kind. A command line
//! becomes its sub-commands (see [`crate::shell`]); a path is seen as written and normalised; a
//! path pair is both paths; an MCP call is its server and tool; anything else is its input.

use super::catalogue::InputKind;
use super::path::normalize_path;
use super::rules::{RuleRef, Subject};
use crate::shell::{Context, Hazard, HazardKind, RunForm, Shell};
use serde::Serialize;
use std::sync::Arc;

/// In [`ItemVerdict::secret_words`]: the whole path names a secret file.
pub(crate) const WHOLE_PATH: usize = usize::MAX;

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ItemKind {
    /// A simple command of a command line.
    Command,
    /// A file redirection of a command, such as `> out.txt`.
    Redirect,
    /// A path as written.
    Path,
    /// A path with `.` and `..` collapsed, when that differs from how it was written.
    NormalizedPath,
    /// A URL.
    Url,
    /// A search query or pattern.
    Query,
    /// An MCP call: `server:tool`.
    Call,
    /// Opaque input.
    Input,
}

/// What the evaluator saw for one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ItemVerdict {
    /// The item as rules see it.
    pub text: String,
    /// What the item is.
    pub kind: ItemKind,
    /// Where in the command line it was found (top level for anything but commands).
    pub context: Context,
    /// Why no allow rule may cover this item.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub hazards: Vec<Hazard>,
    /// The allow rule that covered it, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "RuleRef", optional))]
    pub allowed_by: Option<Arc<RuleRef>>,
    /// The program that runs, past wrappers and a path to it (see [`crate::shell::SubCommand::program`]).
    #[serde(skip)]
    pub(crate) program: Option<String>,
    /// The command word (unquoted), for commands.
    #[serde(skip)]
    pub(crate) name: Option<String>,
    /// What the command runs beyond its words as written, which deny and confirm rules meet too.
    #[serde(skip)]
    pub(crate) runs_as: Vec<RunForm>,
    /// The words that name a secret file (see [`super::secrets`]): a command's by position (its
    /// command word 0), or [`WHOLE_PATH`] for a path item. An allow rule covers the item only if
    /// it spells each of them out.
    #[serde(skip)]
    pub(crate) secret_words: Vec<usize>,
    /// The words after the command word, unquoted.
    #[serde(skip)]
    pub(crate) args: Vec<String>,
    /// For an MCP call, where its text splits into server and tool (see [`ItemVerdict::pair`]).
    #[serde(skip)]
    pub(crate) pair_split: Option<usize>,
}

impl ItemVerdict {
    fn plain(text: String, kind: ItemKind) -> Self {
        ItemVerdict {
            text,
            kind,
            context: Context::TopLevel,
            hazards: Vec::new(),
            allowed_by: None,
            program: None,
            name: None,
            runs_as: Vec::new(),
            secret_words: Vec::new(),
            args: Vec::new(),
            pair_split: None,
        }
    }

    /// The names of an MCP call: its text up to the split, and after the separator there (the
    /// tool is empty when the text is the server alone). Kept as one string: no copies per call.
    pub(crate) fn pair(&self) -> Option<(&str, &str)> {
        let at = self.pair_split?;
        Some((self.text.get(..at)?, self.text.get(at + 1..).unwrap_or_default()))
    }

    /// What rules are matched against.
    pub(crate) fn subject(&self) -> Subject<'_> {
        Subject {
            text: &self.text,
            pair: self.pair(),
            words: self.name.as_deref().map(|name| (name, self.args.as_slice())),
            guessed_path: false,
        }
    }

    /// The command without its leading assignments (`git log` for `PAGER=x git log`).
    pub(crate) fn without_assignments(&self) -> Option<String> {
        let name = self.name.as_deref()?;
        Some(std::iter::once(name).chain(self.args.iter().map(String::as_str)).collect::<Vec<_>>().join(" "))
    }

    /// The subject of one of the item's forms (what it runs past a wrapper, a path or its
    /// assignments).
    pub(crate) fn form_subject(form: &RunForm) -> Subject<'_> {
        Subject { text: &form.text, pair: None, words: Some((&form.name, form.args.as_slice())), guessed_path: false }
    }

    /// The item's text with its command word (`word` 0) or the argument `word` replaced by a NUL,
    /// which no analysed command holds: a rule that no longer matches it spells that word out.
    pub(crate) fn blinded(&self, word: usize) -> Option<String> {
        let name = self.name.as_deref()?;
        let bare = self.without_assignments()?;
        let assignments = self.text.strip_suffix(bare.as_str())?;
        if word > self.args.len() {
            return None;
        }
        let mut out = String::with_capacity(self.text.len());
        out.push_str(assignments);
        for (i, w) in std::iter::once(name).chain(self.args.iter().map(String::as_str)).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(if i == word { "\u{0}" } else { w });
        }
        Some(out)
    }

    /// Whether every hazard of the item is a leading assignment.
    pub(crate) fn only_assignment_hazards(&self) -> bool {
        !self.hazards.is_empty() && self.hazards.iter().all(|h| h.kind == HazardKind::EnvAssignment)
    }
}

/// The items of one call, plus what stops allow rules for the whole call.
#[derive(Debug, Default)]
pub(crate) struct Items<'i> {
    pub list: Vec<ItemVerdict>,
    /// Extra texts checked against deny and confirm rules only (the raw command lines): the
    /// call's own inputs, borrowed.
    pub also_deny_checked: &'i [String],
    pub cannot_vouch: Option<String>,
    pub has_expansion: bool,
    /// Why a command's program cannot be read from the text, when one cannot (the first such).
    pub unreadable: Option<String>,
    /// The shell of a command line; `Some(Shell::Unknown)` when nothing was analysed.
    pub shell: Option<Shell>,
}

impl Items<'_> {
    /// Whether an item names a secret file (after [`super::command_paths::mark_secrets`]).
    pub(crate) fn names_secret(&self) -> bool {
        self.list.iter().any(|i| !i.secret_words.is_empty())
    }

    /// Command items that name a program (not bare assignments or redirects).
    pub fn commands(&self) -> impl Iterator<Item = &ItemVerdict> {
        self.list.iter().filter(|i| i.kind == ItemKind::Command && i.name.is_some())
    }

    /// Why deny and confirm rules cannot be checked reliably against this call, if they cannot:
    /// the line was not vouched for, its text is not what runs (a substitution or expansion), or
    /// a program's name cannot be read from it.
    pub fn unsure(&self) -> Option<String> {
        if let Some(why) = &self.cannot_vouch {
            return Some(why.clone());
        }
        if self.has_expansion {
            return Some("the command's text is not what runs (a substitution or expansion)".into());
        }
        self.unreadable.clone()
    }
}

/// Why a build without the `shell` feature (the MCP entry's, the settings page's validator) leaves
/// a call of this kind unanalysed, or `None` when it analyses it: such a build never reads a
/// command line, so the evaluator asks (or refuses, where the tool's default refuses) instead of
/// matching rules.
pub(crate) fn unanalysed(kind: InputKind) -> Option<&'static str> {
    (!cfg!(feature = "shell") && matches!(kind, InputKind::Command { .. })).then_some(NOT_ANALYSED)
}

const NOT_ANALYSED: &str =
    "this build of toolgate (its MCP entry, or the settings page's validator) does not analyse command lines, so the call is not checked against rules; toolgate/engine decides command lines";

/// Turns a call's inputs into items by the tool's input kind.
pub(crate) fn of(kind: InputKind, inputs: &[String]) -> Items<'_> {
    let mut items = Items::default();
    match kind {
        // Never used to decide (see `unanalysed`); still nothing an allow rule could vouch for.
        #[cfg(not(feature = "shell"))]
        InputKind::Command { shell } => {
            items.shell = Some(shell);
            items.list.extend(inputs.iter().cloned().map(|i| ItemVerdict::plain(i, ItemKind::Input)));
            items.cannot_vouch = Some(NOT_ANALYSED.to_owned());
        }
        #[cfg(feature = "shell")]
        InputKind::Command { shell } => {
            items.shell = Some(shell);
            for input in inputs {
                // A line that hides characters (even in a comment) is not vouched for: what a
                // person reads of it is not what runs.
                if items.cannot_vouch.is_none() && input.chars().any(|c| crate::visible::hidden(c) && !matches!(c, '\t' | '\n')) {
                    let names = crate::visible::hidden_in(input).join(", ");
                    items.cannot_vouch = Some(format!("the line holds {names}, which a person cannot see or which reorder what is shown"));
                }
                let analysis = crate::shell::analyze_in(shell, input);
                if items.list.is_empty() {
                    // The usual single line: its items in one exact allocation, not a reserve.
                    items.list = Vec::with_capacity(analysis.items.len());
                }
                items.has_expansion |= analysis.has_expansion();
                if items.cannot_vouch.is_none() {
                    items.cannot_vouch = analysis.cannot_vouch.clone();
                }
                if items.unreadable.is_none() {
                    items.unreadable = analysis
                        .items
                        .iter()
                        .flat_map(|i| &i.hazards)
                        .find(|h| h.kind == HazardKind::UnreadableProgram)
                        .map(|h| format!("\"{}\": {}", h.subject, h.why));
                }
                items.list.extend(analysis.items.into_iter().map(|i| ItemVerdict {
                    text: i.text,
                    kind: match i.kind {
                        crate::shell::SubCommandKind::Command => ItemKind::Command,
                        crate::shell::SubCommandKind::Redirect => ItemKind::Redirect,
                    },
                    context: i.context,
                    hazards: i.hazards,
                    allowed_by: None,
                    program: i.program,
                    name: i.name,
                    runs_as: i.runs_as,
                    secret_words: Vec::new(),
                    args: i.args,
                    pair_split: None,
                }));
            }
            items.also_deny_checked = inputs;
        }
        InputKind::Path { .. } | InputKind::PathPair => {
            for input in inputs {
                items.list.push(ItemVerdict::plain(input.clone(), ItemKind::Path));
                let normal = normalize_path(input);
                if normal != *input {
                    items.list.push(ItemVerdict::plain(normal, ItemKind::NormalizedPath));
                }
            }
            if kind == InputKind::PathPair && inputs.len() != 2 {
                items.cannot_vouch = Some(format!("a source and a destination path were expected, got {} path(s)", inputs.len()));
            }
        }
        InputKind::McpCall => match inputs {
            // One `server:tool` string, as MCP entries and Cursor's allowlist write a call: an MCP
            // server or tool name never holds `:` (it separates them: `matchers::mcp_name`), so its
            // one `:` splits it and rules meet the server and the tool. Read as a server alone, a
            // deny rule on `gh:delete_repo` would never meet `"gh:delete_repo"`.
            [call] if call.matches(':').count() == 1 && !call.starts_with(':') && !call.ends_with(':') => {
                let mut item = ItemVerdict::plain(call.clone(), ItemKind::Call);
                item.pair_split = call.find(':');
                items.list = vec![item];
            }
            [server] | [server, _] => {
                let tool = inputs.get(1).map_or("", String::as_str);
                if server.contains(':') || tool.contains(':') {
                    // More than one `:`, or one at an end: no reading of the names is sure.
                    items.cannot_vouch = Some(format!(
                        "an MCP server or tool name never holds ':', which separates them; \"{server}\" and \"{tool}\" cannot be read"
                    ));
                }
                // Joined by hand: `format!` costs more than the rest of an MCP decision's items.
                let mut text = String::with_capacity(server.len() + 1 + tool.len());
                text.push_str(server);
                if !tool.is_empty() {
                    text.push(':');
                    text.push_str(tool);
                }
                let mut item = ItemVerdict::plain(text, ItemKind::Call);
                item.pair_split = Some(server.len());
                // Made with its one item: a push would grow it to four through the growth path.
                items.list = vec![item];
            }
            _ => {
                items.list.extend(inputs.iter().cloned().map(|i| ItemVerdict::plain(i, ItemKind::Input)));
                items.cannot_vouch = Some(format!("an MCP call is a server and a tool, got {} value(s)", inputs.len()));
            }
        },
        InputKind::Url => items.list.extend(inputs.iter().cloned().map(|i| ItemVerdict::plain(i, ItemKind::Url))),
        InputKind::Query => items.list.extend(inputs.iter().cloned().map(|i| ItemVerdict::plain(i, ItemKind::Query))),
        InputKind::Opaque => items.list.extend(inputs.iter().cloned().map(|i| ItemVerdict::plain(i, ItemKind::Input))),
    }
    flag_hidden_characters(&mut items.list);
    items
}

/// An item holding characters a person cannot see, or that reorder what is shown, gets a hazard:
/// no allow rule covers what a person could not have read as it runs.
/// (An MCP or Gasoline call is matched by exact names, which a rule has to spell out character by
/// character; its names are written out wherever they are shown.)
fn flag_hidden_characters(list: &mut [ItemVerdict]) {
    for item in list.iter_mut().filter(|i| i.kind != ItemKind::Call) {
        if !crate::visible::has_hidden(&item.text) {
            continue;
        }
        let names = crate::visible::hidden_in(&item.text).join(", ");
        item.hazards.push(Hazard::new(
            HazardKind::HiddenCharacters,
            &names,
            "holds characters a person cannot see or that reorder what is shown, so what is read is not what runs",
        ));
    }
}
