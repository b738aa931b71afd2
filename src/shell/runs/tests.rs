#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use super::*;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

/// The invocation of a line of blank-separated words, none expanded.
fn read(line: &str) -> Invocation {
    let w: Vec<&str> = line.split_whitespace().collect();
    let assignments = w.iter().take_while(|w| w.contains('=') && !w.starts_with('-')).count();
    invocation(&w, assignments, &vec![false; w.len()], Shell::Posix)
}

fn forms(line: &str) -> Vec<String> {
    read(line).forms.into_iter().map(|f| f.text).collect()
}

#[test]
fn every_wrapper_names_its_source() {
    for (name, source) in wrappers() {
        assert!(source.len() > 10, "{name}: {source}");
    }
}

#[test]
fn wrappers_are_followed() {
    let w = words("sudo -u root env A=1 nice -n 5 timeout -s 9 10 find . -delete");
    let (name, args) = w.split_first().unwrap();
    let (inner, rest) = effective_command(name, args);
    assert_eq!(inner, "find");
    assert_eq!(rest, &words(". -delete")[..]);
}

#[test]
fn the_forms_reach_the_program_past_every_wrapper_and_path() {
    assert_eq!(forms("timeout 5 rm x"), ["rm x"]);
    assert_eq!(forms("nice -n 5 nohup rm -rf tmp/"), ["nohup rm -rf tmp/", "rm -rf tmp/"]);
    assert_eq!(forms("env A=1 sudo -u root rm x"), ["sudo -u root rm x", "rm x"]);
    assert_eq!(forms("FOO=bar /bin/rm -rf tmp/"), ["/bin/rm -rf tmp/", "rm -rf tmp/"]);
    assert_eq!(forms("xargs -n 1 rm"), ["rm"]);
    assert_eq!(forms("command -p rm x"), ["rm x"]);
    assert_eq!(forms("sudo -T 5 rm x"), ["rm x"]);
    assert_eq!(forms("chroot /srv curl x"), ["curl x"]);
    assert_eq!(forms("busybox wget x"), ["wget x"]);
    assert_eq!(forms("find . -name y -exec curl {} ;"), ["curl {}"]);
    assert_eq!(forms("find . -exec rm {} + -execdir curl x ;"), ["rm {}", "curl x"]);
    assert!(forms("command -v rm").is_empty());
    assert!(forms("timeout").is_empty());
    assert_eq!(read("exec -a name ./curl x").program.as_deref(), Some("curl"));
    assert_eq!(read("command rm -rf build").program.as_deref(), Some("rm"));
    assert_eq!(read("command -v rm").program.as_deref(), Some("command"));
}

#[test]
fn a_form_names_which_word_runs() {
    let inv = read("X=1 sudo -u root curl x");
    let at: Vec<(String, usize)> = inv.forms.into_iter().map(|f| (f.name, f.program_word)).collect();
    assert_eq!(at, [("sudo".to_owned(), 0), ("curl".to_owned(), 3)]);
}

#[test]
fn a_stack_of_wrappers_deeper_than_followed_is_unreadable() {
    assert!(read(&format!("{}rm x", "nohup ".repeat(8))).forms.iter().any(|f| f.text == "rm x"));
    let deep = read(&format!("{}rm x", "nohup ".repeat(40)));
    assert!(deep.unreadable.is_some());
    assert!(deep.forms.len() <= MAX_FORMS);
}

#[test]
fn scripts_other_programs_run_are_read() {
    let script = |line: &str| {
        let w: Vec<&str> = line.split_whitespace().collect();
        let inv = read(line);
        inv.scripts.iter().map(|s| s.text(w.iter().map(|w| (*w, &[][..]))).0).collect::<Vec<_>>()
    };
    assert_eq!(script("sh -c x"), ["x"]);
    assert_eq!(script("sudo bash -c x"), ["x"]);
    assert_eq!(script("busybox sh -c x"), ["x"]);
    assert_eq!(script("su -c x root"), ["x"]);
    assert_eq!(script("su root --command=x"), ["x"]);
    assert_eq!(script("script -q -c x /dev/null"), ["x"]);
    assert_eq!(script("eval curl x"), ["curl x"]);
    assert_eq!(script("watch -n 1 curl x"), ["curl x"]);
    assert_eq!(script("trap x EXIT"), ["x"]);
    assert_eq!(script("flock /tmp/l -c x"), ["x"]);
    assert_eq!(script("sudo -i curl x"), ["curl x"]);
    assert_eq!(script("sg wheel -c x"), ["x"]);
    assert_eq!(script("env -S x"), ["x"]);
    assert_eq!(script("parallel curl ::: a b"), ["curl"]);
    assert!(script("watch -x curl x").is_empty(), "watch -x execs its command");
}

#[test]
fn programs_the_text_does_not_show_are_unreadable() {
    for line in [
        "source ./s.sh",
        ". ./s.sh",
        "alias c=curl",
        "xargs",
        "xargs -0",
        "bash s.sh",
        "python -c print(1)",
        "python3 -Bc print(1)",
        "perl -pe s/a/b/",
        "node --eval=x",
        "pwsh -EncodedCommand abc",
        "find . -exec {} ;",
        "xargs -I % % x",
        "parallel ::: a b",
        "sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo sudo curl",
    ] {
        assert!(read(line).unreadable.is_some(), "{line}");
    }
    for line in ["ls -la", "alias", "git status", "python x.py", "node app.js", "xargs rm", "sudo curl x", "trap - INT"] {
        assert_eq!(read(line).unreadable, None, "{line}");
    }
    let expanded = invocation(&["$X", "x"], 0, &[true, false], Shell::Posix);
    assert!(expanded.unreadable.is_some());
}

#[test]
fn a_shell_without_a_script_reads_standard_input() {
    assert_eq!(read("bash").reads_stdin, Some(Shell::Posix));
    assert_eq!(read("sh -s").reads_stdin, Some(Shell::Posix));
    assert_eq!(read("sudo -s").reads_stdin, Some(Shell::Posix));
    assert_eq!(read("su root").reads_stdin, Some(Shell::Posix));
    assert_eq!(read("bash -c x").reads_stdin, None);
    assert_eq!(read("pwsh").reads_stdin, Some(Shell::PowerShell));
}

#[test]
fn powershell_aliases_are_the_cmdlets_they_name() {
    let ps = |line: &str| {
        let w: Vec<&str> = line.split_whitespace().collect();
        invocation(&w, 0, &vec![false; w.len()], Shell::PowerShell)
    };
    for line in
        ["rm -r x", "ri x", "del x", "erase x", "rd x", "rmdir x", "Microsoft.PowerShell.Management\\Remove-Item x", "REMOVE-ITEM x"]
    {
        assert!(ps(line).forms.iter().any(|f| f.text == "Remove-Item x" || f.text == "Remove-Item -r x"), "{line}: {:?}", ps(line).forms);
    }
    assert_eq!(ps("iex x").scripts.len(), 1);
    assert_eq!(ps("Invoke-Expression x").scripts.len(), 1);
    assert!(ps("iex").unreadable.is_some());
}
