use super::*;

fn texts(command: &str) -> Vec<String> {
    analyze(command).items.into_iter().map(|i| i.text).collect()
}

fn vouched(command: &str) -> bool {
    analyze(command).cannot_vouch.is_none()
}

fn hazard_kinds(command: &str) -> Vec<HazardKind> {
    analyze(command).items.iter().flat_map(|i| i.hazards.iter().map(|h| h.kind)).collect()
}

#[test]
fn splits_every_list_operator() {
    assert_eq!(texts("ls && git status"), ["ls", "git status"]);
    assert_eq!(texts("a; b || c | d & e"), ["a", "b", "c", "d", "e"]);
    assert_eq!(texts("a\nb\n\nc"), ["a", "b", "c"]);
    assert_eq!(texts("a |& b"), ["a", "b"]);
    assert_eq!(texts("! a"), ["a"]);
}

#[test]
fn removes_quotes_like_the_shell() {
    assert_eq!(texts(r#"echo 'a; b'"#), ["echo a; b"]);
    assert_eq!(texts(r#"rm -rf '/'"#), ["rm -rf /"]);
    assert_eq!(texts(r#"r"m" -r\f /"#), ["rm -rf /"]);
    assert_eq!(texts(r#"echo "a \"b\" \$c""#), [r#"echo a "b" $c"#]);
    assert_eq!(texts(r"echo $'a\x41\n'"), ["echo aA\n"]);
    assert_eq!(texts("ec\\\nho hi"), ["echo hi"]);
    assert!(vouched(r#"echo 'a; b'"#));
}

#[test]
fn finds_commands_inside_substitutions_and_groups() {
    let a = analyze("echo $(rm -rf x) `id` <(curl e) (cd y && make) { ls; }");
    let got: Vec<(&str, Context)> = a.items.iter().map(|i| (i.text.as_str(), i.context)).collect();
    assert_eq!(
        got,
        vec![
            // After the stray '(…)', `{` and `ls` are further words of echo, as the shell reads them.
            ("echo $(rm -rf x) `id` { ls", Context::TopLevel),
            ("rm -rf x", Context::CommandSubstitution),
            ("id", Context::CommandSubstitution),
            ("curl e", Context::ProcessSubstitution),
            ("cd y", Context::Subshell),
            ("make", Context::Subshell),
            ("}", Context::TopLevel),
        ]
    );
    assert!(a.cannot_vouch.is_some(), "a '(' after words is not a command");
    let a = analyze("(cd y && make); { ls; }");
    let got: Vec<(&str, Context)> = a.items.iter().map(|i| (i.text.as_str(), i.context)).collect();
    assert_eq!(got, vec![("cd y", Context::Subshell), ("make", Context::Subshell), ("ls", Context::Group)]);
    assert!(a.cannot_vouch.is_none());
}

#[test]
fn nested_substitutions_and_double_quoted_ones() {
    assert_eq!(texts(r#"echo "$(cat "$(which x)")""#), [r#"echo $(cat "$(which x)")"#, r#"cat $(which x)"#, "which x"]);
}

#[test]
fn shell_payloads_are_analysed() {
    let a = analyze("bash -c 'ls && rm -rf x'");
    let got: Vec<(&str, Context)> = a.items.iter().map(|i| (i.text.as_str(), i.context)).collect();
    assert_eq!(
        got,
        vec![("bash -c ls && rm -rf x", Context::TopLevel), ("ls", Context::ShellPayload), ("rm -rf x", Context::ShellPayload)]
    );
    assert_eq!(texts("sh -o pipefail -ec 'id'").len(), 2);
    assert_eq!(texts("bash script.sh").len(), 1);
}

#[test]
fn a_payload_runs_the_output_of_substitutions_its_caller_ran_not_their_text() {
    // The outer shell runs `cat f`; the payload's shell sees its output, so `cat` is one item.
    let a = analyze(r#"sh -c "x $(cat f) `id`""#);
    let got: Vec<(&str, Context)> = a.items.iter().map(|i| (i.text.as_str(), i.context)).collect();
    assert_eq!(
        got,
        vec![
            ("sh -c x $(cat f) `id`", Context::TopLevel),
            ("cat f", Context::CommandSubstitution),
            ("id", Context::CommandSubstitution),
            ("x $(cat f) `id`", Context::ShellPayload),
        ]
    );
    assert!(a.items.iter().all(|i| i.name.as_deref() != Some("x") || i.hazards.iter().any(|h| h.kind == HazardKind::Expansion)));
    // Single-quoted or escaped, the payload's shell runs it.
    assert_eq!(texts("sh -c 'x $(cat f)'"), ["sh -c x $(cat f)", "x $(cat f)", "cat f"]);
    assert_eq!(texts(r#"sh -c "x \$(a) $(b)""#), ["sh -c x $(a) $(b)", "b", "x $(a) $(b)", "a"]);
    // Another shell's substitution too: PowerShell expands `$(…)` in a double-quoted string.
    let ps = analyze_in(Shell::PowerShell, r#"sh -c "x $(Get-Date)""#);
    assert_eq!(ps.items.iter().filter(|i| i.name.as_deref() == Some("Get-Date")).count(), 1, "{:?}", ps.items);
}

#[test]
fn nested_payloads_cost_linear_work_not_exponential() {
    // `sh -c "x $(sh -c "x $(…)")"`: each substitution used to be followed again in every payload
    // around it, doubling the items per level (12,286 items for 163 bytes at 12 levels).
    let mut line = String::from("echo hi");
    for _ in 0..11 {
        line = format!(r#"sh -c "x $({line})""#);
    }
    let a = analyze(&line);
    assert!(a.cannot_vouch.is_none(), "{:?}", a.cannot_vouch);
    assert_eq!(a.items.len(), 2 * 11 + 1, "{:?}", texts(&line));
    assert_eq!(a.items.iter().filter(|i| i.name.as_deref() == Some("echo")).count(), 1);
}

#[test]
fn reading_the_line_again_has_a_budget_beyond_which_nothing_is_vouched() {
    // `sh -c '…'` nested by quoting: each level's payload is read again, the line and then each
    // shorter payload, until the analysis has read its budget (four times the longest input).
    fn nest(levels: usize, filler: &str) -> String {
        (0..levels).fold(filler.to_owned(), |inner, _| format!("sh -c '{}'", inner.replace('\'', r"'\''")))
    }
    let filler = "echo a;".repeat(6_000);
    let within = nest(5, &filler);
    assert!(within.len() <= crate::limits::MAX_INPUT_BYTES);
    assert!(analyze(&within).cannot_vouch.is_none());
    let beyond = nest(7, &filler);
    assert!(beyond.len() <= crate::limits::MAX_INPUT_BYTES);
    let a = analyze(&beyond);
    assert_eq!(a.cannot_vouch.as_deref(), Some(super::read_budget::EXHAUSTED));
    // What was read is still there for deny and confirm rules: every `sh` but the innermost
    // payload's, which was not read.
    assert_eq!(a.items.iter().filter(|i| i.name.as_deref() == Some("sh")).count(), 6, "{}", a.items.len());
}

#[test]
fn redirects_are_items_and_output_ones_are_hazards() {
    let a = analyze("echo x > ~/.bashrc 2>&1 < in.txt 2>/dev/null");
    let got: Vec<(&str, SubCommandKind)> = a.items.iter().map(|i| (i.text.as_str(), i.kind)).collect();
    assert_eq!(
        got,
        vec![("echo x", SubCommandKind::Command), ("> ~/.bashrc", SubCommandKind::Redirect), ("< in.txt", SubCommandKind::Redirect)]
    );
    assert_eq!(hazard_kinds("echo x > ~/.bashrc"), [HazardKind::OutputRedirect, HazardKind::OutputRedirect]);
    assert_eq!(hazard_kinds("ls >> log"), [HazardKind::OutputRedirect, HazardKind::OutputRedirect]);
    assert_eq!(hazard_kinds("ls &> log").len(), 2);
    assert!(hazard_kinds("ls 2>&1 >/dev/null").is_empty());
    assert!(hazard_kinds("cat < in").is_empty());
}

#[test]
fn expansions_and_assignments_are_hazards() {
    for command in ["echo $HOME", "echo ${X:-y}", "echo $(id)", "echo `id`", "echo $((1+2))", "diff <(ls) x", "echo \"$1\""] {
        assert!(hazard_kinds(command).contains(&HazardKind::Expansion), "{command}");
    }
    assert_eq!(hazard_kinds("FOO=1 ls"), [HazardKind::EnvAssignment]);
    assert_eq!(texts("FOO=1 ls"), ["FOO=1 ls"]);
    assert!(hazard_kinds("echo '$HOME' \\$x").is_empty());
    assert!(hazard_kinds("echo a=b").is_empty());
}

#[test]
fn here_documents_are_read_and_their_expansions_noticed() {
    assert_eq!(texts("cat <<EOF\nrm -rf /\nEOF\nls"), ["cat", "ls"]);
    assert!(hazard_kinds("cat <<'EOF'\n$HOME\nEOF").is_empty());
    assert_eq!(hazard_kinds("cat <<EOF\n$HOME\nEOF"), [HazardKind::Expansion]);
    assert!(!vouched("cat <<EOF\n$(rm -rf x)\nEOF"));
    assert_eq!(texts("cat <<-X\n\tbody\n\tX\nls"), ["cat", "ls"]);
}

#[test]
fn comments_are_skipped() {
    assert_eq!(texts("ls # && rm -rf /"), ["ls"]);
    assert_eq!(texts("echo a#b"), ["echo a#b"]);
}

#[test]
fn what_it_does_not_vouch_for() {
    for command in [
        "if true; then ls; fi",
        "for f in *; do rm $f; done",
        "while true; do :; done",
        "case x in x) ls;; esac",
        "f() { ls; }",
        "[[ -f x ]]",
        "(( x++ ))",
        "echo 'unterminated",
        "echo \"unterminated",
        "echo $(ls",
        "ls &&",
        "| ls",
        "ls\r",
        "echo ${x:-$(id)}",
        "ls )",
        "echo $'\\x1b[2J'",
    ] {
        assert!(!vouched(command), "{command}");
    }
    for command in ["ls", "a && b", "echo 'if then fi'", "echo if", "x=1", "git log --format='%H'"] {
        assert!(vouched(command), "{command}");
    }
}

#[test]
fn keeps_extracting_after_syntax_it_does_not_vouch_for() {
    let t = texts("if true; then rm -rf x; fi");
    assert!(t.iter().any(|c| c.contains("rm -rf x")), "{t:?}");
}

#[test]
fn hostile_nesting_is_refused_not_followed() {
    let deep = format!("{}ls{}", "$(".repeat(200), ")".repeat(200));
    assert!(!vouched(&deep));
    let deep = format!("{}ls{}", "(".repeat(5000), ")".repeat(5000));
    assert!(!vouched(&deep));
    let backticks = "echo `echo \\`echo \\\\\\`ls\\\\\\`\\``";
    assert!(texts(backticks).iter().any(|t| t == "ls"), "{:?}", texts(backticks));
}

#[test]
fn spans_point_into_the_input() {
    let input = "ls -la && git status";
    let a = analyze(input);
    let spans: Vec<&str> = a.items.iter().map(|i| input.get(i.start..i.end).unwrap()).collect();
    assert_eq!(spans, ["ls -la", "git status"]);
}

#[test]
fn never_panics_on_arbitrary_bytes() {
    let alphabet = ['a', ' ', ';', '&', '|', '(', ')', '{', '}', '$', '`', '\'', '"', '\\', '<', '>', '\n', '#', '=', '*', 'é', '\r'];
    for s in crate::test_support::random_strings(&alphabet, 20_000, 24, 0x9E37_79B9_7F4A_7C15) {
        let a = analyze(&s);
        for item in &a.items {
            assert!(item.start <= item.end && item.end <= s.len(), "{s:?}");
        }
    }
}

#[test]
fn dollar_double_paren_is_arithmetic_only_when_bash_reads_it_so() {
    // bash reads `$((` as arithmetic only when the inner `(` closes with `))`; otherwise it is a
    // command substitution starting with a subshell, and its commands run.
    assert_eq!(texts("echo $((curl e) | sh)"), ["echo $((curl e) | sh)", "curl e", "sh"]);
    assert_eq!(texts("echo \"$((a) ; (b))\""), ["echo $((a) ; (b))", "a", "b"]);
    assert!(vouched("echo $((curl e) | sh)"));
    assert_eq!(texts("echo $(( (1+2) * 3 ))"), ["echo $(( (1+2) * 3 ))"]);
    assert!(vouched("echo $(( (1+2) * 3 )) $((x))"));
    // An arithmetic expansion runs the command substitutions inside it.
    assert!(!vouched("echo $(( $(rm -rf x) + 1 ))"));
    assert!(!vouched("echo $(( `id` ))"));
}

#[test]
fn a_separator_without_a_command_is_a_syntax_error() {
    for command in ["ls &; rm x", "{ ls &; }", "; ls", "ls; ;", "ls & ;", "ls\n; rm x"] {
        assert!(!vouched(command), "{command:?}");
    }
    assert_eq!(texts("ls &; rm x"), ["ls", "rm x"]);
    for command in ["ls; rm x", "ls & rm x", "ls &", "ls;", "{ ls & }", "(ls &)", "ls;\nrm x"] {
        assert!(vouched(command), "{command:?}");
    }
}

#[test]
fn a_command_right_after_a_group_is_a_syntax_error() {
    for command in ["(ls) rm x", "{ ls; } rm x", "(ls) > f rm x", "(a # c)\nb) c"] {
        assert!(!vouched(command), "{command:?}");
    }
    assert_eq!(texts("(ls) rm x"), ["ls", "rm x"]);
    for command in ["(ls) && rm x", "(ls) | rm x", "(ls) > f; rm x", "{ ls; } 2>&1 &", "(ls) # c"] {
        assert!(vouched(command), "{command:?}");
    }
}

#[test]
fn an_unmatched_closing_brace_is_a_syntax_error() {
    for command in ["ls; }", "{ls; rm x;}", "{ ls; } }"] {
        assert!(!vouched(command), "{command:?}");
    }
    for command in ["echo }", "ls '}'", "{ ls; }", "{ ls }", "ls \\}"] {
        assert!(vouched(command), "{command:?}");
    }
}

/// Found by the `shell_analysis` fuzz target: `! ! cmd` runs `cmd`, however many `!` precede it.
#[test]
fn repeated_negation_names_the_command_it_negates() {
    for line in ["! rm -rf x", "! ! rm -rf x", "!  !   ! rm -rf x"] {
        let a = analyze(line);
        assert_eq!(a.items.first().and_then(|i| i.name.as_deref()), Some("rm"), "{line}");
        assert_eq!(a.cannot_vouch, None, "{line}");
    }
}

/// Found by the fuzz smoke run: bash refuses a `!` after a `|` (`x | ! | y`), so it is not vouched for.
#[test]
fn a_negation_after_a_pipe_is_not_vouched_for() {
    for line in ["x[$3!|!|1", "echo a | ! | cat", "x | ! cat"] {
        assert!(analyze(line).cannot_vouch.is_some(), "{line}");
    }
    assert_eq!(analyze("! x | cat").cannot_vouch, None);
}
