// After a deploy: what `wrangler deploy` reported, read from the file it writes its structured output
// to (WRANGLER_OUTPUT_FILE_PATH: one JSON object a line), and the smoke check, GET <url>/healthz until
// the new version answers (docs/operations.md, Deploying); a fresh deploy takes a few seconds to reach
// every location, so it retries.
import type { Mode } from "../lib/workers.ts";

export interface DeployRecord {
  versionId: string | undefined;
  /** The addresses it deployed to: https://<name>.<subdomain>.workers.dev, custom domains, routes. */
  targets: string[];
}

export function parseDeployOutput(ndjson: string): DeployRecord | undefined {
  let record: DeployRecord | undefined;
  for (const line of ndjson.split("\n")) {
    if (!line.trim()) continue;
    let entry: { type?: unknown; version_id?: unknown; targets?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (entry.type !== "deploy") continue;
    record = {
      versionId: typeof entry.version_id === "string" ? entry.version_id : undefined,
      targets: Array.isArray(entry.targets) ? entry.targets.filter((t): t is string => typeof t === "string") : [],
    };
  }
  return record;
}

/** The address to smoke-check: the first https target (workers.dev); a route pattern is no address. */
export function deployedUrl(record: DeployRecord | undefined): string | undefined {
  return record?.targets.find((t) => /^https:\/\/[^*\s]+$/.test(t));
}

export interface Health {
  status: string;
  version: string;
  mode: string;
}

export interface SmokeOptions {
  mode: Mode;
  /** The version id that `wrangler deploy` reported: the answer must come from it. */
  versionId?: string;
}

/** The health check's URL for a deployment's base URL (any path on it is dropped). */
export function healthUrl(base: string): string {
  return new URL("/healthz", base).href;
}

/** Why an answer is not the healthy answer of this deploy, or null when it is. */
export function healthProblem(status: number, body: unknown, options: SmokeOptions): string | null {
  if (status !== 200) return `status ${status}`;
  const health = body as Partial<Health> | null;
  if (health?.status !== "ok") return `status field ${JSON.stringify(health?.status)}`;
  if (health.mode !== options.mode) return `mode ${JSON.stringify(health.mode)}, expected "${options.mode}"`;
  if (options.versionId && health.version !== options.versionId)
    return `version ${health.version}, still not ${options.versionId}`;
  return null;
}

export async function smokeCheck(base: string, options: SmokeOptions): Promise<Health> {
  const url = healthUrl(base);
  const deadline = Date.now() + 60_000;
  for (;;) {
    let last: string;
    try {
      const res = await fetch(url, { headers: { "Cache-Control": "no-cache" }, signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: reported below through its status or status field
      }
      const problem = healthProblem(res.status, body, options);
      if (!problem) return body as Health;
      last = problem;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() >= deadline) throw new Error(`GET ${url} did not answer healthy: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
