//! The fuzz side's own lexical path normaliser, written apart from `toolgate::policy::path` so the
//! path property compares the engine against an independent reading of `.` and `..`.

/// Collapses `.` and `..` and repeated `/` without touching the filesystem: `a/./b/../c` → `a/c`.
/// A relative path keeps the `..` that climb above its start (`../x`, `a/../../b` → `../b`); an
/// absolute one cannot climb above `/`. The empty relative path is `.`.
pub fn normalise(raw: &str) -> String {
    let absolute = raw.starts_with('/');
    let mut kept: Vec<&str> = Vec::new();
    for segment in raw.split('/') {
        match segment {
            "" | "." => {}
            ".." if kept.last().is_some_and(|last| *last != "..") => {
                kept.pop();
            }
            ".." if absolute => {}
            other => kept.push(other),
        }
    }
    match (absolute, kept.is_empty()) {
        (true, _) => format!("/{}", kept.join("/")),
        (false, true) => ".".to_owned(),
        (false, false) => kept.join("/"),
    }
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn collapses_like_a_shell_would_lexically() {
        for (raw, normal) in [
            ("a/./b/../c", "a/c"),
            ("../x", "../x"),
            ("a/../../b", "../b"),
            ("/../etc", "/etc"),
            ("", "."),
            ("a/..", "."),
            ("//a//b/", "/a/b"),
        ] {
            assert_eq!(normalise(raw), normal, "{raw:?}");
        }
    }
}
