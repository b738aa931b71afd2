//! bash is the last word on what a line runs. Generated lines (wrapper chains × spellings of a
//! program × contexts: chains, pipes, substitutions, nested shells, here-documents, `eval`) run
//! under bash as an unprivileged user, in a scratch directory, with `PATH` holding only stubs
//! that log their own names. Then, for each line:
//!
//! - where the analysis vouches for the line (nothing unparsed, no program it cannot read), every
//!   program bash ran is one the analysis names (an item's command word, the program it runs, or
//!   a form of it);
//! - a deny rule of each command kind (regex, prefix, tokens, glob) on any program bash ran never
//!   lets the line run under an allowing default: it is refused, or asks.
//!
//! The stubs of programs that run other programs (`env`, `timeout`, `xargs`, `find` …) log their
//! name and hand over to the real program, which finds what it runs in the same `PATH`; those
//! that need privileges (`sudo`, `su`, `chroot`, `doas`) or are not installed (`busybox`) are
//! small shell scripts written from their manual pages. Nothing here shares code with the
//! analysis. Floors on the lines run and the programs seen keep it from passing empty.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use toolgate::policy::{Outcome, Policy, PolicySpec};
use toolgate::shell::{analyze, HazardKind};

/// The programs a rule may be about: each a stub that only logs its name.
const TARGETS: [&str; 5] = ["curl", "wget", "nc", "git", "shred"];

/// Helpers the generated lines use besides the targets, also logging stubs.
const PLAIN: [&str; 3] = ["cat", "date", "ls"];

/// Programs that run what they are given: a stub that logs its name and runs the real one.
const REAL_WRAPPERS: [&str; 10] = ["env", "timeout", "nice", "nohup", "stdbuf", "setsid", "xargs", "find", "flock", "script"];

/// Stand-ins for what cannot run here unprivileged or is not installed, each from its manual:
/// skip the options (and the operands the manual puts before the command), then run the rest.
const EMULATED: [(&str, &str); 6] = [
    // sudo(8): options, `-u USER` and `-g GROUP` take a value; `--` ends them.
    (
        "sudo",
        r#"while [ $# -gt 0 ]; do case "$1" in --) shift; break;; -u|-g|-h|-p|-C|-D|-R|-T|-U|-r|-t) shift 2;; -*) shift;; *) break;; esac; done; exec "$@""#,
    ),
    // doas(1): `-u USER`, `-C CONFIG`.
    ("doas", r#"while [ $# -gt 0 ]; do case "$1" in -u|-C) shift 2;; -*) shift;; *) break;; esac; done; exec "$@""#),
    // chroot(8): options, NEWROOT, then the command.
    (
        "chroot",
        r#"while [ $# -gt 0 ]; do case "$1" in --userspec=*|--groups=*|--skip-chdir) shift;; *) break;; esac; done; shift; exec "$@""#,
    ),
    // su(1): `-c COMMAND` runs COMMAND with the user's shell (sh here); other words are the user.
    (
        "su",
        r#"cmd=; while [ $# -gt 0 ]; do case "$1" in -c) cmd="$2"; shift 2;; --command=*) cmd="${1#--command=}"; shift;; *) shift;; esac; done; exec /bin/sh -c "$cmd""#,
    ),
    // busybox: the first operand is the applet.
    ("busybox", r#"exec "$@""#),
    // runuser(1) -u USER COMMAND execs COMMAND.
    ("runuser", r#"while [ $# -gt 0 ]; do case "$1" in -u) shift 2;; --) shift; break;; -*) shift;; *) break;; esac; done; exec "$@""#),
];

/// Shells, run for real (bash and dash) behind logging stubs.
const SHELLS: [(&str, &str); 2] = [("bash", "/bin/bash"), ("sh", "/bin/sh")];

struct Scratch {
    root: PathBuf,
    bin: PathBuf,
    work: PathBuf,
}

impl Scratch {
    fn new() -> Self {
        let root = std::env::temp_dir().join(format!("toolgate-bash-oracle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (bin, work) = (root.join("bin"), root.join("work"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        let stub = |name: &str, body: &str| {
            let path = bin.join(name);
            std::fs::write(&path, format!("#!/bin/sh\necho {name} >> \"$ORACLE_LOG\"\n{body}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        for name in TARGETS.iter().chain(PLAIN.iter()) {
            stub(name, "exit 0");
        }
        for name in REAL_WRAPPERS {
            let real = which(name).unwrap_or_else(|| panic!("{name} is needed to run the oracle (coreutils, findutils, util-linux)"));
            stub(name, &format!("exec {} \"$@\"", real.display()));
        }
        for (name, body) in EMULATED {
            stub(name, body);
        }
        for (name, real) in SHELLS {
            stub(name, &format!("exec {real} \"$@\""));
        }
        // `./curl` names a copy in the working directory; `urls`, `cmds` and `s.sh` are inputs.
        std::fs::copy(bin.join("curl"), work.join("curl")).unwrap();
        std::fs::write(work.join("urls"), "a\nb\n").unwrap();
        std::fs::write(work.join("cmds"), "curl x\n").unwrap();
        std::fs::write(work.join("s.sh"), "curl x\n").unwrap();
        for dir in [&root, &bin, &work] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        }
        for file in ["urls", "cmds", "s.sh"] {
            std::fs::set_permissions(work.join(file), std::fs::Permissions::from_mode(0o666)).unwrap();
        }
        Scratch { root, bin, work }
    }

    /// Runs `line` under bash (as `nobody` when this is root), and returns the programs it ran.
    fn run(&self, line: &str, n: usize) -> Vec<String> {
        let log = self.root.join(format!("log-{n}"));
        std::fs::write(&log, "").unwrap();
        std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o666)).unwrap();
        let as_root = unsafe_free_is_root();
        let mut command = if as_root {
            let mut c = Command::new(which("setpriv").expect("setpriv (util-linux) drops privileges"));
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/bash", "-c", line]);
            c
        } else {
            let mut c = Command::new("/bin/bash");
            c.args(["-c", line]);
            c
        };
        command
            .env_clear()
            .env("PATH", &self.bin)
            .env("ORACLE_LOG", &log)
            .env("HOME", &self.work)
            .current_dir(&self.work)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(b"curl x\n");
        }
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(5) {
                let _ = child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = child.wait();
        std::fs::read_to_string(&log).unwrap().lines().map(str::to_owned).collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn which(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].iter().map(|d| Path::new(d).join(name)).find(|p| p.exists())
}

fn unsafe_free_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

/// Spellings of a program's name on a command line: each runs it.
fn spellings(program: &str, bin: &Path) -> Vec<String> {
    let (head, tail) = program.split_at(1);
    let mut out = vec![
        program.to_owned(),
        format!("{}/{program}", bin.display()),
        format!("\"{program}\""),
        format!("\\{program}"),
        format!("{head}''{tail}"),
        format!("{head}\"\"{tail}"),
    ];
    if program == "curl" {
        out.push("./curl".to_owned());
    }
    out
}

/// Wrappers in front of a command; each runs what follows it.
const WRAPPER_CHAINS: [&str; 22] = [
    "",
    "sudo ",
    "sudo -u root ",
    "env ",
    "env -i X=1 ",
    "X=1 ",
    "X=1 Y=2 ",
    "timeout 5 ",
    "timeout -s KILL 5 ",
    "nice -n 5 ",
    "nohup ",
    "command ",
    "exec ",
    "stdbuf -o0 ",
    "setsid ",
    "time ",
    "busybox ",
    "chroot / ",
    "doas -u root ",
    "runuser -u nobody ",
    "flock /tmp/oracle.lock ",
    "sudo env X=1 timeout 5 nice ",
];

/// A command with a target, in one of the contexts bash runs commands in; `{}` is the command.
const CONTEXTS: [&str; 18] = [
    "{}",
    "date; {}",
    "date && {}",
    "ls || {}; {}",
    "cat urls | {}",
    "( {} )",
    "{ {}; }",
    "cat $({})",
    "cat `{}`",
    "cat <({})",
    "bash -c '{}'",
    "sh -c '{}'",
    "eval '{}'",
    "bash <<< '{}'",
    "sh <<'EOF'\n{}\nEOF",
    "script -qc '{}' /dev/null < /dev/null",
    "su -c '{}' root",
    "busybox sh -c '{}'",
];

/// Lines whose program bash runs from what the text does not show: each must never be allowed
/// while the tool has a deny rule.
const UNREADABLE: [&str; 8] =
    ["X=curl; $X x", "${X:-curl} x", "source ./s.sh", ". ./s.sh", "xargs < cmds", "sh < cmds", "cat cmds | sh", "bash s.sh"];

fn lines(bin: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (t, target) in TARGETS.iter().enumerate() {
        for (s, spelling) in spellings(target, bin).iter().enumerate() {
            for (w, wrapper) in WRAPPER_CHAINS.iter().enumerate() {
                // Every spelling behind every wrapper at the top level; each context with a share of them.
                let command = format!("{wrapper}{spelling} x");
                out.push(command.clone());
                let context = CONTEXTS[(t * 7 + s * 5 + w * 3) % CONTEXTS.len()];
                if context.contains('\'') && command.contains('\'') {
                    continue;
                }
                out.push(context.replace("{}", &command));
            }
        }
        out.push(format!("xargs {target} < urls"));
        out.push(format!("find . -maxdepth 0 -exec {target} {{}} \\;"));
        out.push(format!("find . -maxdepth 0 -execdir {target} {{}} +"));
    }
    out.extend(UNREADABLE.iter().map(|l| (*l).to_owned()));
    out
}

/// A policy with one deny rule and an allowing default.
fn deny_policy(rule: serde_json::Value) -> Policy {
    let spec: PolicySpec = serde_json::from_value(serde_json::json!({
        "defaultMode": "allow",
        "layers": [{ "name": "user", "tools": { "terminal": { "alwaysDeny": [rule] } } }]
    }))
    .unwrap();
    Policy::new(spec)
}

#[test]
fn every_program_bash_runs_is_named_and_denied() {
    let scratch = Scratch::new();
    let mut run = 0;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let (mut vouched, mut refused, mut asked) = (0, 0, 0);
    let mut unnamed = Vec::new();
    let mut allowed = Vec::new();
    let kinds = |program: &str| {
        [
            serde_json::json!({ "pattern": format!(r"^{program}\b") }),
            serde_json::json!({ "prefix": program }),
            serde_json::json!({ "tokens": program }),
            serde_json::json!({ "glob": format!("{program} *") }),
        ]
    };
    for (n, line) in lines(&scratch.bin).iter().enumerate() {
        let ran = scratch.run(line, n);
        run += 1;
        let targets_ran: BTreeSet<&str> = ran.iter().map(String::as_str).filter(|p| TARGETS.contains(p)).collect();
        seen.extend(ran.iter().cloned());
        let analysis = analyze(line);
        let unreadable = analysis.items.iter().any(|i| i.hazards.iter().any(|h| h.kind == HazardKind::UnreadableProgram));
        if analysis.cannot_vouch.is_none() && !unreadable {
            vouched += 1;
            let named: BTreeSet<String> = analysis
                .items
                .iter()
                .flat_map(|item| {
                    let base = item.name.as_deref().map(|n| n.rsplit('/').next().unwrap_or(n).to_owned());
                    base.into_iter().chain(item.program.clone()).chain(item.runs_as.iter().map(|f| f.name.clone()))
                })
                .collect();
            for program in &ran {
                if !named.contains(program) {
                    unnamed.push(format!("{line:?} ran {program}; the analysis names {named:?}"));
                }
            }
        }
        for program in targets_ran {
            for rule in kinds(program) {
                let decision = deny_policy(rule.clone()).decide("terminal", std::slice::from_ref(line));
                match decision.outcome {
                    Outcome::Deny => refused += 1,
                    Outcome::Confirm => asked += 1,
                    Outcome::Allow => allowed.push(format!("{line:?} ran {program}, allowed past {rule}: {}", decision.message)),
                }
            }
        }
    }
    println!("{run} lines run, {vouched} vouched for; denials {refused} refused, {asked} asked; programs seen {seen:?}");
    assert!(unnamed.is_empty(), "{} programs bash ran that the analysis does not name:\n{}", unnamed.len(), unnamed.join("\n"));
    assert!(allowed.is_empty(), "{} lines ran a denied program without asking:\n{}", allowed.len(), allowed.join("\n"));
    assert!(run > 700 && vouched > 600, "{run} lines run, {vouched} vouched: the generator shrank");
    for program in TARGETS.iter().chain(["env", "timeout", "xargs", "find", "sudo", "su", "script", "bash", "sh", "busybox"].iter()) {
        assert!(seen.contains(*program), "bash never ran {program}: the stubs or the generator broke ({seen:?})");
    }
    assert!(refused * 10 >= (refused + asked) * 9, "{refused} refused, {asked} asked: fewer than nine in ten refused");
}
