// The project's own wrangler: its API in this process, and what `wrangler dev` is given by `npm start`,
// `npm run dev`, the benchmark and the node-side tests (its environment and its configs). Modules
// that read PERSIST_DIR when they load (scripts/lib/local.ts) must not load as a side effect of importing this.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { API_CONFIG, DOCS_CONFIG } from "./workers.ts";

const require = createRequire(import.meta.url);

/** The project's own wrangler, to run with this process's Node. */
export const WRANGLER_BIN = join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

/**
 * Wrangler's API (the config reader, getPlatformProxy), loaded on first use: a command loads it only
 * once it needs it. Required, not imported: wrangler is one 15 MB CommonJS file, and loaded through
 * tsx's ESM loader it kept about 430 MB resident instead of 245 MB (measured on Node 22).
 */
export function wranglerApi(): typeof import("wrangler") {
  return require("wrangler") as typeof import("wrangler");
}

/** The configs of one `wrangler dev` session: the API's first (it takes the port), then the docs' (its ASSETS). */
export function devConfigArgs(apiConfig = API_CONFIG): string[] {
  return ["--config", apiConfig, "--config", DOCS_CONFIG];
}

/**
 * Wrangler's devtools inspector proxy is off unless INSPECT=1: while on, it keeps every console line and
 * every D1 and KV call's events until a devtools window connects (docs/operations.md, "Environment variables").
 * Wrangler's command line has no switch for it: wrangler leaves the proxy off in a VS Code debug terminal,
 * which it recognizes by VSCODE_INSPECTOR_OPTIONS, so that is what is set. Nothing else reads that variable.
 */
export function wranglerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const inspect = env.INSPECT ?? "";
  if (!["", "0", "1"].includes(inspect))
    throw new Error(`INSPECT must be 1 (devtools inspector on) or 0, got "${inspect}"`);
  const out: NodeJS.ProcessEnv = {
    ...env,
    // The service never reads request.cf: without this, every start tries to download it and,
    // offline, prints a stack trace. An operator's own setting wins.
    CLOUDFLARE_CF_FETCH_ENABLED: env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
    // wrangler's local trace store (on by default) writes every request's spans into a SQLite file under
    // PERSIST_DIR, each D1 call's whole SQL text with it: ~6 KB an orders page, without bound, and CPU a
    // request that grows with the statement (docs/performance.md). An operator's own setting wins.
    X_LOCAL_OBSERVABILITY: env.X_LOCAL_OBSERVABILITY ?? "false",
  };
  if (inspect === "1") delete out.VSCODE_INSPECTOR_OPTIONS;
  else if (!out.VSCODE_INSPECTOR_OPTIONS) out.VSCODE_INSPECTOR_OPTIONS = "{}"; // wrangler tests it for truth
  return out;
}
