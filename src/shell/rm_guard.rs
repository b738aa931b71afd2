//! The hard-coded denial no setting can lift: removing `/`, a home directory, the current
//! directory or its parents, in every flag spelling and path form.
//!
//! It works on parsed words, so quoting (`rm -rf '/'`), escapes (`\rm`), paths to the binary
//! (`/bin/rm`), wrappers (`sudo rm`), option order (`rm / -rf`) and extra operands
//! (`rm -rf /tmp /`) all reduce to one check of each operand. That check follows the path's
//! structure rather than a list of spellings: braces are expanded (`{x,/}`), `.` and `..` are
//! collapsed (`/tmp/../..`), and a glob that matches every entry of a directory (`*`, `**`,
//! `.*`, `?*`) stands for that directory, so `/*`, `/**`, `/*/` and `*/` are caught while
//! `/tmp/*` is not. Quotes are already removed, so a quoted `'/*'` counts as the glob: the
//! guard may refuse too much, never too little.

use super::runs::{base_name, effective_command};
use serde::Serialize;

/// A removal that is always refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CatastrophicRm {
    /// The operand as written (after quote removal).
    pub operand: String,
    /// What it amounts to: `/`, `~`, `$HOME`, `.` or `..`.
    pub target: String,
}

/// Bounds brace expansion so a hostile operand cannot explode.
const MAX_EXPANSIONS: usize = 64;

/// The first operand of an `rm` (possibly behind wrappers) that would remove a protected tree.
pub fn catastrophic_rm(name: &str, args: &[String]) -> Option<CatastrophicRm> {
    let (command, args) = effective_command(name, args);
    if !base_name(command).eq_ignore_ascii_case("rm") {
        return None;
    }
    let mut operands_only = false;
    for arg in args {
        if !operands_only && arg == "--" {
            operands_only = true;
            continue;
        }
        // GNU rm takes options after operands too (`rm / -rf`).
        if !operands_only && arg.starts_with('-') && arg.len() > 1 {
            continue;
        }
        for expanded in expand_braces(arg) {
            if let Some(target) = protected_target(&expanded) {
                return Some(CatastrophicRm { operand: arg.clone(), target });
            }
        }
    }
    None
}

/// Expands brace groups as the shell does, nested ones too (`{a,{b,/}}`) and `${…}` left alone,
/// into at most [`MAX_EXPANSIONS`] words; a word whose next group would exceed that stays as written.
fn expand_braces(word: &str) -> Vec<String> {
    let mut done = Vec::new();
    let mut pending = vec![word.to_owned()];
    while let Some(current) = pending.pop() {
        let room = MAX_EXPANSIONS.saturating_sub(done.len() + pending.len());
        let parts = first_group(&current).filter(|group| group.alternatives <= room).and_then(|group| {
            Some((current.get(..group.open)?, current.get(group.open + 1..group.close)?, current.get(group.close + 1..)?))
        });
        match parts {
            Some((pre, inner, post)) => {
                for alternative in top_level_alternatives(inner) {
                    pending.push(format!("{pre}{alternative}{post}"));
                }
            }
            None => done.push(current),
        }
    }
    done
}

/// A brace group with at least two alternatives: the offsets of its braces.
struct BraceGroup {
    open: usize,
    close: usize,
    alternatives: usize,
}

/// The first brace group to close that holds a comma at its own level; braces without one
/// (`{x}`) and parameters (`${HOME}`) are text. One pass, so a hostile word costs its length.
fn first_group(word: &str) -> Option<BraceGroup> {
    #[cfg(test)]
    crate::test_support::steps(word.len());
    // Each open brace's offset and the commas at its level (`None` for a `${`).
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    let mut previous = 0;
    for (at, byte) in word.bytes().enumerate() {
        match byte {
            b'{' => open.push((at, (previous != b'$').then_some(0))),
            b',' => {
                if let Some((_, Some(commas))) = open.last_mut() {
                    *commas += 1;
                }
            }
            b'}' => {
                if let Some((start, Some(commas @ 1..))) = open.pop() {
                    return Some(BraceGroup { open: start, close: at, alternatives: commas + 1 });
                }
            }
            _ => {}
        }
        previous = byte;
    }
    None
}

/// `inner` split at the commas outside its own braces: `a,{b}` gives `a` and `{b}`.
fn top_level_alternatives(inner: &str) -> Vec<&str> {
    #[cfg(test)]
    crate::test_support::steps(inner.len());
    let mut alternatives = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, byte) in inner.bytes().enumerate() {
        match byte {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                alternatives.push(inner.get(start..at).unwrap_or_default());
                start = at + 1;
            }
            _ => {}
        }
    }
    alternatives.push(inner.get(start..).unwrap_or_default());
    alternatives
}

/// An operand is catastrophic when, with `.` and `..` collapsed, nothing but globs matching every
/// entry remains below a protected root (`/`, `~/*/`, `*`), or it climbs above one (`~/..`).
fn protected_target(operand: &str) -> Option<String> {
    // An unquoted empty word vanishes, and `rm ''` names nothing.
    if operand.is_empty() {
        return None;
    }
    let (root, beside, rest) = split_root(operand);
    let above = levels_above(beside, rest)?;
    Some(match root {
        Root::Filesystem => "/".to_owned(),
        Root::Home(name) => name.to_owned(),
        Root::Cwd if above == 0 => ".".to_owned(),
        Root::Cwd => "..".to_owned(),
    })
}

/// Where a path starts.
enum Root<'a> {
    Filesystem,
    /// `~`, `~user`, `$HOME`, `${HOME}`.
    Home(&'a str),
    /// The current directory, also as `$PWD`.
    Cwd,
}

/// The root a path starts from and the rest of it. The flag is set when text glued to a variable
/// makes the path a sibling of the root (`$HOME.old`); glued `*` (`$HOME*`) still matches the root.
fn split_root(path: &str) -> (Root<'_>, bool, &str) {
    if let Some(rest) = path.strip_prefix('/') {
        return (Root::Filesystem, false, rest);
    }
    for (variable, root) in [("${HOME}", Root::Home("${HOME}")), ("$HOME", Root::Home("$HOME")), ("${PWD}", Root::Cwd), ("$PWD", Root::Cwd)]
    {
        // `$HOMEDIR` is another variable; `${HOME}DIR` is not.
        let Some(rest) = path
            .strip_prefix(variable)
            .filter(|r| variable.ends_with('}') || !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        else {
            continue;
        };
        let (glued, rest) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        return (root, !glued.chars().all(|c| c == '*'), rest);
    }
    if path.starts_with('~') {
        let (user, rest) = path.split_at(path.find('/').unwrap_or(path.len()));
        return (Root::Home(user), false, rest);
    }
    (Root::Cwd, false, path)
}

/// How many levels above its root a path ends once `.` and `..` are collapsed, provided nothing
/// that narrows the selection (a name, a partial glob) is left; `beside` starts it at a sibling.
fn levels_above(beside: bool, rest: &str) -> Option<usize> {
    #[cfg(test)]
    crate::test_support::steps(rest.len());
    let mut above = usize::from(beside);
    // What is left below the root, innermost last: `true` for a component that narrows.
    let mut narrows = if beside { vec![true] } else { Vec::new() };
    let mut components = rest.split('/').filter(|c| !c.is_empty()).peekable();
    while let Some(component) = components.next() {
        match step(component, components.peek().is_none()) {
            Step::Stay => {}
            Step::Up => {
                if narrows.pop().is_none() {
                    above += 1;
                }
            }
            Step::Every => narrows.push(false),
            Step::Name => narrows.push(true),
        }
    }
    (!narrows.contains(&true)).then_some(above)
}

/// What one path component does to the selection of paths so far.
enum Step {
    /// `.`
    Stay,
    /// `..`, or a glob that can match it.
    Up,
    /// A glob matching every entry (of its kind) of each directory selected.
    Every,
    /// A name or a glob that leaves some entries out.
    Name,
}

/// The step a component takes. A glob that can match `..` climbs (dash's and older bash's `.*`
/// do, so `/tmp/.*/*` reaches `/*`), except as the last component, which rm refuses to remove.
fn step(component: &str, last: bool) -> Step {
    if component == "." {
        Step::Stay
    } else if component == ".." || (!last && may_match_dot_dot(component)) {
        Step::Up
    } else if matches_every_entry(component) {
        Step::Every
    } else {
        Step::Name
    }
}

/// Whether a glob matches every visible name (`*`, `**`, `?*`, `[!.]*`) or every hidden one
/// (`.*`, `.?*`); anything else (`*.*`, `??*`, `[a-z]*`) may leave some out.
fn matches_every_entry(component: &str) -> bool {
    #[cfg(test)]
    crate::test_support::steps(component.len());
    let (hidden, rest) = component.strip_prefix('.').map_or((false, component), |rest| (true, rest));
    // A visible name never starts with `.`, so a class excluding only `.` matches its first character.
    let (mut singles, rest) = match rest.strip_prefix("[!.]").or_else(|| rest.strip_prefix("[^.]")) {
        Some(after) if !hidden => (1, after),
        _ => (0, rest),
    };
    let mut stars = 0;
    for c in rest.chars() {
        match c {
            '*' => stars += 1,
            '?' => singles += 1,
            _ => return false,
        }
    }
    // Names have at least one character, so one `?` among stars still matches them all.
    stars > 0 && singles <= 1
}

/// Whether a glob can match `..`: its leading `.` must be written out (no glob matches a
/// leading dot), and the rest must be able to match one `.` (`.*`, `.?`, `..*`, `.[.]`).
fn may_match_dot_dot(component: &str) -> bool {
    #[cfg(test)]
    crate::test_support::steps(component.len());
    let Some(rest) = component.strip_prefix('.') else { return false };
    let (mut stars, mut singles, mut all_match_dot) = (0, 0, true);
    let mut at = 0;
    while let Some(c) = rest.get(at..).and_then(|r| r.chars().next()) {
        let (len, matches_dot) = match c {
            '*' => {
                stars += 1;
                at += 1;
                continue;
            }
            '?' => (1, true),
            '[' => rest.get(at..).and_then(bracket).unwrap_or((1, false)),
            other => (other.len_utf8(), other == '.'),
        };
        singles += 1;
        all_match_dot &= matches_dot;
        at += len;
        // Two characters or more after the leading `.`: no `..`, and no more brackets to scan.
        if singles > 1 {
            return false;
        }
    }
    (singles == 1 && all_match_dot) || (singles == 0 && stars > 0)
}

/// The bracket expression `text` starts with: its length in bytes and whether it may match `.`.
/// Ranges and classes (`[:punct:]`) count as holding `.` unless negated, so doubt means a match.
fn bracket(text: &str) -> Option<(usize, bool)> {
    #[cfg(test)]
    crate::test_support::steps(text.len());
    let body = text.strip_prefix('[')?;
    let (negated, body) = body.strip_prefix(['!', '^']).map_or((false, body), |after| (true, after));
    let bytes = body.as_bytes();
    // A `]` first is a member; a `[:class:]` holds its own `]`.
    let mut end = usize::from(bytes.first() == Some(&b']'));
    loop {
        match bytes.get(end)? {
            b']' => break,
            b'[' if bytes.get(end + 1) == Some(&b':') => end += 2 + body.get(end + 2..)?.find(":]")? + 2,
            _ => end += 1,
        }
    }
    let members = body.get(..end)?;
    let chars: Vec<char> = members.chars().collect();
    let in_range = chars.windows(3).any(|w| matches!(w, [low, '-', high] if *low <= '.' && '.' <= *high));
    let holds_dot = members.contains('.');
    let matches_dot = if negated { !holds_dot } else { holds_dot || in_range || members.contains("[:") };
    Some((1 + usize::from(negated) + end + 1, matches_dot))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(command: &str) -> Option<String> {
        let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        let (name, args) = words.split_first()?;
        catastrophic_rm(name, args).map(|c| c.target)
    }

    #[test]
    fn every_spelling_of_removing_root_is_caught() {
        for command in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm --recursive --force /",
            "rm -rfv /",
            "rm / -rf",
            "rm -rf -- /",
            "rm -rf /*",
            "rm -rf //",
            "rm -rf /tmp/../..",
            "rm -rf /./",
            "rm -rf /tmp /",
            "rm --no-preserve-root -rf /",
            "/bin/rm -rf /",
            "sudo rm -rf /",
            "sudo -u root rm -rf /",
            "env X=1 rm -rf /",
            "rm -rf {tmp,/}",
            "RM -rf /",
            "rm /",
        ] {
            assert_eq!(check(command).as_deref(), Some("/"), "{command}");
        }
    }

    #[test]
    fn home_current_and_parent_directories() {
        for (command, target) in [
            ("rm -rf ~", "~"),
            ("rm -rf ~/", "~"),
            ("rm -rf ~/*", "~"),
            ("rm ~ -rf", "~"),
            ("rm -rf ~/..", "~"),
            ("rm -rf ~bob", "~bob"),
            ("rm -rf $HOME", "$HOME"),
            ("rm -rf ${HOME}/", "${HOME}"),
            ("rm -rf $HOME/x/..", "$HOME"),
            ("rm -rf .", "."),
            ("rm -rf ./", "."),
            ("rm -rf ./*", "."),
            ("rm -rf *", "."),
            ("rm -rf .*", "."),
            ("rm -rf x/..", "."),
            ("rm -rf $PWD", "."),
            ("rm -rf ..", ".."),
            ("rm -rf ../", ".."),
            ("rm -rf ../*", ".."),
            ("rm -rf ../..", ".."),
            ("rm -rf x/../..", ".."),
        ] {
            assert_eq!(check(command).as_deref(), Some(target), "{command}");
        }
    }

    #[test]
    fn ordinary_removals_pass() {
        for command in [
            "rm -rf build",
            "rm -rf ./build",
            "rm -rf /tmp/x",
            "rm -rf ~/project/target",
            "rm -rf ../sibling",
            "rm file.txt",
            "rm -rf $HOME/tmp",
            "rm -- -rf",
            "ls /",
            "rmdir /",
            "echo rm -rf /",
        ] {
            assert_eq!(check(command), None, "{command}");
        }
    }

    #[test]
    fn brace_expansion_is_bounded() {
        let hostile = "{a,b}".repeat(40);
        assert!(expand_braces(&hostile).len() <= MAX_EXPANSIONS);
        // One group with a hundred thousand alternatives is not copied out a hundred thousand times.
        let wide = format!("{{{}}}", ",".repeat(100_000));
        assert_eq!(expand_braces(&wide), std::slice::from_ref(&wide));
    }

    /// Each operand is read a bounded number of times, brace groups included: twice the operand
    /// is at most about twice the work (a scan ahead from every `[` or `{` would be four times).
    #[test]
    fn hostile_operands_cost_their_length() {
        for unit in ["{", "{a,", "{a,b}", ",", "}", "${", "[", ".[", ".[[:", "*", "/..", ".*/", "x/", "$HOME", "~", "\\"] {
            let work = |n: usize| {
                let args = ["-rf".to_owned(), format!("{}/x", unit.repeat(n))];
                crate::test_support::steps_of(|| drop(catastrophic_rm("rm", &args)))
            };
            let (once, twice) = (work(5_000), work(10_000));
            assert!(twice * 100 <= once * 205, "{unit:?}: twice the operand took {twice} steps, once {once}");
        }
    }

    /// Expands through the parser, so quotes and escapes are removed as the shell would.
    fn check_line(line: &str) -> Option<String> {
        crate::shell::analyze(line).items.iter().find_map(|item| catastrophic_rm(item.name.as_deref()?, &item.args)).map(|c| c.target)
    }

    #[test]
    fn globs_matching_every_entry_stand_for_their_directory() {
        for (command, target) in [
            ("rm -rf /**", "/"),
            ("rm -fr /*/", "/"),
            ("rm -rf /*/*", "/"),
            ("rm -rf /*/..", "/"),
            ("rm -rf /?*", "/"),
            ("rm -rf /*?", "/"),
            ("rm -rf /[!.]*", "/"),
            ("rm -rf /.?*", "/"),
            ("rm -rf */", "."),
            ("rm -rf **", "."),
            ("rm -rf ~/*/", "~"),
            ("rm -rf ~/.*", "~"),
            ("rm -rf $HOME*", "$HOME"),
            ("rm -rf ${HOME}*/", "${HOME}"),
            ("rm -rf $HOME.old/..", "$HOME"),
            ("rm -rf $PWD-old/..", ".."),
            // dash lets `.*` match `..`: `/tmp/../*` and `build/../../*`.
            ("rm -rf /tmp/.*/*", "/"),
            ("rm -rf build/.*/.*/*", ".."),
            ("rm -rf build/..*/*", "."),
            ("rm -rf {a,{b,/}}", "/"),
            ("rm -rf {/,{x}}", "/"),
            ("rm -rf {x,${HOME}}", "${HOME}"),
        ] {
            assert_eq!(check(command).as_deref(), Some(target), "{command}");
        }
    }

    #[test]
    fn globs_that_leave_entries_out_pass() {
        for command in [
            "rm -rf /tmp/*",
            "rm -rf build/*",
            "rm -rf ./build/*/",
            "rm -rf ~/.cache/*",
            "rm -f *.log",
            "rm -rf .[!.]*",
            "rm -rf /tmp/.[!.]*/*",
            "rm -rf /*.*",
            "rm -rf ??",
            // rm refuses an operand ending in `..`, which is all `/tmp/.*` adds to the hidden entries.
            "rm -rf /tmp/.*",
            "rm -rf $HOME.old",
            "rm -rf ${HOME}2/x",
            "rm -rf $HOMEDIR",
            "rm -rf $PWD-old",
            "rm -rf {a,}",
            "rm -rf {x}",
        ] {
            assert_eq!(check(command), None, "{command}");
        }
    }

    #[test]
    fn quoting_is_removed_before_the_check() {
        for (line, target) in [
            ("rm -rf '/'", Some("/")),
            (r"rm -rf \/\*\*", Some("/")),
            (r#"rm -rf "$HOME"/'*'/"#, Some("$HOME")),
            ("rm -rf ''", None),
            ("rm -rf '' build", None),
        ] {
            assert_eq!(check_line(line).as_deref(), target, "{line}");
        }
    }

    /// A reading of what an operand names that shares no code with the guard: a root, then
    /// components normalised one by one, with globs matched against sample names.
    mod model {
        use std::collections::BTreeSet;

        /// One element of a glob: `*`, `?`, a bracket expression, or a character.
        #[derive(Clone)]
        enum Token {
            Star,
            Any,
            /// Members (single characters, ranges by code point, POSIX classes), and whether negated.
            Set {
                chars: Vec<char>,
                ranges: Vec<(char, char)>,
                classes: Vec<String>,
                negated: bool,
            },
            Char(char),
        }

        /// POSIX class membership for the classes a test may write.
        fn in_class(class: &str, c: char) -> bool {
            match class {
                "alpha" => c.is_alphabetic(),
                "digit" => c.is_ascii_digit(),
                "alnum" => c.is_alphanumeric(),
                "punct" => c.is_ascii_punctuation(),
                "lower" => c.is_lowercase(),
                "upper" => c.is_uppercase(),
                "space" => c.is_whitespace(),
                _ => false,
            }
        }

        /// Reads a glob into tokens; an unclosed `[` is a plain character (POSIX "Patterns
        /// Matching a Single Character": a bracket expression needs its `]`).
        fn tokens(pattern: &str) -> Vec<Token> {
            let chars: Vec<char> = pattern.chars().collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < chars.len() {
                match chars[i] {
                    '*' => out.push(Token::Star),
                    '?' => out.push(Token::Any),
                    '[' => {
                        let mut j = i + 1;
                        let negated = matches!(chars.get(j), Some('!' | '^'));
                        j += usize::from(negated);
                        let (mut set, mut ranges, mut classes) = (Vec::new(), Vec::new(), Vec::new());
                        let mut first = true;
                        let mut closed = false;
                        while j < chars.len() {
                            let c = chars[j];
                            if c == ']' && !first {
                                closed = true;
                                break;
                            }
                            first = false;
                            if c == '[' && chars.get(j + 1) == Some(&':') {
                                let rest: String = chars[j + 2..].iter().collect();
                                if let Some(end) = rest.find(":]") {
                                    classes.push(rest[..end].to_owned());
                                    j += 2 + rest[..end].chars().count() + 2;
                                    continue;
                                }
                            }
                            if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|h| *h != ']') {
                                ranges.push((c, chars[j + 2]));
                                j += 3;
                                continue;
                            }
                            set.push(c);
                            j += 1;
                        }
                        if closed {
                            out.push(Token::Set { chars: set, ranges, classes, negated });
                            i = j + 1;
                            continue;
                        }
                        out.push(Token::Char('['));
                    }
                    c => out.push(Token::Char(c)),
                }
                i += 1;
            }
            out
        }

        /// Whether the glob's tokens match `name`; a leading dot is matched only by a `.` written
        /// out (POSIX: not by `*`, `?` or any bracket expression).
        fn glob(pattern: &[Token], name: &[char], leading: bool) -> bool {
            let dot_first = leading && name.first() == Some(&'.');
            match pattern.split_first() {
                None => name.is_empty(),
                Some((Token::Star, rest)) => {
                    glob(rest, name, leading) || (!name.is_empty() && !dot_first && glob(pattern, &name[1..], false))
                }
                Some((Token::Any, rest)) => !name.is_empty() && !dot_first && glob(rest, &name[1..], false),
                Some((Token::Set { chars, ranges, classes, negated }, rest)) => {
                    let Some(&c) = name.first() else { return false };
                    let member =
                        chars.contains(&c) || ranges.iter().any(|(l, h)| *l <= c && c <= *h) || classes.iter().any(|k| in_class(k, c));
                    !dot_first && member != *negated && glob(rest, &name[1..], false)
                }
                Some((Token::Char(c), rest)) => name.first() == Some(c) && glob(rest, &name[1..], false),
            }
        }

        fn matches(pattern: &str, name: &str) -> bool {
            glob(&tokens(pattern), &name.chars().collect::<Vec<_>>(), true)
        }

        /// Brace expansion as bash(1) "Brace Expansion" describes it: the first `{…}` holding a
        /// comma at its own level becomes each of its parts, recursively; `${…}` is a parameter.
        pub(super) fn braces(word: &str) -> Vec<String> {
            let chars: Vec<char> = word.chars().collect();
            for open in 0..chars.len() {
                if chars[open] != '{' || (open > 0 && chars[open - 1] == '$') {
                    continue;
                }
                let (mut depth, mut commas) = (0, Vec::new());
                for close in open..chars.len() {
                    match chars[close] {
                        '{' => depth += 1,
                        ',' if depth == 1 => commas.push(close),
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                if commas.is_empty() {
                                    break;
                                }
                                let head: String = chars[..open].iter().collect();
                                let tail: String = chars[close + 1..].iter().collect();
                                let mut bounds = vec![open];
                                bounds.extend(commas.iter().copied());
                                bounds.push(close);
                                return bounds
                                    .windows(2)
                                    .flat_map(|w| braces(&format!("{head}{}{tail}", chars[w[0] + 1..w[1]].iter().collect::<String>())))
                                    .collect();
                            }
                        }
                        _ => {}
                    }
                }
            }
            vec![word.to_owned()]
        }

        const VISIBLE: [&str; 9] = ["a", "tmp", "build", "x.y", "ab", "A1", "-", "é", "*"];
        const HIDDEN: [&str; 5] = [".a", ".cache", "..a", ".x.y", ".-"];

        /// How one component reads.
        #[derive(Clone, Copy, PartialEq)]
        enum Reads {
            Here,
            Parent,
            AllEntries,
            SomeEntries,
        }

        /// Every way a component can read: a glob matching `..` (or `.`) may be it, except last.
        fn readings(component: &str, last: bool) -> Vec<Reads> {
            match component {
                "." => vec![Reads::Here],
                ".." => vec![Reads::Parent],
                pattern if pattern.contains(['*', '?', '[']) => {
                    let all = VISIBLE.iter().all(|n| matches(pattern, n)) || HIDDEN.iter().all(|n| matches(pattern, n));
                    let mut ways = vec![if all { Reads::AllEntries } else { Reads::SomeEntries }];
                    if !last && matches(pattern, "..") {
                        ways.push(Reads::Parent);
                    }
                    if !last && matches(pattern, ".") {
                        ways.push(Reads::Here);
                    }
                    ways
                }
                _ => vec![Reads::SomeEntries],
            }
        }

        /// The protected trees `operand` may remove, over every word its braces expand to and
        /// every reading of its globs.
        pub(super) fn targets(operand: &str) -> BTreeSet<String> {
            braces(operand).iter().flat_map(|word| targets_of_word(word)).collect()
        }

        fn targets_of_word(operand: &str) -> BTreeSet<String> {
            let mut found = BTreeSet::new();
            if operand.is_empty() {
                return found;
            }
            let (first, tail) = operand.split_once('/').map_or((operand, ""), |(f, t)| (f, t));
            // The root's name, whether it is the working directory, and whether the path starts beside it.
            let (root, cwd, beside, path) = if first.is_empty() {
                ("/".to_owned(), false, false, tail.to_owned())
            } else if first.starts_with('~') {
                (first.to_owned(), false, false, tail.to_owned())
            } else if let Some((name, glued)) =
                ["${HOME}", "$HOME", "${PWD}", "$PWD"].iter().find_map(|v| first.strip_prefix(v).map(|g| (*v, g)))
            {
                (name.to_owned(), name.contains("PWD"), !matches(glued, ""), tail.to_owned())
            } else {
                (String::new(), true, false, operand.to_owned())
            };
            let components: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
            let mut ways: Vec<Vec<Reads>> = vec![Vec::new()];
            for (i, component) in components.iter().enumerate() {
                let options = readings(component, i + 1 == components.len());
                ways = ways.iter().flat_map(|w| options.iter().map(move |o| [w.as_slice(), &[*o]].concat())).collect();
            }
            for way in ways {
                let mut below: Vec<Reads> = if beside { vec![Reads::SomeEntries] } else { Vec::new() };
                let mut up = usize::from(beside);
                for reads in way {
                    match reads {
                        Reads::Here => {}
                        Reads::Parent => up += usize::from(below.pop().is_none()),
                        other => below.push(other),
                    }
                }
                if below.iter().all(|r| *r == Reads::AllEntries) {
                    found.insert(match (cwd, up) {
                        (true, 0) => ".".to_owned(),
                        (true, _) => "..".to_owned(),
                        _ => root.clone(),
                    });
                }
            }
            found
        }
    }

    /// Operands built from roots and path pieces, in every flag spelling and quoting, checked
    /// against the model: each catastrophic one is refused with a target the model allows, and
    /// none other is (the pieces `/tmp`, `/build` prove the guard does not refuse too much).
    #[test]
    fn generated_operands_are_refused_exactly_when_the_model_says() {
        const ROOTS: [&str; 11] = ["/", "~", "~bob", "$HOME", "${HOME}", ".", "..", "$PWD", "${PWD}", "", "{/,~}"];
        const PIECES: [&str; 30] = [
            "/",
            "//",
            "/./",
            "/*",
            "/**",
            "/.*",
            "/*/",
            "*",
            "?",
            "/?*",
            "/.?*",
            "/..*",
            "/x/..",
            "/..",
            "/tmp",
            "/build",
            "/build/*",
            "/tmp/",
            "/.[.]",
            "/[.]",
            "/.[!a]",
            "/.[[:punct:]]",
            "/[a-z]*",
            "/.[a]",
            "/[!.]*",
            "/.[,-/]",
            "{/,x}",
            "/{tmp,.}",
            "/x{,/..}",
            "/{a,{b,/}}",
        ];
        const FLAGS: [&[&str]; 7] = [&["-rf"], &["-fr"], &["-r", "-f"], &["-R", "-f"], &["--recursive", "--force"], &["-rfv"], &[]];
        const COMMANDS: [&[&str]; 5] = [&["rm"], &["/bin/rm"], &["RM"], &["sudo", "rm"], &["env", "X=1", "rm"]];
        const OPERANDS: usize = 12_000;
        let mut next = crate::test_support::random_below(0x5eed_0fa1);
        let (mut refused, mut named_and_passed, mut checked) = (0, 0, 0);
        let mut wrong = Vec::new();
        for _ in 0..OPERANDS {
            let root = ROOTS[next(ROOTS.len())];
            let mut operand = root.to_owned();
            for _ in 0..next(6) {
                operand.push_str(PIECES[next(PIECES.len())]);
            }
            if root.is_empty() {
                operand = operand.trim_start_matches('/').to_owned();
            }
            let expected = model::targets(&operand);
            refused += usize::from(!expected.is_empty());
            named_and_passed += usize::from(expected.is_empty() && (operand.contains("tmp") || operand.contains("build")));

            // The words as the parser hands them over: flags before or after, `--`, a second operand.
            let flags = FLAGS[next(FLAGS.len())];
            let mut words: Vec<String> = COMMANDS[next(COMMANDS.len())].iter().map(|w| w.to_string()).collect();
            let mut operands = vec![operand.clone()];
            match next(3) {
                0 => operands.insert(0, "build".to_owned()),
                1 => operands.push("tmp".to_owned()),
                _ => {}
            }
            match next(3) {
                0 => {
                    words.extend(flags.iter().map(|f| f.to_string()));
                    words.extend(operands.iter().cloned());
                }
                1 => {
                    words.extend(operands.iter().cloned());
                    words.extend(flags.iter().map(|f| f.to_string()));
                }
                _ => {
                    words.extend(flags.iter().map(|f| f.to_string()));
                    words.push("--".to_owned());
                    words.extend(operands.iter().cloned());
                }
            }
            let direct = catastrophic_rm(&words[0], &words[1..]).map(|c| c.target);

            // The same line written out with the operand quoted or escaped, through the parser.
            let written = match next(4) {
                // Written bare, an empty operand would vanish.
                _ if operand.is_empty() => "''".to_owned(),
                0 => operand.clone(),
                1 => format!("'{operand}'"),
                2 => format!("\"{operand}\""),
                // Each character escaped or not, a variable's characters all alike (`$\{HOME}` is no variable).
                _ => {
                    let mut escaped = String::new();
                    let mut rest = operand.as_str();
                    while let Some(c) = rest.chars().next() {
                        let unit = ["${HOME}", "${PWD}", "$HOME", "$PWD"]
                            .into_iter()
                            .find(|v| rest.starts_with(v))
                            .unwrap_or(&rest[..c.len_utf8()]);
                        let escape = next(2) == 0;
                        escaped.extend(unit.chars().flat_map(|c| escape.then_some('\\').into_iter().chain([c])));
                        rest = &rest[unit.len()..];
                    }
                    escaped
                }
            };
            let line = words.iter().map(|w| if *w == operand { written.clone() } else { w.clone() }).collect::<Vec<_>>().join(" ");
            let analysis = crate::shell::analyze(&line);
            let item = analysis.items.first().unwrap_or_else(|| panic!("{line}: no command"));
            assert_eq!(item.args, words[1..], "{line}: the parser's words");
            let parsed = catastrophic_rm(item.name.as_deref().unwrap_or_default(), &item.args).map(|c| c.target);

            for (how, got) in [(words.join(" "), direct), (line, parsed)] {
                checked += 1;
                let right = match &got {
                    Some(target) => expected.contains(target),
                    None => expected.is_empty(),
                };
                if !right {
                    wrong.push(format!("{how}: guard {got:?}, model {expected:?}"));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {checked} checks disagree with the model:\n{}",
            wrong.len(),
            wrong[..wrong.len().min(40)].join("\n")
        );
        assert_eq!(checked, 2 * OPERANDS);
        assert!(
            refused > OPERANDS / 5 && named_and_passed > OPERANDS / 5,
            "too one-sided: {refused} refused, {named_and_passed} named and passed"
        );
    }
}
