use super::*;
use crate::shell::SubCommandKind;
use Shell::{Cmd, Elvish, Nushell, PowerShell, Rc, Unknown};

const SHELLS_ANALYSED: [Shell; 5] = [Nushell, Elvish, Rc, PowerShell, Cmd];

fn texts(shell: Shell, command: &str) -> Vec<String> {
    analyze(shell, command).items.into_iter().map(|i| i.text).collect()
}

fn vouched(shell: Shell, command: &str) -> bool {
    analyze(shell, command).cannot_vouch.is_none()
}

fn hazard_kinds(shell: Shell, command: &str) -> Vec<HazardKind> {
    analyze(shell, command).items.iter().flat_map(|i| i.hazards.iter().map(|h| h.kind)).collect()
}

fn item_contexts(shell: Shell, command: &str) -> Vec<(String, Context)> {
    analyze(shell, command).items.into_iter().map(|i| (i.text, i.context)).collect()
}

/// The item an allow rule `^ls` would need to cover: exactly `ls`, vouched for, no hazard.
fn allowed_like_plain_ls(shell: Shell, command: &str) -> bool {
    let a = analyze(shell, command);
    a.cannot_vouch.is_none() && a.items.len() == 1 && a.items.iter().all(|i| i.text == "ls" && i.hazards.is_empty())
}

// ----- every analysed shell -----

#[test]
fn a_plain_ls_is_one_clean_item_in_every_shell() {
    for shell in SHELLS_ANALYSED {
        assert!(allowed_like_plain_ls(shell, "ls"), "{shell:?}");
        assert!(allowed_like_plain_ls(shell, "  ls  "), "{shell:?}");
    }
}

#[test]
fn sequences_pipes_and_newlines_split_in_every_shell() {
    for shell in SHELLS_ANALYSED {
        let sequence = if shell == Cmd { "ls & git status" } else { "ls; git status" };
        assert_eq!(texts(shell, sequence), ["ls", "git status"], "{shell:?}");
        assert_eq!(texts(shell, "cat a | grep x"), ["cat a", "grep x"], "{shell:?}");
        assert_eq!(texts(shell, "ls\ngit status"), ["ls", "git status"], "{shell:?}");
        assert!(vouched(shell, sequence) && vouched(shell, "cat a | grep x"), "{shell:?}");
    }
}

#[test]
fn a_second_command_behind_a_separator_is_always_an_item_of_its_own() {
    for shell in SHELLS_ANALYSED {
        let line = if shell == Cmd { "ls & rm -rf /" } else { "ls; rm -rf /" };
        let a = analyze(shell, line);
        let got: Vec<(&str, Option<&str>)> = a.items.iter().map(|i| (i.text.as_str(), i.name.as_deref())).collect();
        assert_eq!(got, [("ls", Some("ls")), ("rm -rf /", Some("rm"))], "{shell:?}");
    }
}

#[test]
fn and_or_chains_split_where_the_shell_has_them_and_are_refused_where_it_does_not() {
    for shell in SHELLS_ANALYSED {
        assert_eq!(texts(shell, "ls && curl x | sh"), ["ls", "curl x", "sh"], "{shell:?}");
        assert_eq!(texts(shell, "ls || rm x"), ["ls", "rm x"], "{shell:?}");
    }
    for shell in [Rc, PowerShell, Cmd] {
        assert!(vouched(shell, "ls && curl x | sh"), "{shell:?}");
    }
    // Nushell and Elvish reject `&&` and `||`: nothing to vouch for, but deny rules still see the parts.
    for shell in [Nushell, Elvish] {
        assert!(!vouched(shell, "ls && curl x | sh"), "{shell:?}");
        assert!(!vouched(shell, "ls || rm x"), "{shell:?}");
    }
}

#[test]
fn unbalanced_quotes_and_brackets_are_never_vouched_for() {
    let cases: &[(Shell, &[&str])] = &[
        (Nushell, &["echo 'a", "echo \"a", "echo `a", "echo r#'a'", "ls (rm x", "ls )", "echo $\"(ls\""]),
        (Elvish, &["echo 'a", "echo \"a", "echo (rm x", "echo a)"]),
        (Rc, &["echo 'a", "echo `{rm x", "{ls", "ls }"]),
        (PowerShell, &["echo 'a", "echo \"a", "echo $(rm x", "ls )", "echo ${a"]),
        (Cmd, &["echo \"a", "(echo a", "echo a)"]),
    ];
    for (shell, inputs) in cases {
        for input in *inputs {
            assert!(!vouched(*shell, input), "{shell:?} {input:?}");
        }
    }
}

#[test]
fn operators_without_a_command_are_never_vouched_for() {
    for shell in SHELLS_ANALYSED {
        for input in ["ls |", "| ls", "ls | | grep x"] {
            assert!(!vouched(shell, input), "{shell:?} {input:?}");
        }
    }
    for shell in [Rc, PowerShell, Cmd] {
        assert!(!vouched(shell, "ls &&"), "{shell:?}");
    }
}

#[test]
fn control_characters_are_never_vouched_for() {
    for shell in SHELLS_ANALYSED {
        assert!(!vouched(shell, "ls\u{1b}[2K x"), "{shell:?}");
        assert!(!vouched(shell, "echo 'a\u{0}b'"), "{shell:?}");
    }
}

#[test]
fn nesting_is_capped_without_exhausting_the_stack() {
    let nesting: [(Shell, &[(&str, &str)]); 5] = [
        (Nushell, &[("(", ")"), ("{", "}"), ("[", "]"), ("$\"(", ")\"")]),
        (Elvish, &[("(", ")"), ("{", "}"), ("[", "]")]),
        (Rc, &[("`{", "}"), ("<{", "}"), ("(", ")"), ("{", "}")]),
        (PowerShell, &[("(", ")"), ("$(", ")"), ("@(", ")"), ("{", "}"), ("\"$(", ")\"")]),
        (Cmd, &[("(", ")")]),
    ];
    for (shell, pairs) in nesting {
        for (open, close) in pairs {
            for head in ["echo ", ""] {
                let deep = format!("{head}{}rm x{}", open.repeat(5_000), close.repeat(5_000));
                let a = analyze(shell, &deep);
                assert!(a.cannot_vouch.is_some(), "{shell:?} {head}{open}");
                assert!(a.items.iter().any(|i| i.text.contains("rm x")), "{shell:?} {head}{open}");
            }
        }
    }
    // Where brackets are ordinary characters they stay in the word.
    assert_eq!(texts(Rc, "echo [a]"), ["echo [a]"]);
    assert_eq!(texts(Cmd, "echo {a}"), ["echo {a}"]);
    // Payloads inside payloads: `nu -c r#'nu -c r##'…'##'#`, forty deep.
    let mut payload = String::from("rm x");
    for level in 1..=40 {
        let hashes = "#".repeat(level);
        payload = format!("nu -c r{hashes}'{payload}'{hashes}");
    }
    let a = analyze(Nushell, &payload);
    assert!(a.cannot_vouch.is_some());
    assert!(a.items.len() <= MAX_DEPTH + 2);
}

#[test]
fn random_bytes_never_panic_and_spans_stay_inside_the_input() {
    let alphabet = [
        'a', 'r', 'e', '0', '2', ' ', ';', '&', '|', '(', ')', '{', '}', '[', ']', '$', '`', '\'', '"', '\\', '<', '>', '\n', '\r', '#',
        '=', '^', '%', '!', '@', '*', ':', '+', '-', 'é', '\u{2019}', '\u{201C}', '\u{2013}', '\u{a0}',
    ];
    for shell in [Nushell, Elvish, Rc, PowerShell, Cmd, Unknown] {
        for s in crate::test_support::random_strings(&alphabet, 4_000, 32, 0x2545_F491_4F6C_DD1D) {
            let a = analyze(shell, &s);
            for item in &a.items {
                assert!(item.start <= item.end && item.end <= s.len(), "{shell:?} {s:?}");
                assert!(s.is_char_boundary(item.start) && s.is_char_boundary(item.end), "{shell:?} {s:?}");
            }
        }
    }
}

/// One pass: the characters a reader looks at (and the text it copies) grow in proportion to the
/// line, so twice the line is at most twice the work (a reader that scans ahead again from every
/// opener would do four times as much), and a bounded number of steps per byte (at most 53 today).
#[test]
fn long_hostile_lines_are_read_in_one_pass() {
    for shell in SHELLS_ANALYSED {
        for unit in ["a;", "'", "(", "$(", "%a", "!a", "`", "^", "r#'", "@'", "{|", "e>| ", "a ", "\"\\", "'a'", "a|"] {
            let work = |n: usize| {
                let line = unit.repeat(n);
                crate::test_support::steps_of(|| drop(analyze(shell, &line)))
            };
            let (once, twice) = (work(5_000), work(10_000));
            let per_byte = twice as f64 / (10_000 * unit.len()) as f64;
            assert!(twice * 100 <= once * 205, "{shell:?} {unit:?}: twice the line took {twice} steps, once {once}: not one pass");
            assert!(per_byte <= 64.0, "{shell:?} {unit:?}: {per_byte:.1} steps per byte");
        }
    }
}

#[test]
fn spans_point_into_the_input() {
    for shell in SHELLS_ANALYSED {
        let input = if shell == Cmd { "dir /b & git status" } else { "ls -la; git status" };
        let a = analyze(shell, input);
        let spans: Vec<&str> = a.items.iter().map(|i| input.get(i.start..i.end).unwrap()).collect();
        let first = if shell == Cmd { "dir /b" } else { "ls -la" };
        assert_eq!(spans, [first, "git status"], "{shell:?}");
    }
}

#[test]
fn executing_flags_are_found_through_each_shells_quoting() {
    assert!(hazard_kinds(Nushell, "find . -delete").contains(&HazardKind::ExecutingFlag));
    assert!(hazard_kinds(Elvish, "git -c core.pager=sh log").contains(&HazardKind::ExecutingFlag));
    assert!(hazard_kinds(Rc, "sed -i s/a/b/ f").contains(&HazardKind::ExecutingFlag));
    assert!(hazard_kinds(PowerShell, "& 'C:\\Git\\bin\\GIT.EXE' -c core.pager=x log").contains(&HazardKind::ExecutingFlag));
    assert!(hazard_kinds(Cmd, "C:\\tools\\find.exe . -delete").contains(&HazardKind::ExecutingFlag));
    assert!(hazard_kinds(Nushell, "git status").is_empty());
}

#[test]
fn shell_payloads_are_analysed_in_their_own_shell() {
    let got = item_contexts(Nushell, "bash -c 'ls && rm -rf x'");
    assert_eq!(
        got,
        [
            ("bash -c ls && rm -rf x".to_owned(), Context::TopLevel),
            ("ls".to_owned(), Context::ShellPayload),
            ("rm -rf x".to_owned(), Context::ShellPayload),
        ]
    );
    assert_eq!(texts(Elvish, "nu -c 'ls; rm x'"), ["nu -c ls; rm x", "ls", "rm x"]);
    assert_eq!(texts(Cmd, "cmd /c \"dir & del x\""), ["cmd /c dir & del x", "dir", "del x"]);
    assert_eq!(texts(Cmd, "powershell -NoProfile -Command \"ls; rm x\""), ["powershell -NoProfile -Command ls; rm x", "ls", "rm x"]);
    assert_eq!(texts(PowerShell, "pwsh -c 'ls; rm x'"), ["pwsh -c ls; rm x", "ls", "rm x"]);
    assert_eq!(texts(PowerShell, "cmd.exe /C 'dir & del x'"), ["cmd.exe /C dir & del x", "dir", "del x"]);
    assert_eq!(texts(Rc, "rc -c 'ls; rm x'"), ["rc -c ls; rm x", "ls", "rm x"]);
    assert!(hazard_kinds(PowerShell, "pwsh -EncodedCommand ZABpAHIA").contains(&HazardKind::UnreadableProgram));
    assert!(!vouched(Nushell, "bash -c 'ls $(rm x'"));
    let a = analyze(Nushell, "bash -c 'ls; rm x'");
    assert!(a.items.iter().skip(1).all(|i| (i.start, i.end) == (0, 18)), "payload items point at their host");
}

// ----- Nushell -----

#[test]
fn nushell_quotes_keep_separators_inside_one_word() {
    assert_eq!(texts(Nushell, "echo 'a; b'"), ["echo a; b"]);
    assert_eq!(texts(Nushell, r#"echo "a | b\"c\tz""#), ["echo a | b\"c\tz"]);
    assert_eq!(texts(Nushell, "echo `a; b`"), ["echo a; b"]);
    assert_eq!(texts(Nushell, "echo r#'it's; ok'#"), ["echo it's; ok"]);
    assert_eq!(texts(Nushell, "echo r##'a'#b'##"), ["echo a'#b"]);
    for input in ["echo 'a; b'", r#"echo "a | b""#, "echo `a; b`", "echo r#'x'#"] {
        assert!(vouched(Nushell, input), "{input}");
    }
}

#[test]
fn nushell_external_prefix_names_the_command_without_its_caret() {
    let a = analyze(Nushell, "^ls -la");
    let item = a.items.first().unwrap();
    assert_eq!((item.text.as_str(), item.name.as_deref()), ("ls -la", Some("ls")));
    assert!(allowed_like_plain_ls(Nushell, "^ls"));
}

#[test]
fn nushell_and_or_are_values_not_chaining() {
    assert_eq!(texts(Nushell, "echo yes and no or maybe"), ["echo yes and no or maybe"]);
}

#[test]
fn nushell_subexpressions_and_interpolation_run_code() {
    let got = item_contexts(Nushell, "ls (rm x)");
    assert_eq!(got, [("ls (rm x)".to_owned(), Context::TopLevel), ("rm x".to_owned(), Context::CommandSubstitution)]);
    assert!(hazard_kinds(Nushell, "ls (rm x)").contains(&HazardKind::Expansion));
    let got = item_contexts(Nushell, r#"echo $"hi (rm -rf x)""#);
    assert_eq!(got.get(1), Some(&("rm -rf x".to_owned(), Context::CommandSubstitution)));
    assert!(hazard_kinds(Nushell, r#"echo $"hi (whoami)""#).contains(&HazardKind::Expansion));
    assert!(hazard_kinds(Nushell, "echo $'(whoami)'").contains(&HazardKind::Expansion));
    // Interpolation without parentheses is only text.
    assert_eq!(texts(Nushell, r#"echo $"plain""#), ["echo plain"]);
    assert!(hazard_kinds(Nushell, r#"echo $"plain""#).is_empty());
}

#[test]
fn nushell_variables_are_expansions() {
    assert_eq!(hazard_kinds(Nushell, "ls $env.HOME"), [HazardKind::Expansion]);
    assert_eq!(texts(Nushell, "ls $env.HOME"), ["ls $env.HOME"]);
}

#[test]
fn nushell_blocks_closures_and_lists_are_not_vouched_but_their_commands_are_seen() {
    let a = analyze(Nushell, "ls | each { |f| rm $f.name }");
    assert!(a.cannot_vouch.is_some());
    assert!(a.items.iter().any(|i| i.text == "rm $f.name" && i.context == Context::Group));
    assert!(!vouched(Nushell, "echo [a b]"));
    assert!(!vouched(Nushell, "echo {a: 1}"));
}

#[test]
fn nushell_keywords_and_expression_statements_are_not_vouched() {
    for input in [
        "let x = 1",
        "mut y = 2",
        "def f [] { rm x }",
        "alias ls = rm -rf",
        "source x.nu",
        "use x.nu",
        "if true { rm x }",
        "do { rm x }",
        "$env.PATH = 'x'",
        "\"ls\"",
        "'ls' | nu",
        "(ls)",
        "ls#x",
        "2 + 2",
    ] {
        assert!(!vouched(Nushell, input), "{input}");
    }
}

#[test]
fn nushell_comments_start_at_a_word() {
    assert_eq!(texts(Nushell, "ls # ; rm x"), ["ls"]);
    assert!(vouched(Nushell, "ls # ; rm x"));
}

#[test]
fn nushell_redirections_write_files_and_stderr_pipes_split() {
    let a = analyze(Nushell, "ls o> out.txt");
    let got: Vec<(&str, SubCommandKind)> = a.items.iter().map(|i| (i.text.as_str(), i.kind)).collect();
    assert_eq!(got, [("ls", SubCommandKind::Command), ("o> out.txt", SubCommandKind::Redirect)]);
    assert!(hazard_kinds(Nushell, "ls out+err>> log").contains(&HazardKind::OutputRedirect));
    assert_eq!(texts(Nushell, "ls e> /dev/null"), ["ls"]);
    assert_eq!(texts(Nushell, "make e>| grep error"), ["make", "grep error"]);
    assert_eq!(texts(Nushell, "make o+e>| grep error"), ["make", "grep error"]);
    assert!(!vouched(Nushell, "ls 2> x"));
    assert!(!vouched(Nushell, "ls 2>&1"));
    assert!(hazard_kinds(Nushell, "ls | save out.json").contains(&HazardKind::OutputRedirect));
    // `>` is a comparison in Nushell, not a redirection.
    assert_eq!(texts(Nushell, "ls | where size > 10kb"), ["ls", "where size > 10kb"]);
}

#[test]
fn nushell_pipeline_may_continue_on_the_next_line() {
    assert_eq!(texts(Nushell, "ls\n| sort-by size"), ["ls", "sort-by size"]);
    assert!(vouched(Nushell, "ls\n| sort-by size"));
}

// ----- Elvish -----

#[test]
fn elvish_quotes_keep_separators_inside_one_word() {
    assert_eq!(texts(Elvish, "echo 'a; b'"), ["echo a; b"]);
    assert_eq!(texts(Elvish, "echo 'it''s'"), ["echo it's"]);
    assert_eq!(texts(Elvish, r#"echo "a|b\"c\td""#), ["echo a|b\"c\td"]);
    // No interpolation in double quotes, and no escapes outside them.
    assert_eq!(texts(Elvish, r#"echo "$x" a\b"#), ["echo $x a\\b"]);
    assert!(hazard_kinds(Elvish, r#"echo "$x""#).is_empty());
}

#[test]
fn elvish_output_capture_is_a_substitution() {
    let got = item_contexts(Elvish, "echo (rm x)");
    assert_eq!(got, [("echo (rm x)".to_owned(), Context::TopLevel), ("rm x".to_owned(), Context::CommandSubstitution)]);
    assert!(hazard_kinds(Elvish, "echo (rm x)").contains(&HazardKind::Expansion));
}

#[test]
fn elvish_variables_are_expansions() {
    assert_eq!(hazard_kinds(Elvish, "ls $E:HOME"), [HazardKind::Expansion]);
    assert_eq!(hazard_kinds(Elvish, "ls $@args"), [HazardKind::Expansion]);
}

#[test]
fn elvish_options_comments_continuations_and_external_prefix() {
    let a = analyze(Elvish, "e:ls &sep=, a");
    let item = a.items.first().unwrap();
    assert_eq!((item.text.as_str(), item.name.as_deref()), ("ls &sep=, a", Some("ls")));
    // `#` starts a comment even inside a word.
    assert_eq!(texts(Elvish, "echo foo#; rm x"), ["echo foo"]);
    assert_eq!(texts(Elvish, "ls ^\n -la"), ["ls -la"]);
    assert!(vouched(Elvish, "ls ^\n -la"));
}

#[test]
fn elvish_redirections() {
    let a = analyze(Elvish, "echo x > out 2>&1");
    let got: Vec<(&str, SubCommandKind)> = a.items.iter().map(|i| (i.text.as_str(), i.kind)).collect();
    assert_eq!(got, [("echo x", SubCommandKind::Command), ("> out", SubCommandKind::Redirect)]);
    assert_eq!(texts(Elvish, "echo x 2> /dev/null < in"), ["echo x", "< in"]);
    assert!(vouched(Elvish, "echo x 2> /dev/null"));
    // A word glued to `>` is read as the descriptor.
    assert!(!vouched(Elvish, "echo x>out"));
}

#[test]
fn elvish_lambdas_lists_and_keywords_are_not_vouched() {
    let a = analyze(Elvish, "each {|x| rm $x } [a b]");
    assert!(a.cannot_vouch.is_some());
    assert!(a.items.iter().any(|i| i.text == "rm $x"));
    for input in ["var x = (rm y)", "set x = 1", "fn f { rm x }", "if $true { rm x }", "use os", "echo a^b"] {
        assert!(!vouched(Elvish, input), "{input}");
    }
    assert!(analyze(Elvish, "var x = (rm y)").items.iter().any(|i| i.text == "rm y"));
    assert!(hazard_kinds(Elvish, "eval 'rm x'").contains(&HazardKind::ExecutingFlag));
}

// ----- rc -----

#[test]
fn rc_splits_every_list_operator() {
    assert_eq!(texts(Rc, "a; b && c || d | e & f"), ["a", "b", "c", "d", "e", "f"]);
    assert_eq!(texts(Rc, "make |[2] grep error"), ["make", "grep error"]);
    assert_eq!(texts(Rc, "ls &"), ["ls"]);
    assert!(vouched(Rc, "a; b && c || d | e & f"));
}

#[test]
fn rc_has_only_single_quotes() {
    assert_eq!(texts(Rc, "echo 'a; b'"), ["echo a; b"]);
    assert_eq!(texts(Rc, "echo 'it''s'"), ["echo it's"]);
    // A double quote is an ordinary character: the `;` inside still separates.
    assert_eq!(texts(Rc, "echo \"a;b\""), ["echo \"a", "b\""]);
    assert_eq!(texts(Rc, "echo a\\b"), ["echo a\\b"]);
}

#[test]
fn rc_substitutions_are_expansions_whose_commands_are_seen() {
    let got = item_contexts(Rc, "echo `{rm x}");
    assert_eq!(got, [("echo `{rm x}".to_owned(), Context::TopLevel), ("rm x".to_owned(), Context::CommandSubstitution)]);
    assert!(hazard_kinds(Rc, "echo `{rm x}").contains(&HazardKind::Expansion));
    let got = item_contexts(Rc, "cmp <{ls a} <{ls b}");
    assert_eq!(got.get(1), Some(&("ls a".to_owned(), Context::ProcessSubstitution)));
    assert_eq!(got.get(2), Some(&("ls b".to_owned(), Context::ProcessSubstitution)));
    // Byron's rc also runs `` `cmd ``: seen, but not vouched for.
    let a = analyze(Rc, "echo `date");
    assert!(a.cannot_vouch.is_some());
    assert!(a.items.iter().any(|i| i.text == "date" && i.context == Context::CommandSubstitution));
}

#[test]
fn rc_variables_and_assignments() {
    assert_eq!(hazard_kinds(Rc, "echo $home $#path $x(1)"), [HazardKind::Expansion; 3]);
    let a = analyze(Rc, "path=/tmp ls");
    let item = a.items.first().unwrap();
    assert_eq!((item.text.as_str(), item.name.as_deref()), ("path=/tmp ls", Some("ls")));
    assert_eq!(hazard_kinds(Rc, "path=/tmp ls"), [HazardKind::EnvAssignment]);
    assert_eq!(texts(Rc, "echo a=b"), ["echo a=b"]);
}

#[test]
fn rc_redirections() {
    let a = analyze(Rc, "ls > out >[2=1]");
    let got: Vec<(&str, SubCommandKind)> = a.items.iter().map(|i| (i.text.as_str(), i.kind)).collect();
    assert_eq!(got, [("ls", SubCommandKind::Command), ("> out", SubCommandKind::Redirect)]);
    assert_eq!(texts(Rc, "make >[2] err.txt"), ["make", ">[2] err.txt"]);
    assert_eq!(texts(Rc, "ls >> /dev/null"), ["ls"]);
    assert_eq!(hazard_kinds(Rc, "wc < in"), []);
    assert!(!vouched(Rc, "cat <<EOF"));
}

#[test]
fn rc_groups_keywords_carets_and_continuations() {
    assert_eq!(item_contexts(Rc, "{ls; rm x}"), [("ls".to_owned(), Context::Group), ("rm x".to_owned(), Context::Group)]);
    assert!(vouched(Rc, "{ls; rm x}"));
    let a = analyze(Rc, "if(test -f x) rm x");
    assert!(a.cannot_vouch.is_some());
    assert_eq!(a.items.iter().map(|i| i.text.as_str()).collect::<Vec<_>>(), ["test -f x", "rm x"]);
    assert_eq!(texts(Rc, "if not rm x"), ["rm x"]);
    assert!(!vouched(Rc, "fn ls { rm x }"));
    assert!(!vouched(Rc, "echo (a b)"));
    assert_eq!(texts(Rc, "echo a^b"), ["echo ab"]);
    assert!(vouched(Rc, "echo a^b"));
    assert!(!vouched(Rc, "echo a ^ b"));
    // A caret where its word ends joins nothing, whatever ends it.
    for line in ["echo a^", "echo a^;", "{echo a^}", "echo a^>f", "echo a^#x", "echo a^\\\nb"] {
        assert!(!vouched(Rc, line), "{line:?}");
    }
    assert_eq!(texts(Rc, "echo a\\\nb"), ["echo a b"]);
    assert_eq!(texts(Rc, "echo foo#; rm x"), ["echo foo"]);
    assert_eq!(texts(Rc, "! ls"), ["ls"]);
    // A line continuation after a prefix operator is a blank: `!\` and a newline, then `rm x`,
    // negates `rm x` (it was a command named `!`, out of reach of deny rules on `rm`).
    for line in ["!\\\nrm x", "@\\\nrm x", "! \\\nrm x"] {
        assert_eq!(texts(Rc, line), ["rm x"], "{line:?}");
        assert!(vouched(Rc, line), "{line:?}");
    }
    // With no command after it, whatever blanks and continuations stand between, it is not vouched for.
    for line in ["!", "! ", "!\\\n ", "!\\\n", "! ;", "!\\\n;", "{!\\\n}", "!\\\n#x", "@ "] {
        assert!(!vouched(Rc, line), "{line:?}");
    }
}

// ----- PowerShell -----

#[test]
fn powershell_quotes_keep_separators_inside_one_word() {
    assert_eq!(texts(PowerShell, "echo 'a; b'"), ["echo a; b"]);
    assert_eq!(texts(PowerShell, "echo 'it''s'"), ["echo it's"]);
    assert_eq!(texts(PowerShell, "echo \"a`\"b | c\""), ["echo a\"b | c"]);
    assert_eq!(texts(PowerShell, "echo \"a\"\"b\""), ["echo a\"b"]);
    assert_eq!(texts(PowerShell, "echo a`;b"), ["echo a;b"]);
    assert!(vouched(PowerShell, "echo 'a; b'"));
}

#[test]
fn powershell_subexpressions_and_variables_are_expansions_whose_commands_are_seen() {
    for input in ["echo $(rm x)", "echo \"$(rm x)\"", "echo @(rm x)", "echo (rm x)"] {
        let a = analyze(PowerShell, input);
        assert!(a.items.iter().any(|i| i.text == "rm x" && i.context == Context::CommandSubstitution), "{input}");
        assert!(a.items.first().unwrap().hazards.iter().any(|h| h.kind == HazardKind::Expansion), "{input}");
    }
    assert_eq!(hazard_kinds(PowerShell, "echo $env:PATH"), [HazardKind::Expansion]);
    assert_eq!(hazard_kinds(PowerShell, "echo \"hi $name\""), [HazardKind::Expansion]);
    assert_eq!(hazard_kinds(PowerShell, "git @args"), [HazardKind::Expansion]);
    assert_eq!(hazard_kinds(PowerShell, "echo 'no $expansion'"), []);
}

#[test]
fn powershell_call_operator_names_the_called_command() {
    let a = analyze(PowerShell, "& 'C:\\Program Files\\Git\\bin\\git.exe' status");
    let item = a.items.first().unwrap();
    assert_eq!(item.name.as_deref(), Some("C:\\Program Files\\Git\\bin\\git.exe"));
    assert_eq!(item.args, ["status"]);
    assert!(a.cannot_vouch.is_none());
    assert!(hazard_kinds(PowerShell, "& $tool").contains(&HazardKind::Expansion));
    assert!(vouched(PowerShell, "& $tool") && !vouched(PowerShell, "$tool"));
    assert!(!vouched(PowerShell, "&"));
}

#[test]
fn powershell_background_ampersand_separates() {
    assert_eq!(texts(PowerShell, "ls &"), ["ls"]);
    assert_eq!(texts(PowerShell, "ls & rm x"), ["ls", "rm x"]);
    assert!(!vouched(PowerShell, "echo a&b"));
}

#[test]
fn powershell_script_blocks_hashtables_and_here_strings_are_not_vouched() {
    let a = analyze(PowerShell, "ls | ForEach-Object { Remove-Item $_ }");
    assert!(a.cannot_vouch.is_some());
    assert!(a.items.iter().any(|i| i.text == "Remove-Item $_"));
    for input in ["New-Object -Property @{a=1}", "echo @'\nx\n'@", "if ($true) { rm x }", "function f { rm x }"] {
        assert!(!vouched(PowerShell, input), "{input:?}");
    }
}

#[test]
fn powershell_expression_statements_are_not_vouched() {
    for input in ["$x = 'rm'", "'ls' | iex", "[IO.File]::Delete('x')", "1..3", "\"ls\"", "(ls).Delete()", "$x.Delete()"] {
        assert!(!vouched(PowerShell, input), "{input}");
    }
}

#[test]
fn powershell_commands_that_run_text_are_hazards() {
    for input in ["iex 'rm x'", "Invoke-Expression $code", "Start-Process rm", "Set-Alias ls rm", ". ./profile.ps1"] {
        assert!(hazard_kinds(PowerShell, input).contains(&HazardKind::ExecutingFlag), "{input}");
    }
}

#[test]
fn powershell_redirections() {
    let a = analyze(PowerShell, "ls > out.txt 2>&1");
    let got: Vec<(&str, SubCommandKind)> = a.items.iter().map(|i| (i.text.as_str(), i.kind)).collect();
    assert_eq!(got, [("ls", SubCommandKind::Command), ("> out.txt", SubCommandKind::Redirect)]);
    assert_eq!(texts(PowerShell, "ls *>> log.txt"), ["ls", "*>> log.txt"]);
    assert_eq!(texts(PowerShell, "ls 2> $null"), ["ls"]);
    assert!(hazard_kinds(PowerShell, "ls 2> $null").is_empty());
    assert!(!vouched(PowerShell, "sort < in.txt"));
}

#[test]
fn powershell_typographic_quotes_dashes_and_spaces_are_not_vouched() {
    let a = analyze(PowerShell, "echo \u{2018}a; b\u{2019}");
    assert!(a.cannot_vouch.is_some());
    assert_eq!(a.items.iter().map(|i| i.text.as_str()).collect::<Vec<_>>(), ["echo a; b"]);
    assert_eq!(texts(PowerShell, "rm \u{2013}Recurse x"), ["rm -Recurse x"]);
    assert!(!vouched(PowerShell, "rm \u{2013}Recurse x"));
    assert!(!vouched(PowerShell, "echo \u{201C}a\u{201D}"));
    assert_eq!(texts(PowerShell, "ls\u{a0}-la"), ["ls -la"]);
    assert!(!vouched(PowerShell, "ls\u{a0}-la"));
}

#[test]
fn powershell_comments_continuations_and_stop_parsing() {
    assert_eq!(texts(PowerShell, "ls # ; rm x"), ["ls"]);
    assert_eq!(texts(PowerShell, "ls `\n -Force"), ["ls -Force"]);
    assert_eq!(texts(PowerShell, "ls a#b"), ["ls a#b"]);
    assert!(!vouched(PowerShell, "ls <# ; #> x"));
    assert!(!vouched(PowerShell, "icacls x --% /grant a"));
}

// ----- cmd -----

#[test]
fn cmd_quotes_and_carets_keep_operators_inside_one_word() {
    assert_eq!(texts(Cmd, "echo \"a & b\""), ["echo a & b"]);
    assert_eq!(texts(Cmd, "echo a ^& b ^| c"), ["echo a & b | c"]);
    assert_eq!(texts(Cmd, "r^m x"), ["rm x"]);
    assert!(vouched(Cmd, "echo \"a & b\""));
}

#[test]
fn cmd_percent_variables_are_expansions_and_not_vouched() {
    let a = analyze(Cmd, "echo %PATH%");
    assert!(a.cannot_vouch.is_some());
    assert_eq!(hazard_kinds(Cmd, "echo %PATH%"), [HazardKind::Expansion]);
    assert_eq!(hazard_kinds(Cmd, "echo \"%USERPROFILE%\\x\""), [HazardKind::Expansion]);
    assert_eq!(texts(Cmd, "echo 50%"), ["echo 50%"]);
    assert!(vouched(Cmd, "echo 50%"));
}

#[test]
fn cmd_delayed_expansion_is_a_hazard() {
    assert_eq!(hazard_kinds(Cmd, "echo !X!"), [HazardKind::Expansion]);
    assert!(vouched(Cmd, "echo !X!"));
    assert_eq!(hazard_kinds(Cmd, "echo hi!"), []);
}

#[test]
fn cmd_blocks_and_control_commands_are_not_vouched_but_seen() {
    let a = analyze(Cmd, "(echo a & rm x)");
    assert!(a.cannot_vouch.is_some());
    assert_eq!(item_contexts(Cmd, "(echo a & rm x)"), [("echo a".to_owned(), Context::Group), ("rm x".to_owned(), Context::Group)]);
    for input in ["if exist x del x", "for %i in (*) do del %i", "rem & del x", ":: & del x", "goto end", ";del x"] {
        assert!(!vouched(Cmd, input), "{input}");
    }
}

#[test]
fn cmd_builtins_glued_to_their_arguments_are_not_vouched() {
    for input in ["rd/s/q x", "echo.", "cd..", "del/q x", "dir,x"] {
        assert!(!vouched(Cmd, input), "{input}");
    }
    assert!(vouched(Cmd, "git status"));
    assert!(vouched(Cmd, "delta x"));
}

#[test]
fn cmd_redirections_and_nul() {
    let a = analyze(Cmd, "dir > out.txt 2>&1");
    let got: Vec<(&str, SubCommandKind)> = a.items.iter().map(|i| (i.text.as_str(), i.kind)).collect();
    assert_eq!(got, [("dir", SubCommandKind::Command), ("> out.txt", SubCommandKind::Redirect)]);
    assert_eq!(texts(Cmd, "dir > nul 2>NUL"), ["dir"]);
    assert_eq!(hazard_kinds(Cmd, "sort < in.txt"), []);
    assert_eq!(texts(Cmd, "sort < in.txt"), ["sort", "< in.txt"]);
    // cmd reads `2>` as a redirection even glued to a word.
    assert_eq!(texts(Cmd, "echo a2>x"), ["echo a", "2> x"]);
}

#[test]
fn cmd_set_call_and_start_are_hazards_and_at_sign_is_dropped() {
    assert_eq!(hazard_kinds(Cmd, "set X=1"), [HazardKind::EnvAssignment]);
    assert_eq!(texts(Cmd, "set X=1 & git status"), ["set X=1", "git status"]);
    assert!(hazard_kinds(Cmd, "call x.bat").contains(&HazardKind::ExecutingFlag));
    assert!(hazard_kinds(Cmd, "start rm x").contains(&HazardKind::ExecutingFlag));
    let a = analyze(Cmd, "@echo off");
    assert_eq!(a.items.first().and_then(|i| i.name.as_deref()), Some("echo"));
}

#[test]
fn cmd_does_not_continue_an_operator_on_the_next_line() {
    assert!(!vouched(Cmd, "dir |\nfind x"));
    assert!(vouched(PowerShell, "ls |\n sort"));
}

// ----- Unknown -----

#[test]
fn unknown_shells_get_one_raw_item_and_nothing_is_vouched() {
    let a = analyze(Unknown, "  ls; rm -rf /  ");
    assert!(a.cannot_vouch.is_some());
    let got: Vec<(&str, usize, usize)> = a.items.iter().map(|i| (i.text.as_str(), i.start, i.end)).collect();
    assert_eq!(got, [("ls; rm -rf /", 2, 14)]);
    let a = analyze(Unknown, "   ");
    assert!(a.items.is_empty() && a.cannot_vouch.is_some());
}
