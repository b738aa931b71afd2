// Builds the previous release of toolgate (git commit PREVIOUS_RELEASE, the last landed release
// before the current work) into a directory under the system temp dir, once per bench run, so the
// bench can time it in the same process as the current build. Its own scripts/build.mjs does the
// build; node_modules is a symlink to this checkout's, and Cargo's target dir is kept at
// target/prev-release so that only what changed is recompiled. `git archive` keeps the commit's
// file times, so an unchanged extraction is not even recompiled.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PREVIOUS_RELEASE = '34a5b20';

/**
 * Extracts and builds the release; returns its two Node modules and the directory of its pkg/.
 * Build output goes to stderr so that stdout stays the bench's table.
 */
export function buildPreviousRelease(root, commit = PREVIOUS_RELEASE) {
  const dir = join(tmpdir(), `toolgate-release-${commit}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const started = Date.now();
  execFileSync(process.execPath, [join(dir, 'scripts', 'build.mjs')], {
    cwd: dir,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, CARGO_TARGET_DIR: join(root, 'target', 'prev-release') },
  });
  const pkg = join(dir, 'pkg');
  for (const file of ['node/toolgate.js', 'engine/node/toolgate_engine.js']) {
    if (!existsSync(join(pkg, file))) throw new Error(`the build of ${commit} made no pkg/${file}`);
  }
  const require = createRequire(import.meta.url);
  return {
    commit,
    pkg,
    seconds: (Date.now() - started) / 1000,
    mcp: require(join(pkg, 'node', 'toolgate.js')),
    engine: require(join(pkg, 'engine', 'node', 'toolgate_engine.js')),
  };
}
