//! Path normalisation for path tools: `.` and `..` collapsed without touching the filesystem,
//! so `src/../.env` is checked as `.env` as well as as written; and the one spelling every
//! platform's reading of a path comes down to, for the rules that must catch them all.

/// Collapses `.` and `..` segments; keeps a leading `/`; keeps `..` that climb above a relative start.
pub fn normalize_path(raw: &str) -> String {
    let absolute = raw.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else if joined.is_empty() {
        ".".to_owned()
    } else {
        joined
    }
}

/// Windows' device and long-path prefixes, lower-cased and with `/` for `\\`: what follows them
/// is an ordinary path (`\\?\C:\x`) or, after `unc/`, a share (`\\?\UNC\server\share`).
/// Source: Microsoft, "Naming Files, Paths, and Namespaces" (Win32 file and device namespaces)
/// and "File path formats on Windows systems" (DOS device paths, `\??\`).
const DEVICE_PREFIXES: [(&str, &str); 6] =
    [("//?/unc/", "//"), ("//./unc/", "//"), ("/??/unc/", "//"), ("//?/", ""), ("//./", ""), ("/??/", "")];

/// The spelling a path comes down to on the most lenient platform, for deny, confirm and
/// protected-path checks (an allow rule matches only what it names):
/// - lower case (case-insensitive file systems: macOS, Windows — `.GIT/config` is `.git/config`);
/// - `\` is a separator, and the device prefixes `\\?\`, `\\.\`, `\??\` (with `UNC\`) are
///   dropped; a drive `C:` becomes the first component of an absolute path (`/c:/…`);
/// - an NTFS stream suffix is dropped (`.env::$DATA`, `.env:x` name `.env`);
/// - trailing dots and spaces of a component are dropped (Win32 strips them: `.git./config`,
///   `.git /config`);
/// - then `.` and `..` are collapsed.
///
/// Sources: Microsoft's "Naming Files, Paths, and Namespaces" (trailing dots and spaces,
/// case-insensitivity), "File Streams (Local File Systems)" (`name:stream:$DATA`), and git's
/// `is_ntfs_dotgit` (CVE-2019-1352, CVE-2014-9390), which guards the same spellings of `.git`.
pub fn any_platform_spelling(raw: &str) -> String {
    // Most paths have nothing to fold: then only `.` and `..` are collapsed.
    let trailing = |part: &str| part != "." && part != ".." && part.ends_with(['.', ' ']);
    let plain = !raw.bytes().any(|b| b.is_ascii_uppercase() || b == b'\\' || b == b':' || !b.is_ascii());
    if plain && !raw.starts_with("//") && !raw.starts_with("/??/") && !raw.split('/').any(trailing) {
        return normalize_path(raw);
    }
    fold_everything(raw)
}

/// [`any_platform_spelling`] without its shortcut.
fn fold_everything(raw: &str) -> String {
    let mut path = raw.to_lowercase().replace('\\', "/");
    if let Some((prefix, with)) = DEVICE_PREFIXES.iter().find(|(prefix, _)| path.starts_with(prefix)) {
        path = format!("{with}{}", path.get(prefix.len()..).unwrap_or_default());
    }
    // A drive (`c:`) starts an absolute path: `/c:/users/…`.
    if matches!(path.as_bytes(), [letter, b':'] | [letter, b':', b'/', ..] if letter.is_ascii_alphabetic()) {
        path.insert(0, '/');
    }
    let mut parts: Vec<&str> = Vec::new();
    for (at, part) in path.split('/').enumerate() {
        let drive = at == 1 && path.starts_with('/') && matches!(part.as_bytes(), [letter, b':'] if letter.is_ascii_alphabetic());
        if drive || part == "." || part == ".." {
            parts.push(part);
            continue;
        }
        let stream_cut = part.split(':').next().unwrap_or(part);
        let trimmed = stream_cut.trim_end_matches(['.', ' ']);
        parts.push(if trimmed.is_empty() { part } else { trimmed });
    }
    let joined = parts.join("/");
    normalize_path(&joined)
}

#[cfg(test)]
mod tests {
    use super::{any_platform_spelling, normalize_path};

    /// Each spelling is one a platform reads as the path on the right (see the sources on
    /// [`any_platform_spelling`]).
    #[test]
    fn every_platform_spelling_comes_down_to_one() {
        for (raw, one) in [
            (".GIT/config", ".git/config"),
            (".git./config", ".git/config"),
            (".git /config", ".git/config"),
            (".git. . /config", ".git/config"),
            (".env::$DATA", ".env"),
            (".env:secret:$DATA", ".env"),
            ("src\\..\\.env", ".env"),
            ("C:\\Users\\me\\.ssh\\id_rsa", "/c:/users/me/.ssh/id_rsa"),
            ("\\\\?\\C:\\repo\\.git\\hooks\\pre-commit", "/c:/repo/.git/hooks/pre-commit"),
            ("\\\\.\\C:\\repo\\.vscode\\settings.json", "/c:/repo/.vscode/settings.json"),
            ("\\??\\C:\\repo\\.env", "/c:/repo/.env"),
            ("\\\\?\\UNC\\server\\share\\.git\\config", "/server/share/.git/config"),
            ("\\\\server\\share\\.env", "/server/share/.env"),
            ("/home/u/.SSH/id_rsa", "/home/u/.ssh/id_rsa"),
            ("./a/../.Git./HOOKS", ".git/hooks"),
            ("...", "..."),
            ("a/./b", "a/b"),
        ] {
            assert_eq!(any_platform_spelling(raw), one, "{raw}");
        }
    }

    /// The shortcut for paths with nothing to fold gives what the whole fold gives.
    #[test]
    fn the_shortcut_agrees_with_the_whole_fold() {
        let mut next = crate::test_support::random_below(0xF01D_0002);
        let pieces = ["a", "/", "//", ".", "..", "?", "x.", "b ", "c:", "D", "\\", "é", "unc"];
        for _ in 0..20_000 {
            let raw: String = (0..1 + next(7)).map(|_| pieces[next(pieces.len())]).collect();
            assert_eq!(any_platform_spelling(&raw), super::fold_everything(&raw), "{raw:?}");
        }
    }

    /// A path already in its one spelling stays as it is: folding twice changes nothing.
    #[test]
    fn the_one_spelling_is_a_fixed_point() {
        let mut next = crate::test_support::random_below(0x9E37_79B9_7F4A_7C15);
        let pieces = [".git", ".GIT.", "a ", "x:y", "C:", "\\", "/", "..", ".", "Env", "::$DATA", "?", "UNC"];
        for _ in 0..5_000 {
            let raw: String = (0..next(8)).map(|_| pieces[next(pieces.len())]).collect();
            let once = any_platform_spelling(&raw);
            assert_eq!(any_platform_spelling(&once), once, "{raw:?}");
        }
    }

    #[test]
    fn collapses_dots() {
        for (raw, normal) in [
            ("src/../.env", ".env"),
            ("./src/./main.rs", "src/main.rs"),
            ("/a/b/../../etc/passwd", "/etc/passwd"),
            ("/../../etc", "/etc"),
            ("../x", "../x"),
            ("a/../../b", "../b"),
            ("a/..", "."),
            ("/", "/"),
            ("a//b/", "a/b"),
        ] {
            assert_eq!(normalize_path(raw), normal, "{raw}");
        }
    }
}
