// Builds the field app (app/, docs/field-app.md) into app/dist/: the page, its script and styles
// named by their content, the manifest and icons (drawn here), the service worker, and files.ts, the module
// through which the worker serves them at /app/ (src/fieldapp/). npm start, npm run dev, check,
// test and deploy call buildApp() first; `npm run build:app` runs it alone.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = join(fileURLToPath(import.meta.url), "..", "..", "..");
const SOURCES = join(ROOT, "app");
export const APP_DIST = join(SOURCES, "dist");
/** Where the app is served; its service worker's scope. */
export const APP_BASE = "/app/";

export interface AppFile {
  path: string;
  type: string;
  body: Buffer;
  /** Content-named files are cached for a year; the page and the service worker are checked each time. */
  immutable: boolean;
}

const hash = (body: Buffer | string) => createHash("sha256").update(body).digest("hex").slice(0, 10);
const named = (stem: string, ext: string, body: Buffer): string => `${stem}-${hash(body)}.${ext}`;

async function bundle(entry: string, define: Record<string, string> = {}): Promise<Buffer> {
  const result = await build({
    entryPoints: [join(SOURCES, "src", entry)],
    bundle: true,
    minify: true,
    format: entry.endsWith(".css") ? undefined : "esm",
    target: ["chrome100", "safari15"],
    write: false,
    legalComments: "none",
    define,
    logLevel: "silent",
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild wrote nothing for ${entry}`);
  return Buffer.from(out.contents);
}

const GREEN = [0x0b, 0x5d, 0x3b];
const WHITE = [0xff, 0xff, 0xff];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Whether the pixel at (x, y) of a unit square belongs to the book: two pages with a spine between. */
function inBook(x: number, y: number): boolean {
  if (y < 0.28 || y > 0.72) return false;
  const fromSpine = Math.abs(x - 0.5);
  // Each page's top edge rises towards the spine a little, like an open book's.
  const top = 0.28 + 0.06 * (fromSpine / 0.3);
  return fromSpine > 0.015 && fromSpine < 0.3 && y >= top;
}

/** A square RGB PNG of `size` pixels: the app's icon, a green square with a white open book (no binary in the repository). */
function iconPng(size: number): Buffer {
  const row = 1 + size * 3;
  const raw = Buffer.alloc(row * size);
  for (let y = 0; y < size; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const colour = inBook((x + 0.5) / size, (y + 0.5) / size) ? WHITE : GREEN;
      raw.set(colour, y * row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Builds every file of the app in memory. */
export async function appFiles(): Promise<AppFile[]> {
  const script = await bundle("main.ts");
  const style = await bundle("style.css");
  const icons = [192, 512].map((size) => {
    const body = iconPng(size);
    return { size, name: named(`icon-${size}`, "png", body), body };
  });
  const manifestBody = Buffer.from(
    JSON.stringify({
      name: "Order lookup: the agent's book",
      short_name: "Agent's book",
      description: "A sales agent's customers and orders, offline, with new shops sent when the network returns.",
      id: APP_BASE,
      start_url: APP_BASE,
      scope: APP_BASE,
      display: "standalone",
      background_color: "#ffffff",
      theme_color: "#0b5d3b",
      icons: icons.map((i) => ({ src: i.name, sizes: `${i.size}x${i.size}`, type: "image/png", purpose: "any" })),
    }),
  );
  const scriptName = named("app", "js", script);
  const styleName = named("app", "css", style);
  const manifestName = named("manifest", "webmanifest", manifestBody);
  const page = Buffer.from(
    readFileSync(join(SOURCES, "index.html"), "utf8")
      .replaceAll("{{script}}", scriptName)
      .replaceAll("{{style}}", styleName)
      .replaceAll("{{manifest}}", manifestName)
      .replaceAll("{{icon}}", icons[0]!.name),
  );
  const cached = [
    { path: APP_BASE, type: "text/html; charset=utf-8", body: page, immutable: false },
    { path: APP_BASE + scriptName, type: "text/javascript; charset=utf-8", body: script, immutable: true },
    { path: APP_BASE + styleName, type: "text/css; charset=utf-8", body: style, immutable: true },
    { path: APP_BASE + manifestName, type: "application/manifest+json", body: manifestBody, immutable: true },
    ...icons.map((i) => ({ path: APP_BASE + i.name, type: "image/png", body: i.body, immutable: true })),
  ];
  // The worker's version is the hash of everything it keeps: a new build is a new cache.
  const version = hash(cached.map((f) => `${f.path}:${hash(f.body)}`).join("\n"));
  const worker = await bundle("sw.ts", {
    __APP_FILES__: JSON.stringify(cached.map((f) => f.path)),
    __APP_VERSION__: JSON.stringify(version),
  });
  return [
    ...cached,
    { path: `${APP_BASE}sw.js`, type: "text/javascript; charset=utf-8", body: worker, immutable: false },
  ];
}

/** The module that the worker imports: every file as base64 (icons are binary), with its headers' facts. */
function filesModule(files: AppFile[]): string {
  const entries = files.map(
    (f) =>
      `  ${JSON.stringify(f.path)}: { type: ${JSON.stringify(f.type)}, immutable: ${f.immutable}, etag: ${JSON.stringify(`"${hash(f.body)}"`)}, base64: ${JSON.stringify(f.body.toString("base64"))} },`,
  );
  return `// Generated by scripts/app/build.ts: do not edit, not committed.
export interface BuiltFile {
  type: string;
  immutable: boolean;
  etag: string;
  base64: string;
}
export const APP_FILES: Record<string, BuiltFile> = {
${entries.join("\n")}
};
`;
}

/** Builds the app into app/dist (the files themselves under public/, for inspection and size figures). */
export async function buildApp(): Promise<AppFile[]> {
  // The app imports the client by its package name, as an outside app does: its dist/ must be current
  // (docs/decisions.md, "The client package"). tsc -b is incremental: about a second when nothing changed.
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", join(ROOT, "packages/client")], { stdio: "inherit" });
  const files = await appFiles();
  rmSync(join(APP_DIST, "public"), { recursive: true, force: true });
  mkdirSync(join(APP_DIST, "public"), { recursive: true });
  for (const f of files) {
    const name = f.path === APP_BASE ? "index.html" : basename(f.path);
    writeFileSync(join(APP_DIST, "public", name), f.body);
  }
  // Written whole, then renamed: a wrangler bundling at that moment never reads half a module.
  const partial = join(APP_DIST, `files.ts.${process.pid}`);
  writeFileSync(partial, filesModule(files));
  renameSync(partial, join(APP_DIST, "files.ts"));
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await buildApp();
  console.log(`Built the field app: ${files.length} files in ${APP_DIST}`);
}
