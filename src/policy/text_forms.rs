//! The readings of text that path and domain rules compare in: Unicode normalization (NFC and
//! NFD), full case folding, the code points HFS+ ignores, and the WHATWG URL Standard's host
//! parser.
//!
//! Where the Unicode data comes from depends on the build. Natively (tests, benches, fuzzing)
//! from the `icu_normalizer` and `url` crates; in a wasm build from the JavaScript runtime the
//! module runs in, its `String.prototype.normalize` and `URL` (ICU, and Node's or the browser's
//! WHATWG URL parser). Those crates' Unicode tables would add 28 KB (NFC and NFD) and 63 KB (the
//! URL parser with IDNA) gzipped to each of the engine and tools modules — past the package's
//! 1.5 MB budget — while the runtime already carries them. Both sides implement the same
//! standards, and the bypass table is replayed through both (`tests/bypasses.rs` natively,
//! `tests/js/bypasses.test.mjs` through the package). Only text that needs it goes there: an
//! ASCII path is never normalised, a plain host name never parsed.
//!
//! Case folding is toolgate's own, the same in every build: `char::to_lowercase` (the standard
//! library's tables, in every build already) and the entries of Unicode's CaseFolding.txt where
//! full folding differs from lowercasing ([`FOLDS_BEYOND_LOWERCASE`]); a test compares it with
//! ICU4X's full case folding for every code point.

/// The code points HFS+ ignores when it compares names, so `.g\u{200C}it` opens `.git`: zero-width
/// non-joiner and joiner, the directional marks and embeddings, the deprecated format
/// characters, the byte-order mark. Source: git's `is_hfs_dotgit` (`utf8.c`, the fix for
/// CVE-2014-9390), which skips exactly these when it looks for `.git`; Apple's Technical Note
/// TN1150, "Unicode Subtleties" (ignorable Unicode characters).
pub fn is_hfs_ignorable(c: char) -> bool {
    matches!(c, '\u{200C}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{206A}'..='\u{206F}' | '\u{FEFF}')
}

/// Full case folding (CaseFolding.txt, statuses C and F) where it differs from
/// `char::to_lowercase`, as the lowercase of the folded text: long s (U+017F) is `s`, `ß` is
/// `ss`, final sigma is `σ`, the Greek symbol forms fold to their letters, the ligatures to their
/// letters, and Cherokee, which folds to capitals, lowercase. Sorted by code point. Source:
/// Unicode 17.0, CaseFolding.txt; generated with ICU4X's `CaseMapper::fold_string`, and checked
/// against it for every code point (`the_fold_is_unicode_full_case_folding`).
pub const FOLDS_BEYOND_LOWERCASE: [(char, &str); 146] = [
    ('\u{B5}', "\u{3BC}"),
    ('\u{DF}', "\u{73}\u{73}"),
    ('\u{149}', "\u{2BC}\u{6E}"),
    ('\u{17F}', "\u{73}"),
    ('\u{1F0}', "\u{6A}\u{30C}"),
    ('\u{345}', "\u{3B9}"),
    ('\u{390}', "\u{3B9}\u{308}\u{301}"),
    ('\u{3B0}', "\u{3C5}\u{308}\u{301}"),
    ('\u{3C2}', "\u{3C3}"),
    ('\u{3D0}', "\u{3B2}"),
    ('\u{3D1}', "\u{3B8}"),
    ('\u{3D5}', "\u{3C6}"),
    ('\u{3D6}', "\u{3C0}"),
    ('\u{3F0}', "\u{3BA}"),
    ('\u{3F1}', "\u{3C1}"),
    ('\u{3F5}', "\u{3B5}"),
    ('\u{587}', "\u{565}\u{582}"),
    ('\u{1C80}', "\u{432}"),
    ('\u{1C81}', "\u{434}"),
    ('\u{1C82}', "\u{43E}"),
    ('\u{1C83}', "\u{441}"),
    ('\u{1C84}', "\u{442}"),
    ('\u{1C85}', "\u{442}"),
    ('\u{1C86}', "\u{44A}"),
    ('\u{1C87}', "\u{463}"),
    ('\u{1C88}', "\u{A64B}"),
    ('\u{1E96}', "\u{68}\u{331}"),
    ('\u{1E97}', "\u{74}\u{308}"),
    ('\u{1E98}', "\u{77}\u{30A}"),
    ('\u{1E99}', "\u{79}\u{30A}"),
    ('\u{1E9A}', "\u{61}\u{2BE}"),
    ('\u{1E9B}', "\u{1E61}"),
    ('\u{1E9E}', "\u{73}\u{73}"),
    ('\u{1F50}', "\u{3C5}\u{313}"),
    ('\u{1F52}', "\u{3C5}\u{313}\u{300}"),
    ('\u{1F54}', "\u{3C5}\u{313}\u{301}"),
    ('\u{1F56}', "\u{3C5}\u{313}\u{342}"),
    ('\u{1F80}', "\u{1F00}\u{3B9}"),
    ('\u{1F81}', "\u{1F01}\u{3B9}"),
    ('\u{1F82}', "\u{1F02}\u{3B9}"),
    ('\u{1F83}', "\u{1F03}\u{3B9}"),
    ('\u{1F84}', "\u{1F04}\u{3B9}"),
    ('\u{1F85}', "\u{1F05}\u{3B9}"),
    ('\u{1F86}', "\u{1F06}\u{3B9}"),
    ('\u{1F87}', "\u{1F07}\u{3B9}"),
    ('\u{1F88}', "\u{1F00}\u{3B9}"),
    ('\u{1F89}', "\u{1F01}\u{3B9}"),
    ('\u{1F8A}', "\u{1F02}\u{3B9}"),
    ('\u{1F8B}', "\u{1F03}\u{3B9}"),
    ('\u{1F8C}', "\u{1F04}\u{3B9}"),
    ('\u{1F8D}', "\u{1F05}\u{3B9}"),
    ('\u{1F8E}', "\u{1F06}\u{3B9}"),
    ('\u{1F8F}', "\u{1F07}\u{3B9}"),
    ('\u{1F90}', "\u{1F20}\u{3B9}"),
    ('\u{1F91}', "\u{1F21}\u{3B9}"),
    ('\u{1F92}', "\u{1F22}\u{3B9}"),
    ('\u{1F93}', "\u{1F23}\u{3B9}"),
    ('\u{1F94}', "\u{1F24}\u{3B9}"),
    ('\u{1F95}', "\u{1F25}\u{3B9}"),
    ('\u{1F96}', "\u{1F26}\u{3B9}"),
    ('\u{1F97}', "\u{1F27}\u{3B9}"),
    ('\u{1F98}', "\u{1F20}\u{3B9}"),
    ('\u{1F99}', "\u{1F21}\u{3B9}"),
    ('\u{1F9A}', "\u{1F22}\u{3B9}"),
    ('\u{1F9B}', "\u{1F23}\u{3B9}"),
    ('\u{1F9C}', "\u{1F24}\u{3B9}"),
    ('\u{1F9D}', "\u{1F25}\u{3B9}"),
    ('\u{1F9E}', "\u{1F26}\u{3B9}"),
    ('\u{1F9F}', "\u{1F27}\u{3B9}"),
    ('\u{1FA0}', "\u{1F60}\u{3B9}"),
    ('\u{1FA1}', "\u{1F61}\u{3B9}"),
    ('\u{1FA2}', "\u{1F62}\u{3B9}"),
    ('\u{1FA3}', "\u{1F63}\u{3B9}"),
    ('\u{1FA4}', "\u{1F64}\u{3B9}"),
    ('\u{1FA5}', "\u{1F65}\u{3B9}"),
    ('\u{1FA6}', "\u{1F66}\u{3B9}"),
    ('\u{1FA7}', "\u{1F67}\u{3B9}"),
    ('\u{1FA8}', "\u{1F60}\u{3B9}"),
    ('\u{1FA9}', "\u{1F61}\u{3B9}"),
    ('\u{1FAA}', "\u{1F62}\u{3B9}"),
    ('\u{1FAB}', "\u{1F63}\u{3B9}"),
    ('\u{1FAC}', "\u{1F64}\u{3B9}"),
    ('\u{1FAD}', "\u{1F65}\u{3B9}"),
    ('\u{1FAE}', "\u{1F66}\u{3B9}"),
    ('\u{1FAF}', "\u{1F67}\u{3B9}"),
    ('\u{1FB2}', "\u{1F70}\u{3B9}"),
    ('\u{1FB3}', "\u{3B1}\u{3B9}"),
    ('\u{1FB4}', "\u{3AC}\u{3B9}"),
    ('\u{1FB6}', "\u{3B1}\u{342}"),
    ('\u{1FB7}', "\u{3B1}\u{342}\u{3B9}"),
    ('\u{1FBC}', "\u{3B1}\u{3B9}"),
    ('\u{1FBE}', "\u{3B9}"),
    ('\u{1FC2}', "\u{1F74}\u{3B9}"),
    ('\u{1FC3}', "\u{3B7}\u{3B9}"),
    ('\u{1FC4}', "\u{3AE}\u{3B9}"),
    ('\u{1FC6}', "\u{3B7}\u{342}"),
    ('\u{1FC7}', "\u{3B7}\u{342}\u{3B9}"),
    ('\u{1FCC}', "\u{3B7}\u{3B9}"),
    ('\u{1FD2}', "\u{3B9}\u{308}\u{300}"),
    ('\u{1FD3}', "\u{3B9}\u{308}\u{301}"),
    ('\u{1FD6}', "\u{3B9}\u{342}"),
    ('\u{1FD7}', "\u{3B9}\u{308}\u{342}"),
    ('\u{1FE2}', "\u{3C5}\u{308}\u{300}"),
    ('\u{1FE3}', "\u{3C5}\u{308}\u{301}"),
    ('\u{1FE4}', "\u{3C1}\u{313}"),
    ('\u{1FE6}', "\u{3C5}\u{342}"),
    ('\u{1FE7}', "\u{3C5}\u{308}\u{342}"),
    ('\u{1FF2}', "\u{1F7C}\u{3B9}"),
    ('\u{1FF3}', "\u{3C9}\u{3B9}"),
    ('\u{1FF4}', "\u{3CE}\u{3B9}"),
    ('\u{1FF6}', "\u{3C9}\u{342}"),
    ('\u{1FF7}', "\u{3C9}\u{342}\u{3B9}"),
    ('\u{1FFC}', "\u{3C9}\u{3B9}"),
    ('\u{A7DD}', "\u{277}"),
    ('\u{A7E2}', "\u{27C}"),
    ('\u{AB6C}', "\u{AB4B}"),
    ('\u{AB6D}', "\u{AB4C}"),
    ('\u{FB00}', "\u{66}\u{66}"),
    ('\u{FB01}', "\u{66}\u{69}"),
    ('\u{FB02}', "\u{66}\u{6C}"),
    ('\u{FB03}', "\u{66}\u{66}\u{69}"),
    ('\u{FB04}', "\u{66}\u{66}\u{6C}"),
    ('\u{FB05}', "\u{73}\u{74}"),
    ('\u{FB06}', "\u{73}\u{74}"),
    ('\u{FB13}', "\u{574}\u{576}"),
    ('\u{FB14}', "\u{574}\u{565}"),
    ('\u{FB15}', "\u{574}\u{56B}"),
    ('\u{FB16}', "\u{57E}\u{576}"),
    ('\u{FB17}', "\u{574}\u{56D}"),
    ('\u{1DF40}', "\u{1DF41}"),
    ('\u{1DF48}', "\u{1DF49}"),
    ('\u{1DF4A}', "\u{1DF4B}"),
    ('\u{1DF4D}', "\u{1DF4E}"),
    ('\u{1DF51}', "\u{1DF52}"),
    ('\u{1DF68}', "\u{1DF69}"),
    ('\u{1DF6A}', "\u{1DF6B}"),
    ('\u{1DF6C}', "\u{1DF6D}"),
    ('\u{1DF6E}', "\u{1DF6F}"),
    ('\u{1DF72}', "\u{1DF73}"),
    ('\u{1DF74}', "\u{1DF75}"),
    ('\u{1DF76}', "\u{1DF77}"),
    ('\u{1DF78}', "\u{1DF79}"),
    ('\u{1DF7A}', "\u{1DF7B}"),
    ('\u{1DF7C}', "\u{1DF7D}"),
    ('\u{1DF7E}', "\u{1DF7F}"),
    ('\u{1DF95}', "\u{73}\u{73}"),
];

/// `c` folded as full case folding does, onto `out`.
fn push_folded(c: char, out: &mut String) {
    match FOLDS_BEYOND_LOWERCASE.binary_search_by_key(&c, |(from, _)| *from) {
        Ok(at) => out.push_str(FOLDS_BEYOND_LOWERCASE.get(at).map_or("", |(_, to)| *to)),
        Err(_) => out.extend(c.to_lowercase()),
    }
}

/// The caseless form of `text` (Unicode's canonical caseless match, D145: NFD, full case
/// folding, NFD again) with the code points HFS+ ignores removed: two names that any of
/// APFS, HFS+, NTFS or a case-insensitive ext4 opens as one come down to one form. ASCII text
/// is only lowercased.
pub fn caseless(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let visible: String = text.chars().filter(|c| !is_hfs_ignorable(*c)).collect();
    let mut folded = String::with_capacity(visible.len());
    for c in decomposed(&visible).chars() {
        push_folded(c, &mut folded);
    }
    decomposed(&folded)
}

/// The canonical decomposition (NFD) of `text`; ASCII text is its own.
pub fn decomposed(text: &str) -> String {
    if text.is_ascii() {
        return text.to_owned();
    }
    runtime::normalize(text, Form::Nfd)
}

/// The canonical composition (NFC) of `text`; ASCII text is its own.
pub fn composed(text: &str) -> String {
    if text.is_ascii() {
        return text.to_owned();
    }
    runtime::normalize(text, Form::Nfc)
}

/// A Unicode normalization form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    Nfc,
    Nfd,
}

/// A host as the WHATWG URL Standard's host parser reads it for an `http(s)` URL ("host
/// parsing": percent-decoding, IDNA's UTS 46 processing to ASCII, the IPv4 parser's decimal,
/// octal, hexadecimal and shortened forms, the IPv6 parser), serialized: `0x7f.1` is
/// `127.0.0.1`, `[::FFFF:127.0.0.1]` is `[::ffff:7f00:1]`, `BÜCHER.example` is
/// `xn--bcher-kva.example`. `None` when the parser refuses it.
pub fn whatwg_host(host: &str) -> Option<String> {
    runtime::host(host)
}

/// Natively: the `icu_normalizer` and `url` crates.
#[cfg(all(feature = "analysis", not(target_arch = "wasm32")))]
mod runtime {
    use super::Form;

    pub(super) fn normalize(text: &str, form: Form) -> String {
        match form {
            Form::Nfc => icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(text).into_owned(),
            Form::Nfd => icu_normalizer::DecomposingNormalizerBorrowed::new_nfd().normalize(text).into_owned(),
        }
    }

    pub(super) fn host(host: &str) -> Option<String> {
        url::Host::parse(host).ok().map(|parsed| parsed.to_string())
    }
}

#[cfg(all(feature = "analysis", target_arch = "wasm32"))]
mod js_runtime;

/// In a wasm build: the JavaScript runtime's (see the module's documentation).
#[cfg(all(feature = "analysis", target_arch = "wasm32"))]
mod runtime {
    use super::Form;

    pub(super) fn normalize(text: &str, form: Form) -> String {
        super::js_runtime::normalize(text, if form == Form::Nfc { "NFC" } else { "NFD" })
    }

    pub(super) fn host(host: &str) -> Option<String> {
        super::js_runtime::url_hostname(&format!("http://{host}/"))
    }
}

/// Without the `analysis` feature (the MCP entry's build) no path or domain rule exists and no
/// path is read for protection (writes ask there): nothing reads these. Normalization is left
/// undone and every host refused, which fails closed should that change.
#[cfg(not(feature = "analysis"))]
mod runtime {
    use super::Form;

    pub(super) fn normalize(text: &str, _form: Form) -> String {
        text.to_owned()
    }

    pub(super) fn host(_host: &str) -> Option<String> {
        None
    }
}

#[cfg(all(test, feature = "analysis"))]
mod tests {
    use super::*;

    /// The table and `char::to_lowercase` together fold every code point as ICU4X's full case
    /// folding does (its lowercase, as Cherokee folds to capitals): the table is CaseFolding.txt's.
    #[test]
    fn the_fold_is_unicode_full_case_folding() {
        let icu = icu_casemap::CaseMapper::new();
        let mut differs = 0;
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            let mut ours = String::new();
            push_folded(c, &mut ours);
            let theirs: String = icu.fold_string(&c.to_string()).chars().flat_map(char::to_lowercase).collect();
            assert_eq!(ours, theirs, "U+{:04X}", c as u32);
            differs += usize::from(ours != c.to_lowercase().collect::<String>());
        }
        assert_eq!(differs, FOLDS_BEYOND_LOWERCASE.len());
        assert!(FOLDS_BEYOND_LOWERCASE.windows(2).all(|w| matches!(w, [a, b] if a.0 < b.0)), "the table must stay sorted");
    }

    #[test]
    fn names_a_file_system_opens_as_one_have_one_caseless_form() {
        for (a, b) in [
            (".\u{17F}sh", ".ssh"),
            (".v\u{17F}code", ".vscode"),
            ("\u{212A}ey", "key"),
            (".g\u{200C}it", ".git"),
            ("\u{FEFF}.env", ".env"),
            ("s\u{E9}crets", "se\u{301}crets"),
            ("S\u{C9}CRETS", "se\u{301}crets"),
            ("stra\u{DF}e", "STRASSE"),
            ("\u{1F88}", "\u{1F00}\u{3B9}"),
        ] {
            assert_eq!(caseless(a), caseless(b), "{a:?} and {b:?}");
        }
        assert_ne!(caseless("s\u{E9}crets"), caseless("secrets"));
        assert_eq!(composed(&caseless("S\u{C9}CRETS")), "s\u{E9}crets");
    }

    #[test]
    fn hosts_read_as_the_whatwg_url_standard_reads_them() {
        for (host, read) in [
            ("2130706433", "127.0.0.1"),
            ("0x7f.1", "127.0.0.1"),
            ("0177.0.0.1", "127.0.0.1"),
            ("127.1", "127.0.0.1"),
            ("0xa9fea9fe", "169.254.169.254"),
            ("[::FFFF:127.0.0.1]", "[::ffff:7f00:1]"),
            ("B\u{DC}CHER.example", "xn--bcher-kva.example"),
            ("Example.COM", "example.com"),
        ] {
            assert_eq!(whatwg_host(host).as_deref(), Some(read), "{host}");
        }
        for refused in ["1.2.3.4.5", "0x100000000", "09", "a b", "[::1"] {
            assert_eq!(whatwg_host(refused), None, "{refused}");
        }
    }
}
