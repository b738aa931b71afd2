#!/usr/bin/env node
// Fails when a tracked file speaks of how the product was made instead of what it is: a working
// session or an issue by its number. git history keeps that story. A peer's issue is cited as
// `owner/repo#123`, which names where to read it and is allowed.
// Usage: node scripts/check-product-voice.mjs [file…]   (default: every tracked text file)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What speaks of the work rather than the product, each with the reason shown to the author. */
const WORK_HISTORY = [
  [/\b(?:session|issue|stop|sprint|milestone)s?\s+#?\d+\b/i, 'names a session or issue by number'],
  [/(?:^|[\s(\[,;])#\d{2,}\b/, 'cites an issue by number alone (write owner/repo#N for a peer\'s issue)'],
];

/** Files that are data, not prose: fuzz inputs, lockfiles, binaries, colours in stylesheets. */
const SKIPPED = [/^tests\/fuzz-corpus\//, /^fuzz\/artifacts\//, /(^|\/)(package-lock\.json|Cargo\.lock)$/, /\.(png|wasm|gz|css|svg|ico)$/];

/** Every finding in `text`, as `file:line: reason: the line`. */
export function findings(file, text) {
  const found = [];
  text.split('\n').forEach((line, i) => {
    const hit = WORK_HISTORY.find(([pattern]) => pattern.test(line));
    if (hit) found.push(`${file}:${i + 1}: ${hit[1]}: ${line.trim().slice(0, 160)}`);
  });
  return found;
}

function trackedFiles() {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !SKIPPED.some((p) => p.test(f)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.length > 2 ? process.argv.slice(2) : trackedFiles();
  const found = files.flatMap((file) => {
    let text;
    try {
      text = readFileSync(new URL(file, `file://${root}/`), 'utf8');
    } catch {
      return [];
    }
    return text.includes('\0') ? [] : findings(file, text);
  });
  if (found.length) {
    console.error(`The product speaks of itself; these lines speak of the work instead:\n${found.join('\n')}`);
    process.exit(1);
  }
  console.log(`product voice: ${files.length} files checked, no session or issue numbers`);
}
