//! Path normalisation for path tools: `.` and `..` collapsed without touching the filesystem,
//! so `src/../.env` is checked as `.env` as well as as written; and the one spelling every
//! platform's reading of a path comes down to, for the rules that must catch them all.

use super::text_forms;
use std::borrow::Cow;

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

/// A path as the most lenient platform spells it: its composed (NFC) form, and its decomposed
/// (NFD) form where that differs (then the path has letters with marks, which APFS and HFS+ open
/// in either form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spelled<'a> {
    composed: Cow<'a, str>,
    decomposed: Option<String>,
}

impl Spelled<'_> {
    /// The composed form (the only one for a path without letters that decompose).
    pub fn composed(&self) -> &str {
        &self.composed
    }

    /// The decomposed form: the composed one when they are the same.
    pub fn decomposed(&self) -> &str {
        self.decomposed.as_deref().unwrap_or(&self.composed)
    }

    /// Every form: one or two.
    pub fn forms(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.composed()).chain(self.decomposed.as_deref())
    }
}

/// The spellings a path comes down to on the most lenient platform, for deny, confirm and
/// protected-path checks (an allow rule matches only what it names):
/// - full Unicode case folding (case-insensitive file systems: macOS, Windows — `.GIT/config`
///   is `.git/config`, `.ſsh` is `.ssh`; [`text_forms::caseless`]);
/// - the code points HFS+ ignores removed (`.g\u{200C}it` is `.git`; git's CVE-2014-9390 fix);
/// - in both Unicode forms, NFC and NFD, when they differ (APFS and HFS+ open `sécrets`
///   composed or decomposed as one name);
/// - `\` is a separator, and the device prefixes `\\?\`, `\\.\`, `\??\` (with `UNC\`) are
///   dropped; a drive `C:` becomes the first component of an absolute path (`/c:/…`);
/// - an NTFS stream suffix is dropped (`.env::$DATA`, `.env:x` name `.env`);
/// - trailing dots and spaces of a component are dropped (Win32 strips them: `.git./config`,
///   `.git /config`);
/// - then `.` and `..` are collapsed.
///
/// Sources: Microsoft's "Naming Files, Paths, and Namespaces" (trailing dots and spaces,
/// case-insensitivity), "File Streams (Local File Systems)" (`name:stream:$DATA`), git's
/// `is_ntfs_dotgit` and `is_hfs_dotgit` (CVE-2019-1352, CVE-2014-9390), which guard the same
/// spellings of `.git`, and Unicode's CaseFolding.txt.
pub fn any_platform_spelling(raw: &str) -> Spelled<'_> {
    // Most paths have nothing to fold: then only `.` and `..` are collapsed, and a path without
    // them is its own spelling (nothing allocated).
    let trailing = |part: &str| part != "." && part != ".." && part.ends_with(['.', ' ']);
    let plain = !raw.bytes().any(|b| b.is_ascii_uppercase() || b == b'\\' || b == b':' || !b.is_ascii());
    if plain && !raw.starts_with("//") && !raw.starts_with("/??/") && !raw.split('/').any(trailing) {
        let composed = if is_normal(raw) { Cow::Borrowed(raw) } else { Cow::Owned(normalize_path(raw)) };
        return Spelled { composed, decomposed: None };
    }
    fold_everything(raw)
}

/// Whether [`normalize_path`] leaves `raw` as it is: no empty, `.` or `..` part, no trailing `/`.
fn is_normal(raw: &str) -> bool {
    let body = raw.strip_prefix('/').unwrap_or(raw);
    raw == "/" || (!body.is_empty() && body.split('/').all(|part| !matches!(part, "" | "." | "..")))
}

/// [`any_platform_spelling`] without its shortcut.
fn fold_everything(raw: &str) -> Spelled<'static> {
    let mut path = text_forms::caseless(raw).replace('\\', "/");
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
    let decomposed = normalize_path(&parts.join("/"));
    let composed = text_forms::composed(&decomposed);
    let decomposed = (composed != decomposed).then_some(decomposed);
    Spelled { composed: Cow::Owned(composed), decomposed }
}

/// A rule's text (a path pattern, a root) as [`any_platform_spelling`] folds paths, in its
/// composed and (where different) decomposed forms: case folded, the HFS+-ignored code points
/// removed. Separators, prefixes and dots are the pattern's own syntax and stay.
pub fn folded_rule_text(text: &str) -> (String, Option<String>) {
    let decomposed = text_forms::caseless(text);
    let composed = text_forms::composed(&decomposed);
    let decomposed = (composed != decomposed).then_some(decomposed);
    (composed, decomposed)
}

/// How Windows reads a path, for allow rules (which must hold under every platform's reading)
/// and the roots a dialect keeps calls in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowsReading {
    /// As written: nothing in it reads differently.
    Same,
    /// Outside any directory a rule or root can name: another host's share or a device (`\\host\share`,
    /// `//host/share`, `\\?\…`, `\\.\…`, `\??\…`), a drive-relative path (`C:x`, relative to
    /// that drive's current directory), or a DOS device name in any component (`CON`, `NUL`,
    /// `aux.txt`, `COM1`, `LPT1`). Why, for a decision to say.
    Outside(&'static str),
    /// The path with `/` for `\`, each component without its NTFS stream and trailing dots and
    /// spaces, a drive path absolute (`/C:/…`).
    Path(String),
}

/// Reads `raw` as Windows does. Source: Microsoft, "Naming Files, Paths, and Namespaces" (`\` as
/// a separator, UNC names, the `\\?\` and `\\.\` namespaces, drive-relative paths, trailing dots
/// and spaces, the reserved device names and that `NUL.txt` is `NUL`) and "File path formats on
/// Windows systems" (`\??\`, DOS device paths); Claude Code changelog 2.1.216, 2.1.233 and
/// 2.1.234 (UNC paths reach another host and send it the user's NTLM credentials).
pub fn windows_reading(raw: &str) -> WindowsReading {
    let trailing = |part: &str| part != "." && part != ".." && part.ends_with(['.', ' ']);
    let special = raw.contains(['\\', ':']) || raw.starts_with("//") || raw.split('/').any(|part| trailing(part) || is_dos_device(part));
    if !special {
        return WindowsReading::Same;
    }
    let path = raw.replace('\\', "/");
    if path.starts_with("//") || path.starts_with("/??/") {
        return WindowsReading::Outside("a network share or a device path (\\\\host\\share, \\\\?\\, \\\\.\\, \\??\\)");
    }
    let drive = matches!(path.as_bytes(), [letter, b':', ..] if letter.is_ascii_alphabetic());
    if drive && path.as_bytes().get(2) != Some(&b'/') {
        return WindowsReading::Outside("a drive-relative path (C:x), relative to that drive's current directory");
    }
    if path.split('/').any(is_dos_device) {
        return WindowsReading::Outside("a DOS device name (CON, PRN, AUX, NUL, COM1–9, LPT1–9)");
    }
    let mut parts: Vec<&str> = Vec::new();
    for (at, part) in path.split('/').enumerate() {
        if (drive && at == 0) || part == "." || part == ".." {
            parts.push(part);
            continue;
        }
        let stream_cut = part.split(':').next().unwrap_or(part);
        let trimmed = stream_cut.trim_end_matches(['.', ' ']);
        parts.push(if trimmed.is_empty() && !part.is_empty() { "." } else { trimmed });
    }
    let joined = parts.join("/");
    WindowsReading::Path(if drive { format!("/{joined}") } else { joined })
}

/// Whether Windows opens a path component as a device: the reserved names, alone or before an
/// extension, trailing spaces ignored (`NUL.txt` and `con .log` are devices). Source: Microsoft,
/// "Naming Files, Paths, and Namespaces": CON, PRN, AUX, NUL, COM0–COM9, COM¹²³, LPT0–LPT9,
/// LPT¹²³; and `CreateFile`'s `CONIN$`, `CONOUT$`.
fn is_dos_device(part: &str) -> bool {
    // Compared without allocating: every path an allow rule matches passes here.
    let name = part.split('.').next().unwrap_or(part).trim_end_matches(' ');
    let numbered = |prefix: &str| {
        name.get(..3).is_some_and(|p| p.eq_ignore_ascii_case(prefix))
            && name
                .get(3..)
                .is_some_and(|n| matches!(n, "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "\u{B9}" | "\u{B2}" | "\u{B3}"))
    };
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].iter().any(|device| name.eq_ignore_ascii_case(device))
        || numbered("COM")
        || numbered("LPT")
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
            assert_eq!(any_platform_spelling(raw).composed(), one, "{raw}");
        }
    }

    /// Unicode spellings a file system opens as one name: CaseFolding.txt's full folding (long s,
    /// the Kelvin sign), the code points HFS+ ignores (git's CVE-2014-9390 fix), composed and
    /// decomposed letters (both forms are kept, each for the rule's own).
    #[test]
    fn unicode_spellings_come_down_to_one() {
        for (raw, one) in [
            (".\u{17F}sh/authorized_keys", ".ssh/authorized_keys"),
            (".v\u{17F}code/settings.json", ".vscode/settings.json"),
            ("\u{212A}EYS/x", "keys/x"),
            (".g\u{200C}it/hooks/pre-commit", ".git/hooks/pre-commit"),
            ("\u{FEFF}.env", ".env"),
            (".GI\u{200D}T\\config", ".git/config"),
        ] {
            let spelled = any_platform_spelling(raw);
            assert_eq!((spelled.composed(), spelled.decomposed()), (one, one), "{raw}");
        }
        for raw in ["/repo/s\u{E9}crets/a", "/repo/se\u{301}crets/a", "/REPO/S\u{C9}CRETS/a", "/repo/SE\u{301}CRETS/a"] {
            let spelled = any_platform_spelling(raw);
            assert_eq!(spelled.composed(), "/repo/s\u{E9}crets/a", "{raw}");
            assert_eq!(spelled.decomposed(), "/repo/se\u{301}crets/a", "{raw}");
        }
    }

    /// How Windows reads a path: Microsoft's "Naming Files, Paths, and Namespaces".
    #[test]
    fn windows_reads_shares_devices_and_backslashes() {
        use super::{windows_reading, WindowsReading};
        for same in ["src/a.rs", "/repo/src/main.rs", "../x", "a b/c", "con-fig/x", "nulls.txt", "com10"] {
            assert_eq!(windows_reading(same), WindowsReading::Same, "{same}");
        }
        for (raw, read) in [
            ("src/..\\..\\etc\\passwd", "src/../../etc/passwd"),
            ("/repo/src/..\\..\\home\\me\\.aws\\credentials", "/repo/src/../../home/me/.aws/credentials"),
            ("C:\\repo\\x", "/C:/repo/x"),
            ("src/a.txt::$DATA", "src/a.txt"),
            ("src/x. /y", "src/x/y"),
            ("\\x", "/x"),
        ] {
            assert_eq!(windows_reading(raw), WindowsReading::Path(read.to_owned()), "{raw}");
        }
        for outside in [
            "\\\\host\\share\\x.txt",
            "//host/share/x",
            "\\\\?\\C:\\x",
            "\\\\.\\pipe\\x",
            "\\??\\UNC\\attacker.example\\share\\x.txt",
            "C:x",
            "c:",
            "src/CON",
            "src/nul.txt",
            "aux",
            "src/Com1.log",
            "LPT\u{B9}",
            "src/con .txt",
            "CONOUT$",
        ] {
            assert!(matches!(windows_reading(outside), WindowsReading::Outside(_)), "{outside}");
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
            assert!(!super::is_normal(&raw) || super::normalize_path(&raw) == raw, "{raw:?}");
        }
    }

    /// A path already in its one spelling stays as it is: folding twice changes nothing.
    #[test]
    fn the_one_spelling_is_a_fixed_point() {
        let mut next = crate::test_support::random_below(0x9E37_79B9_7F4A_7C15);
        let pieces = [
            ".git", ".GIT.", "a ", "x:y", "C:", "\\", "/", "..", ".", "Env", "::$DATA", "?", "UNC", "\u{17F}", "\u{C9}", "e\u{301}",
            "\u{200C}",
        ];
        for _ in 0..5_000 {
            let raw: String = (0..next(8)).map(|_| pieces[next(pieces.len())]).collect();
            let once = any_platform_spelling(&raw);
            for form in once.forms() {
                assert_eq!(any_platform_spelling(form).composed(), once.composed(), "{raw:?}");
            }
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
