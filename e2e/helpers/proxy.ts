// A pass-through HTTP proxy in front of a test's `wrangler dev`, for what a browser test cannot change
// inside the browser: a file served as a new deploy would serve it (the browser fetches a service
// worker's script for its update check outside any page, where page.route and the DevTools Fetch domain
// never delivered a changed one), and a request held on its way to the service.
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

export interface Held {
  /** Resolves when the request has reached the proxy (and not the service). */
  reached: Promise<void>;
  /** Lets it go on to the service. */
  release(): void;
}

export interface Proxy {
  /** The proxy's origin: the browser's address of the service. */
  url: string;
  /** From now on, `path` answered with its body (decoded) passed through `edit`. */
  rewrite(path: string, edit: (body: string) => string): void;
  /** Holds the next request of `method` to `path` before the service sees it. */
  hold(method: string, path: string): Held;
  /** Requests that went through, as "METHOD /path". */
  seen: string[];
  close(): Promise<void>;
}

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
};

export async function startProxy(target: string): Promise<Proxy> {
  const upstream = new URL(target);
  const edits = new Map<string, (body: string) => string>();
  const holds: { method: string; path: string; arrived: () => void; released: Promise<void> }[] = [];
  const seen: string[] = [];

  const forward = (req: IncomingMessage, res: ServerResponse, edit?: (body: string) => string) => {
    const headers = { ...req.headers };
    // A rewritten file is fetched whole and fresh: no 304 from the service for the copy the browser holds.
    if (edit) for (const name of ["if-none-match", "if-modified-since"]) delete headers[name];
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        if (!edit) {
          res.writeHead(answer.statusCode!, answer.rawHeaders);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const encoding = answer.headers["content-encoding"];
          const raw = Buffer.concat(chunks);
          const body = Buffer.from(edit((encoding ? DECODE[encoding]!(raw) : raw).toString("utf8")));
          const kept = Object.entries(answer.headers).filter(
            ([name]) =>
              !["content-length", "content-encoding", "etag", "last-modified", "transfer-encoding"].includes(name),
          );
          res.writeHead(answer.statusCode!, { ...Object.fromEntries(kept), "content-length": body.length });
          res.end(body);
        });
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url!, upstream).pathname;
    seen.push(`${req.method} ${path}`);
    req.on("error", () => {});
    res.on("error", () => {});
    const at = holds.findIndex((h) => h.method === req.method && h.path === path);
    if (at < 0) return forward(req, res, edits.get(path));
    const [held] = holds.splice(at, 1);
    held!.arrived();
    void held!.released.then(() => forward(req, res, edits.get(path)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    rewrite: (path, edit) => void edits.set(path, edit),
    hold(method, path) {
      let arrived!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((r) => (arrived = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ method, path, arrived, released });
      return { reached, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
