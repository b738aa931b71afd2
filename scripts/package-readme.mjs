// The package's README: README.md with every relative link made absolute, to the package's own copy
// of the file on unpkg at this exact version (`https://unpkg.com/toolgate@<version>/docs/…`, which
// serves any file of a published npm package). npmjs.com shows a package's README without its
// repository, where a relative link leads nowhere; the package names no repository, so the files
// the README links to (its docs, one picture) ship in the package and the links name them there.
// Then it checks pkg/: no relative link is left in pkg/README.md, and `npm pack --dry-run` lists
// every file a link names.
//
// Called by scripts/build.mjs once everything else is in pkg/ (a linked file the build already put
// there is linked where it is, not shipped twice); alone, `node scripts/package-readme.mjs` does it
// for the pkg/ a build left.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a published file of `name`@`version` is served. */
export const cdnUrl = (name, version, path) => `https://unpkg.com/${name}@${version}/${path}`;

/** A link's target that leaves the page: a scheme (`https:`, `mailto:`) or a protocol-relative `//`. */
const absolute = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * Every link target in Markdown `text`, outside fenced and inline code: `[text](target "title")`,
 * `![alt](target)`, reference definitions `[label]: target`, and HTML `src="…"` / `href="…"`.
 * Returns `{ target, start, end }` with the offsets of the target in `text`.
 */
export function linkTargets(text) {
  const found = [];
  // Blank out code (fences, then inline spans) so a link shown as code is neither rewritten nor checked.
  const prose = text
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\2[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));
  const patterns = [
    /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/dg,
    /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/dgm,
    /<(?:img|a|source)\b[^>]*?\s(?:src|href|srcset)="([^"]+)"/dgi,
  ];
  for (const pattern of patterns) {
    for (const match of prose.matchAll(pattern)) {
      const [start, end] = match.indices[1];
      found.push({ target: match[1], start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The repository file a relative `target` of README.md names, and its `#…` or `?…` tail. */
function repositoryFile(root, target) {
  const [, path, tail] = target.match(/^([^#?]*)(.*)$/);
  const file = normalize(decodeURIComponent(path)).split(sep).join('/');
  if (!file || file.startsWith('../') || file === '..') return null;
  return { file, tail, exists: existsSync(join(root, file)) && statSync(join(root, file)).isFile() };
}

/** The package's files by name: `name → [path relative to pkg]`. */
function filesByName(pkg) {
  const byName = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) byName.set(entry.name, [...(byName.get(entry.name) ?? []), relative(pkg, path).split(sep).join('/')]);
    }
  };
  walk(pkg);
  return byName;
}

/**
 * Writes pkg/README.md from README.md with each relative link rewritten to `cdnUrl(name, version,
 * file)`, copies each linked file into pkg/ at the same path (or, when the build already put the same
 * bytes in the package, links that copy instead), adds the copies to the manifest's `files`,
 * and checks the result (`checkPackageReadme`). Throws, naming the links, when a relative link names
 * no file of the repository. Returns the package's files the README links to.
 */
export function packageReadme({ root, pkg }) {
  const manifestPath = join(pkg, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const inPackage = filesByName(pkg);
  /** Where the package holds `file`: a copy the build made elsewhere (same name, same bytes), or `file` itself, to be copied. */
  const placeOf = (file) => {
    const bytes = readFileSync(join(root, file));
    const copies = (inPackage.get(basename(file)) ?? []).filter((path) => path !== file);
    return copies.find((path) => readFileSync(join(pkg, path)).equals(bytes)) ?? file;
  };
  const shipped = new Set();
  const linked = new Set();
  const broken = [];
  let out = '';
  let at = 0;
  for (const { target, start, end } of linkTargets(readme)) {
    if (absolute(target) || target.startsWith('#')) continue;
    const named = repositoryFile(root, target);
    if (!named?.exists) {
      broken.push(target);
      continue;
    }
    const place = placeOf(named.file);
    if (place === named.file) shipped.add(named.file);
    linked.add(place);
    out += readme.slice(at, start) + cdnUrl(manifest.name, manifest.version, place) + named.tail;
    at = end;
  }
  if (broken.length) throw new Error(`README.md links to files the repository does not have: ${broken.join(', ')}`);
  writeFileSync(join(pkg, 'README.md'), out + readme.slice(at));
  for (const file of shipped) {
    mkdirSync(dirname(join(pkg, file)), { recursive: true });
    copyFileSync(join(root, file), join(pkg, file));
  }
  manifest.files = [...new Set([...(manifest.files ?? []), ...[...shipped].sort()])];
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  checkPackageReadme(pkg);
  return [...linked];
}

/**
 * Checks pkg/README.md as npm will show it: no relative link (npmjs.com has nowhere to resolve it),
 * and every link to this package's own version on the CDN names a file `npm pack` puts in the
 * package. Throws with every problem found; returns the files the links name.
 */
export function checkPackageReadme(pkg) {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'],
    { cwd: pkg, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  const inPackage = new Set(packed.files.map((f) => f.path));
  const own = cdnUrl(manifest.name, manifest.version, '');
  const problems = [];
  const linked = new Set();
  for (const target of new Set(linkTargets(readme).map((l) => l.target))) {
    if (target.startsWith('#')) continue;
    if (!absolute(target)) {
      problems.push(`relative link left in pkg/README.md: ${target}`);
      continue;
    }
    if (!target.startsWith(own)) continue;
    const file = decodeURIComponent(target.slice(own.length).replace(/[#?].*$/, ''));
    linked.add(file);
    if (!inPackage.has(file)) problems.push(`pkg/README.md links to ${file}, which npm pack leaves out of the package`);
  }
  if (problems.length) throw new Error(`the package's README:\n  ${problems.join('\n  ')}`);
  return [...linked];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const pkg = join(root, 'pkg');
  if (!existsSync(join(pkg, 'package.json'))) {
    console.error('pkg/ is not built: run `node scripts/build.mjs` (it calls this script).');
    process.exit(1);
  }
  const files = packageReadme({ root, pkg });
  console.log(`pkg/README.md: ${files.length} files linked on unpkg at this version, each in the package; no relative link left`);
}
