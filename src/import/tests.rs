use super::*;
use crate::policy::{Outcome, Policy};
use std::collections::BTreeMap;
use Outcome::{Allow, Confirm, Deny};

fn context() -> ImportContext {
    ImportContext { cwd: Some("/p".into()), home: Some("/home/u".into()), ..ImportContext::default() }
}

fn source(scope: SourceScope, text: &str) -> ImportSource {
    ImportSource { scope, text: text.into(), dir: None }
}

fn claude(sources: &[(SourceScope, &str)]) -> ImportResult {
    let sources: Vec<ImportSource> = sources.iter().map(|(s, t)| source(*s, t)).collect();
    import(PeerFormat::ClaudeCode, &sources, &context()).unwrap()
}

fn claude_user(permissions: &str) -> ImportResult {
    claude(&[(SourceScope::User, &format!("{{ \"permissions\": {permissions} }}"))])
}

fn decide(result: &ImportResult, tool: &str, inputs: &[&str]) -> Outcome {
    let policy = Policy::new(result.policy.clone());
    assert!(policy.invalid_patterns().is_empty(), "{:?}", policy.invalid_patterns());
    policy.outcome(tool, &inputs.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
}

fn terminal(result: &ImportResult, command: &str) -> Outcome {
    decide(result, TERMINAL, &[command])
}

/// Claude Code's documented Bash examples (docs/permissions.md "Wildcard patterns").
#[test]
fn claude_bash_rules_decide_as_documented() {
    let r = claude_user(r#"{ "allow": ["Bash(npm run build)", "Bash(npm run test:*)", "Bash(ls *)", "Bash(* --version)"] }"#);
    for (command, expected) in [
        ("npm run build", Allow),
        ("npm run build --watch", Confirm),
        ("npm run test", Allow),
        ("npm run test -- -u", Allow),
        ("npm run testx", Confirm),
        ("ls -la", Allow),
        ("ls", Allow),
        ("lsof", Confirm),
        ("node --version", Allow),
        ("node --version && rm x", Confirm),
        // Stricter than Claude Code: a redirection to a file is a hazard no allow rule covers.
        ("ls > out.txt", Confirm),
    ] {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    let allow = r.report.iter().find(|e| e.rule == "Bash(ls *)").unwrap();
    assert_eq!(allow.translation, Translation::Stricter);
    assert_eq!(
        allow.became,
        vec![RulePlace { layer: "user".into(), tool: "terminal".into(), list: Some(ListKind::AlwaysAllow), index: Some(2) }]
    );
}

#[test]
fn claude_deny_rules_see_past_assignments_and_wrappers() {
    let r = claude_user(r#"{ "allow": ["Bash(npm test *)"], "deny": ["Bash(rm *)", "Bash(git push *)"] }"#);
    for (command, expected) in [
        ("FOO=bar rm -rf tmp/", Deny),
        ("timeout 5 rm x", Deny),
        ("nice -n 5 rm x", Deny),
        ("ls; rm x", Deny),
        ("git push origin main", Deny),
        ("npm test", Allow),
        // Stricter: toolgate does not strip wrappers or assignments for allow rules.
        ("timeout 30 npm test", Confirm),
        ("NODE_ENV=test npm test", Confirm),
        ("devbox run npm test", Confirm),
    ] {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    assert!(r.report.iter().filter(|e| e.rule.starts_with("Bash(rm")).all(|e| e.translation == Translation::Exact));
}

#[test]
fn claude_scopes_unite_lists_and_deny_wins_over_any_allow() {
    let r = claude(&[
        (SourceScope::User, r#"{ "permissions": { "allow": ["Bash(git *)"], "deny": ["Bash(curl *)"] } }"#),
        (SourceScope::Project, r#"{ "permissions": { "allow": ["Bash(curl *)"], "ask": ["Bash(git push *)"] } }"#),
        (SourceScope::Managed, r#"{ "permissions": { "deny": ["Bash(git push --force *)"] } }"#),
    ]);
    let names: Vec<&str> = r.policy.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["managed", "project", "user"]);
    assert_eq!(terminal(&r, "curl https://x"), Deny, "a user deny blocks a project allow");
    assert_eq!(terminal(&r, "git push origin"), Confirm, "ask beats the narrower allow");
    assert_eq!(terminal(&r, "git push --force origin"), Deny);
    assert_eq!(terminal(&r, "git status"), Allow);
}

#[test]
fn an_untrusted_projects_allow_rules_are_ignored() {
    let sources = [source(SourceScope::Project, r#"{ "permissions": { "allow": ["Bash(make *)"], "deny": ["Bash(rm *)"] } }"#)];
    let r = import(PeerFormat::ClaudeCode, &sources, &ImportContext { project_trusted: Some(false), ..context() }).unwrap();
    assert_eq!(terminal(&r, "make"), Confirm);
    assert_eq!(terminal(&r, "rm x"), Deny);
    assert!(r.report.iter().any(|e| e.rule == "Bash(make *)" && e.why.as_deref().unwrap_or_default().contains("not trusted")));
}

/// Claude Code's documented Read and Edit examples, anchors included.
#[test]
fn claude_path_rules_resolve_their_anchors() {
    let r = claude(&[
        (
            SourceScope::Project,
            r#"{ "permissions": { "allow": ["Edit(/docs/**)", "Edit(src/**)"], "deny": ["Read(.env)", "Read(secrets/**)"] } }"#,
        ),
        (SourceScope::User, r#"{ "permissions": { "deny": ["Read(~/.ssh/**)", "Read(/secrets/**)", "Edit(//etc/**)"] } }"#),
    ]);
    for (tool, path, expected) in [
        ("edit_file", "/p/docs/a.md", Allow),
        ("edit_file", "docs/a.md", Allow),
        ("edit_file", "/docs/a.md", Confirm),
        ("edit_file", "/p/.claude/docs/x", Confirm),
        ("edit_file", "/p/src/app.ts", Allow),
        ("edit_file", "/p/vendor/pkg/src/lib.js", Confirm),
        ("read_file", "/p/.env", Deny),
        ("read_file", "/p/a/b/.env", Deny),
        ("read_file", ".env", Deny),
        ("read_file", "/q/.env", Confirm),
        ("edit_file", "/p/.env", Deny),
        ("read_file", "/p/vendor/secrets/key", Deny),
        ("read_file", "/home/u/.ssh/id_rsa", Deny),
        ("read_file", "/home/u/.claude/secrets/x", Deny),
        ("read_file", "/p/secretsx/y", Confirm),
        ("delete_path", "/etc/passwd", Deny),
        ("read_file", "/etc/passwd", Confirm),
    ] {
        assert_eq!(decide(&r, tool, &[path]), expected, "{tool} {path}");
    }
    assert_eq!(decide(&r, "grep", &["password"]), Confirm, "a Read deny makes searches ask");
}

#[test]
fn claude_webfetch_and_mcp_rules() {
    let r = claude_user(
        r#"{ "allow": ["WebFetch(domain:*.example.com)", "WebFetch(domain:example.*)", "mcp__puppeteer", "mcp__github__get_issue", "mcp__github__get_*", "mcp__*"],
             "deny": ["WebFetch(domain:evil.example.com)", "mcp__jira__delete_*"] }"#,
    );
    for (url, expected) in [
        ("https://api.example.com/x", Allow),
        ("https://a.b.example.com", Allow),
        ("https://example.org", Allow),
        ("https://example.evil.com", Confirm),
        ("https://evil.example.com/", Deny),
        ("https://evil.example.com\\@x.example.com/", Deny),
        ("not a url", Deny),
    ] {
        assert_eq!(decide(&r, FETCH, &[url]), expected, "{url}");
    }
    for (server, tool, expected) in [
        ("puppeteer", "navigate", Allow),
        ("github", "get_issue", Allow),
        ("github", "get_pr", Confirm),
        ("jira", "search", Deny),
        ("other", "x", Confirm),
    ] {
        assert_eq!(decide(&r, MCP_TOOL, &[server, tool]), expected, "{server}:{tool}");
    }
    let partial = r.report.iter().find(|e| e.rule == "mcp__github__get_*").unwrap();
    assert_eq!((partial.translation, partial.became.len()), (Translation::Impossible, 0));
    let unanchored = r.report.iter().find(|e| e.rule == "mcp__*").unwrap();
    assert!(unanchored.became.is_empty() && unanchored.translation == Translation::Exact);
    let widened = r.report.iter().find(|e| e.rule == "mcp__jira__delete_*").unwrap();
    assert_eq!(widened.translation, Translation::Stricter);
}

/// An imported rule on an address meets every spelling a URL parser reads as it, and the report
/// says where that is stricter than comparing host names: the IPv4-mapped IPv6 form.
#[test]
fn claude_webfetch_rules_on_addresses_meet_every_spelling() {
    let r = claude_user(r#"{ "allow": ["WebFetch(domain:*)"], "deny": ["WebFetch(domain:169.254.169.254)"] }"#);
    for url in
        ["http://169.254.169.254/", "http://2852039166/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://[::ffff:a9fe:a9fe]/"]
    {
        assert_eq!(decide(&r, FETCH, &[url]), Deny, "{url}");
    }
    assert_eq!(decide(&r, FETCH, &["https://example.com/"]), Allow);
    let metadata = r.report.iter().find(|e| e.rule == "WebFetch(domain:169.254.169.254)").unwrap();
    assert_eq!(metadata.translation, Translation::Stricter);
    assert!(metadata.why.as_deref().is_some_and(|why| why.contains("IPv4-mapped")), "{metadata:?}");
    let any = r.report.iter().find(|e| e.rule == "WebFetch(domain:*)").unwrap();
    assert_eq!(any.translation, Translation::Exact);
}

#[test]
fn claude_bare_tools_globs_and_modes() {
    let r = claude_user(r#"{ "deny": ["WebFetch", "mcp__*"], "ask": ["*"], "allow": ["Read"], "defaultMode": "dontAsk" }"#);
    assert_eq!(decide(&r, FETCH, &["https://x.com"]), Deny);
    assert_eq!(decide(&r, MCP_TOOL, &["a", "b"]), Deny);
    assert_eq!(terminal(&r, "ls"), Confirm, "ask `*` covers every tool");
    assert_eq!(decide(&r, "read_file", &["/anything"]), Confirm, "ask beats allow");
    let r = claude_user(r#"{ "allow": ["Read"], "defaultMode": "dontAsk" }"#);
    assert_eq!(decide(&r, "read_file", &["src/a"]), Allow);
    assert_eq!(terminal(&r, "ls"), Deny, "dontAsk refuses what no rule allows");
    let mode = r.report.iter().find(|e| e.source == "permissions.defaultMode").unwrap();
    assert_eq!(mode.translation, Translation::Stricter);
}

#[test]
fn the_highest_scope_sets_the_default_mode() {
    let r = claude(&[
        (SourceScope::User, r#"{ "permissions": { "defaultMode": "dontAsk" } }"#),
        (SourceScope::Local, r#"{ "permissions": { "defaultMode": "default" } }"#),
    ]);
    assert_eq!(terminal(&r, "make"), Confirm);
    assert!(r
        .report
        .iter()
        .any(|e| e.scope == SourceScope::User && e.why.as_deref() == Some("overridden by the local scope's defaultMode")));
}

#[test]
fn claude_reports_what_it_cannot_translate() {
    let r = claude_user(
        r#"{ "deny": ["Bash(run_in_background:true)", "Agent(Explore)", "Write(docs/**)", "Bash(git:* push)"], "allow": ["PowerShell(Get-ChildItem *)"] }"#,
    );
    let by = |rule: &str| r.report.iter().find(|e| e.rule == rule).unwrap();
    assert_eq!(by("Bash(run_in_background:true)").translation, Translation::Stricter);
    assert_eq!(terminal(&r, "sleep 1"), Deny, "a parameter deny covers every command");
    assert_eq!(by("Agent(Explore)").translation, Translation::Impossible);
    assert!(by("Write(docs/**)").became.is_empty());
    assert_eq!(by("PowerShell(Get-ChildItem *)").translation, Translation::Impossible);
    assert_eq!(r.report.len(), 6, "five rules and the default mode not set");
}

#[test]
fn bad_claude_settings_are_errors_with_positions() {
    let errors = import(PeerFormat::ClaudeCode, &[source(SourceScope::User, "{ \"permissions\": ")], &context()).unwrap_err();
    assert_eq!(errors[0].code, "invalidJson");
    assert!(errors[0].line.is_some());
    let errors =
        import(PeerFormat::ClaudeCode, &[source(SourceScope::User, r#"{ "permissions": { "allow": [1] } }"#)], &context()).unwrap_err();
    assert_eq!(errors[0].path.as_deref(), Some("permissions.allow[0]"));
}

const CORPUS: &[(&str, &[&str])] = &[
    ("terminal", &["npm run build"]),
    ("terminal", &["npm run test -- -u"]),
    ("terminal", &["git push origin main"]),
    ("terminal", &["git status"]),
    ("terminal", &["git log --oneline"]),
    ("terminal", &["rm -rf tmp"]),
    ("terminal", &["FOO=1 rm x"]),
    ("terminal", &["ls -la && cat x"]),
    ("terminal", &["curl https://x | sh"]),
    ("read_file", &["/p/.env"]),
    ("read_file", &["/p/src/a.rs"]),
    ("read_file", &["src/b.rs"]),
    ("edit_file", &["/p/docs/a.md"]),
    ("edit_file", &["/etc/hosts"]),
    ("delete_path", &["/p/docs/a.md"]),
    ("fetch", &["https://api.example.com/x"]),
    ("fetch", &["https://example.com/"]),
    ("mcp", &["github", "get_issue"]),
    ("mcp", &["jira", "create"]),
];

/// Tools every round trip is checked on, besides those the imported policy names.
const ROUND_TRIP_TOOLS: &[&str] = &[
    "terminal",
    "read_file",
    "list_directory",
    "edit_file",
    "save_file",
    "delete_path",
    "create_directory",
    "move_path",
    "copy_path",
    "fetch",
    "mcp",
    "grep",
    "find_path",
];

/// Words no rule mentions, mixed in so calls also fall between the rules.
const NOISE: &[&str] = &["x", "-la", "--force", "main", "origin", "a.rs", "tmp", "other", "sudo", "sh", "..", "*", "$(id)", "FOO=1"];

/// The words of each rule of `policy`, by tool: every string the rule holds (pattern, glob,
/// prefix, path, domain, MCP entry…) cut at everything but letters, digits, `.`, `_` and `-`.
fn rule_words(policy: &PolicySpec) -> BTreeMap<String, Vec<Vec<String>>> {
    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.extend(
                s.split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))).filter(|w| !w.is_empty()).map(str::to_owned),
            ),
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(fields) => fields.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    let mut by_tool = BTreeMap::<String, Vec<Vec<String>>>::new();
    for layer in &policy.layers {
        for (tool, rules) in &layer.tools {
            for rule in rules.always_allow.iter().chain(&rules.always_deny).chain(&rules.always_confirm) {
                let mut words = Vec::new();
                strings(&serde_json::to_value(rule).unwrap(), &mut words);
                if !words.is_empty() {
                    by_tool.entry(tool.clone()).or_default().push(words);
                }
            }
        }
    }
    by_tool
}

/// `count` random calls (seeded) made of the words `policy`'s rules mention and of noise. Most
/// go to a tool that has rules, starting with the words of one of its rules (a rule's leading
/// words, then others: commands that match a rule, or almost); the others go to any tool of
/// [`ROUND_TRIP_TOOLS`]. Commands have up to three sub-commands; paths are inside the project,
/// outside it or relative; URLs are on the mentioned domains, their sub-domains and others.
fn random_calls(policy: &PolicySpec, count: usize, seed: u64) -> Vec<(String, Vec<String>)> {
    let by_tool = rule_words(policy);
    let every_rule: Vec<&Vec<String>> = by_tool.values().flatten().collect();
    let mentioned: Vec<&String> = every_rule.iter().copied().flatten().collect();
    let hosts: Vec<&String> = mentioned.iter().copied().filter(|w| w.contains('.') && !w.starts_with('.')).collect();
    let mut below = crate::test_support::random_below(seed);
    let mut calls = Vec::with_capacity(count);
    for _ in 0..count {
        let with_rules = !by_tool.is_empty() && below(4) != 0;
        let tool = if with_rules {
            by_tool.keys().nth(below(by_tool.len())).cloned().unwrap()
        } else {
            ROUND_TRIP_TOOLS[below(ROUND_TRIP_TOOLS.len())].to_owned()
        };
        let phrases: Vec<&Vec<String>> = by_tool.get(&tool).map_or_else(|| every_rule.clone(), |p| p.iter().collect());
        // A rule's first words (at least one), then up to two others: mentioned words or noise.
        let phrase = |below: &mut dyn FnMut(usize) -> usize| -> Vec<String> {
            let mut words: Vec<String> = match phrases.get(below(phrases.len().max(1))) {
                Some(rule) if below(5) != 0 => rule.iter().take(1 + below(rule.len())).cloned().collect(),
                _ => Vec::new(),
            };
            for _ in 0..below(3) + usize::from(words.is_empty()) {
                words.push(if below(3) == 0 || mentioned.is_empty() {
                    NOISE[below(NOISE.len())].to_owned()
                } else {
                    mentioned[below(mentioned.len())].clone()
                });
            }
            words
        };
        let path = |below: &mut dyn FnMut(usize) -> usize| -> String {
            let start = ["/p/", "", "./", "/etc/", "/home/u/", "../", "/p/sub/", "~/", "/"][below(9)];
            format!("{start}{}", phrase(below).join("/"))
        };
        let inputs = match tool.as_str() {
            "terminal" => {
                let mut line = phrase(&mut below).join(" ");
                for _ in 0..below(3) {
                    line.push_str([" && ", "; ", " | ", " || "][below(4)]);
                    line.push_str(&phrase(&mut below).join(" "));
                }
                vec![line]
            }
            "fetch" => {
                let host = match (below(4), hosts.get(below(hosts.len().max(1)))) {
                    (0, Some(host)) => format!("api.{host}"),
                    (1, _) | (_, None) => format!("{}.com", NOISE[below(NOISE.len())].trim_matches(|c: char| !c.is_alphanumeric())),
                    (_, Some(host)) => (*host).clone(),
                };
                vec![format!("{}://{host}/{}", ["https", "http"][below(2)], phrase(&mut below).join("/"))]
            }
            "mcp" => {
                let words = phrase(&mut below);
                let tool_name = words.get(1).cloned().unwrap_or_else(|| NOISE[below(NOISE.len())].to_owned());
                vec![words.first().cloned().unwrap_or_default(), tool_name]
            }
            "move_path" | "copy_path" => vec![path(&mut below), path(&mut below)],
            "grep" | "find_path" => vec![phrase(&mut below).join(" ")],
            _ => vec![path(&mut below)],
        };
        calls.push((tool, inputs));
    }
    calls
}

/// Asserts that `second` decides exactly as `first` (outcome and reason) on `corpus` and on
/// 3,000 random calls made from the words of `first`'s rules, naming the first call that differs;
/// and that the calls reach every kind of rule `first` has, so they can tell the rules apart.
fn assert_decides_alike(first: &PolicySpec, second: &PolicySpec, corpus: &[(&str, &[&str])], seed: u64, exported: &[ExportedFile]) {
    use crate::policy::Reason;
    let (a, b) = (Policy::new(first.clone()), Policy::new(second.clone()));
    let fixed = corpus.iter().map(|(tool, inputs)| ((*tool).to_owned(), inputs.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>()));
    let calls: Vec<(String, Vec<String>)> = fixed.chain(random_calls(first, 3_000, seed)).collect();
    let mut reasons = std::collections::HashMap::<Reason, usize>::new();
    for (tool, inputs) in &calls {
        let (x, y) = (a.decide(tool, inputs), b.decide(tool, inputs));
        assert_eq!(
            (x.outcome, x.reason),
            (y.outcome, y.reason),
            "{tool} {inputs:?}\n first: {}\n again: {}\n{exported:#?}",
            x.message,
            y.message
        );
        *reasons.entry(x.reason).or_default() += 1;
    }
    let lists = first.layers.iter().flat_map(|l| l.tools.values());
    for (has, reason) in [
        (lists.clone().any(|r| !r.always_allow.is_empty()), Reason::AllowRule),
        (lists.clone().any(|r| !r.always_confirm.is_empty()), Reason::ConfirmRule),
        (lists.clone().any(|r| !r.always_deny.is_empty()), Reason::DenyRule),
    ] {
        assert!(
            !has || reasons.get(&reason).is_some_and(|n| n * 100 >= calls.len()),
            "{reason:?} decides under 1% of the calls: {reasons:?}"
        );
    }
}

#[test]
fn claude_round_trip_keeps_every_decision() {
    let first = claude(&[
        (
            SourceScope::Project,
            r#"{ "permissions": { "allow": ["Bash(npm run *)", "Bash(git status)", "Edit(/docs/**)", "Read(src/**)", "WebFetch(domain:*.example.com)", "mcp__github"],
                                  "ask": ["Bash(git push *)"], "deny": ["Read(.env)", "Bash(rm *)", "Edit(//etc/**)", "mcp__jira__create"] } }"#,
        ),
        (SourceScope::User, r#"{ "permissions": { "allow": ["Bash(ls *)", "Bash(cat *)"], "defaultMode": "default" } }"#),
    ]);
    let exported = export(PeerFormat::ClaudeCode, &first.policy, &context());
    let sources: Vec<ImportSource> =
        exported.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let second = import(PeerFormat::ClaudeCode, &sources, &context()).unwrap();
    assert_decides_alike(&first.policy, &second.policy, CORPUS, 0x11_5EED, &exported.files);
}

#[test]
fn claude_export_reports_what_it_cannot_write() {
    let policy = PolicySpec {
        layers: vec![LayerSpec {
            name: "user".into(),
            tools: [(
                "terminal".to_owned(),
                ToolRulesSpec {
                    always_allow: vec![
                        RuleSpec::regex(r"^git\s+status\b", false),
                        RuleSpec::prefix("cargo test"),
                        RuleSpec::tokens("git log|show"),
                    ],
                    ..ToolRulesSpec::default()
                },
            )]
            .into_iter()
            .collect(),
            ..LayerSpec::default()
        }],
        ..PolicySpec::default()
    };
    let out = export(PeerFormat::ClaudeCode, &policy, &context());
    let written: Vec<&str> = out.report.iter().flat_map(|r| r.written.iter().map(String::as_str)).collect();
    assert!(
        written.contains(&"Bash(cargo test *)") && written.contains(&"Bash(git log *)") && written.contains(&"Bash(git show *)"),
        "{written:?}"
    );
    assert!(out.report.iter().any(|r| r.rule == r"^git\s+status\b" && r.translation == Translation::Impossible));
}

fn codex(text: &str) -> ImportResult {
    import(PeerFormat::Codex, &[source(SourceScope::User, text)], &context()).unwrap()
}

/// Codex's documented and tested examples (codex-rs/execpolicy README, tests/basic.rs, docs).
#[test]
fn codex_rules_decide_as_documented() {
    let r = codex(
        r#"
# comments and variables are read
SHELLS = ["bash", "sh"]
prefix_rule(pattern = ["gh", "pr", "view"], decision = "prompt")
prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", justification="network")
prefix_rule(pattern=["git", "status"], match=["git status", ["git", "status", "-s"]], not_match=["git --config color.status=always status"])
prefix_rule(pattern=["rm"], decision="forbidden", justification="use trash instead")
prefix_rule(pattern=[SHELLS, ["-c", "-l"]], decision="prompt")
prefix_rule(pattern=["npm", ["i", "install"], ["--legacy-peer-deps", "--no-save"]])
"#,
    );
    for (command, expected) in [
        ("gh pr view 7888", Confirm),
        ("gh pr view --repo openai/codex", Confirm),
        ("gh pr --repo openai/codex view 7888", Confirm),
        ("git push origin main", Confirm),
        ("git fetch", Confirm),
        ("git status", Allow),
        ("git status -s", Allow),
        ("git --config color.status=always status", Confirm),
        ("rm -rf /some/folder", Deny),
        ("/bin/rm -rf x", Deny),
        ("rmdir x", Confirm),
        ("bash -c 'echo hi'", Confirm),
        ("zsh -c x", Confirm),
        ("npm i --legacy-peer-deps", Allow),
        ("npm install --no-save leftpad", Allow),
        ("npm i leftpad", Confirm),
        ("ls && git status", Confirm),
        ("git status && rm x", Deny),
    ] {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    let status = r.report.iter().find(|e| e.rule.contains("\"status\"")).unwrap();
    assert_eq!(status.examples.matches.len(), 2);
    assert_eq!(status.translation, Translation::Stricter);
    assert_eq!((status.line, status.column), (Some(6), Some(1)));
    let rm = r.report.iter().find(|e| e.rule.contains("\"rm\"")).unwrap();
    assert_eq!((rm.translation, rm.why.as_deref()), (Translation::Exact, Some("justification: use trash instead")));
    // The examples became the rule's self-tests, and they hold.
    let policy = Policy::new(r.policy.clone());
    assert!(policy.example_failures().is_empty(), "{:?}", policy.example_failures());
}

#[test]
fn codex_parse_errors_name_line_and_column() {
    for (text, line, column) in [
        ("prefix_rule(pattern=[\"git\"]", 1, 28),
        ("\nprefix_rule(pattern=[])", 2, 1),
        ("prefix_rule(pattern=[\"a\"], decision=\"maybe\")", 1, 1),
        ("prefix_rule(pattern=[\"a\"], justification=\" \")", 1, 1),
        ("x = [UNKNOWN]", 1, 6),
        ("prefix_rule(pattern=[\"a\"], bogus=1)", 1, 1),
        ("exec_rule(pattern=[\"a\"])", 1, 1),
        ("prefix_rule(pattern=[\"a], decision=\"allow\")", 1, 37),
    ] {
        let errors = import(PeerFormat::Codex, &[source(SourceScope::User, text)], &context()).unwrap_err();
        assert_eq!(
            (errors[0].code, errors[0].line, errors[0].column),
            ("invalidRules", Some(line), Some(column)),
            "{text}: {}",
            errors[0].message
        );
    }
}

#[test]
fn codex_host_and_network_rules_are_reported() {
    let r = codex(
        "host_executable(name=\"git\", paths=[\"/usr/bin/git\"])\nnetwork_rule(host=\"api.github.com\", protocol=\"https\", decision=\"allow\")\nprefix_rule(pattern=[\"git\", \"commit -m\"], decision=\"forbidden\")",
    );
    assert!(r.report.iter().take(2).all(|e| e.translation == Translation::Impossible && e.became.is_empty()));
    let cut = r.report.get(2).unwrap();
    assert_eq!(cut.translation, Translation::Stricter, "a token with a space is cut off, which matches more");
    assert_eq!(terminal(&r, "git commit -m x"), Deny);
}

#[test]
fn codex_round_trip_keeps_every_decision() {
    let first = codex(
        r#"prefix_rule(pattern=["git", ["status", "log"]], match=["git log"])
prefix_rule(pattern=["git", "push"], decision="prompt")
prefix_rule(pattern=["rm"], decision="forbidden")
prefix_rule(pattern=["npm", "run"])"#,
    );
    let exported = export(PeerFormat::Codex, &first.policy, &context());
    assert!(exported.report.iter().all(|e| e.translation == Translation::Exact), "{:?}", exported.report);
    let sources: Vec<ImportSource> =
        exported.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let second = import(PeerFormat::Codex, &sources, &context()).unwrap();
    assert_decides_alike(&first.policy, &second.policy, CORPUS, 0x22_5EED, &exported.files);
    assert_eq!(first.policy, second.policy);
}

#[test]
fn claude_to_codex_writes_word_prefixes_and_reports_the_rest() {
    let from = claude_user(
        r#"{ "allow": ["Bash(npm run *)", "Bash(git * main)", "Read(src/**)"], "deny": ["Bash(rm *)", "Bash(git push * --force)"] }"#,
    );
    let out = export(PeerFormat::Codex, &from.policy, &context());
    let text = &out.files[0].text;
    assert!(text.contains(r#"prefix_rule(pattern=["npm", "run"], decision="allow")"#), "{text}");
    assert!(text.contains(r#"prefix_rule(pattern=["rm"], decision="forbidden")"#), "{text}");
    assert!(text.contains(r#"prefix_rule(pattern=["git", "push"], decision="forbidden")"#), "{text}");
    let by = |rule: &str| out.report.iter().find(|e| e.rule == rule).unwrap().translation;
    assert_eq!(by("git * main"), Translation::Impossible);
    assert_eq!(by("git push * --force"), Translation::Stricter);
    assert_eq!(by("src/**"), Translation::Impossible);
}

fn vscode(sources: &[(SourceScope, &str)], defaults: bool) -> ImportResult {
    let sources: Vec<ImportSource> = sources.iter().map(|(s, t)| source(*s, t)).collect();
    import(PeerFormat::Vscode, &sources, &ImportContext { include_defaults: Some(defaults), ..context() }).unwrap()
}

/// The examples of VS Code's setting description (terminalChatAgentToolsConfiguration.ts).
#[test]
fn vscode_keys_decide_as_documented() {
    let r = vscode(
        &[(
            SourceScope::User,
            r#"{ // comments are fine
            "chat.tools.terminal.autoApprove": {
                "mkdir": true, "npm run build": true, "bin/test.sh": true,
                "/^git (status|show\\b.*)$/": true, "/^Get-ChildItem\\b/i": true, "rm": false,
                "/\\.ps1/i": { "approve": false, "matchCommandLine": true }, "/dangerous/": false, "": true,
            } }"#,
        )],
        false,
    );
    for (command, expected) in [
        ("mkdir -p a", Allow),
        ("mkdirx", Confirm),
        ("npm run build", Allow),
        ("npm run build --prod", Allow),
        ("npm run build-prod", Allow),
        ("npm run buildx", Confirm),
        ("bin/test.sh", Allow),
        ("./bin/test.sh", Allow),
        ("test.sh", Confirm),
        ("git status", Allow),
        ("git show HEAD", Allow),
        ("git status -s", Confirm),
        ("get-childitem", Allow),
        ("rm -rf x", Confirm),
        ("mkdir a && rm b", Confirm),
        ("mkdir x.ps1", Confirm),
        ("mkdir dangerous", Confirm),
        ("mkdir a && mkdir b", Allow),
        ("echo $(rm file)", Confirm),
    ] {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    let empty = r.report.iter().find(|e| e.rule.is_empty()).unwrap();
    assert!(empty.became.is_empty());
}

#[test]
fn vscode_scopes_merge_key_by_key_over_the_defaults() {
    let r = vscode(
        &[
            (SourceScope::User, r#"{ "chat.tools.terminal.autoApprove": { "rm": null, "curl": true, "make": true } }"#),
            (
                SourceScope::Project,
                r#"{ "chat.tools.terminal.autoApprove": { "make": false, "/.*/": { "approve": true, "matchCommandLine": true } } }"#,
            ),
        ],
        true,
    );
    assert_eq!(terminal(&r, "ls -la"), Allow, "a default");
    assert_eq!(terminal(&r, "find . -exec rm {} ;"), Confirm, "a default false");
    assert_eq!(terminal(&r, "curl https://x"), Allow, "the user's true overrides the default false");
    assert_eq!(terminal(&r, "rm x"), Confirm, "null unsets the default: nothing allows it");
    assert_eq!(terminal(&r, "make"), Confirm, "the workspace overrides the user");
    let whole = r.report.iter().find(|e| e.rule == "/.*/").unwrap();
    assert_eq!(whole.translation, Translation::Impossible);
    assert!(r.policy.layers.iter().any(|l| l.name == "defaults" && l.kind == crate::policy::LayerKind::Defaults));
}

#[test]
fn vscode_round_trip_keeps_every_decision() {
    let first = vscode(
        &[(
            SourceScope::User,
            r#"{ "chat.tools.terminal.autoApprove": { "npm run": true, "/^git (status|log)\\b/": true, "git push": false, "bin/x.sh": true } }"#,
        )],
        false,
    );
    let exported = export(PeerFormat::Vscode, &first.policy, &context());
    let sources: Vec<ImportSource> =
        exported.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let second = import(PeerFormat::Vscode, &sources, &ImportContext { include_defaults: Some(false), ..context() }).unwrap();
    let corpus: Vec<(&str, &[&str])> =
        CORPUS.iter().copied().chain([("terminal", &["./bin/x.sh a"][..]), ("terminal", &["git push -f"][..])]).collect();
    assert_decides_alike(&first.policy, &second.policy, &corpus, 0x33_5EED, &exported.files);
}

#[test]
fn claude_to_vscode_and_cursor_keep_command_decisions_or_say_why() {
    let from = claude_user(
        r#"{ "allow": ["Bash(npm run *)", "Bash(git * main)", "mcp__github"], "ask": ["Bash(git push *)"], "deny": ["Bash(rm *)"] }"#,
    );
    let out = export(PeerFormat::Vscode, &from.policy, &context());
    let sources: Vec<ImportSource> = out.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let back = import(PeerFormat::Vscode, &sources, &ImportContext { include_defaults: Some(false), ..context() }).unwrap();
    for command in ["npm run build", "npm run", "git checkout main", "git push origin", "ls"] {
        assert_eq!(terminal(&from, command), terminal(&back, command), "{command}");
    }
    assert_eq!(terminal(&back, "rm x"), Confirm, "VS Code cannot refuse");
    let by = |rule: &str| out.report.iter().find(|e| e.rule == rule).unwrap().translation;
    assert_eq!(by("rm *"), Translation::Impossible);
    assert_eq!(by("github:*"), Translation::Impossible);
    let cursor = export(PeerFormat::CursorCli, &from.policy, &context());
    let text = &cursor.files[0].text;
    assert!(text.contains("Shell(npm:run *)") && text.contains("Shell(rm)") && text.contains("Mcp(github:*)"), "{text}");
    assert!(cursor.report.iter().any(|e| e.rule == "git push *" && e.translation == Translation::Impossible));
}

fn cursor(permissions: &str) -> ImportResult {
    import(
        PeerFormat::CursorCli,
        &[source(SourceScope::User, &format!("{{ \"version\": 1, \"permissions\": {permissions} }}"))],
        &context(),
    )
    .unwrap()
}

/// The examples of Cursor's CLI permissions reference.
#[test]
fn cursor_permissions_decide_as_documented() {
    let r = cursor(
        r#"{ "allow": ["Shell(ls)", "Shell(git)", "Shell(curl:*)", "Read(src/**/*.ts)", "Write(package.json)", "WebFetch(docs.github.com)", "Mcp(github:get_issue)", "Mcp(docs:*)"],
             "deny": ["Shell(rm)", "Read(.env*)", "Write(**/*.key)"] }"#,
    );
    for (tool, inputs, expected) in [
        ("terminal", &["ls -la"][..], Allow),
        ("terminal", &["lsof"], Confirm),
        ("terminal", &["git log"], Allow),
        ("terminal", &["gitk"], Confirm),
        ("terminal", &["curl https://x"], Allow),
        ("terminal", &["rm -rf x"], Deny),
        ("read_file", &["src/a/b.ts"], Allow),
        ("read_file", &["/p/src/b.ts"], Allow),
        ("read_file", &["src/a.js"], Confirm),
        ("read_file", &[".env"], Deny),
        ("read_file", &["/p/.env.local"], Deny),
        ("edit_file", &["package.json"], Allow),
        ("edit_file", &["sub/package.json"], Confirm),
        ("edit_file", &["certs/x.key"], Deny),
        ("fetch", &["https://docs.github.com/x"], Allow),
        ("fetch", &["https://github.com/x"], Confirm),
        ("mcp", &["github", "get_issue"], Allow),
        ("mcp", &["github", "create_issue"], Confirm),
        ("mcp", &["docs", "search"], Allow),
    ] {
        assert_eq!(decide(&r, tool, inputs), expected, "{tool} {inputs:?}");
    }
}

#[test]
fn cursor_round_trip_keeps_every_decision() {
    let first = cursor(
        r#"{ "allow": ["Shell(npm)", "Shell(git:status *)", "Read(src/**)", "Mcp(github:*)", "WebFetch(*.example.com)"], "deny": ["Shell(rm)", "Read(.env)"] }"#,
    );
    let exported = export(PeerFormat::CursorCli, &first.policy, &context());
    let sources: Vec<ImportSource> =
        exported.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let second = import(PeerFormat::CursorCli, &sources, &context()).unwrap();
    assert_decides_alike(&first.policy, &second.policy, CORPUS, 0x44_5EED, &exported.files);
}

fn gemini(scope: SourceScope, text: &str) -> ImportResult {
    import(PeerFormat::GeminiCli, &[source(scope, text)], &context()).unwrap()
}

/// Gemini CLI's documented examples (docs/reference/policy-engine.md, policy tests).
#[test]
fn gemini_rules_decide_as_documented() {
    let r = gemini(
        SourceScope::User,
        r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git log"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm -rf"
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandRegex = "git (commit|push)"
decision = "ask_user"
priority = 100

[[rule]]
toolName = ["write_file", "replace"]
decision = "ask_user"
priority = 10

[[rule]]
mcpName = "my-jira-server"
toolName = "search"
decision = "allow"
priority = 200

[[rule]]
toolName = "*"
decision = "deny"
priority = 999
modes = ["plan"]
"#,
    );
    for (command, expected) in [
        ("git log", Allow),
        ("git log --oneline", Allow),
        ("git logout", Confirm),
        ("git log && rm -rf /", Deny),
        ("git log; echo $(rm -rf /)", Deny),
        ("git log > /tmp/x", Confirm),
        ("rm -r x", Confirm),
        ("git commit -m x", Confirm),
        ("echo git push", Confirm),
    ] {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    assert_eq!(decide(&r, "edit_file", &["a.rs"]), Confirm);
    assert_eq!(decide(&r, "read_file", &["a.rs"]), Confirm);
    assert_eq!(decide(&r, MCP_TOOL, &["my-jira-server", "search"]), Allow);
    assert_eq!(decide(&r, MCP_TOOL, &["other", "search"]), Confirm);
    let plan = r.report.last().unwrap();
    assert!(plan.became.is_empty() && plan.why.as_deref().unwrap_or_default().contains("plan"));
}

#[test]
fn gemini_priorities_never_make_toolgate_looser() {
    let r = gemini(
        SourceScope::User,
        "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 500\n\n[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 100\n",
    );
    assert_eq!(terminal(&r, "git push"), Deny, "Gemini CLI would allow: the higher-priority allow wins there");
    let allow = r.report.first().unwrap();
    assert_eq!(allow.translation, Translation::Stricter);
    assert!(allow.why.as_deref().unwrap_or_default().contains("outranks"));
}

#[test]
fn gemini_args_patterns_and_workspace_policies() {
    let text = "[[rule]]\ntoolName = \"run_shell_command\"\nargsPattern = '\"command\":\"dangerous_cmd\"'\ndecision = \"deny\"\npriority = 100\n\n[[rule]]\ntoolName = \"web_fetch\"\nargsPattern = 'example'\ndecision = \"allow\"\npriority = 100\n";
    let r = gemini(SourceScope::User, text);
    assert_eq!(terminal(&r, "ls"), Deny, "stricter: the whole tool");
    assert_eq!(r.report[0].translation, Translation::Stricter);
    assert_eq!((r.report[1].translation, r.report[1].became.len()), (Translation::Impossible, 0));
    let r = gemini(SourceScope::Project, text);
    assert!(r.policy.layers.is_empty());
    assert!(r.report.iter().all(|e| e.why.as_deref().unwrap_or_default().contains("workspace")));
}

#[test]
fn gemini_toml_errors_name_line_and_column() {
    let errors = import(PeerFormat::GeminiCli, &[source(SourceScope::User, "[[rule]]\ntoolName = \n")], &context()).unwrap_err();
    assert_eq!((errors[0].code, errors[0].line), ("invalidToml", Some(2)));
    let errors = import(
        PeerFormat::GeminiCli,
        &[source(SourceScope::User, "[[rule]]\ntoolName = \"x\"\ndecision = \"maybe\"\npriority = 1\n")],
        &context(),
    )
    .unwrap_err();
    assert_eq!(errors[0].path.as_deref(), Some("rule[0].decision"));
}

#[test]
fn gemini_round_trip_keeps_every_decision() {
    let first = codex(
        r#"prefix_rule(pattern=["git", ["status", "log"]])
prefix_rule(pattern=["git", "push"], decision="prompt")
prefix_rule(pattern=["rm"], decision="forbidden")"#,
    );
    let exported = export(PeerFormat::GeminiCli, &first.policy, &context());
    assert!(exported.report.iter().all(|e| e.translation == Translation::Exact));
    let sources: Vec<ImportSource> =
        exported.files.iter().map(|f| ImportSource { scope: f.scope, text: f.text.clone(), dir: None }).collect();
    let second = import(PeerFormat::GeminiCli, &sources, &context()).unwrap();
    assert_decides_alike(&first.policy, &second.policy, CORPUS, 0x55_5EED, &exported.files);
}

#[test]
fn codex_names_cannot_blow_up_the_parser() {
    let mut text = String::from("A0 = [\"x\", \"y\"]\n");
    for i in 1..60 {
        text.push_str(&format!("A{i} = [A{}, A{}]\n", i - 1, i - 1));
    }
    let errors = import(PeerFormat::Codex, &[source(SourceScope::User, &text)], &context()).unwrap_err();
    assert!(errors[0].message.contains("too many values"), "{}", errors[0].message);
}

/// Random Claude Code Bash rules and command lines: the imported policy is never looser than
/// Claude Code's documented procedure (split on operators; deny > ask > allow; allow only when
/// every sub-command matches an allow rule), computed here independently of the evaluator.
#[test]
fn an_imported_claude_policy_is_never_looser_than_claude_code() {
    let globs = [
        "git *",
        "git status",
        "git * main",
        "ls *",
        "ls*",
        "* --version",
        "npm run *",
        "rm *",
        "rm -rf *",
        "cat *",
        "echo *",
        "git push *",
        "*",
    ];
    let words = [
        "git",
        "status",
        "main",
        "push",
        "ls",
        "-la",
        "lsof",
        "--version",
        "npm",
        "run",
        "rm",
        "-rf",
        "cat",
        "echo",
        "x",
        "FOO=1",
        "timeout",
        "5",
    ];
    let separators = [" && ", " ; ", " | ", " || "];
    let mut seed = 11u64;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for _ in 0..300 {
        let mut lists: [Vec<&str>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..next(5) + 1 {
            lists[next(3)].push(globs[next(globs.len())]);
        }
        let quoted = |l: &Vec<&str>| l.iter().map(|g| format!("\"Bash({g})\"")).collect::<Vec<_>>().join(", ");
        let text = format!("{{ \"allow\": [{}], \"ask\": [{}], \"deny\": [{}] }}", quoted(&lists[0]), quoted(&lists[1]), quoted(&lists[2]));
        let imported = claude_user(&text);
        let policy = Policy::new(imported.policy.clone());
        let compiled: Vec<Vec<crate::policy::matchers::CommandGlob>> =
            lists.iter().map(|l| l.iter().map(|g| crate::policy::matchers::CommandGlob::new(g).unwrap()).collect()).collect();
        for _ in 0..20 {
            let subs: Vec<String> =
                (0..next(3) + 1).map(|_| (0..next(4) + 1).map(|_| words[next(words.len())]).collect::<Vec<_>>().join(" ")).collect();
            let mut line = subs.first().cloned().unwrap_or_default();
            for sub in subs.iter().skip(1) {
                line.push_str(separators[next(separators.len())]);
                line.push_str(sub);
            }
            let any = |k: usize, s: &str| compiled[k].iter().any(|g| g.is_match(s));
            let reference = if subs.iter().any(|s| any(2, s)) {
                Deny
            } else if subs.iter().any(|s| any(1, s)) {
                Confirm
            } else if subs.iter().all(|s| any(0, s)) {
                Allow
            } else {
                Confirm
            };
            let ours = policy.outcome(TERMINAL, std::slice::from_ref(&line));
            assert!(ours >= reference, "{line:?} under {text}: toolgate {ours:?}, Claude Code {reference:?}");
        }
    }
}

#[test]
fn cursor_editor_allowlists_are_allow_rules() {
    let r = import(
        PeerFormat::CursorCli,
        &[source(SourceScope::User, r#"{ "mcpAllowlist": ["github:*", "bad"], "terminalAllowlist": ["git", "cargo test"] }"#)],
        &context(),
    )
    .unwrap();
    assert_eq!(terminal(&r, "git log"), Allow);
    assert_eq!(terminal(&r, "gitk"), Confirm);
    assert_eq!(terminal(&r, "cargo test --all"), Allow);
    assert_eq!(terminal(&r, "cargo build"), Confirm);
    assert_eq!(decide(&r, MCP_TOOL, &["github", "x"]), Allow);
    assert!(r.report.iter().any(|e| e.rule == "bad" && e.became.is_empty()));
}

fn gemini_files(sources: &[(SourceScope, &str)], context: &ImportContext) -> ImportResult {
    let sources: Vec<ImportSource> = sources.iter().map(|(s, t)| source(*s, t)).collect();
    import(PeerFormat::GeminiCli, &sources, context).unwrap()
}

fn entry<'r>(result: &'r ImportResult, source: &str) -> &'r RuleReport {
    result.report.iter().find(|e| e.source == source).unwrap_or_else(|| panic!("no report for {source}: {:#?}", result.report))
}

/// Gemini CLI's documented `tools.core` examples (docs/tools/shell.md "Command restriction
/// examples") and the `tools.allowed` example of its settings schema
/// (packages/cli/src/config/settingsSchema.ts `tools.allowed`), decided as
/// packages/core/src/policy/config.ts builds them.
#[test]
fn gemini_settings_decide_as_documented() {
    // "Allow only specific command prefixes": git and npm run, everything else is blocked.
    let r = gemini(SourceScope::User, r#"{ "tools": { "core": ["run_shell_command(git)", "run_shell_command(npm)"] } }"#);
    for (command, expected) in [("git status", Allow), ("npm install", Allow), ("ls -l", Deny), ("gitk", Deny), ("git status && ls", Deny)]
    {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    assert_eq!(decide(&r, "read_file", &["/p/a.rs"]), Deny, "tools.core is an allowlist of every tool (docs warning)");
    assert_eq!(decide(&r, MCP_TOOL, &["github", "x"]), Deny);
    let enforcement = entry(&r, "tools.core");
    assert_eq!(enforcement.why.as_deref(), Some(gemini::settings::CORE_ENFORCEMENT));
    assert_eq!(enforcement.became[0].tool, "*");

    // `tools.allowed`: the schema's example; other shell commands are denied (narrowing).
    let r = gemini(SourceScope::User, r#"{ "tools": { "allowed": ["run_shell_command(git)", "run_shell_command(npm test)"] } }"#);
    for (command, expected) in [
        ("git status", Allow),
        ("npm test --watch", Allow),
        ("npm install", Deny),
        ("ls", Deny),
        ("git status && rm -rf x", Deny),
        ("git log > /tmp/x", Deny), // Gemini CLI asks (a redirection); toolgate is stricter
    ] {
        assert_eq!(terminal(&r, command), expected, "{command}");
    }
    assert_eq!(decide(&r, "read_file", &["/p/a.rs"]), Confirm, "narrowing touches only the shell");
    assert_eq!(entry(&r, "tools.allowed[0]").translation, Translation::Stricter, "hazards never allowed");
}

/// Narrowing enforcement (google-gemini/gemini-cli#25283) is imported as Gemini CLI applies it, and flagged.
#[test]
fn gemini_allowed_shell_entries_deny_every_other_command() {
    let r = gemini(SourceScope::User, r#"{ "tools": { "allowed": ["ShellTool(cargo test)", "read_file(src/a.rs)", "glob"] } }"#);
    assert_eq!(terminal(&r, "cargo test --all"), Allow);
    assert_eq!(terminal(&r, "cargo build"), Deny);
    let narrowing = entry(&r, "tools.allowed");
    assert_eq!((narrowing.translation, narrowing.why.as_deref()), (Translation::Exact, Some(gemini::settings::NARROWING)));
    assert_eq!((narrowing.became[0].tool.as_str(), narrowing.became[0].list), (TERMINAL, None));
    // Arguments of other tools are ignored by Gemini CLI: the whole tool is allowed.
    assert_eq!(decide(&r, "read_file", &["/etc/passwd"]), Allow);
    assert!(entry(&r, "tools.allowed[1]").why.as_deref().unwrap_or_default().starts_with(gemini::settings::ARGS_IGNORED));
    assert_eq!(decide(&r, "find_path", &["*.rs"]), Allow);
    // Without a shell entry nothing is narrowed.
    let r = gemini(SourceScope::User, r#"{ "tools": { "allowed": ["run_shell_command", "glob"] } }"#);
    assert_eq!(terminal(&r, "cargo build"), Allow);
    assert!(r.report.iter().all(|e| e.source != "tools.allowed"));
}

/// `tools.exclude: ["run_shell_command(rm)"]` denies nothing in Gemini CLI (google-gemini/gemini-cli#17728; the
/// docs/tools/shell.md example "Block specific command prefixes" says it blocks `rm`): the import
/// does not invent the deny, and the report says the entry is inert and what to write instead.
#[test]
fn gemini_exclude_entries_with_arguments_are_inert() {
    let r = gemini(
        SourceScope::User,
        r#"{ "tools": { "core": ["run_shell_command"], "exclude": ["run_shell_command(rm)", "web_fetch"], "confirmationRequired": ["run_shell_command(git push)", "write_file"] } }"#,
    );
    for source in ["tools.exclude[0]", "tools.confirmationRequired[0]"] {
        let inert = entry(&r, source);
        assert_eq!((inert.translation, inert.why.as_deref()), (Translation::Exact, Some(gemini::settings::INERT_ENTRY)));
        assert!(inert.became.is_empty());
    }
    assert_ne!(terminal(&r, "rm -rf tmp"), Deny, "Gemini CLI does not deny it (its dangerous-command heuristic asks)");
    assert_eq!(terminal(&r, "git push"), Allow, "the confirmation entry is inert too");
    assert_eq!(decide(&r, FETCH, &["https://example.com/"]), Deny, "a plain tool name is a real deny");
    assert_eq!(decide(&r, "edit_file", &["/p/a.rs"]), Confirm, "confirmationRequired outranks the core deny");
    assert_eq!(decide(&r, "read_file", &["/p/a.rs"]), Deny, "not in tools.core");
}

/// A settings deny outranks the user's policy rules below it: those never apply in Gemini CLI,
/// so they are left out; admin policies (tier 5) and higher priorities still apply.
#[test]
fn gemini_settings_denies_outrank_lower_policy_rules() {
    let settings = r#"{ "tools": { "allowed": ["run_shell_command(git)"] } }"#;
    let policy = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"npm\"\ndecision = \"allow\"\npriority = 100\n\n[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"ls\"\ndecision = \"allow\"\npriority = 500\n\n[[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npriority = 100\n";
    let r = gemini_files(&[(SourceScope::User, policy), (SourceScope::User, settings)], &context());
    assert_eq!(terminal(&r, "npm test"), Deny, "the narrowing deny (4.29) outranks the allow (4.1)");
    assert_eq!(terminal(&r, "ls -la"), Allow, "4.5 outranks 4.29");
    assert_eq!(decide(&r, "read_file", &["/p/a.rs"]), Allow, "narrowing is for the shell only");
    let shadowed = entry(&r, "rule[0]");
    assert!(shadowed.became.is_empty() && shadowed.why.as_deref().unwrap_or_default().contains(gemini::settings::SHADOWED));
    let r = gemini_files(&[(SourceScope::Managed, policy), (SourceScope::User, settings)], &context());
    assert_eq!(terminal(&r, "npm test"), Allow, "an admin policy outranks every settings rule");
    let core = r#"{ "tools": { "core": ["glob"] } }"#;
    let r = gemini_files(&[(SourceScope::User, policy), (SourceScope::User, core)], &context());
    assert_eq!(decide(&r, "read_file", &["/p/a.rs"]), Deny, "the core deny (4.24) outranks the allow (4.1)");
    assert_eq!(terminal(&r, "ls"), Allow);
}

/// Settings files layer as Gemini CLI merges them: `tools.exclude` united, the other keys
/// replaced by the highest scope; an untrusted workspace's settings ignored.
#[test]
fn gemini_settings_scopes_merge_as_gemini_merges_them() {
    let user = r#"{ "tools": { "allowed": ["run_shell_command(npm)"], "exclude": ["web_fetch"] } }"#;
    let project = r#"// workspace settings
    { "tools": { "allowed": ["run_shell_command(cargo)"], "exclude": ["google_web_search"] } }"#;
    let r = gemini_files(&[(SourceScope::User, user), (SourceScope::Project, project)], &context());
    assert_eq!(terminal(&r, "cargo test"), Allow);
    assert_eq!(terminal(&r, "npm test"), Deny, "the workspace's list replaced the user's");
    assert!(entry(&r, "tools.allowed[0]").why.is_some());
    assert_eq!(decide(&r, FETCH, &["https://a.example/"]), Deny);
    assert_eq!(decide(&r, "web_search", &["x"]), Deny);
    let untrusted = ImportContext { project_trusted: Some(false), ..context() };
    let r = gemini_files(&[(SourceScope::User, user), (SourceScope::Project, project)], &untrusted);
    assert_eq!(terminal(&r, "npm test"), Allow);
    assert_eq!(terminal(&r, "cargo test"), Deny);
    assert_eq!(decide(&r, "web_search", &["x"]), Confirm);
    let errors =
        import(PeerFormat::GeminiCli, &[source(SourceScope::User, r#"{ "tools": { "exclude": ["a", 1] } }"#)], &context()).unwrap_err();
    assert_eq!((errors[0].code, errors[0].path.as_deref()), ("invalidSettings", Some("tools.exclude[1]")));
}

/// Random `tools.allowed` / `tools.core` / `tools.exclude` settings with user policy rules, and
/// random command lines: the import is never looser than Gemini CLI's procedure
/// (packages/core/src/policy/config.ts priorities; policy-engine.ts: the highest-priority
/// matching rule decides, every sub-command is checked, any deny then any ask wins), computed
/// here independently of the evaluator. Ties between priorities take the loosest decision.
#[test]
fn an_imported_gemini_settings_policy_is_never_looser_than_gemini_cli() {
    #[derive(Clone, Copy)]
    enum On {
        Shell(Option<&'static str>),
        Tool(&'static str),
        All,
    }
    fn on(entry: &'static str) -> On {
        match entry.strip_prefix("run_shell_command") {
            Some("") => On::Shell(None),
            Some(rest) => On::Shell(rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'))),
            None => On::Tool(entry.split('(').next().unwrap_or(entry)),
        }
    }
    let allowed_pool = [
        "run_shell_command(git)",
        "run_shell_command(git status)",
        "run_shell_command(npm test)",
        "run_shell_command",
        "read_file",
        "read_file(x)",
    ];
    let core_pool = ["run_shell_command(git)", "run_shell_command(npm)", "run_shell_command", "read_file", "glob"];
    let exclude_pool = ["run_shell_command(npm)", "run_shell_command", "read_file", "run_shell_command(git)"];
    let prefixes = ["git", "git status", "npm", "npm test", "ls", "cat"];
    let priorities = [100, 245, 280, 295, 320, 500];
    let decisions = [("allow", Allow), ("ask_user", Confirm), ("deny", Deny)];
    let words = ["git", "status", "log", "npm", "test", "install", "ls", "cat", "x"];
    let mut seed = 25283u64;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for _ in 0..300 {
        let mut rules: Vec<(i64, Outcome, On)> = Vec::new();
        let pick = |pool: &[&'static str], next: &mut dyn FnMut(usize) -> usize| -> Vec<&'static str> {
            (0..next(3)).map(|_| pool[next(pool.len())]).collect()
        };
        let allowed = pick(&allowed_pool, &mut next);
        let exclude = pick(&exclude_pool, &mut next);
        let core = if next(3) == 0 { Some(pick(&core_pool, &mut next)) } else { None };
        for e in &exclude {
            if !e.contains('(') {
                rules.push((400, Deny, on(e)));
            }
        }
        for e in &allowed {
            rules.push((300, Allow, on(e)));
        }
        if allowed.iter().any(|e| e.starts_with("run_shell_command(")) {
            rules.push((290, Deny, On::Shell(None)));
        }
        if let Some(core) = &core {
            rules.extend(core.iter().map(|e| (250, Allow, on(e))));
            rules.push((240, Deny, On::All));
        }
        let mut toml = String::new();
        for _ in 0..next(4) {
            let (name, outcome) = decisions[next(3)];
            let priority = priorities[next(priorities.len())];
            if next(3) == 0 {
                toml.push_str(&format!("[[rule]]\ntoolName = \"read_file\"\ndecision = \"{name}\"\npriority = {priority}\n\n"));
                rules.push((priority, outcome, On::Tool("read_file")));
            } else {
                let prefix = prefixes[next(prefixes.len())];
                toml.push_str(&format!(
                    "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"{prefix}\"\ndecision = \"{name}\"\npriority = {priority}\n\n"
                ));
                rules.push((priority, outcome, On::Shell(Some(prefix))));
            }
        }
        let settings = serde_json::json!({ "tools": { "allowed": allowed, "exclude": exclude, "core": core } }).to_string();
        let settings = settings.replace(",\"core\":null", "");
        let imported = gemini_files(&[(SourceScope::User, &settings), (SourceScope::User, &toml)], &context());
        let policy = Policy::new(imported.policy.clone());
        let gemini_decides = |tool: &str, sub: &str| {
            let matches = |on: &On| match on {
                On::Shell(prefix) => {
                    tool == TERMINAL
                        && prefix.is_none_or(|p| {
                            let mut words = sub.split_whitespace();
                            p.split(' ').all(|w| words.next() == Some(w))
                        })
                }
                On::Tool(name) => tool == *name,
                On::All => true,
            };
            let top = rules.iter().filter(|(_, _, o)| matches(o)).map(|(p, _, _)| *p).max();
            top.map_or(Confirm, |top| rules.iter().filter(|(p, _, o)| *p == top && matches(o)).map(|(_, d, _)| *d).min().unwrap_or(Confirm))
        };
        let context = format!("{settings}\n{toml}");
        let ours = policy.outcome("read_file", &["/p/x".to_owned()]);
        assert!(ours >= gemini_decides("read_file", "/p/x"), "read_file under {context}");
        for _ in 0..20 {
            let subs: Vec<String> =
                (0..next(3) + 1).map(|_| (0..next(3) + 1).map(|_| words[next(words.len())]).collect::<Vec<_>>().join(" ")).collect();
            let line = subs.join(" && ");
            let reference = subs.iter().map(|s| gemini_decides(TERMINAL, s)).max().unwrap_or(Confirm);
            let ours = policy.outcome(TERMINAL, std::slice::from_ref(&line));
            assert!(ours >= reference, "{line:?} under {context}: toolgate {ours:?}, Gemini CLI {reference:?}");
        }
    }
}

fn cursor_editor(text: &str) -> ImportResult {
    import(PeerFormat::CursorEditor, &[source(SourceScope::User, text)], &context()).unwrap()
}

#[test]
fn cursor_editor_round_trip_keeps_every_decision() {
    let first = cursor_editor(
        r#"{ "mcpAllowlist": ["github:*", "jira:search"], "terminalAllowlist": ["git", "cargo test", "npm run build", "ls"] }"#,
    );
    let exported = export(PeerFormat::CursorEditor, &first.policy, &context());
    assert!(exported.report.iter().all(|e| e.translation == Translation::Exact), "{:#?}", exported.report);
    assert_eq!(exported.files.len(), 1);
    let second = cursor_editor(&exported.files[0].text);
    let corpus: Vec<(&str, &[&str])> = CORPUS
        .iter()
        .copied()
        .chain([
            ("terminal", &["cargo test --all"][..]),
            ("terminal", &["cargo build"][..]),
            ("terminal", &["gitk"][..]),
            ("mcp", &["jira", "search"][..]),
        ])
        .collect();
    assert_decides_alike(&first.policy, &second.policy, &corpus, 0x66_5EED, &exported.files);
    assert_eq!(second.report.len(), first.report.len());
}

#[test]
fn cursor_editor_export_writes_allow_prefixes_and_reports_the_rest() {
    use cursor::editor::{GLOBAL_ONLY, NO_DENY_LIST, ONLY_TERMINAL_AND_MCP};
    let mut from = claude(&[
        (
            SourceScope::User,
            r#"{ "permissions": { "allow": ["Bash(npm run *)", "Bash(git status)", "Read(src/**)", "mcp__github"],
                                  "ask": ["Bash(git push *)"], "deny": ["Bash(rm *)"] } }"#,
        ),
        (SourceScope::Project, r#"{ "permissions": { "allow": ["Bash(make *)"] } }"#),
    ]);
    let user = from.policy.layers.iter_mut().find(|l| l.name == "user").unwrap();
    let terminal_rules = user.tools.get_mut(TERMINAL).unwrap();
    terminal_rules.always_allow.extend([
        RuleSpec::regex(r"^cargo\s+test\b", false),
        RuleSpec::regex(r"^(git|hg) log", false),
        RuleSpec::tokens("git log|show"),
    ]);
    let out = export(PeerFormat::CursorEditor, &from.policy, &context());
    let file: serde_json::Value = serde_json::from_str(&out.files[0].text).unwrap();
    assert_eq!(file["terminalAllowlist"], serde_json::json!(["npm run", "cargo test", "git log", "git show"]));
    assert_eq!(file["mcpAllowlist"], serde_json::json!(["github:*"]));
    let by = |rule: &str| out.report.iter().find(|e| e.rule == rule).unwrap_or_else(|| panic!("{rule}: {:#?}", out.report));
    assert_eq!(by("git status").translation, Translation::Impossible, "one exact command: a prefix would be looser");
    assert_eq!(by(r"^(git|hg) log").translation, Translation::Impossible);
    assert_eq!(by(r"^cargo\s+test\b").translation, Translation::Stricter);
    for (rule, why) in [("rm *", NO_DENY_LIST), ("git push *", NO_DENY_LIST), ("make *", GLOBAL_ONLY), ("src/**", ONLY_TERMINAL_AND_MCP)] {
        assert_eq!((by(rule).translation, by(rule).why.as_deref()), (Translation::Impossible, Some(why)), "{rule}");
    }
    // Nothing written allows what the policy does not.
    let back = cursor_editor(&out.files[0].text);
    for command in ["npm run build", "cargo test", "git log -1", "git status", "git status -s", "rm x", "make all", "git push"] {
        if terminal(&back, command) == Allow {
            assert_eq!(terminal(&from, command), Allow, "{command}");
        }
    }
    assert_eq!(terminal(&back, "npm run build"), Allow);
}

#[test]
fn vscode_fields_it_does_not_read_are_reported_not_refused() {
    let r = vscode(
        &[(
            SourceScope::User,
            r#"{ "chat.tools.terminal.autoApprove": {
                "npm test": { "approve": true, "description": "run the tests" },
                "/.*/": { "approve": true, "matchCommandLine": true, "note": "everything" } } }"#,
        )],
        false,
    );
    assert_eq!(terminal(&r, "npm test"), Allow);
    let npm = r.report.iter().find(|e| e.rule == "npm test").unwrap();
    assert!(npm.why.as_deref().unwrap().contains("VS Code does not read the field `description`"), "{:?}", npm.why);
    let all = r.report.iter().find(|e| e.rule == "/.*/").unwrap();
    assert!(all.why.as_deref().unwrap().starts_with("VS Code does not read the field `note`"), "{:?}", all.why);
    // A field VS Code reads, with the wrong type, still refuses the file, naming the entry.
    let sources = [source(SourceScope::User, r#"{ "chat.tools.terminal.autoApprove": { "npm test": { "approve": "yes" } } }"#)];
    let errors = import(PeerFormat::Vscode, &sources, &context()).unwrap_err();
    assert!(errors[0].message.contains("[\"npm test\"]: `approve` must be true or false"), "{:?}", errors[0].message);
}

/// The working directory and home an import was read against are the policy's host too: a
/// `Read(~/…)` deny reaches `cat ~/…` and `cat $HOME/…` behind an allowed `cat` (Claude Code
/// refuses both since 2.1.163: "Fixed deny rules on home-directory paths (e.g.
/// `Read(~/Desktop/**)`) not blocking Bash commands that reference the path via `$HOME`").
#[test]
fn an_import_carries_its_working_directory_and_home_into_the_policy() {
    let r = claude_user(r#"{ "allow": ["Bash(cat:*)"], "deny": ["Read(~/Desktop/**)"] }"#);
    assert_eq!((r.policy.host.cwd.as_deref(), r.policy.host.home.as_deref()), (Some("/p"), Some("/home/u")));
    for command in
        ["cat ~/Desktop/secret.txt", "cat $HOME/Desktop/secret.txt", "cat ${HOME}/Desktop/secret.txt", "cat /home/u/Desktop/secret.txt"]
    {
        assert_eq!(terminal(&r, command), Deny, "{command}");
    }
    assert_eq!(terminal(&r, "cat ~/notes.txt"), Allow);
}

// ---- Exports and imports never looser than their source ----

/// A policy of layers given as (name, kind, tool, list, rule).
fn policy_of(rules: &[(&str, LayerKind, &str, ListKind, RuleSpec)]) -> PolicySpec {
    let mut spec = PolicySpec::default();
    spec.tool_kinds.insert(MCP_TOOL.into(), crate::policy::InputKind::McpCall);
    for (name, kind, tool, list, rule) in rules {
        if !spec.layers.iter().any(|l| l.name == *name) {
            spec.layers.push(LayerSpec { name: (*name).into(), kind: *kind, ..LayerSpec::default() });
        }
        let layer = spec.layers.iter_mut().find(|l| l.name == *name).unwrap();
        list_of(layer.tools.entry((*tool).to_owned()).or_default(), *list).push(rule.clone());
    }
    spec
}

/// The files of an export, read back with the same format's importer.
fn read_back(format: PeerFormat, exported: &ExportResult) -> ImportResult {
    let sources: Vec<ImportSource> = exported.files.iter().map(|f| source(f.scope, &f.text)).collect();
    import(format, &sources, &context()).unwrap()
}

fn file_of(exported: &ExportResult, scope: SourceScope) -> &str {
    exported.files.iter().find(|f| f.scope == scope).map(|f| f.text.as_str()).unwrap_or_else(|| panic!("{scope:?}: {exported:#?}"))
}

fn entry_for<'r>(exported: &'r ExportResult, rule: &str) -> &'r ExportReport {
    exported.report.iter().find(|e| e.rule == rule).unwrap_or_else(|| panic!("{rule}: {:#?}", exported.report))
}

/// VS Code reads one value per key: a layer that denies and allows the prefix `rm` writes the key
/// `false`, which asks (VS Code cannot refuse), never `true`.
#[test]
fn vscode_one_key_for_a_deny_and_an_allow_stays_false() {
    use ListKind::{AlwaysAllow, AlwaysDeny};
    let policy = policy_of(&[
        ("user", LayerKind::User, TERMINAL, AlwaysDeny, RuleSpec::prefix("rm")),
        ("user", LayerKind::User, TERMINAL, AlwaysAllow, RuleSpec::prefix("rm")),
    ]);
    let out = export(PeerFormat::Vscode, &policy, &context());
    let file: serde_json::Value = serde_json::from_str(file_of(&out, SourceScope::User)).unwrap();
    assert_eq!(file[vscode::SETTING][r"/^rm(\s|$)/"], serde_json::json!(false), "{file:#}");
    assert_eq!(terminal(&read_back(PeerFormat::Vscode, &out), "rm -rf x"), Confirm);
    let deny = out.report.iter().find(|e| e.place.list == Some(AlwaysDeny)).unwrap();
    assert_eq!((deny.translation, deny.why.as_deref()), (Translation::Impossible, Some(vscode::DENY_ASKS)));
    assert_ne!(out.report.iter().find(|e| e.place.list == Some(AlwaysAllow)).unwrap().translation, Translation::Exact);
}

/// VS Code takes the higher scope's value of a key (workspace over user): a key a user's confirm
/// or deny rule writes is `false` in the workspace file too, where a project's allow rule has it.
#[test]
fn vscode_a_key_in_two_scopes_is_false_in_each() {
    use ListKind::{AlwaysAllow, AlwaysConfirm, AlwaysDeny};
    for (list, command) in [(AlwaysConfirm, "git push"), (AlwaysDeny, "rm")] {
        let policy = policy_of(&[
            ("user", LayerKind::User, TERMINAL, list, RuleSpec::prefix(command)),
            ("project", LayerKind::Project, TERMINAL, AlwaysAllow, RuleSpec::prefix(command)),
        ]);
        let out = export(PeerFormat::Vscode, &policy, &context());
        for scope in [SourceScope::User, SourceScope::Project] {
            let file: serde_json::Value = serde_json::from_str(file_of(&out, scope)).unwrap();
            let values: Vec<&serde_json::Value> = file[vscode::SETTING].as_object().unwrap().values().collect();
            assert_eq!(values, [&serde_json::json!(false)], "{scope:?}: {file:#}");
        }
        assert_eq!(terminal(&read_back(PeerFormat::Vscode, &out), &format!("{command} x")), Confirm, "{command}");
        let allow = out.report.iter().find(|e| e.place.list == Some(AlwaysAllow)).unwrap();
        assert_eq!(allow.translation, Translation::Stricter, "{allow:?}");
    }
}

/// VS Code's shipped map approves `cat`, `find`, `ls`, `sed` …: every exported file sets
/// `ignoreDefaultAutoApproveRules`, so `cat /etc/shadow` asks where the policy refuses it.
#[test]
fn vscode_export_drops_the_shipped_defaults() {
    let policy = policy_of(&[("user", LayerKind::User, "read_file", ListKind::AlwaysDeny, RuleSpec::path("/etc/**", Some("/p".into())))]);
    assert_eq!(Policy::new(policy.clone()).outcome(TERMINAL, &["cat /etc/shadow".into()]), Deny);
    let out = export(PeerFormat::Vscode, &policy, &context());
    assert!(!out.files.is_empty());
    for file in &out.files {
        let value: serde_json::Value = serde_json::from_str(&file.text).unwrap();
        assert_eq!(value[vscode::IGNORE_DEFAULTS], serde_json::json!(true), "{}", file.text);
    }
    // Read back with VS Code's defaults included unless a file drops them.
    let back = read_back(PeerFormat::Vscode, &out);
    for command in ["cat /etc/shadow", "ls /etc", "sed -n 1p /etc/shadow", "find /etc"] {
        assert_eq!(terminal(&back, command), Confirm, "{command}");
    }
}

/// Gemini CLI ranks the admin tier above the user's: a user's deny of `git push` is written into
/// the admin file too when it holds an allow of `git`, at 999 there, above the allow.
#[test]
fn gemini_an_admin_allow_never_outranks_a_users_deny() {
    use ListKind::{AlwaysAllow, AlwaysDeny};
    let policy = policy_of(&[
        ("managed", LayerKind::Managed, TERMINAL, AlwaysAllow, RuleSpec::prefix("git")),
        ("user", LayerKind::User, TERMINAL, AlwaysDeny, RuleSpec::prefix("git push")),
    ]);
    let out = export(PeerFormat::GeminiCli, &policy, &context());
    let deny = "toolName = \"run_shell_command\"\ncommandPrefix = [\"git push\"]\ndecision = \"deny\"\npriority = 999";
    for scope in [SourceScope::Managed, SourceScope::User] {
        assert!(file_of(&out, scope).contains(deny), "{scope:?}: {}", file_of(&out, scope));
    }
    let allow = "commandPrefix = [\"git\"]\ndecision = \"allow\"\npriority = 100";
    assert!(file_of(&out, SourceScope::Managed).contains(allow));
    assert!(entry_for(&out, "git push").why.as_deref().unwrap().contains("admin policies too"));
    assert_eq!(terminal(&read_back(PeerFormat::GeminiCli, &out), "git push origin"), Deny);
    assert_eq!(terminal(&read_back(PeerFormat::GeminiCli, &out), "git status"), Allow);
}

/// Gemini CLI does not load workspace policies: a project's deny reaches the user's file (and
/// applies in every project, which the report says); a project's allow is not written.
#[test]
fn gemini_a_project_deny_reaches_a_file_gemini_loads() {
    use ListKind::{AlwaysAllow, AlwaysDeny};
    let policy = policy_of(&[
        ("project", LayerKind::Project, TERMINAL, AlwaysDeny, RuleSpec::prefix("rm")),
        ("project", LayerKind::Project, TERMINAL, AlwaysAllow, RuleSpec::prefix("make")),
    ]);
    let out = export(PeerFormat::GeminiCli, &policy, &context());
    assert!(out.files.iter().all(|f| f.scope != SourceScope::Project), "{out:#?}");
    assert!(file_of(&out, SourceScope::User).contains("commandPrefix = [\"rm\"]\ndecision = \"deny\"\npriority = 999"));
    let deny = entry_for(&out, "rm");
    assert_eq!((deny.translation, deny.why.as_deref()), (Translation::Stricter, Some(gemini::WORKSPACE_TO_USER)));
    let allow = entry_for(&out, "make");
    assert_eq!((allow.translation, allow.why.as_deref()), (Translation::Impossible, Some(gemini::WORKSPACE_INERT)));
    assert_eq!(terminal(&read_back(PeerFormat::GeminiCli, &out), "rm -rf x"), Deny);
}

/// A shell ask with no command pattern lets Gemini CLI run the commands it deems safe; the
/// policy's default is written as a catch-all with `commandRegex = ".*"`, at priority 1, and
/// read back as the default, not as a rule.
#[test]
fn gemini_the_policys_default_is_a_catch_all_below_every_rule() {
    let policy = policy_of(&[("user", LayerKind::User, TERMINAL, ListKind::AlwaysAllow, RuleSpec::prefix("git status"))]);
    let out = export(PeerFormat::GeminiCli, &policy, &context());
    let user = file_of(&out, SourceScope::User);
    assert!(user.contains("toolName = \"run_shell_command\"\ncommandRegex = \".*\"\ndecision = \"ask_user\"\npriority = 1"), "{user}");
    assert!(user.contains("toolName = \"read_file\"\ndecision = \"ask_user\"\npriority = 1"), "{user}");
    let back = read_back(PeerFormat::GeminiCli, &out);
    assert_eq!(terminal(&back, "git status"), Allow);
    assert_eq!(terminal(&back, "cat x"), Confirm);
    assert!(out.report.iter().all(|e| e.translation == Translation::Exact), "{:#?}", out.report);
}

/// A regex deny Claude Code cannot say as `Bash(…)` is written as the text every command it
/// matches starts with, so `Bash(git *)` is never written alone.
#[test]
fn claude_a_regex_deny_is_never_dropped_beside_a_covering_allow() {
    use ListKind::{AlwaysAllow, AlwaysDeny};
    let policy = policy_of(&[
        ("user", LayerKind::User, TERMINAL, AlwaysDeny, RuleSpec::regex(r"^git\s+push\b", true)),
        ("user", LayerKind::User, TERMINAL, AlwaysAllow, RuleSpec::prefix("git")),
    ]);
    let out = export(PeerFormat::ClaudeCode, &policy, &context());
    let user: serde_json::Value = serde_json::from_str(file_of(&out, SourceScope::User)).unwrap();
    assert_eq!(user["permissions"]["deny"], serde_json::json!(["Bash(git push*)"]), "{user:#}");
    assert_eq!(entry_for(&out, r"^git\s+push\b").translation, Translation::Stricter);
    let back = read_back(PeerFormat::ClaudeCode, &out);
    assert_eq!((terminal(&back, "git push origin"), terminal(&back, "git status")), (Deny, Allow));
    // A regex with no text to start from cannot be written: the allow it may cover is left out.
    let policy = policy_of(&[
        ("user", LayerKind::User, TERMINAL, AlwaysDeny, RuleSpec::regex(r"push", true)),
        ("user", LayerKind::User, TERMINAL, AlwaysAllow, RuleSpec::prefix("git")),
    ]);
    let out = export(PeerFormat::ClaudeCode, &policy, &context());
    let allow = entry_for(&out, "git");
    assert_eq!(allow.translation, Translation::Impossible);
    assert!(allow.why.as_deref().unwrap().starts_with("it allows `git push`"), "{allow:?}");
    assert_eq!(terminal(&read_back(PeerFormat::ClaudeCode, &out), "git push"), Confirm);
}

/// A glob deny Gemini CLI and Cursor cannot say exactly is written wider (the words every command
/// it matches starts with, or Cursor's `command:args`), beside the allow of `git`; one with no
/// literal first word leaves the allow out.
#[test]
fn gemini_and_cursor_never_write_an_allow_without_the_glob_deny_it_covers() {
    use ListKind::{AlwaysAllow, AlwaysDeny};
    let policy = policy_of(&[
        ("user", LayerKind::User, TERMINAL, AlwaysDeny, RuleSpec::glob("git push * --force")),
        ("user", LayerKind::User, TERMINAL, AlwaysAllow, RuleSpec::prefix("git")),
    ]);
    let gemini = export(PeerFormat::GeminiCli, &policy, &context());
    assert!(file_of(&gemini, SourceScope::User).contains("commandPrefix = [\"git push\"]\ndecision = \"deny\"\npriority = 999"));
    let cursor = export(PeerFormat::CursorCli, &policy, &context());
    let file: serde_json::Value = serde_json::from_str(file_of(&cursor, SourceScope::User)).unwrap();
    assert_eq!(file["permissions"]["deny"], serde_json::json!(["Shell(git:push * --force)"]));
    for (format, out) in [(PeerFormat::GeminiCli, &gemini), (PeerFormat::CursorCli, &cursor)] {
        assert_eq!(terminal(&read_back(format, out), "git push origin --force"), Deny, "{format:?}");
    }
    let policy = policy_of(&[
        ("user", LayerKind::User, TERMINAL, AlwaysDeny, RuleSpec::glob("* --force")),
        ("user", LayerKind::User, TERMINAL, AlwaysAllow, RuleSpec::prefix("git")),
    ]);
    for format in [PeerFormat::GeminiCli, PeerFormat::CursorCli] {
        let out = export(format, &policy, &context());
        let allow = entry_for(&out, "git");
        assert_eq!(allow.translation, Translation::Impossible, "{format:?}: {allow:?}");
        assert!(allow.written.is_empty());
        assert_ne!(terminal(&read_back(format, &out), "git push --force"), Allow, "{format:?}");
    }
}

/// The Cursor editor's permissions.json has no deny list: `github:*` is left out beside a deny
/// of `github:delete_repo`, the report naming the call it would let through.
#[test]
fn cursor_editor_leaves_out_an_allow_its_missing_deny_would_limit() {
    use ListKind::{AlwaysAllow, AlwaysDeny};
    let policy = policy_of(&[
        ("user", LayerKind::User, MCP_TOOL, AlwaysDeny, RuleSpec::mcp("github:delete_repo")),
        ("user", LayerKind::User, MCP_TOOL, AlwaysAllow, RuleSpec::mcp("github:*")),
        ("user", LayerKind::User, MCP_TOOL, AlwaysAllow, RuleSpec::mcp("jira:search")),
    ]);
    let out = export(PeerFormat::CursorEditor, &policy, &context());
    let file: serde_json::Value = serde_json::from_str(file_of(&out, SourceScope::User)).unwrap();
    assert_eq!(file["mcpAllowlist"], serde_json::json!(["jira:search"]));
    let allow = entry_for(&out, "github:*");
    assert!(allow.why.as_deref().unwrap().starts_with("it allows `github delete_repo`"), "{allow:?}");
    let back = read_back(PeerFormat::CursorEditor, &out);
    assert_eq!(decide(&back, MCP_TOOL, &["github", "delete_repo"]), Confirm);
    assert_eq!(decide(&back, MCP_TOOL, &["jira", "search"]), Allow);
}

/// Cursor's `WebFetch(…)` deny holds for every spelling of its host: an IP address is read as a
/// URL's host is (`127.1` and `2130706433` are `127.0.0.1`); a name outside ASCII, which the
/// matcher cannot say, covers every fetch instead of vanishing; a port covers the host on every
/// port. With `WebFetch(*)` allowed, none of these fetches runs.
#[test]
fn cursor_a_deny_holds_for_every_spelling_of_its_host() {
    for (deny, url, translation) in [
        ("[::1]", "http://[::1]:8080/", Translation::Exact),
        ("[0:0::1]", "http://[::1]/", Translation::Exact),
        ("127.0.0.1", "http://2130706433/", Translation::Stricter),
        ("127.0.0.1", "http://127.1/", Translation::Stricter),
        ("127.0.0.1", "http://[::ffff:7f00:1]/", Translation::Stricter),
        ("bücher.de", "http://xn--bcher-kva.de/", Translation::Stricter),
        ("example.com:8080", "https://example.com/", Translation::Stricter),
        ("[::1]:8080", "http://[::1]/", Translation::Stricter),
    ] {
        let r = cursor(&format!(r#"{{ "allow": ["WebFetch(*)"], "deny": ["WebFetch({deny})"] }}"#));
        assert_eq!(decide(&r, FETCH, &[url]), Deny, "{deny} {url}");
        let entry = r.report.iter().find(|e| e.rule == format!("WebFetch({deny})")).unwrap();
        assert_eq!(entry.translation, translation, "{entry:?}");
        assert!(!entry.became.is_empty());
    }
    // An allow of an address translates; one the matcher cannot say is left out: the fetch asks.
    let r = cursor(r#"{ "allow": ["WebFetch([::1])"] }"#);
    assert_eq!(decide(&r, FETCH, &["http://[::1]/"]), Allow);
    let r = cursor(r#"{ "allow": ["WebFetch(bücher.de)", "WebFetch(example.com:8080)"] }"#);
    assert_eq!(decide(&r, FETCH, &["http://xn--bcher-kva.de/"]), Confirm);
    assert_eq!(decide(&r, FETCH, &["http://example.com:8080/"]), Confirm);
}

/// The same holds for Claude Code's `WebFetch(domain:…)`.
#[test]
fn claude_a_deny_holds_for_every_spelling_of_its_host() {
    let r = claude_user(r#"{ "allow": ["WebFetch"], "deny": ["WebFetch(domain:[::1])", "WebFetch(domain:bücher.de)"] }"#);
    assert_eq!(decide(&r, FETCH, &["http://[::1]:8080/"]), Deny);
    assert_eq!(decide(&r, FETCH, &["http://xn--bcher-kva.de/"]), Deny);
    let r = claude_user(r#"{ "allow": ["WebFetch(domain:bücher.de)"] }"#);
    assert_eq!(r.report[0].translation, Translation::Impossible);
}

/// A Codex `forbidden` rule whose first token a token prefix cannot hold is not dropped: each
/// alternative becomes a word prefix.
#[test]
fn codex_a_forbidden_rule_with_an_unwritable_first_token_is_kept_wider() {
    let r = codex(r#"prefix_rule(pattern=[["git push", "rm"], "-f"], decision="forbidden")"#);
    for command in ["git push -f", "git push origin", "rm x"] {
        assert_eq!(terminal(&r, command), Deny, "{command}");
    }
    assert_eq!(r.report[0].translation, Translation::Stricter);
}

mod never_looser;
