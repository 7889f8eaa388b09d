#!/usr/bin/env node
// A tiny static file server for the built app (no dependency): `node scripts/serve.mjs [dir] [--port N]`
// serves `dir` (default: dist/) on 127.0.0.1 and prints the URL. Any static host works the same way: the
// app is only files (see README). Also imported by the tests and the benchmark (`startServer`).
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".jsonl": "application/x-ndjson; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".tsv": "text/tab-separated-values; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Serve `root` on `host:port` (port 0: any free port). `mounts` maps URL prefixes (`/data/`) to other
 * directories. Resolves to { url, close }.
 */
export function startServer({ root, port = 0, host = "127.0.0.1", mounts = {} } = {}) {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    let path = decodeURIComponent(url.pathname);
    let dir = base;
    for (const [prefix, d] of Object.entries(mounts)) {
      if (path.startsWith(prefix)) {
        dir = resolve(d);
        path = `/${path.slice(prefix.length)}`;
        break;
      }
    }
    if (path.endsWith("/")) path += "index.html";
    const file = normalize(join(dir, path));
    if (!(file === dir || file.startsWith(dir + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": statSync(file).size,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(file).pipe(res);
  });
  return new Promise((resolveStart, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const a = server.address();
      resolveStart({ url: `http://${host}:${a.port}/`, close: () => new Promise((r) => server.close(() => r())), server });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--port");
  const port = at >= 0 ? Number(args[at + 1]) : Number(process.env.PORT ?? 5173);
  const dir = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--port") ?? fileURLToPath(new URL("../dist", import.meta.url));
  if (!existsSync(join(dir, "index.html"))) {
    console.error(`serve: ${dir} has no index.html: build the app first (pnpm --filter @evalkern/web run build)`);
    process.exit(1);
  }
  const { url } = await startServer({ root: dir, port });
  console.log(`evalkern web: serving ${dir} at ${url} (loopback only; Ctrl-C to stop)`);
}
