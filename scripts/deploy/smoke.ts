// The smoke check after a deploy: GET <url>/healthz until the new version answers (docs/operations.md,
// Deploying). A fresh deploy takes a few seconds to reach every location, so it retries.
import type { Mode } from "../lib/workers.ts";

export interface Health {
  status: string;
  version: string;
  mode: string;
}

export interface SmokeOptions {
  mode: Mode;
  /** The version id that `wrangler deploy` reported: the answer must come from it. */
  versionId?: string;
  timeoutMs?: number;
  intervalMs?: number;
  fetch?: typeof fetch;
}

/** The health check's URL for a deployment's base URL (any path on it is dropped). */
export function healthUrl(base: string): string {
  return new URL("/healthz", base).href;
}

/** Why an answer is not the healthy answer of this deploy, or null when it is. */
export function healthProblem(
  status: number,
  body: unknown,
  options: Pick<SmokeOptions, "mode" | "versionId">,
): string | null {
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
  const doFetch = options.fetch ?? fetch;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    let last: string;
    try {
      const res = await doFetch(url, { headers: { "Cache-Control": "no-cache" }, signal: AbortSignal.timeout(10_000) });
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
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 2_000));
  }
}
