//! What a command runs: the one model of how a shell reaches a program, shared by every parser,
//! matcher kind, guard and dialect.
//!
//! A command line names a program in many spellings: behind wrappers (`sudo`, `env`, `timeout 5`,
//! `xargs`, `busybox`), as a path (`/usr/bin/curl`, `./curl`), after leading assignments
//! (`X=1 curl`), through `find -exec`, or as a script another program runs (`sh -c`, `su -c`,
//! `script -c`, `eval`, `watch`, `trap`, a here-string fed to a shell). An item's *forms* are the
//! texts of what it runs, one per step of that chain; deny and confirm rules meet every form as
//! well as the text as written, so no spelling gets past them. The scripts become items of their
//! own (analysed like `sh -c` payloads). Where the program cannot be read from the text at all
//! (`$X`, `source ./s.sh`, an alias, a shell reading its commands from a pipe, an interpreter's
//! inline code) the item says why ([`Invocation::unreadable`]): such a line asks while the tool
//! has deny or confirm rules, whatever a default would do.
//!
//! Every wrapper in [`WRAPPERS`] carries its source (the manual page or the program's own
//! source); `tests/bash_oracle.rs` runs generated lines under bash with logging stubs and checks
//! that each program bash runs is one the analysis names.

use super::Shell;

/// The last path component: `/usr/bin/find` → `find`.
pub(crate) fn base_name(name: &str) -> &str {
    // A byte search: `rsplit` costs more than the rest of a short command's hazard check.
    match name.bytes().rposition(|b| b == b'/') {
        Some(slash) => name.get(slash + 1..).unwrap_or(name),
        None => name,
    }
}

/// How a wrapper reaches what it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runs {
    /// Its first operand (after options and [`Wrapper::operands`]) is the command, the rest its arguments.
    Command,
    /// Its operands, joined by spaces, are a script a POSIX shell runs (`watch`, `parallel`).
    JoinedScript,
}

/// A command that runs another command it is given.
#[derive(Debug, Clone, Copy)]
struct Wrapper {
    name: &'static str,
    /// Options whose value is the next word when it is not attached (`-u root`, `--user root`).
    takes_value: &'static [&'static str],
    /// Operands before the command: `timeout`'s duration, `chroot`'s new root, `flock`'s lock file.
    operands: usize,
    runs: Runs,
    /// The manual page or source that shows it runs its operands.
    source: &'static str,
}

const fn wrapper(name: &'static str, takes_value: &'static [&'static str], operands: usize, source: &'static str) -> Wrapper {
    Wrapper { name, takes_value, operands, runs: Runs::Command, source }
}

/// The wrappers: each runs the command named by its operands. Options after the command belong to
/// the command (each of these stops at its first operand, `+` in its getopt string, or is read so
/// by its manual page).
const WRAPPERS: &[Wrapper] = &[
    wrapper(
        "sudo",
        &[
            "-u",
            "-g",
            "-h",
            "-p",
            "-C",
            "-D",
            "-R",
            "-T",
            "-U",
            "-r",
            "-t",
            "--user",
            "--group",
            "--host",
            "--prompt",
            "--close-from",
            "--chdir",
            "--chroot",
            "--command-timeout",
            "--other-user",
            "--role",
            "--type",
        ],
        0,
        "sudo(8): sudo [options] command; options taking a value per its SYNOPSIS",
    ),
    wrapper("doas", &["-u", "-C"], 0, "doas(1) (OpenBSD): doas [-nSs] [-a style] [-C config] [-u user] command [arg ...]"),
    wrapper(
        "env",
        &["-u", "-C", "-P", "-a", "-f", "--unset", "--chdir", "--argv0", "--file"],
        0,
        "env(1) (GNU coreutils): env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]",
    ),
    wrapper("nice", &["-n", "--adjustment"], 0, "nice(1) (GNU coreutils): nice [OPTION] [COMMAND [ARG]...]"),
    wrapper("nohup", &[], 0, "nohup(1): nohup COMMAND [ARG]..."),
    wrapper("time", &["-f", "-o", "--format", "--output"], 0, "time(1) (GNU time) and bash(1) reserved word `time`"),
    wrapper(
        "timeout",
        &["-s", "-k", "--signal", "--kill-after"],
        1,
        "timeout(1) (GNU coreutils): timeout [OPTION] DURATION COMMAND [ARG]...",
    ),
    wrapper("command", &[], 0, "bash(1) builtin `command [-pVv] command [arg ...]`; POSIX command(1)"),
    wrapper("exec", &["-a"], 0, "bash(1) builtin `exec [-cl] [-a name] [command [arguments]]`"),
    wrapper("builtin", &[], 0, "bash(1) builtin `builtin shell-builtin [arguments]`"),
    wrapper("stdbuf", &["-i", "-o", "-e", "--input", "--output", "--error"], 0, "stdbuf(1) (GNU coreutils): stdbuf OPTION... COMMAND"),
    wrapper(
        "ionice",
        &["-c", "-n", "-t", "--class", "--classdata"],
        0,
        "ionice(1) (util-linux): ionice [-c class] [-n level] [-t] command [argument...]",
    ),
    wrapper(
        "noglob",
        &[],
        0,
        "zshmisc(1) precommand modifier `noglob`; Claude Code strips it before matching (docs/permissions.md, \"Wildcard patterns\")",
    ),
    wrapper("nocorrect", &[], 0, "zshmisc(1) precommand modifier `nocorrect`"),
    wrapper("setsid", &[], 0, "setsid(1) (util-linux): setsid [options] program [arguments]"),
    wrapper(
        "flock",
        &["-w", "--timeout", "-E", "--conflict-exit-code"],
        1,
        "flock(1) (util-linux): flock [options] file|directory command [arguments]",
    ),
    wrapper(
        "xargs",
        &[
            "-a",
            "-d",
            "-E",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var",
        ],
        0,
        "GNU findutils xargs/xargs.c (getopt \"+0a:E:e::i::I:l::L:n:oprs:txP:d:\")",
    ),
    wrapper("busybox", &[], 0, "BusyBox libbb/appletlib.c busybox_main: `busybox APPLET [arguments]`"),
    wrapper("chroot", &["--userspec", "--groups"], 1, "coreutils src/chroot.c: chroot [OPTION] NEWROOT [COMMAND [ARG]...] (getopt \"+\")"),
    wrapper(
        "runuser",
        &["-u", "--user", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"],
        0,
        "util-linux login-utils/su-common.c: runuser -u USER command execs the command directly",
    ),
    wrapper(
        "unshare",
        &[
            "-R",
            "--root",
            "-w",
            "--wd",
            "-S",
            "--setuid",
            "-G",
            "--setgid",
            "-l",
            "--load-interp",
            "--map-user",
            "--map-users",
            "--map-group",
            "--map-groups",
            "--owner",
            "--propagation",
            "--setgroups",
            "--monotonic",
            "--boottime",
            "--whitelist-env",
        ],
        0,
        "util-linux sys-utils/unshare.c (getopt \"+fhVmuinpCTUrR:w:S:G:cl:\")",
    ),
    wrapper(
        "nsenter",
        &["-t", "--target", "-N", "--net-socket", "-S", "--setuid", "-G", "--setgid"],
        0,
        "util-linux sys-utils/nsenter.c (getopt \"+ahVt:m::u::i::n::N:p::C::U::T::S:G:r::w::W::ecFZ\")",
    ),
    wrapper(
        "setpriv",
        &[
            "--inh-caps",
            "--ambient-caps",
            "--ruid",
            "--euid",
            "--rgid",
            "--egid",
            "--reuid",
            "--regid",
            "--groups",
            "--bounding-set",
            "--securebits",
            "--pdeathsig",
            "--ptracer",
            "--selinux-label",
            "--apparmor-profile",
            "--landlock-access",
            "--landlock-rule",
            "--seccomp-filter",
        ],
        0,
        "util-linux sys-utils/setpriv.c (getopt \"+dhV\"; value options are long)",
    ),
    wrapper("taskset", &[], 1, "util-linux schedutils/taskset.c: taskset [options] MASK COMMAND [ARG]... (getopt \"+apchV\")"),
    wrapper(
        "prlimit",
        &["-p", "--pid", "-o", "--output"],
        0,
        "util-linux sys-utils/prlimit.c (resource options take attached values only)",
    ),
    wrapper(
        "systemd-run",
        &[
            "-u",
            "--unit",
            "-C",
            "--capsule",
            "-H",
            "--host",
            "-M",
            "--machine",
            "-E",
            "--setenv",
            "-p",
            "--property",
            "--description",
            "--slice",
            "--service-type",
            "--uid",
            "--gid",
            "--nice",
            "--working-directory",
            "--on-active",
            "--on-boot",
            "--on-startup",
            "--on-unit-active",
            "--on-unit-inactive",
            "--on-calendar",
            "--timer-property",
            "--path-property",
            "--socket-property",
            "--job-mode",
            "--background",
            "--json",
            "--root-directory",
            "--expand-environment",
        ],
        0,
        "systemd src/run/run.c (getopt \"+hrC:H:M:E:p:tTPqvGdSu:\")",
    ),
    wrapper(
        "firejail",
        &[],
        0,
        "firejail src/firejail/main.c: every option is one word (`--opt=value`); the first other word is the program",
    ),
    wrapper(
        "proot",
        &[
            "-r",
            "--rootfs",
            "-b",
            "--bind",
            "-m",
            "--mount",
            "-q",
            "--qemu",
            "-w",
            "--pwd",
            "--cwd",
            "-k",
            "--kernel-release",
            "-i",
            "--change-id",
            "-p",
            "--port",
        ],
        0,
        "proot-me/proot src/cli/proot.h option table",
    ),
    wrapper("catchsegv", &[], 0, "glibc debug/catchsegv.sh: catchsegv PROGRAM ARGS..."),
    wrapper(
        "strace",
        &[
            "-a",
            "-b",
            "-e",
            "-E",
            "-I",
            "-o",
            "-O",
            "-p",
            "-P",
            "-s",
            "-S",
            "-u",
            "-U",
            "-X",
            "--output",
            "--trace",
            "--user",
            "--env",
            "--attach",
            "--trace-path",
            "--string-limit",
            "--signal",
            "--status",
        ],
        0,
        "strace src/strace.c (getopt \"+a:Ab:cCdDe:E:fFhiI:knNo:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ\")",
    ),
    wrapper(
        "ltrace",
        &[
            "-a",
            "-A",
            "-D",
            "-e",
            "-F",
            "-l",
            "-n",
            "-o",
            "-p",
            "-s",
            "-u",
            "-x",
            "-w",
            "--align",
            "--config",
            "--debug",
            "--indent",
            "--library",
            "--output",
            "--where",
        ],
        0,
        "ltrace options.c (getopt \"+...a:A:D:e:F:l:n:o:p:s:u:x:\")",
    ),
    wrapper("valgrind", &[], 0, "valgrind coregrind/launcher-linux.c: options are single words; the first other word is the program"),
    wrapper(
        "xvfb-run",
        &["-e", "--error-file", "-f", "--auth-file", "-n", "--server-num", "-p", "--xauth-protocol", "-s", "--server-args", "-w", "--wait"],
        0,
        "Debian xorg-server debian/local/xvfb-run (getopt --options +ae:f:hn:lp:s:w:)",
    ),
    wrapper(
        "dbus-run-session",
        &["--config-file", "--dbus-daemon"],
        0,
        "dbus tools/dbus-run-session.c: dbus-run-session [OPTIONS] [--] PROGRAM [ARGUMENTS]",
    ),
    wrapper("with-contenv", &[], 0, "s6-overlay command/with-contenv: runs \"$@\""),
    wrapper("caffeinate", &["-t", "-w"], 0, "caffeinate(8) (macOS): caffeinate [-disu] [-t timeout] [-w pid] [utility arguments...]"),
    wrapper(
        "tsp",
        &["-r", "-a", "-F", "-t", "-c", "-o", "-p", "-w", "-k", "-u", "-s", "-U", "-i", "-N", "-L", "-S", "-D", "-W", "-O", "-M"],
        0,
        "task-spooler main.c (POSIXLY_CORRECT: options stop at the command)",
    ),
    wrapper("coproc", &[], 0, "bash(1) reserved word `coproc [NAME] command`"),
    Wrapper {
        name: "watch",
        takes_value: &["-n", "--interval", "-q", "--equexit", "-s", "--shotsdir"],
        operands: 0,
        runs: Runs::JoinedScript,
        source: "procps-ng src/watch.c: the command words are joined and run by system(), unless -x/--exec",
    },
    Wrapper {
        name: "parallel",
        takes_value: &[
            "-a",
            "-d",
            "-E",
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "-j",
            "-S",
            "--jobs",
            "--arg-file",
            "--delimiter",
            "--sshlogin",
            "--joblog",
            "--results",
            "--workdir",
            "--tmpdir",
        ],
        operands: 0,
        runs: Runs::JoinedScript,
        source: "GNU parallel(1): the command (up to `:::`) runs in a shell with the arguments appended",
    },
];

/// Shells whose `-c` script is analysed as commands of its own.
pub const SHELLS: [&str; 7] = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"];

/// Interpreters and the options that give them inline code: a program the text cannot fully
/// read. The options are those of [`super::EXECUTING_FLAGS`] (each cited there).
const INLINE_CODE: &[(&[&str], &[&str])] = &[
    (&["python", "python2", "python3", "pypy", "pypy3"], &["-c"]),
    (&["perl"], &["-e", "-E"]),
    (&["ruby", "irb"], &["-e"]),
    (&["node", "nodejs", "bun"], &["-e", "--eval", "-p", "--print"]),
    (&["deno"], &["eval"]),
    (&["php"], &["-r", "--run"]),
    (&["lua", "luajit"], &["-e"]),
    (&["osascript"], &["-e"]),
    (&["Rscript"], &["-e"]),
];

/// At most this many forms are kept for one item; a command behind more wrappers than that is
/// one whose program is not read (it asks while the tool has deny or confirm rules).
const MAX_FORMS: usize = 16;

/// One text of what an item runs: past its leading assignments, past a wrapper, or with the
/// program's path reduced to its name. Deny and confirm rules meet each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunForm {
    /// The words from the program on, joined by one space.
    pub text: String,
    /// The program word of this form (a base name when the path was reduced).
    pub name: String,
    /// The words after it.
    pub args: Vec<String>,
    /// Which word of the item names this form's program (0 for its command word, after any
    /// leading assignments): an allow rule that covers the item spells this program out when it
    /// no longer matches with that word replaced (see `policy::evaluate`).
    pub program_word: usize,
}

/// A script a command runs, to be analysed as commands of its own: the item's words in
/// `words` joined by one space, without the first `skip` characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Script {
    pub words: std::ops::Range<usize>,
    pub skip: usize,
    pub shell: Shell,
}

/// What one command runs, read from its words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The texts of what it runs beyond the words as written (see [`RunForm`]).
    pub forms: Vec<RunForm>,
    /// The base name of the program that finally runs, past every wrapper.
    pub program: Option<String>,
    /// Scripts it runs, analysed as items of their own.
    pub scripts: Vec<Script>,
    /// Why the program that runs cannot be read from the text, when it cannot.
    pub unreadable: Option<String>,
    /// The program is a shell that reads its commands from standard input (which shell): a
    /// here-string or here-document fed to it is its script; anything else it reads is not known.
    pub reads_stdin: Option<Shell>,
}

/// A script's text, where in it are substitutions an outer shell already followed, and its shell.
pub(crate) type ScriptText = (String, Vec<(usize, usize)>, Shell);

impl Script {
    /// The script's text and where in it are the substitutions an outer shell already followed,
    /// from the words of its command (each word's text and its followed ranges).
    pub(crate) fn text<'a>(&self, words: impl Iterator<Item = (&'a str, &'a [(usize, usize)])>) -> (String, Vec<(usize, usize)>) {
        let mut script = String::new();
        let mut followed = Vec::new();
        for (i, (text, ranges)) in words.skip(self.words.start).take(self.words.len()).enumerate() {
            if i > 0 {
                script.push(' ');
            }
            let base = script.len();
            script.push_str(text);
            followed.extend(ranges.iter().map(|(from, to)| (base + from, base + to)));
        }
        if self.skip > 0 {
            // Only cmd's `/c` is skipped, and cmd follows no substitutions.
            let at = script.char_indices().nth(self.skip).map_or(script.len(), |(at, _)| at);
            return (script.get(at..).unwrap_or_default().trim().to_owned(), Vec::new());
        }
        (script, followed)
    }
}

/// A wrapper's entry, by base name.
fn wrapper_named(base: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.name == base)
}

/// Whether `arg` is an option of a wrapper that takes the next word as its value.
fn takes_next(arg: &str, takes_value: &[&str]) -> bool {
    !arg.contains('=') && takes_value.contains(&arg)
}

/// Where a wrapper's command starts in `args`, or `None` when it runs none (`command -v`, `sudo -l`,
/// a wrapper given only options).
fn command_start<S: AsRef<str>>(wrapper: &Wrapper, args: &[S]) -> Option<usize> {
    let base = wrapper.name;
    let args_ref = args;
    let arg = |i: usize| args_ref.get(i).map(AsRef::as_ref);
    if base == "command" && args.iter().map(AsRef::as_ref).take_while(|a| a.starts_with('-') && *a != "--").any(|a| a.contains(['v', 'V']))
    {
        return None;
    }
    let mut i = 0;
    let mut operands = 0;
    while let Some(arg) = arg(i) {
        if arg == "--" {
            i += 1;
            // `timeout -- 5 cmd`: operands may follow the end of options.
            while operands < wrapper.operands && i < args.len() {
                operands += 1;
                i += 1;
            }
            break;
        }
        if arg.starts_with('-') && arg.len() > 1 && operands == 0 {
            i += if takes_next(arg, wrapper.takes_value) { 2 } else { 1 };
            continue;
        }
        if base == "env" && arg.contains('=') {
            i += 1;
            continue;
        }
        if operands < wrapper.operands {
            operands += 1;
            i += 1;
            continue;
        }
        break;
    }
    (i < args.len()).then_some(i)
}

/// The command a wrapper runs: `sudo -u x ls -l` → `ls -l`; `None` when `name` is no wrapper
/// that runs a command, or runs none here.
pub(crate) fn unwrap_once<'a>(name: &str, args: &'a [String]) -> Option<(&'a str, &'a [String])> {
    let wrapper = wrapper_named(base_name(name)).filter(|w| w.runs == Runs::Command)?;
    let at = command_start(wrapper, args)?;
    Some((args.get(at)?.as_str(), args.get(at + 1..)?))
}

/// Follows wrappers (`sudo -u x env A=1 find …` → `find …`) to the command they run, however
/// many (each takes at least one word).
pub(crate) fn effective_command<'a>(name: &'a str, args: &'a [String]) -> (&'a str, &'a [String]) {
    let (mut name, mut args) = (name, args);
    while let Some((inner, rest)) = unwrap_once(name, args) {
        (name, args) = (inner, rest);
    }
    (name, args)
}

/// The value of option `short`/`long` in `args` before the first operand, and where it is
/// (`-c script`, `-cscript`, `--command script`, `--command=script`): for `su -c`, `script -c`.
fn option_value(args: &[&str], short: &str, long: &[&str], takes_value: &[&str]) -> Option<(usize, usize)> {
    let mut i = 0;
    while let Some(&arg) = args.get(i) {
        if arg == "--" {
            return None;
        }
        if arg == short || long.contains(&arg) {
            return (i + 1 < args.len()).then_some((i + 1, 0));
        }
        if let Some((name, _)) = arg.split_once('=') {
            if long.contains(&name) {
                return Some((i, name.len() + 1));
            }
        }
        if arg.len() > short.len() && arg.starts_with(short) && !arg.starts_with("--") {
            return Some((i, short.len()));
        }
        i += if takes_next(arg, takes_value) { 2 } else { 1 };
    }
    None
}

/// Whether a shell's arguments give it a script operand (a file it runs), a `-c` script, or
/// neither (it reads standard input).
enum ShellInput {
    DashC(usize),
    File(String),
    Stdin,
}

fn shell_input(args: &[&str]) -> ShellInput {
    let mut rest = args.iter().enumerate();
    let mut dash_c = false;
    while let Some((_, &arg)) = rest.next() {
        if arg == "--" || arg == "-" {
            break;
        }
        let short = arg.strip_prefix('-').or_else(|| arg.strip_prefix('+')).filter(|f| !f.starts_with('-'));
        if let Some(flags) = short {
            if flags.contains('c') {
                dash_c = true;
                break;
            }
            if flags.contains('s') {
                return ShellInput::Stdin;
            }
            // `-o option` and `-O shopt` take the next word.
            if flags.ends_with('o') || flags.ends_with('O') {
                rest.next();
            }
            continue;
        }
        if arg.starts_with("--") {
            // `--rcfile file`, `--init-file file` take the next word.
            if matches!(arg, "--rcfile" | "--init-file") {
                rest.next();
            }
            continue;
        }
        return ShellInput::File(arg.to_owned());
    }
    if dash_c {
        if let Some((at, _)) = rest.find(|(_, a)| !a.starts_with('-') || **a == "-") {
            return ShellInput::DashC(at);
        }
        return ShellInput::Stdin;
    }
    match rest.next() {
        Some((_, file)) => ShellInput::File((*file).to_owned()),
        None => ShellInput::Stdin,
    }
}

/// Where `pwsh -Command …` code starts in `args` (PowerShell runs every word after it, joined);
/// `Err` when it runs code that cannot be read. Windows PowerShell runs a positional argument as
/// a command, pwsh as a file (about_Pwsh, about_PowerShell_exe).
fn powershell_payload(program: &str, args: &[&str]) -> Result<Option<usize>, &'static str> {
    const TAKES_VALUE: [&str; 10] = [
        "executionpolicy",
        "workingdirectory",
        "outputformat",
        "inputformat",
        "windowstyle",
        "configurationname",
        "version",
        "psconsolefile",
        "settingsfile",
        "custompipename",
    ];
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let lower = arg.to_ascii_lowercase();
        let Some(option) = lower.strip_prefix('-').or_else(|| lower.strip_prefix('/')) else {
            return Ok((program == "powershell").then_some(i));
        };
        let option = option.trim_start_matches('-');
        if option.is_empty() {
            return Ok(None);
        }
        if "command".starts_with(option) {
            return Ok(Some(i + 1));
        }
        if "encodedcommand".starts_with(option) || option == "ec" || option == "enc" {
            return Err("PowerShell's -EncodedCommand runs code that cannot be read");
        }
        if "file".starts_with(option) {
            return Err("PowerShell runs a script file");
        }
        i += if option.len() > 1 && TAKES_VALUE.iter().any(|t| t.starts_with(option)) { 2 } else { 1 };
    }
    Ok(None)
}

/// Where `cmd /c …` (or `/k`) starts, and how many characters of that word are the switch.
fn cmd_payload(args: &[&str]) -> Option<usize> {
    args.iter().position(|a| {
        let lower = a.to_ascii_lowercase();
        lower.starts_with("/c") || lower.starts_with("/k")
    })
}

/// The commands `find` runs for `-exec`, `-execdir`, `-ok` and `-okdir` (each up to `;` or `+`),
/// and `fd`'s `-x`/`-X` (up to `;`), as ranges of `args` (findutils find(1); sharkdp/fd src/cli.rs).
fn executed_by_find(base: &str, args: &[&str]) -> Vec<std::ops::Range<usize>> {
    let (starts, ends): (&[&str], &[&str]) = match base {
        "find" => (&["-exec", "-execdir", "-ok", "-okdir"], &[";", "+"]),
        "fd" | "fdfind" => (&["-x", "--exec", "-X", "--exec-batch"], &[";"]),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if starts.contains(arg) {
            let from = i + 1;
            let mut to = from;
            while args.get(to).is_some_and(|a| !ends.contains(a)) {
                to += 1;
            }
            if to > from {
                out.push(from..to);
            }
            i = to + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// Reads what one command runs. `words` are the item's words (its leading assignments, then the
/// command word and arguments), `assignments` how many lead, `expanded` which words hold an
/// expansion, and `shell` the shell the line is written for (PowerShell names its aliases).
pub(crate) fn invocation(words: &[&str], assignments: usize, expanded: &[bool], shell: Shell) -> Invocation {
    let mut reader = Reader { words, assignments, expanded, shell, placeholder: None, inv: Invocation::default() };
    if words.len() > assignments {
        if assignments > 0 {
            reader.form(assignments, words.len(), None);
        }
        reader.walk(assignments, words.len(), true);
    }
    reader.inv
}

struct Reader<'w> {
    words: &'w [&'w str],
    assignments: usize,
    expanded: &'w [bool],
    shell: Shell,
    /// The replace string of an `xargs -I` or `parallel` on the way (`{}`): a program word
    /// holding it is whatever the input says.
    placeholder: Option<String>,
    inv: Invocation,
}

impl Reader<'_> {
    /// Adds the form of `words[at..end]`, its program word spelled `name` when given.
    fn form(&mut self, at: usize, end: usize, name: Option<&str>) {
        if self.inv.forms.len() >= MAX_FORMS {
            self.unreadable("the command is behind more wrappers than toolgate follows");
            return;
        }
        let Some(written) = self.words.get(at) else { return };
        let name = name.unwrap_or(written).to_owned();
        let args: Vec<String> = self.words.get(at + 1..end).unwrap_or_default().iter().map(|a| (*a).to_owned()).collect();
        let mut text = name.clone();
        for arg in &args {
            text.push(' ');
            text.push_str(arg);
        }
        if self.inv.forms.iter().any(|f| f.text == text) {
            return;
        }
        self.inv.forms.push(RunForm { text, name, args, program_word: at.saturating_sub(self.assignments) });
    }

    fn unreadable(&mut self, why: &str) {
        if self.inv.unreadable.is_none() {
            self.inv.unreadable = Some(why.to_owned());
        }
    }

    /// A script the command runs. It is read as written even where it expands (deny and confirm
    /// rules still see what it names); one built from an expansion runs text no one can read.
    fn script(&mut self, words: std::ops::Range<usize>, skip: usize, shell: Shell) {
        if self.expanded.get(words.clone()).is_some_and(|e| e.iter().any(|x| *x)) {
            self.unreadable("the script it runs is built from an expansion, so what runs is not known");
        }
        self.inv.scripts.push(Script { words, skip, shell });
    }

    /// Follows the command whose program word is `words[at]` (its words end at `end`) through
    /// its wrappers; `main` when it is the item's own chain (its program is the item's).
    fn walk(&mut self, mut at: usize, end: usize, main: bool) {
        loop {
            let Some(name) = self.words.get(at) else { return };
            if self.expanded.get(at).copied().unwrap_or(false) {
                self.unreadable("the program's name is an expansion, so the text does not say what runs");
                return;
            }
            if name.contains("{}") || self.placeholder.as_deref().is_some_and(|p| name.contains(p)) {
                self.unreadable("the program is what find or xargs hands it, which the text does not show");
                return;
            }
            let (written_base, base) = self.program_name(name);
            // `..`, `.` and an empty last component name a directory, not a program.
            if written_base != *name && !matches!(written_base.as_str(), "" | "." | "..") {
                self.form(at, end, Some(&written_base));
            }
            if main {
                self.inv.program = Some(base.clone());
            }
            if self.shell == Shell::PowerShell && self.powershell_step(&base, at, end) {
                return;
            }
            let args = self.words.get(at + 1..end).unwrap_or_default();
            let arg_at = |i: usize| at + 1 + i;
            if base == "env" && has_flag(args, args.len(), &["-S", "--split-string"]) {
                // env(1) -S splits its string into the command: read as a script, stricter than env.
                match args.iter().position(|a| *a == "-S" || *a == "--split-string") {
                    Some(i) if i + 1 < args.len() => self.script(arg_at(i + 1)..arg_at(i + 2), 0, Shell::Posix),
                    _ => self.unreadable("env -S splits a string into the command it runs"),
                }
                return;
            }
            if base == "flock" {
                // flock(1): `flock [options] file -c command` runs the command with sh -c.
                if let Some((i, skip)) = option_value(args, "-c", &["--command"], &["-w", "--timeout", "-E", "--conflict-exit-code"]) {
                    self.script(arg_at(i)..arg_at(i) + 1, skip, Shell::Posix);
                    return;
                }
            }
            let Some(wrapper) = wrapper_named(&base) else {
                self.leaf(&base, at, end);
                return;
            };
            let Some(from) = command_start(wrapper, args) else {
                if base == "xargs" {
                    self.unreadable("xargs's command is not in the text (it runs echo, or what its input names)");
                } else if matches!(base.as_str(), "chroot" | "unshare" | "nsenter" | "firejail")
                    || (matches!(base.as_str(), "sudo" | "doas") && has_flag(args, args.len(), &["-s", "-i", "--shell", "--login"]))
                {
                    // With no command these start a shell, which reads its commands from standard input.
                    self.inv.reads_stdin = Some(Shell::Posix);
                }
                return;
            };
            if base == "xargs" || base == "parallel" {
                self.placeholder = replace_string(args, from);
            }
            let joined = wrapper.runs == Runs::JoinedScript && !(base == "watch" && has_flag(args, from, &["-x", "--exec"]));
            if joined {
                let to = if base == "parallel" { args.iter().position(|a| a.starts_with(":::")).unwrap_or(args.len()) } else { args.len() };
                if to <= from {
                    self.unreadable("parallel runs the commands its arguments name, which the text does not fix");
                } else {
                    self.script(arg_at(from)..arg_at(to), 0, Shell::Posix);
                }
                return;
            }
            if matches!(base.as_str(), "sudo" | "doas") && has_flag(args, from, &["-s", "-i", "--shell", "--login"]) {
                // sudo(8): with -s or -i the command is passed to the shell's -c option.
                self.script(arg_at(from)..end, 0, Shell::Posix);
                return;
            }
            at = arg_at(from);
            self.form(at, end, None);
        }
    }

    /// What a program that is no wrapper runs: shells' scripts, `find -exec`, `eval`, and the
    /// programs whose code the text cannot read.
    fn leaf(&mut self, base: &str, at: usize, end: usize) {
        let args = self.words.get(at + 1..end).unwrap_or_default();
        let arg_at = |i: usize| at + 1 + i;
        if SHELLS.contains(&base) || matches!(base, "nu" | "elvish" | "rc" | "fish") {
            let target = match base {
                "nu" => Shell::Nushell,
                "elvish" => Shell::Elvish,
                "rc" => Shell::Rc,
                "fish" => Shell::Unknown,
                _ => Shell::Posix,
            };
            match shell_input(args) {
                ShellInput::DashC(i) => self.script(arg_at(i)..arg_at(i) + 1, 0, target),
                ShellInput::File(file) => self.unreadable(&format!("{base} runs the script file \"{file}\", which the text does not show")),
                ShellInput::Stdin => self.inv.reads_stdin = Some(target),
            }
            return;
        }
        match base {
            "pwsh" | "powershell" => match powershell_payload(base, args) {
                Ok(Some(from)) if from < args.len() => self.script(arg_at(from)..end, 0, Shell::PowerShell),
                Ok(_) => self.inv.reads_stdin = Some(Shell::PowerShell),
                Err(why) => self.unreadable(why),
            },
            "cmd" => match cmd_payload(args) {
                Some(i) => self.script(arg_at(i)..end, 2, Shell::Cmd),
                None => self.inv.reads_stdin = Some(Shell::Cmd),
            },
            "eval" if !args.is_empty() => self.script(arg_at(0)..end, 0, Shell::Posix),
            // bash(1) `trap [action] signal...`: the action runs as a script later.
            "trap" => {
                if let Some(first) = args.first().filter(|a| !a.starts_with('-') && args.len() > 1) {
                    if !first.is_empty() {
                        self.script(arg_at(0)..arg_at(1), 0, Shell::Posix);
                    }
                }
            }
            // util-linux su(1): `-c command` runs through the user's shell; without it a shell
            // reads its commands from standard input.
            "su" | "runuser" => {
                match option_value(
                    args,
                    "-c",
                    &["--command", "--session-command"],
                    &["-g", "-G", "-s", "-w", "--group", "--supp-group", "--shell", "--whitelist-environment"],
                ) {
                    Some((i, skip)) => self.script(arg_at(i)..arg_at(i) + 1, skip, Shell::Posix),
                    None => self.inv.reads_stdin = Some(Shell::Posix),
                }
            }
            // util-linux script(1): `-c command`, or the words after `--` joined, run by $SHELL -c.
            "script" => {
                let takes = [
                    "-B",
                    "-E",
                    "-I",
                    "-O",
                    "-T",
                    "-o",
                    "-m",
                    "--log-io",
                    "--echo",
                    "--log-in",
                    "--log-out",
                    "--log-timing",
                    "--output-limit",
                    "--logging-format",
                ];
                if let Some((i, skip)) = option_value(args, "-c", &["--command"], &takes) {
                    self.script(arg_at(i)..arg_at(i) + 1, skip, Shell::Posix);
                } else if let Some(dashes) = args.iter().position(|a| *a == "--").filter(|d| d + 1 < args.len()) {
                    self.script(arg_at(dashes + 1)..end, 0, Shell::Posix);
                } else {
                    self.inv.reads_stdin = Some(Shell::Posix);
                }
            }
            // shadow sg(1): `sg [-] group [[-c] command]` runs the command string with sh -c.
            "sg" => {
                let mut rest = (0..args.len()).filter(|i| args.get(*i).is_some_and(|a| *a != "-")).skip(1);
                match rest.next() {
                    Some(i) => {
                        let i = if args.get(i).is_some_and(|a| *a == "-c") { i + 1 } else { i };
                        if i < args.len() {
                            self.script(arg_at(i)..arg_at(i) + 1, 0, Shell::Posix);
                        }
                    }
                    None => self.inv.reads_stdin = Some(Shell::Posix),
                }
            }
            "newgrp" => self.inv.reads_stdin = Some(Shell::Posix),
            // entr(1): with -s the first argument runs as `$SHELL -c`.
            "entr" => {
                let from = args.iter().position(|a| !a.starts_with('-'));
                let shell_mode = args.iter().take(from.unwrap_or(args.len())).any(|a| a.contains('s'));
                if let Some(from) = from {
                    if shell_mode {
                        self.script(arg_at(from)..arg_at(from) + 1, 0, Shell::Posix);
                    } else {
                        self.form(arg_at(from), end, None);
                        self.walk(arg_at(from), end, false);
                    }
                }
            }
            "source" | "." => self.unreadable("it runs a script file, which the text does not show"),
            "alias" if args.iter().any(|a| a.contains('=')) => {
                self.unreadable("an alias changes what a name runs, so later commands are not what they say")
            }
            _ => {
                for range in executed_by_find(base, args) {
                    let (from, to) = (arg_at(range.start), arg_at(range.end));
                    self.form(from, to, None);
                    self.walk(from, to, false);
                }
                if let Some((_, options)) = INLINE_CODE.iter().find(|(names, _)| names.contains(&base)) {
                    let inline = args.iter().take_while(|a| **a != "--").find(|a| gives_inline_code(a, options));
                    if let Some(option) = inline {
                        self.unreadable(&format!("{base} {option} runs inline code, a program the text cannot fully read"));
                    }
                }
            }
        }
    }

    /// The program a command word names: its last path component as written (for a form), and
    /// the name it is looked up by (for PowerShell and cmd lower-cased, without `.exe`).
    fn program_name(&self, name: &str) -> (String, String) {
        match self.shell {
            Shell::PowerShell | Shell::Cmd => {
                let written = name.rsplit(['/', '\\']).next().unwrap_or(name);
                let lower = written.to_ascii_lowercase();
                let lookup = lower.strip_suffix(".exe").map(str::to_owned).unwrap_or(lower);
                (written.to_owned(), lookup)
            }
            _ => {
                let base = base_name(name).to_owned();
                (base.clone(), base)
            }
        }
    }

    /// PowerShell: an alias or a module-qualified name is the cmdlet it names (a form in the
    /// cmdlet's own spelling), and `Invoke-Expression` of literal text runs that text. True when
    /// the command needs nothing more.
    fn powershell_step(&mut self, base: &str, at: usize, end: usize) -> bool {
        let args = self.words.get(at + 1..end).unwrap_or_default();
        let cmdlet = super::powershell_aliases::cmdlet(base);
        if let Some(cmdlet) = cmdlet {
            let written = self.words.get(at).copied().unwrap_or_default();
            if written != cmdlet {
                self.form(at, end, Some(cmdlet));
            }
        }
        let canonical = cmdlet.unwrap_or(base).to_ascii_lowercase();
        match canonical.as_str() {
            "invoke-expression" => {
                // The code is the `-Command` value or the first positional argument.
                let from = args.iter().position(|a| !a.starts_with('-')).map(|i| at + 1 + i);
                match from {
                    Some(from) => self.script(from..from + 1, 0, Shell::PowerShell),
                    None => self.unreadable("Invoke-Expression runs code from its input"),
                }
                true
            }
            "start-process" => {
                if let Some(i) = args.iter().position(|a| !a.starts_with('-')) {
                    self.form(at + 1 + i, at + 2 + i, None);
                }
                true
            }
            _ => false,
        }
    }
}

/// Whether `arg` gives an interpreter inline code through one of `options`: the option itself,
/// with its value attached (`-cprint(1)`, `--eval=…`), or in a short-option cluster (`-pe`).
fn gives_inline_code(arg: &str, options: &[&str]) -> bool {
    options.iter().any(|o| {
        arg == *o
            || (o.starts_with("--") && arg.strip_prefix(o).is_some_and(|rest| rest.starts_with('=')))
            || (!o.starts_with("--") && o.len() == 2 && arg.starts_with(o) && !arg.starts_with("--"))
    }) || has_flag(&[arg], 1, options)
}

/// The replace string of `xargs -I R`/`-iR`/`--replace[=R]` or of `parallel` (`{}`), when the
/// command's options set one before `from`.
fn replace_string(args: &[&str], from: usize) -> Option<String> {
    let options = args.get(..from).unwrap_or_default();
    let mut iter = options.iter().copied();
    while let Some(arg) = iter.next() {
        if arg == "-I" {
            return iter.next().map(str::to_owned);
        }
        if let Some(r) = arg.strip_prefix("-I").or_else(|| arg.strip_prefix("--replace=")).filter(|r| !r.is_empty()) {
            return Some(r.to_owned());
        }
        if arg == "-i" || arg == "--replace" {
            return Some("{}".to_owned());
        }
        if let Some(r) = arg.strip_prefix("-i").filter(|r| !r.is_empty()) {
            return Some(r.to_owned());
        }
    }
    None
}

/// Whether one of `flags` (or a short cluster holding it) is among `args[..before]`'s options.
fn has_flag(args: &[&str], before: usize, flags: &[&str]) -> bool {
    args.iter().take(before).take_while(|a| **a != "--").any(|a| {
        flags.contains(a)
            || flags.iter().filter_map(|f| f.strip_prefix('-').filter(|l| l.len() == 1)).any(|letter| {
                a.strip_prefix('-')
                    .is_some_and(|c| !c.starts_with('-') && c.chars().all(|ch| ch.is_ascii_alphabetic()) && c.contains(letter))
            })
    })
}

/// The wrappers' names: the hazard checks look through them (`sudo find -delete`).
pub(crate) fn wrapper_names() -> impl Iterator<Item = &'static str> {
    WRAPPERS.iter().map(|w| w.name)
}

/// Every wrapper toolgate reads past, with the manual page or source that shows it runs its
/// operands: `(name, source)`.
pub fn wrappers() -> impl Iterator<Item = (&'static str, &'static str)> {
    WRAPPERS.iter().map(|w| (w.name, w.source))
}

#[cfg(test)]
mod tests;
