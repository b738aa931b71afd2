//! The control plane: paths whose writes always ask. An agent allowed to edit a workspace must
//! not rewrite what governs it — the editor's and agents' settings (which can switch on
//! auto-approval or start MCP servers), git's hooks and config (which run commands outside any
//! check), shell start-up files and SSH's files. No allow rule, default or run-everything mode
//! lifts this; deny rules still deny.
//!
//! Each entry is a path pattern matched at any depth (`/**/<entry>`), against every spelling a
//! platform reads as the path ([`super::path::any_platform_spelling`]): `.GIT/config`,
//! `.git./config` and `.vscode::$DATA` are protected too (the matching, shared with the secret
//! files, is `sourced_paths`'s). A layer adds entries with
//! `protectedPaths`; a managed layer may lift built-in ones with `unprotectedPaths`.

// The MCP entry's build (no `analysis`) decides no path tool through its bindings: it keeps only
// [`ProtectedPath`], and the linker drops the list.
#![cfg_attr(not(feature = "analysis"), allow(dead_code, unused_imports))]

use super::path::any_platform_spelling;
use super::sourced_paths::{anchored, SourcedList, SourcedPattern};
use super::{LayerKind, LayerSpec};
use serde::Serialize;
use std::sync::OnceLock;

/// A built-in entry: the pattern, why writes to it ask, and where the need was shown.
struct Entry {
    pattern: &'static str,
    why: &'static str,
    source: &'static str,
}

const SHELL_BASH: &str = "bash(1), INVOCATION: the files bash reads at start-up and exit";
const SHELL_ZSH: &str = "zsh(1), STARTUP/SHUTDOWN FILES";
const GIT: &str = "githooks(5), git-config(1) (core.pager, core.fsmonitor, core.sshCommand run commands); Codex keeps .git read-only inside writable roots (codex-rs WritableRoot::read_only_subpaths)";

/// The built-in list. Every entry names its source: an advisory, a CVE, a peer's code or docs.
const BUILT_IN: &[Entry] = &[
    Entry {
        pattern: ".vscode",
        why: "VS Code's workspace settings, tasks and launch configurations run commands and can switch on auto-approval",
        source: "CVE-2025-53773 (an agent wrote chat.tools.autoApprove into .vscode/settings.json)",
    },
    Entry {
        pattern: "*.code-workspace",
        why: "a multi-root workspace file carries the same settings as .vscode/settings.json",
        source: "CVE-2025-53773; VS Code docs, \"Multi-root Workspaces\" (workspace settings in the .code-workspace file)",
    },
    Entry {
        pattern: ".cursor",
        why: "Cursor starts the MCP servers of .cursor/mcp.json and follows .cursor/rules",
        source: "CVE-2025-54135 (CurXecute), CVE-2025-54136 (MCPoison); CVE-2025-59944 (.Cursor/ on a case-insensitive file system)",
    },
    Entry {
        pattern: ".zed",
        why: "Zed's project settings hold its tool permissions",
        source: "Zed docs, \"Project settings\" (.zed/settings.json)",
    },
    Entry {
        pattern: ".claude",
        why: "Claude Code's project settings hold its permissions and hooks that run commands",
        source: "Claude Code docs, \"Settings files\" and \"Hooks\" (.claude/settings.json, .claude/settings.local.json)",
    },
    Entry {
        pattern: ".mcp.json",
        why: "Claude Code starts the MCP servers a project's .mcp.json names",
        source: "Claude Code docs, \"MCP: project scope\" (.mcp.json)",
    },
    Entry {
        pattern: ".codex",
        why: "Codex's project configuration and exec-policy rules",
        source: "Codex docs, \"Configuration\" and \"Exec policy\" (.codex/config.toml, .codex/rules)",
    },
    Entry {
        pattern: ".gemini",
        why: "Gemini CLI's project settings and the .env it loads its own configuration from",
        source: "Gemini CLI docs, \"Configuration\" (.gemini/settings.json, .gemini/.env)",
    },
    Entry {
        pattern: ".roo",
        why: "Roo Code starts the MCP servers of .roo/mcp.json and follows .roo/rules",
        source: "Roo Code docs, \"MCP: project-level configuration\" (.roo/mcp.json)",
    },
    Entry {
        pattern: ".roomodes",
        why: "Roo Code's project modes decide which tools each mode may use",
        source: "Roo Code docs, \"Custom Modes\" (.roomodes)",
    },
    Entry { pattern: ".git", why: "git runs its hooks and the commands its config names outside any check", source: GIT },
    Entry {
        pattern: ".env",
        why: "agents and their tools read settings and keys from it",
        source: "Gemini CLI docs, \"Configuration: .env files\" (loaded for the CLI's own settings)",
    },
    Entry {
        pattern: ".env.*",
        why: "agents and their tools read settings and keys from it",
        source: "Gemini CLI docs, \"Configuration: .env files\"",
    },
    Entry { pattern: ".envrc", why: "direnv runs it when a shell enters the directory", source: "direnv docs, \"Usage\" (.envrc)" },
    Entry { pattern: ".bashrc", why: "bash runs it when an interactive shell starts", source: SHELL_BASH },
    Entry { pattern: ".bash_profile", why: "bash runs it when a login shell starts", source: SHELL_BASH },
    Entry { pattern: ".bash_login", why: "bash runs it when a login shell starts", source: SHELL_BASH },
    Entry { pattern: ".bash_logout", why: "bash runs it when a login shell exits", source: SHELL_BASH },
    Entry { pattern: ".profile", why: "sh and bash run it when a login shell starts", source: SHELL_BASH },
    Entry { pattern: ".zshenv", why: "zsh runs it whenever it starts", source: SHELL_ZSH },
    Entry { pattern: ".zprofile", why: "zsh runs it when a login shell starts", source: SHELL_ZSH },
    Entry { pattern: ".zshrc", why: "zsh runs it when an interactive shell starts", source: SHELL_ZSH },
    Entry { pattern: ".zlogin", why: "zsh runs it when a login shell starts", source: SHELL_ZSH },
    Entry { pattern: ".zlogout", why: "zsh runs it when a login shell exits", source: SHELL_ZSH },
    Entry { pattern: ".config/fish", why: "fish runs config.fish and conf.d when it starts", source: "fish docs, \"Configuration files\"" },
    Entry {
        pattern: ".ssh",
        why: "ssh reads keys, authorized_keys and the commands of ProxyCommand from it",
        source: "ssh(1) FILES, ssh_config(5) ProxyCommand",
    },
    Entry {
        pattern: ".config/zed",
        why: "Zed's user settings hold its tool permissions",
        source: "Zed docs, \"Configuring Zed\" (~/.config/zed/settings.json)",
    },
    Entry {
        pattern: ".config/code/user",
        why: "VS Code's user settings can switch on auto-approval",
        source: "CVE-2025-53773; VS Code docs, \"User and workspace settings\" (Linux location)",
    },
    Entry {
        pattern: "library/application support/code/user",
        why: "VS Code's user settings can switch on auto-approval",
        source: "CVE-2025-53773; VS Code docs, \"User and workspace settings\" (macOS location)",
    },
    Entry {
        pattern: "*.toolgate.json",
        why: "toolgate's own policy files",
        source: "toolgate's JSON Schema file match (docs/presets-lint-schema.md, \"JSON Schema\")",
    },
];

/// The entry that protects a path, for a decision to name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ProtectedPath {
    /// The entry's pattern, as listed.
    pub entry: String,
    /// The layer that added it; absent for a built-in entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub layer: Option<String>,
    /// Why writes to it ask.
    pub why: String,
    /// Where the need for it was shown (advisory, CVE, peer).
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub source: String,
}

/// An entry as a decision reports it.
fn entry(pattern: &str, layer: Option<&str>, why: &str, source: &str) -> ProtectedPath {
    ProtectedPath { entry: pattern.to_owned(), layer: layer.map(str::to_owned), why: why.to_owned(), source: source.to_owned() }
}

/// The built-in entries, their literals in one sieve, so a path is read once to find the few
/// entries whose literal it contains.
fn built_in() -> &'static SourcedList<ProtectedPath> {
    static BUILT: OnceLock<SourcedList<ProtectedPath>> = OnceLock::new();
    BUILT.get_or_init(|| SourcedList::new(BUILT_IN.iter().map(|e| (e.pattern, entry(e.pattern, None, e.why, e.source)))))
}

/// Every built-in entry: pattern, why, source (for the documentation and the settings page).
pub fn built_in_entries() -> Vec<ProtectedPath> {
    built_in().entries().map(|(_, entry)| entry.clone()).collect()
}

/// A policy's protected paths: the built-in list less what a managed layer lifted, plus what
/// its layers added.
#[derive(Debug, Clone, Default)]
pub(crate) struct ProtectedPaths {
    /// Built-in entries lifted by a managed layer, by pattern.
    lifted: Vec<String>,
    added: Vec<(SourcedPattern, ProtectedPath)>,
}

impl ProtectedPaths {
    /// Collects the layers' additions and the managed layers' lifts; a lift from any other layer
    /// is returned as a note, unapplied.
    pub fn of(layers: &[LayerSpec]) -> (Self, Vec<super::Ignored>) {
        let mut paths = ProtectedPaths::default();
        let mut notes = Vec::new();
        for layer in layers {
            for pattern in &layer.protected_paths {
                paths.added.push((SourcedPattern::new(pattern), entry(pattern, Some(&layer.name), "the policy protects it", "")));
            }
            if layer.unprotected_paths.is_empty() {
                continue;
            }
            if layer.kind == LayerKind::Managed && layer.trusted {
                paths.lifted.extend(layer.unprotected_paths.iter().cloned());
            } else {
                notes.push(super::Ignored {
                    layer: layer.name.clone(),
                    tool: None,
                    message: format!(
                        "its unprotectedPaths ({}) were ignored: only a trusted managed layer may lift a protected path",
                        layer.unprotected_paths.join(", ")
                    ),
                });
            }
        }
        (paths, notes)
    }

    /// Whether any of `texts` (a command line's items) may name a protected path: false only
    /// when the policy adds no entry and no ASCII text holds a built-in entry's literal in any
    /// case — then no word of them can, whatever its quoting, and nothing needs to be read.
    pub fn may_protect_any<'t>(&self, mut texts: impl Iterator<Item = &'t str>) -> bool {
        !self.added.is_empty() || texts.any(|text| built_in().may_name(text))
    }

    /// The entry protecting `path`, if one does: any of its spellings, each Unicode form against
    /// the entries' own.
    pub fn protecting(&self, path: &str) -> Option<ProtectedPath> {
        let spelled = any_platform_spelling(path);
        let decomposed = spelled.forms().nth(1).is_some();
        self.protecting_form(spelled.composed(), false)
            .or_else(|| decomposed.then(|| self.protecting_form(spelled.decomposed(), true)).flatten())
    }

    /// [`ProtectedPaths::protecting`] for one form of a path's spelling (`decomposed`: its NFD form).
    fn protecting_form(&self, spelled: &str, decomposed: bool) -> Option<ProtectedPath> {
        // A relative path lies below some directory: the entries match at any depth.
        let anchored = anchored(spelled);
        let spelled = anchored.as_ref();
        let lifted = |e: &ProtectedPath| e.layer.is_none() && self.lifted.iter().any(|l| l.eq_ignore_ascii_case(&e.entry));
        let built_ins = built_in().candidates(spelled).filter(|(_, e)| !lifted(e));
        let added = self.added.iter().filter(|(pattern, _)| pattern.may_meet(spelled, decomposed));
        for (pattern, entry) in built_ins.chain(added) {
            match pattern.meets(spelled, decomposed) {
                Ok(true) => return Some(entry.clone()),
                Ok(false) => {}
                Err(error) => {
                    let mut entry = entry.clone();
                    entry.why = format!("the entry does not compile ({error}), so it protects every path");
                    return Some(entry);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protects(paths: &ProtectedPaths, path: &str) -> Option<String> {
        paths.protecting(path).map(|p| p.entry)
    }

    #[test]
    fn the_control_plane_is_protected_in_every_spelling() {
        let paths = ProtectedPaths::default();
        for (path, entry) in [
            (".vscode/settings.json", ".vscode"),
            ("/work/repo/.vscode/tasks.json", ".vscode"),
            ("app.code-workspace", "*.code-workspace"),
            (".cursor/mcp.json", ".cursor"),
            (".Cursor/mcp.json", ".cursor"),
            (".zed/settings.json", ".zed"),
            (".claude/settings.local.json", ".claude"),
            (".mcp.json", ".mcp.json"),
            (".codex/rules/default.rules", ".codex"),
            (".gemini/.env", ".gemini"),
            (".roo/mcp.json", ".roo"),
            (".roomodes", ".roomodes"),
            (".git/hooks/pre-commit", ".git"),
            (".GIT/config", ".git"),
            (".git./config", ".git"),
            (".git /config", ".git"),
            (r"\\?\C:\repo\.git\hooks\post-checkout", ".git"),
            (r"src\..\.git\config", ".git"),
            (".git", ".git"),
            ("src/../.env", ".env"),
            (".env::$DATA", ".env"),
            (".env.local", ".env.*"),
            ("~/.bashrc", ".bashrc"),
            ("/home/u/.zshrc", ".zshrc"),
            ("~/.config/fish/config.fish", ".config/fish"),
            ("~/.ssh/authorized_keys", ".ssh"),
            ("/home/u/.config/Code/User/settings.json", ".config/code/user"),
            ("team.toolgate.json", "*.toolgate.json"),
        ] {
            assert_eq!(protects(&paths, path).as_deref(), Some(entry), "{path}");
        }
        for path in ["src/main.rs", ".github/workflows/ci.yml", "docs/.vscode.md", ".environment", "git/config", "README.md", ".gitignore"]
        {
            assert_eq!(protects(&paths, path), None, "{path}");
        }
    }

    #[test]
    fn every_built_in_entry_has_a_literal_in_the_sieve() {
        assert!(BUILT_IN.len() <= crate::policy::literal_sieve::CAPACITY);
        for (pattern, entry) in built_in().entries() {
            assert!(pattern.compiles() && !pattern.literal().is_empty(), "{entry:?}");
            assert!(pattern.literal().bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()), "{:?}", pattern.literal());
        }
    }

    #[test]
    fn layers_add_entries_and_only_a_trusted_managed_layer_lifts_them() {
        let layer = |kind, trusted, add: &[&str], lift: &[&str]| LayerSpec {
            name: format!("{kind:?}"),
            kind,
            trusted,
            protected_paths: add.iter().map(|s| (*s).to_owned()).collect(),
            unprotected_paths: lift.iter().map(|s| (*s).to_owned()).collect(),
            ..LayerSpec::default()
        };
        let (paths, notes) = ProtectedPaths::of(&[
            layer(LayerKind::Managed, true, &["deploy/**"], &[".env"]),
            layer(LayerKind::User, true, &["Secrets"], &[".git"]),
            layer(LayerKind::Project, false, &[], &[".vscode"]),
        ]);
        assert_eq!(protects(&paths, "deploy/prod.yml").as_deref(), Some("deploy/**"));
        assert_eq!(protects(&paths, "a/secrets/key").as_deref(), Some("Secrets"));
        assert_eq!(protects(&paths, ".env"), None);
        assert_eq!(protects(&paths, ".env.local").as_deref(), Some(".env.*"));
        assert_eq!(protects(&paths, ".git/config").as_deref(), Some(".git"));
        assert_eq!(protects(&paths, ".vscode/settings.json").as_deref(), Some(".vscode"));
        assert_eq!(notes.len(), 2, "{notes:?}");
        // An entry that does not compile protects every path.
        let (broken, _) = ProtectedPaths::of(&[layer(LayerKind::User, true, &["a["], &[])]);
        assert_eq!(protects(&broken, "src/main.rs").as_deref(), Some("a["));
    }
}
