//! Credential and key files. Reading one is covered only by an allow rule that names it — a rule
//! or grant for its directory (`~/.ssh/**`, `^/home/u/`) never covers it — and a prompt about one
//! offers "once" or "deny", never a lasting answer: what a person approves in passing must not
//! become a standing permission to read their keys.
//!
//! Each entry is a path pattern matched at any depth (`/**/<entry>`), against every spelling a
//! platform reads as the path ([`super::path::any_platform_spelling`]), as protected paths are:
//! both lists match through `sourced_paths`.
//! Every entry names where it is shown to hold a secret: a peer's shipped deny or ignore list, or
//! the tool's own documentation.

// The MCP entry's build (no `analysis`) decides no path tool: the list is never read there.
#![cfg_attr(not(feature = "analysis"), allow(dead_code))]

use super::path::any_platform_spelling;
use super::sourced_paths::{anchored, SourcedList};
use std::sync::OnceLock;

/// One kind of secret file: the pattern, what it holds, and where that is shown.
#[derive(Debug)]
pub(crate) struct Secret {
    pub pattern: &'static str,
    pub holds: &'static str,
    pub source: &'static str,
}

const TOB: &str = "trailofbits/claude-code-config settings.json (Read deny list)";
const NAH: &str = "manuelschipper/nah crates/nah-actions/src/paths.rs (credential paths)";
const ZED: &str = "Zed's default `private_files` (crates/settings_content/src/project.rs)";

/// The list. Sorted by nothing in particular; every entry names its source.
const SECRETS: &[Secret] = &[
    Secret { pattern: ".env", holds: "an application's secrets", source: "Gemini CLI SECRET_FILES (packages/core/src/services/sandboxManager.ts); Claude Code docs' example deny Read(./.env); Zed's default private_files" },
    Secret { pattern: ".env.*", holds: "an application's secrets", source: "Gemini CLI SECRET_FILES; Claude Code docs' example deny Read(./.env.*)" },
    Secret { pattern: ".ssh/**", holds: "SSH private keys and host configuration", source: TOB },
    Secret { pattern: ".aws/**", holds: "AWS keys and session tokens", source: TOB },
    Secret { pattern: ".config/gcloud/**", holds: "Google Cloud credentials and tokens", source: NAH },
    Secret { pattern: ".azure/**", holds: "Azure CLI tokens", source: TOB },
    Secret { pattern: ".kube/config", holds: "Kubernetes cluster credentials", source: TOB },
    Secret { pattern: "*kubeconfig*", holds: "Kubernetes cluster credentials", source: NAH },
    Secret { pattern: ".docker/config.json", holds: "container registry credentials", source: TOB },
    Secret { pattern: ".config/containers/auth.json", holds: "container registry credentials", source: NAH },
    Secret { pattern: ".config/gh/hosts.yml", holds: "GitHub CLI tokens", source: TOB },
    Secret { pattern: ".config/glab-cli/config.yml", holds: "GitLab CLI tokens", source: "Claude Code changelog 2.1.232 (glab gets the same credential-path protection as gh)" },
    Secret { pattern: ".git-credentials", holds: "git HTTPS credentials", source: TOB },
    Secret { pattern: ".config/git/credentials", holds: "git HTTPS credentials", source: NAH },
    Secret { pattern: ".netrc", holds: "HTTP and FTP credentials", source: NAH },
    Secret { pattern: "_netrc", holds: "HTTP and FTP credentials (Windows)", source: "curl(1) --netrc: _netrc on Windows" },
    Secret { pattern: ".npmrc", holds: "npm auth tokens", source: TOB },
    Secret { pattern: ".pypirc", holds: "PyPI tokens", source: TOB },
    Secret { pattern: ".config/pypoetry/auth.toml", holds: "Poetry repository credentials", source: NAH },
    Secret { pattern: ".gem/credentials", holds: "RubyGems API key", source: TOB },
    Secret { pattern: ".cargo/credentials", holds: "crates.io token", source: NAH },
    Secret { pattern: ".cargo/credentials.toml", holds: "crates.io token", source: NAH },
    Secret { pattern: ".terraform.d/credentials.tfrc.json", holds: "Terraform Cloud token", source: NAH },
    Secret { pattern: ".terraformrc", holds: "Terraform Cloud token", source: NAH },
    Secret { pattern: ".vault-token", holds: "HashiCorp Vault token", source: "Vault docs, \"Token helper\" (~/.vault-token)" },
    Secret { pattern: ".gnupg/**", holds: "GPG private keys", source: TOB },
    Secret { pattern: ".password-store/**", holds: "pass(1)'s password store", source: "pass(1): the store is ~/.password-store" },
    Secret { pattern: "library/keychains/**", holds: "macOS keychains", source: TOB },
    Secret { pattern: ".pgpass", holds: "PostgreSQL passwords", source: NAH },
    Secret { pattern: ".boto", holds: "boto cloud credentials", source: NAH },
    Secret { pattern: ".my.cnf", holds: "MySQL client passwords", source: "MySQL docs, \"Option files\" (password in ~/.my.cnf)" },
    Secret { pattern: "*.pem", holds: "private keys and certificates", source: ZED },
    Secret { pattern: "*.key", holds: "private keys", source: ZED },
    Secret { pattern: "*.p12", holds: "PKCS#12 key bundles", source: "gitleaks config/gitleaks.toml, rule pkcs12-file" },
    Secret { pattern: "*.pfx", holds: "PKCS#12 key bundles", source: "gitleaks config/gitleaks.toml, rule pkcs12-file" },
    Secret { pattern: "*.jks", holds: "Java keystores", source: "Continue core/indexing/ignore.ts DEFAULT_SECURITY_IGNORE_FILETYPES" },
    Secret { pattern: "*.keystore", holds: "keystores", source: "Continue core/indexing/ignore.ts DEFAULT_SECURITY_IGNORE_FILETYPES" },
    Secret { pattern: "terraform.tfstate", holds: "Terraform state, with the secrets of what it manages", source: NAH },
];

/// The list compiled: each entry's pattern and its literal in one sieve.
fn list() -> &'static SourcedList<&'static Secret> {
    static LIST: OnceLock<SourcedList<&'static Secret>> = OnceLock::new();
    LIST.get_or_init(|| SourcedList::new(SECRETS.iter().map(|secret| (secret.pattern, secret))))
}

/// Whether `text` (a path or a whole command) may name a secret file: false only when it is ASCII
/// and holds no entry's literal in any case, so nothing in it can, whatever its spelling.
pub(crate) fn may_name_secret(text: &str) -> bool {
    list().may_name(text)
}

/// The secret `path` names, in any spelling a platform reads as it (each Unicode form of it: the
/// entries are ASCII, so one form of theirs meets both); `None` for other paths.
pub(crate) fn secret(path: &str) -> Option<&'static Secret> {
    let spelled = any_platform_spelling(path);
    let found = spelled.forms().find_map(secret_in_form);
    found
}

fn secret_in_form(form: &str) -> Option<&'static Secret> {
    let anchored = anchored(form);
    // An entry that does not compile names every path a secret (fail closed).
    list().candidates(&anchored).find(|(pattern, _)| pattern.meets(&anchored, false) != Ok(false)).map(|(_, secret)| *secret)
}

/// `path` with its last component replaced by a NUL, which no real path holds: a rule that still
/// matches it is about the directory, not about the file.
pub(crate) fn blinded_file(path: &str) -> String {
    let cut = path.trim_end_matches(['/', '\\']);
    match cut.rfind(['/', '\\']) {
        Some(at) => format!("{}\u{0}", cut.get(..=at).unwrap_or_default()),
        None => "\u{0}".to_owned(),
    }
}

/// Every entry: pattern, what it holds, where that is shown (for the documentation).
pub fn secret_entries() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    SECRETS.iter().map(|s| (s.pattern, s.holds, s.source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_files_are_secrets_in_every_spelling() {
        for path in [
            "/home/u/.ssh/id_rsa",
            "~/.ssh/id_ed25519",
            "/home/u/.aws/credentials",
            "/home/u/.netrc",
            "C:\\Users\\u\\.netrc",
            ".env",
            ".env.production",
            "/repo/.ENV",
            "server.pem",
            "/home/u/.kube/config",
            "/home/u/.docker/config.json",
            "/home/u/.config/gh/hosts.yml",
            "/home/u/.gnupg/private-keys-v1.d/x.key",
            "/Users/u/Library/Keychains/login.keychain-db",
        ] {
            assert!(secret(path).is_some(), "{path}");
        }
        for path in ["src/main.rs", "README.md", "/home/u/.bashrc", "/home/u/notes.txt", ".envrc", "environment.yml", "keys.rs"] {
            assert!(secret(path).is_none(), "{path}");
        }
    }

    #[test]
    fn the_sieve_finds_what_a_scan_finds() {
        let list = list();
        assert!(list.entries().all(|(pattern, _)| pattern.compiles()), "every entry compiles");
        let paths = ["/a/.ssh/x", "/a/b.pem", "/a/.env.local", "/x/terraform.tfstate", "/x/y", "/a/my.kubeconfig.yaml"];
        for path in paths {
            let spelled = any_platform_spelling(path);
            let scanned =
                list.entries().find(|(pattern, _)| pattern.meets(spelled.composed(), false) == Ok(true)).map(|(_, secret)| secret.pattern);
            assert_eq!(secret(path).map(|s| s.pattern), scanned, "{path}");
        }
    }

    /// What `secret` relies on: an ASCII entry is the same in both Unicode forms and folds to its
    /// lower case; a relative one matches at any depth.
    #[test]
    fn every_entry_is_ascii_and_relative() {
        for secret in SECRETS {
            assert!(secret.pattern.is_ascii() && !secret.pattern.starts_with('/'), "{secret:?}");
        }
    }

    #[test]
    fn a_blinded_file_keeps_its_directory() {
        assert_eq!(blinded_file("/home/u/.ssh/id_rsa"), "/home/u/.ssh/\u{0}");
        assert_eq!(blinded_file(".env"), "\u{0}");
        assert_eq!(blinded_file("C:\\u\\.netrc"), "C:\\u\\\u{0}");
    }
}
