// `npm run deploy`'s command line (docs/commands.md) on the one parser (scripts/lib/cli.ts), and
// what its options mean.
import { type CommandLine, type OptionTable, UsageError, type Values } from "../lib/cli.ts";
import type { Mode } from "../lib/workers.ts";

export const DEPLOY_COMMAND: CommandLine = {
  invocation: "npm run deploy --",
  usage: `Usage: npm run deploy [-- --env live] [--setup] [--dry-run] [--url URL]
  (no --env)   deploy test mode (wrangler.toml's top level); --env live deploys live mode
  --setup      once per mode, before the first deploy: only create the D1 database (location
               hint apac) and KV namespaces that wrangler.toml still has placeholder ids for,
               and write their ids into it; then wrangler secret put ADMIN_TOKEN, then deploy
  --dry-run    build and check every Worker without an account; says which steps it skipped
  --url URL    the deployment's address for the smoke check (default: the workers.dev URL
               that wrangler deploy reports)
Deploy steps: check the ids, build both Workers, remote D1 migrations, the docs Worker, the API,
GET /healthz on the deployed address.`,
};

export const DEPLOY_OPTIONS = {
  env: { type: "string", value: "live" },
  setup: { type: "boolean" },
  "dry-run": { type: "boolean" },
  url: { type: "string", value: "URL" },
} as const satisfies OptionTable;

/** The parsed options' meaning; a value that makes no sense is a UsageError naming its option. */
export function deployArgs(values: Values<typeof DEPLOY_OPTIONS>) {
  if (values.env !== undefined && values.env !== "live") {
    throw new UsageError(
      `--env must be live (the one environment of wrangler.toml; leave it out for test mode), not '${values.env}'`,
    );
  }
  if (values.url !== undefined && !/^https?:\/\/[^/\s]+/.test(values.url)) {
    throw new UsageError(
      `--url must be an http(s) address such as https://order-lookup.example.workers.dev, not '${values.url}'`,
    );
  }
  return {
    mode: (values.env === "live" ? "live" : "test") as Mode,
    setup: values.setup ?? false,
    dryRun: values["dry-run"] ?? false,
    url: values.url,
  };
}
