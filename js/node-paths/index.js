'use strict';
// Paths as the file system resolves them, for hosts running in Node (an extension host, a CLI).
// The core never touches the file system, so a symlink is invisible to it: `docs/passwd-link`
// names `/etc/passwd` only on disk. `decideOnDisk` decides a path call on the paths as written
// and as they resolve — the real path of the nearest existing ancestor, with the rest appended
// (a file that does not exist yet lands where its parent really is) — and the stricter decision
// stands. A webview cannot see the file system: its host resolves paths and sends both.
const fs = require('node:fs');
const path = require('node:path');

const RANK = { allow: 0, confirm: 1, deny: 2 };

/**
 * Where `p` lands on disk: absolute, symlinks of its existing part followed. `null` when no
 * ancestor can be resolved (then only the written path is decided).
 */
function resolveOnDisk(p, cwd = process.cwd()) {
  const absolute = path.resolve(cwd, p);
  const rest = [];
  let at = absolute;
  for (;;) {
    try {
      const real = fs.realpathSync.native(at);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch (error) {
      // A dangling link, a file not created yet, or a directory we may not read: go up one.
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR' && error.code !== 'EACCES') return null;
      const parent = path.dirname(at);
      if (parent === at) return null;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * Decides `tool` on `input` (a path or paths) as written and as resolved on disk; the stricter
 * decision is returned. When the resolved paths decided, the answer carries `resolvedFrom` (the
 * paths as written) and its items name the paths on disk. `policy` is a `Policy` of
 * `toolgate/engine` (anything with `decide(tool, input)`).
 */
function decideOnDisk(policy, tool, input, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const written = policy.decide(tool, input);
  const inputs = Array.isArray(input) ? input : [input];
  const resolved = inputs.map((p) => resolveOnDisk(p, cwd));
  if (resolved.some((p) => p === null)) return written;
  if (resolved.every((p, i) => p === inputs[i])) return written;
  const onDisk = policy.decide(tool, Array.isArray(input) ? resolved : resolved[0]);
  return RANK[onDisk.outcome] > RANK[written.outcome] ? { ...onDisk, resolvedFrom: inputs } : written;
}

module.exports = { decideOnDisk, resolveOnDisk };
