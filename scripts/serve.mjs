// Serves the playground and the settings page's stand-in (www/) and the built package (pkg/) on 127.0.0.1.
// Pages get the same kind of Content-Security-Policy a VS Code webview needs, so the
// playground proves toolgate loads under it: scripts from self only, plus 'wasm-unsafe-eval'.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.ts': 'text/plain; charset=utf-8' };
export const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self' data:";

/** Maps a URL path to a file under www/ or pkg/, refusing anything outside them. */
function resolvePath(urlPath) {
  const path = decodeURIComponent(urlPath.split('?')[0]);
  const [base, rest] = path.startsWith('/pkg/') ? ['pkg', path.slice(5)] : ['www', path === '/' ? 'index.html' : path.slice(1)];
  const dir = join(root, base);
  const file = normalize(join(dir, rest));
  return file.startsWith(dir + sep) ? file : null;
}

/** Gzipped bodies by file and modification time: compressed once, as a static server would. */
const gzipped = new Map();
async function gzippedBody(file, body) {
  if (extname(file) === '.html') return gzipSync(body, { level: 9 }); // small
  const key = `${file}@${(await stat(file)).mtimeMs}`;
  let gz = gzipped.get(key);
  if (gz === undefined) gzipped.set(key, (gz = gzipSync(body, { level: 9 })));
  return gz;
}

export function startServer(port = 0) {
  const server = createServer(async (req, res) => {
    const file = resolvePath(req.url ?? '/');
    try {
      if (!file) throw new Error('outside');
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': CSP, 'cache-control': 'no-store', vary: 'accept-encoding' };
      // Compressed where the browser accepts it, as any production server sends a page's module.
      if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        const gz = await gzippedBody(file, body);
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': gz.length });
        res.end(gz);
        return;
      }
      res.writeHead(200, { ...headers, 'content-length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startServer(Number(process.env.PORT ?? 8080));
  const base = `http://127.0.0.1:${server.address().port}`;
  console.log(`toolgate playground: ${base}/  —  settings page (with a stand-in host): ${base}/settings.html`);
}
