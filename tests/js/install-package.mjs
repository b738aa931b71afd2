// Installs the built package the way a user gets it: `npm pack` of pkg/, unpacked into a
// scratch app's node_modules. Tests then resolve `toolgate` by name through its exports map.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const scratch = join(root, 'tests', 'js', '.bundle');
export const app = join(scratch, 'app');

/** Packs and unpacks whenever pkg/ was rebuilt; returns a `require` rooted in the scratch app. */
export function installPackage() {
  const installed = join(app, 'node_modules', 'toolgate');
  const built = join(root, 'pkg', 'package.json');
  if (!existsSync(built)) {
    throw new Error('pkg/ is not built: run `npm run build` (npm test builds it) first');
  }
  const stamp = String(statSync(built).mtimeMs);
  const marker = join(scratch, 'installed-from');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== stamp) {
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(installed, { recursive: true });
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', scratch, join(root, 'pkg')], { encoding: 'utf8' }));
    const tarball = join(scratch, packed[0].filename);
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    writeFileSync(marker, stamp);
  }
  return createRequire(join(app, 'index.js'));
}

export function packedFiles() {
  const installed = join(app, 'node_modules', 'toolgate');
  const walk = (dir, prefix = '') => readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]);
  return walk(installed).sort();
}
