//! Denials no setting can lift. The structural check ([`crate::shell::catastrophic_rm`]) reads
//! each item's parsed words, and what it runs past wrappers; Zed's own patterns run on the raw
//! text where the analysis cannot vouch for what runs, so a line that does not parse is still
//! caught, while `echo "rm -rf /"` (words the line only prints) is not mistaken for a removal.

#[cfg(feature = "analysis")]
use super::items::ItemVerdict;
#[cfg(feature = "analysis")]
use crate::shell::catastrophic_rm;
#[cfg(feature = "analysis")]
use regex_lite::Regex;
#[cfg(feature = "analysis")]
use std::sync::OnceLock;

pub(crate) const MESSAGE: &str =
    "Blocked by built-in security rule. This operation is considered too harmful to be allowed, and cannot be overridden by settings.";

/// Zed's hard-coded terminal patterns: removing `/`, `~`, `$HOME`, `.` or `..` with any flags.
#[cfg(feature = "analysis")]
fn zed_patterns() -> Option<&'static [Regex]> {
    static PATTERNS: OnceLock<Option<Vec<Regex>>> = OnceLock::new();
    PATTERNS
        .get_or_init(|| {
            const FLAGS: &str = r"(--[a-zA-Z0-9][-a-zA-Z0-9_]*(=[^\s]*)?\s+|-[a-zA-Z]+\s+)*";
            const TRAILING: &str = r"(\s+--[a-zA-Z0-9][-a-zA-Z0-9_]*(=[^\s]*)?|\s+-[a-zA-Z]+)*\s*";
            [r"/\*?", r"~/?\*?", r"(\$HOME|\$\{HOME\})/?(\*)?", r"\./?\*?", r"\.\./?\*?"]
                .iter()
                .map(|target| {
                    regex_lite::RegexBuilder::new(&format!(r"\brm\s+{FLAGS}(--\s+)?{target}{TRAILING}$"))
                        .case_insensitive(true)
                        .build()
                        .ok()
                })
                .collect()
        })
        .as_deref()
}

/// What a hard-coded denial matched.
#[cfg(feature = "analysis")]
pub(crate) struct HardDenial {
    pub item: String,
    pub detail: String,
}

/// The first hard-coded denial in a command line: `inputs` are the raw lines to search with Zed's
/// patterns (none when the analysis vouches for the line), `items` its sub-commands.
#[cfg(feature = "analysis")]
pub(crate) fn check(inputs: &[String], items: &[ItemVerdict]) -> Option<HardDenial> {
    for item in items {
        if let Some(name) = &item.name {
            if let Some(hit) = catastrophic_rm(name, &item.args) {
                return Some(HardDenial {
                    item: item.text.clone(),
                    detail: format!("removes {} (operand \"{}\")", hit.target, hit.operand),
                });
            }
        }
    }
    // Fail closed if the built-in patterns were ever unusable.
    let Some(patterns) = zed_patterns() else {
        return Some(HardDenial { item: inputs.join("\n"), detail: "the built-in patterns are unavailable".into() });
    };
    // Every built-in pattern needs the word `rm`: only texts containing it are searched.
    inputs
        .iter()
        .map(String::as_str)
        .filter(|text| has_rm(text))
        .find(|text| patterns.iter().any(|p| p.is_match(text)))
        .map(|text| HardDenial { item: text.to_owned(), detail: "matches a built-in rm rule".into() })
}

/// Whether `text` holds `rm` in any case. Only `R` and `r` (`M` and `m`) have that byte once
/// bit 5 is set, so one OR and one comparison per byte answer what a case-insensitive
/// comparison of each pair of bytes would.
#[cfg(feature = "analysis")]
fn has_rm(text: &str) -> bool {
    text.as_bytes().windows(2).any(|pair| matches!(pair, [r, m] if r | 0x20 == b'r' && m | 0x20 == b'm'))
}

#[cfg(all(test, feature = "analysis"))]
mod tests {
    use super::has_rm;

    /// The byte test against the case-insensitive comparison of every pair of bytes.
    #[test]
    fn has_rm_is_a_case_insensitive_search() {
        let alphabet = ['r', 'R', 'm', 'M', 'R', '2', '-', ' ', 'é', 'Ò', 'ò', 'ı', '\u{2d2}'];
        for text in crate::test_support::random_strings(&alphabet, 20_000, 8, 0x2b5e_7c1d) {
            let plain = text.as_bytes().windows(2).any(|w| w.eq_ignore_ascii_case(b"rm"));
            assert_eq!(has_rm(&text), plain, "{text:?}");
        }
    }
}
