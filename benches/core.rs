//! Native timings of the core, next to the wasm figures `npm run bench` prints: shell analysis,
//! explained and outcome-only decisions at 14 / 104 / 1,004 rules, MCP decisions, policy build.
#![allow(clippy::indexing_slicing)]

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use toolgate::mcp::{AutoRunMode, McpPolicy, McpSettings};
use toolgate::policy::{LayerSpec, Policy, PolicySpec, RuleSpec, ToolRulesSpec};

/// The rules `bench/run.mjs` uses: what "Always allow" buttons create, plus unanchored denies.
fn terminal_policy(n: usize) -> PolicySpec {
    let mut rules = ToolRulesSpec::default();
    for i in 0..n {
        match i % 3 {
            0 => rules.always_allow.push(RuleSpec::regex(format!("^cmd{i}\\b"), false)),
            1 => rules.always_confirm.push(RuleSpec::regex(format!("^cmd{i}\\s+(push|publish)\\b"), false)),
            _ => rules.always_deny.push(RuleSpec::regex(format!("^cmd{i}\\s+(nuke|wipe)\\b"), false)),
        }
    }
    for p in ["mkfs\\.", "/etc/shadow", "> /dev/sd", "dd\\s+if=/dev/"] {
        rules.always_deny.push(RuleSpec::regex(p, false));
    }
    let layer = LayerSpec { name: "user".into(), tools: [("terminal".to_owned(), rules)].into_iter().collect(), ..LayerSpec::default() };
    PolicySpec { layers: vec![layer], ..PolicySpec::default() }
}

fn commands(n: usize) -> Vec<String> {
    let pick = |k: usize| format!("cmd{}", (k * 7919) % n);
    (0..32)
        .map(|k| match k % 4 {
            0 => format!("{} build --release", pick(k)),
            1 => format!("{} status && {} log --oneline -n 5", pick(k), pick(k + 1)),
            2 => format!("{} test | {} -c 'a; b' > /dev/null", pick(k), pick(k + 2)),
            _ => format!("unknown{k} --flag value"),
        })
        .collect()
}

fn shell(c: &mut Criterion) {
    let lines = commands(100);
    c.bench_function("shell/analyze (1-3 sub-commands)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % lines.len();
            black_box(toolgate::shell::analyze(&lines[i]))
        })
    });
}

fn terminal(c: &mut Criterion) {
    let mut group = c.benchmark_group("terminal");
    for n in [10, 100, 1000] {
        let policy = Policy::new(terminal_policy(n));
        let lines: Vec<Vec<String>> = commands(n).into_iter().map(|l| vec![l]).collect();
        group.bench_with_input(BenchmarkId::new("decide", n), &n, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % lines.len();
                black_box(policy.decide("terminal", &lines[i]))
            })
        });
        group.bench_with_input(BenchmarkId::new("outcome", n), &n, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % lines.len();
                black_box(policy.outcome("terminal", &lines[i]))
            })
        });
    }
    group.bench_function("build 1000 rules", |b| b.iter(|| black_box(Policy::new(terminal_policy(1000)))));
    group.finish();
}

fn mcp(c: &mut Criterion) {
    let list: Vec<String> = (0..10).map(|i| if i % 3 == 0 { format!("server{i}:*") } else { format!("server{i}:tool_{i}") }).collect();
    let policy = McpPolicy::new(McpSettings { mcp_allowed_tools: list, mcp_tools_protection: false, ..McpSettings::default() });
    let calls = [("server1", "tool_1"), ("server3", "x"), ("unknown", "missing"), ("server2", "tool_2")];
    let mut group = c.benchmark_group("mcp (10 entries)");
    group.bench_function("decide", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % calls.len();
            black_box(policy.decide(calls[i].0, calls[i].1, AutoRunMode::Yolo))
        })
    });
    group.bench_function("needs_approval", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % calls.len();
            black_box(policy.needs_approval(calls[i].0, calls[i].1, AutoRunMode::Yolo))
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = shell, terminal, mcp
}
criterion_main!(benches);
