//! Path normalisation for path tools: `.` and `..` collapsed without touching the filesystem,
//! so `src/../.env` is checked as `.env` as well as as written.

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

#[cfg(test)]
mod tests {
    use super::normalize_path;

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
