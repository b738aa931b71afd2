//! The domain glob matched against a URL's host, Claude Code's `WebFetch(domain:…)` rules.
//!
//! Source: Claude Code, `docs/permissions.md` ("WebFetch"), read from the docs mirror
//! `zhalice2011/claude-code-docs` @021fb77: `*.example.com` matches any depth of subdomain but not
//! the apex, any other `*` matches only text between two dots, matching is case-insensitive and a
//! trailing `.` is stripped from rule and host.

use super::glob::glob_pieces_match;

/// A Claude Code domain glob, matched against a URL's host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainGlob {
    /// `*`: every host.
    any: bool,
    /// `*.rest`: any depth of subdomain of `rest`, not `rest` itself.
    subdomains_of: Option<Vec<String>>,
    /// Otherwise the labels, each possibly with `*` that matches within the label.
    labels: Vec<String>,
}

impl DomainGlob {
    /// Compiles a domain glob (`example.com`, `*.example.com`, `example.*`, `*`).
    pub fn new(pattern: &str) -> Result<Self, String> {
        let lower = pattern.trim_end_matches('.').to_ascii_lowercase();
        if lower.is_empty() {
            return Err("a domain needs some text".into());
        }
        if lower.contains(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '*'))) {
            return Err(format!("`{pattern}` is not a domain: only letters, digits, `-`, `_`, `.` and `*`"));
        }
        if lower == "*" {
            return Ok(DomainGlob { any: true, subdomains_of: None, labels: Vec::new() });
        }
        let (subdomains, rest) = match lower.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, lower.as_str()),
        };
        let labels: Vec<String> = rest.split('.').map(str::to_owned).collect();
        if labels.iter().any(String::is_empty) {
            return Err(format!("`{pattern}` has an empty label"));
        }
        Ok(if subdomains {
            DomainGlob { any: false, subdomains_of: Some(labels), labels: Vec::new() }
        } else {
            DomainGlob { any: false, subdomains_of: None, labels }
        })
    }

    /// Whether the host (already lowercased, without a trailing dot) matches.
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

    /// Whether the URL's host matches; `None` when the URL cannot be parsed strictly.
    pub fn matches_url(&self, url: &str) -> Option<bool> {
        url_host(url).map(|host| self.matches_host(&host))
    }
}

fn labels_match(pattern: &[String], host: &[&str]) -> bool {
    pattern.iter().zip(host).all(|(p, h)| {
        let pieces: Vec<String> = p.split('*').map(str::to_owned).collect();
        glob_pieces_match(&pieces, h)
    })
}

/// The host of an `http(s)` URL, lowercased and without a trailing dot; `None` for anything
/// that is not plainly one (other schemes, backslashes, whitespace, percent-escapes or
/// non-ASCII in the authority, an empty host, a bad port) — such a URL never matches an allow
/// rule, and matches every deny and confirm domain rule.
pub fn url_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..end)?;
    if authority.is_empty() || authority.chars().any(|c| c == '\\' || c == '%' || c.is_whitespace() || c.is_control() || !c.is_ascii()) {
        return None;
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control() || c == '\\') {
        return None;
    }
    let host_port = match authority.rsplit_once('@') {
        Some((userinfo, host)) if !userinfo.contains(['@', '/']) => host,
        Some(_) => return None,
        None => authority,
    };
    if host_port.starts_with('[') {
        // An IPv6 literal: matched as written between the brackets.
        let close = host_port.find(']')?;
        let host = host_port.get(1..close)?;
        let after = host_port.get(close + 1..)?;
        if !(after.is_empty() || after.strip_prefix(':').is_some_and(valid_port))
            || !host.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return None;
        }
        return Some(host.to_ascii_lowercase());
    }
    let (host, port) = match host_port.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (host_port, None),
    };
    if port.is_some_and(|p| !valid_port(p)) {
        return None;
    }
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    let valid =
        !host.is_empty() && host.split('.').all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    valid.then_some(host)
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
                assert_eq!(d.matches_url(m), Some(true), "{rule} should match {m}");
            }
            for m in misses {
                assert_ne!(d.matches_url(m), Some(true), "{rule} should not match {m}");
            }
        }
        assert!(DomainGlob::new("exa mple.com").is_err());
        assert!(DomainGlob::new("a..b").is_err());
    }

    #[test]
    fn urls_are_parsed_strictly() {
        assert_eq!(url_host("https://user:pw@Example.COM:443/x").as_deref(), Some("example.com"));
        assert_eq!(url_host("http://[::1]:80/").as_deref(), Some("::1"));
        for bad in [
            "example.com",
            "javascript:alert(1)",
            "https://good.com\\@evil.com",
            "https://evil.com%2egood.com",
            "https://",
            "https://a.com:99999",
            "https://a .com",
            "https://ex\u{e4}mple.com",
            "https://a@b@c.com",
            "file:///etc/passwd",
        ] {
            assert_eq!(url_host(bad), None, "{bad}");
        }
    }
}
