// The core's native timings for `npm run bench`: runs `cargo bench --bench core` (criterion,
// benches/core.rs) and reads each benchmark's estimate from its report, so the native
// targets are printed in the same run as the wasm figures.
import { execFileSync } from 'node:child_process';

const UNIT_NS = { ps: 1e-3, ns: 1, µs: 1e3, us: 1e3, ms: 1e6, s: 1e9 };

/**
 * Criterion's report as a map from benchmark id (`terminal/decide/1000`) to its estimate in ns
 * (the middle of `time: [low estimate high]`). A long id stands on the line before its `time:`.
 */
export function parseCriterion(report) {
  const estimates = new Map();
  let pending = null;
  for (const line of report.split('\n')) {
    const m = line.match(/^(.*?)\s*time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]/);
    if (!m) {
      if (line.trim() && !/^\s/.test(line)) pending = line.trim();
      continue;
    }
    const id = m[1].trim() || pending;
    const unit = UNIT_NS[m[3]];
    if (id && unit !== undefined && Number.isFinite(Number(m[2]))) estimates.set(id, Number(m[2]) * unit);
    pending = null;
  }
  return estimates;
}

/** Builds and runs the native benchmarks; throws with cargo's message when they cannot run. */
export function runNativeBench(root) {
  const started = performance.now();
  const report = execFileSync('cargo', ['bench', '--quiet', '--bench', 'core'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { estimates: parseCriterion(report), seconds: (performance.now() - started) / 1000 };
}
