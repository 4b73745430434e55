// What `wrangler deploy` reports about a deploy, read from the file that wrangler writes its
// structured output to (WRANGLER_OUTPUT_FILE_PATH: one JSON object a line) rather than from the
// text it prints.

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
