// A static file server on this machine only (127.0.0.1), for the playground:
//   node tools/serve.mjs [FOLDER] [--port N]   (npm run playground)
// It prints the address to open; port 0 picks a free one.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? Number(args[portAt + 1]) : Number(process.env.PORT ?? 8080);
const folder = resolve(args.find((a, i) => !a.startsWith('--') && i !== portAt + 1) ?? 'dist/playground');

try {
  await stat(join(folder, 'index.html'));
} catch {
  console.error(`serve: no index.html in ${folder} (build it first: npm run build)`);
  process.exit(2);
}

/** The path a request names, or null when it cannot be read (a bad % escape, say). */
function requestPath(url) {
  try {
    const path = decodeURIComponent(new URL(url ?? '/', 'http://localhost').pathname);
    return path.includes('\0') ? null : path;
  } catch {
    return null;
  }
}

// any page the author visits can send this server requests: a bad one gets 400, never ends it
const server = createServer(async (req, res) => {
  const path = requestPath(req.url);
  if (path === null) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
    return;
  }
  const file = resolve(folder, `.${path.endsWith('/') ? `${path}index.html` : path}`);
  if (file !== folder && !file.startsWith(folder + sep)) {
    res.writeHead(403).end('forbidden');
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' }).end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
});
server.listen(port, '127.0.0.1', () => {
  console.log(`playground at http://127.0.0.1:${server.address().port}/`);
});
