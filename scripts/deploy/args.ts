// `npm run deploy` arguments, parsed strictly: an unknown flag or a missing value is an error that
// names it. `--env=live` and `--env live` both work.
import { parseArgs } from "node:util";
import type { Mode } from "../lib/workers.ts";

export const USAGE = `Usage: npm run deploy -- [--env live] [--setup] [--dry-run] [--url URL]
  (no --env)   deploy test mode (wrangler.toml's top level); --env live deploys live mode
  --setup      once per mode, before the first deploy: only create the D1 database (location
               hint apac) and KV namespaces that wrangler.toml still has placeholder ids for,
               and write their ids into it; then wrangler secret put ADMIN_TOKEN, then deploy
  --dry-run    build and check every Worker without an account; says which steps it skipped
  --url URL    the deployment's address for the smoke check (default: the workers.dev URL
               that wrangler deploy reports)
Deploy steps: check the ids, build both Workers, remote D1 migrations, the docs Worker, the API,
GET /healthz on the deployed address.`;

export interface DeployArgs {
  help: boolean;
  mode: Mode;
  setup: boolean;
  dryRun: boolean;
  url: string | undefined;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

const OPTIONS = {
  env: { type: "string" },
  setup: { type: "boolean" },
  "dry-run": { type: "boolean" },
  url: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export function parseDeployArgs(argv: string[]): DeployArgs {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    const message = (err as Error).message;
    const ambiguous = /^Option '(--[a-z-]+)' argument is ambiguous/.exec(message);
    if (ambiguous) throw new UsageError(`${ambiguous[1]} needs a value`);
    throw new UsageError(message.split(". ")[0]!);
  }
  if (values.env !== undefined && values.env !== "live") {
    throw new UsageError(`--env must be live (the one environment of wrangler.toml; leave it out for test mode), not '${values.env}'`);
  }
  if (values.url !== undefined && !/^https?:\/\/[^/\s]+/.test(values.url)) {
    throw new UsageError(`--url must be an http(s) address such as https://order-lookup.example.workers.dev, not '${values.url}'`);
  }
  return {
    help: values.help ?? false,
    mode: values.env === "live" ? "live" : "test",
    setup: values.setup ?? false,
    dryRun: values["dry-run"] ?? false,
    url: values.url,
  };
}
