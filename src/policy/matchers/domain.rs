//! The domain glob matched against a URL's host, Claude Code's `WebFetch(domain:…)` rules.
//!
//! Source: Claude Code, `docs/permissions.md` ("WebFetch"), read from the docs mirror
//! `zhalice2011/claude-code-docs` @021fb77: `*.example.com` matches any depth of subdomain but not
//! the apex, any other `*` matches only text between two dots, matching is case-insensitive and a
//! trailing `.` is stripped from rule and host.
//!
//! Hosts and rules are compared as the WHATWG URL Standard's host parser reads them, the way a
//! browser, Node's `URL` and `fetch`, and Rust's `url` crate reach a host
//! ([`crate::policy::text_forms::whatwg_host`]): `http://2130706433/`, `http://0x7f.1/`,
//! `http://0177.0.0.1/` and `http://127.1/` are all `127.0.0.1` (the Standard's IPv4 parser;
//! curl reads them so too, through `inet_aton(3)`), `http://BÜCHER.example/` is
//! `xn--bcher-kva.example` (IDNA). A rule written as an address (`127.0.0.1`, `0x7f.1`, `::1`,
//! `[::1]`) is read the same way, so it meets every spelling of the address. Deny and confirm
//! rules also meet an IPv4 address in its IPv4-mapped IPv6 form (`[::ffff:127.0.0.1]`, which
//! connects to `127.0.0.1`: RFC 4291 §2.5.5.2), and the other way round.

use super::glob::glob_pieces_match;
use crate::policy::text_forms::whatwg_host;

/// A Claude Code domain glob, matched against a URL's host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainGlob {
    /// `*`: every host.
    any: bool,
    /// `*.rest`: any depth of subdomain of `rest`, not `rest` itself.
    subdomains_of: Option<Vec<String>>,
    /// Otherwise the labels, each possibly with `*` that matches within the label.
    labels: Vec<String>,
    /// A rule written as an IPv4-mapped IPv6 address: the IPv4 address it maps, which deny and
    /// confirm rules also meet.
    mapped_ipv4: Option<String>,
}

impl DomainGlob {
    /// Compiles a domain glob (`example.com`, `*.example.com`, `example.*`, `*`) or an address
    /// (`127.0.0.1` in any of its spellings, `::1`, `[::1]`).
    pub fn new(pattern: &str) -> Result<Self, String> {
        let lower = pattern.trim_end_matches('.').to_ascii_lowercase();
        if lower.is_empty() {
            return Err("a domain needs some text".into());
        }
        if lower == "*" {
            return Ok(DomainGlob { any: true, subdomains_of: None, labels: Vec::new(), mapped_ipv4: None });
        }
        if !lower.contains('*') && (lower.starts_with('[') || lower.contains(':')) {
            // An IPv6 address, with or without its brackets.
            let bracketed = if lower.starts_with('[') { lower.clone() } else { format!("[{lower}]") };
            let host =
                whatwg_host(&bracketed).filter(|h| h.starts_with('[')).ok_or_else(|| format!("`{pattern}` is not an IPv6 address"))?;
            let mapped_ipv4 = mapped_ipv4(&host);
            return Ok(DomainGlob { any: false, subdomains_of: None, labels: vec![host], mapped_ipv4 });
        }
        if lower.contains(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '*'))) {
            return Err(format!(
                "`{pattern}` is not a domain: only letters, digits, `-`, `_`, `.` and `*` (an internationalised name in its ASCII form, `xn--…`), or an IP address"
            ));
        }
        let (subdomains, rest) = match lower.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, lower.as_str()),
        };
        if rest.split('.').any(str::is_empty) {
            return Err(format!("`{pattern}` has an empty label"));
        }
        // Without a `*` the rule is a host: read as a URL's host is (an address in any spelling
        // comes down to its dotted form).
        let host = if rest.contains('*') {
            rest.to_owned()
        } else {
            canonical_host(rest).ok_or_else(|| format!("`{pattern}` is not a host a URL can name"))?
        };
        let labels: Vec<String> = host.split('.').map(str::to_owned).collect();
        Ok(if subdomains {
            DomainGlob { any: false, subdomains_of: Some(labels), labels: Vec::new(), mapped_ipv4: None }
        } else {
            DomainGlob { any: false, subdomains_of: None, labels, mapped_ipv4: None }
        })
    }

    /// Whether the rule names an IPv4 address (`127.0.0.1` in any spelling, or IPv4-mapped
    /// `[::ffff:7f00:1]`), which deny and confirm rules meet in both its forms.
    pub fn names_an_ipv4_address(&self) -> bool {
        let ipv4 = self.labels.len() == 4 && self.labels.iter().all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()));
        ipv4 || self.mapped_ipv4.is_some()
    }

    /// Whether the host (as [`url_host`] reads it) matches.
    pub fn matches_host(&self, host: &str) -> bool {
        if self.any {
            return true;
        }
        let host_labels: Vec<&str> = host.split('.').collect();
        match &self.subdomains_of {
            Some(base) => {
                host_labels.len() > base.len()
                    && host_labels.get(host_labels.len() - base.len()..).is_some_and(|tail| labels_match(base, tail))
            }
            None => host_labels.len() == self.labels.len() && labels_match(&self.labels, &host_labels),
        }
    }

    /// Whether the URL's host matches; `None` when the URL cannot be read strictly. With
    /// `every_form` (deny and confirm rules) an IPv4 address and its IPv4-mapped IPv6 form are
    /// one host; an allow rule meets only the host the URL names.
    pub fn matches_url(&self, url: &str, every_form: bool) -> Option<bool> {
        let host = url_host(url)?;
        if self.matches_host(&host.name) {
            return Some(true);
        }
        if !every_form {
            return Some(false);
        }
        let mapped = host.mapped_ipv4.as_deref().is_some_and(|ipv4| self.matches_host(ipv4));
        let mapped_rule = self.mapped_ipv4.as_deref().is_some_and(|ipv4| ipv4 == host.name);
        Some(mapped || mapped_rule)
    }
}

fn labels_match(pattern: &[String], host: &[&str]) -> bool {
    pattern.iter().zip(host).all(|(p, h)| {
        let pieces: Vec<String> = p.split('*').map(str::to_owned).collect();
        glob_pieces_match(&pieces, h)
    })
}

/// A URL's host as a URL parser reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlHost {
    /// Serialized as the WHATWG URL Standard serializes hosts (lower case, IDNA's ASCII form,
    /// an IPv4 address dotted, an IPv6 address compressed between brackets), without a trailing dot.
    pub name: String,
    /// For an IPv4-mapped IPv6 address (`[::ffff:7f00:1]`), the IPv4 address it connects to.
    pub mapped_ipv4: Option<String>,
}

/// The host of an `http(s)` URL as a URL parser reads it; `None` for anything that is not
/// plainly such a URL — other schemes, backslashes, whitespace or control characters,
/// percent-escapes in the authority (curl does not decode them, a WHATWG parser does), IDNA's
/// deviation characters (`ß`, `ς`, the zero-width joiner and non-joiner, which UTS 46's
/// transitional and nontransitional processing map to different hosts), more than one `@`, an
/// empty host, a bad port, a host the parser refuses. Such a URL never matches an allow rule,
/// and matches every deny and confirm domain rule.
pub fn url_host(url: &str) -> Option<UrlHost> {
    let (scheme, rest) = url.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\') {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..end)?;
    if authority.is_empty() || authority.contains(['%', '\u{DF}', '\u{1E9E}', '\u{3C2}', '\u{200C}', '\u{200D}']) {
        return None;
    }
    let host_port = match authority.rsplit_once('@') {
        Some((userinfo, host)) if !userinfo.contains(['@', '/']) => host,
        Some(_) => return None,
        None => authority,
    };
    let (host, port) = if host_port.starts_with('[') {
        let close = host_port.find(']')?;
        let after = host_port.get(close + 1..)?;
        if !after.is_empty() && !after.starts_with(':') {
            return None;
        }
        (host_port.get(..=close)?, after.strip_prefix(':'))
    } else {
        match host_port.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        }
    };
    if port.is_some_and(|p| !valid_port(p)) {
        return None;
    }
    let name = canonical_host(host)?;
    let mapped_ipv4 = mapped_ipv4(&name);
    Some(UrlHost { name, mapped_ipv4 })
}

/// A host (no port) as the WHATWG host parser serializes it, without a trailing dot; `None`
/// when the parser refuses it or what it gives is not a host name or an address. A plain name
/// — ASCII letters, digits, `-` and `_` in non-empty labels, no IDNA label (`xn--`), not
/// ending in a number — reads as itself in lower case, without asking the parser.
fn canonical_host(host: &str) -> Option<String> {
    let host = host.strip_suffix('.').unwrap_or(host);
    let label_ok = |l: &str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let plain = host.split('.').all(|l| label_ok(l) && !l.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("xn--")))
        && !host.rsplit('.').next().is_some_and(ends_in_a_number);
    if plain {
        return Some(host.to_ascii_lowercase());
    }
    let read = whatwg_host(host)?;
    let read = read.strip_suffix('.').unwrap_or(&read);
    let ipv6 = read.starts_with('[') && read.ends_with(']');
    (ipv6 || read.split('.').all(label_ok)).then(|| read.to_owned())
}

/// The WHATWG URL Standard's "ends in a number" test on a host's last label: all digits, or
/// `0x` followed by hexadecimal digits. Such a host is parsed as an IPv4 address.
fn ends_in_a_number(label: &str) -> bool {
    let hex = label.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x")) && label.bytes().skip(2).all(|b| b.is_ascii_hexdigit());
    hex || (!label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()))
}

/// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) maps, from
/// its WHATWG serialization `[::ffff:hhhh:hhhh]`.
fn mapped_ipv4(host: &str) -> Option<String> {
    let (high, low) = host.strip_prefix("[::ffff:")?.strip_suffix(']')?.split_once(':')?;
    let group = |g: &str| (g.len() <= 4).then(|| u16::from_str_radix(g, 16).ok()).flatten();
    let (high, low) = (group(high)?, group(low)?);
    let [a, b] = high.to_be_bytes();
    let [c, d] = low.to_be_bytes();
    Some(format!("{a}.{b}.{c}.{d}"))
}

fn valid_port(port: &str) -> bool {
    port.is_empty() || (port.len() <= 5 && port.chars().all(|c| c.is_ascii_digit()) && port.parse::<u32>().is_ok_and(|p| p <= 65535))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claude Code's "WebFetch" examples.
    #[test]
    fn domain_globs_match_as_claude_codes_documentation_says() {
        for (rule, matches, misses) in [
            (
                "example.com",
                &["https://example.com/x", "http://EXAMPLE.com.:8080/"][..],
                &["https://api.example.com", "https://example.com.evil.net"][..],
            ),
            (
                "*.example.com",
                &["https://api.example.com", "https://a.b.example.com/p?q"],
                &["https://example.com", "https://badexample.com"],
            ),
            ("example.*", &["https://example.org"], &["https://example.evil.com"]),
            ("*", &["https://anything.test"], &["not a url", "ftp://x.com"]),
            ("Docs.GitHub.com.", &["https://docs.github.com/en"], &["https://github.com"]),
            ("api-*.example.com", &["https://api-v2.example.com"], &["https://api.v2.example.com"]),
        ] {
            let d = DomainGlob::new(rule).unwrap();
            for m in matches {
                assert_eq!(d.matches_url(m, false), Some(true), "{rule} should match {m}");
            }
            for m in misses {
                assert_ne!(d.matches_url(m, true), Some(true), "{rule} should not match {m}");
            }
        }
        assert!(DomainGlob::new("exa mple.com").is_err());
        assert!(DomainGlob::new("a..b").is_err());
    }

    #[test]
    fn urls_are_parsed_strictly() {
        let name = |url: &str| url_host(url).map(|h| h.name);
        assert_eq!(name("https://user:pw@Example.COM:443/x").as_deref(), Some("example.com"));
        assert_eq!(name("http://[::1]:80/").as_deref(), Some("[::1]"));
        assert_eq!(name("https://ex\u{e4}mple.com").as_deref(), Some("xn--exmple-cua.com"));
        for bad in [
            "example.com",
            "javascript:alert(1)",
            "https://good.com\\@evil.com",
            "https://evil.com%2egood.com",
            "https://",
            "https://a.com:99999",
            "https://a .com",
            "https://a@b@c.com",
            "file:///etc/passwd",
            "http://[::1]x/",
            "http://1.2.3.4.5/",
            "https://fa\u{df}.de/",
            "https://a..b/",
        ] {
            assert_eq!(url_host(bad), None, "{bad}");
        }
    }

    /// Every spelling of an address that the WHATWG URL Standard's IPv4 parser (and `inet_aton(3)`)
    /// reads as it meets a rule on the address, in every list; its IPv4-mapped IPv6 form (RFC
    /// 4291 §2.5.5.2) meets deny and confirm rules.
    #[test]
    fn an_address_is_one_host_in_every_spelling() {
        let loopback = [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0177.0.0.1/",
            "http://127.1/",
            "http://0x7F000001:8080/x",
        ];
        for rule in ["127.0.0.1", "0x7f.0.0.1", "2130706433", "127.0.0.*"] {
            let d = DomainGlob::new(rule).unwrap();
            for url in loopback {
                assert_eq!(d.matches_url(url, false), Some(true), "{rule} on {url}");
            }
            assert_eq!(d.matches_url("http://[::ffff:127.0.0.1]/", true), Some(true), "{rule}");
            assert_eq!(d.matches_url("http://[::ffff:7f00:1]/", false), Some(false), "{rule}: an allow rule meets only the host named");
            assert_eq!(d.matches_url("http://127.0.0.2/", true), Some(rule.ends_with('*')), "{rule}");
        }
        let metadata = DomainGlob::new("169.254.169.254").unwrap();
        for url in ["http://2852039166/latest/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://169.254.43518/"] {
            assert_eq!(metadata.matches_url(url, false), Some(true), "{url}");
        }
        for rule in ["::1", "[::1]", "[0:0:0:0:0:0:0:1]"] {
            let d = DomainGlob::new(rule).unwrap();
            assert_eq!(d.matches_url("http://[0::1]:80/", false), Some(true), "{rule}");
        }
        let mapped = DomainGlob::new("::ffff:127.0.0.1").unwrap();
        assert_eq!(mapped.matches_url("http://0x7f.1/", true), Some(true));
        assert_eq!(mapped.matches_url("http://0x7f.1/", false), Some(false));
        let idn = DomainGlob::new("xn--bcher-kva.example").unwrap();
        assert_eq!(idn.matches_url("https://B\u{dc}CHER.example/", false), Some(true));
        assert!(DomainGlob::new("b\u{fc}cher.example").is_err(), "a rule names an internationalised host in its ASCII form");
        assert!(DomainGlob::new("1.2.3.4.5").is_err());
        assert!(DomainGlob::new("::g").is_err());
    }
}
