// The keys command line's arguments (CONTRACTS.md): parsed and checked before anything is opened,
// so that a mistake costs nothing and says, in one line, what is wrong.
import { parseArgs } from "node:util";
import { type KeyMode, isKeyMode } from "../../src/keys/secret.ts";
import { checkName, checkSeconds, MAX_LIFETIME_SECONDS } from "../../src/keys/rules.ts";
import { ApiError } from "../../src/lib/errors.ts";

export const USAGE = `Usage: npm run keys -- <command> [options]
  create --mode test|live --name NAME [--expires-in SECONDS] [--json]
  list [--json]
  roll ID [--grace SECONDS] [--json]      (grace default 86400; 0 stops the old key at once)
  revoke ID [--json]
Options for every command: --remote (the Cloudflare account's key store), --env NAME (e.g. live).
Local state: PERSIST_DIR (default .wrangler/state).`;

export type Command =
  | { command: "create"; name: string; mode: KeyMode; expiresIn: number | null }
  | { command: "list" }
  | { command: "roll"; id: string; grace: number | undefined }
  | { command: "revoke"; id: string }
  | { command: "help" };

export interface Parsed {
  cmd: Command;
  json: boolean;
  remote: boolean;
  environment: string | undefined;
}

/** A mistake in the command line: printed as one line, exit status 1. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const OPTIONS = {
  mode: { type: "string" },
  name: { type: "string" },
  "expires-in": { type: "string" },
  grace: { type: "string" },
  json: { type: "boolean" },
  remote: { type: "boolean" },
  env: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Which options each command takes, beyond --json, --remote and --env. */
const ALLOWED: Record<string, string[]> = {
  create: ["mode", "name", "expires-in"],
  list: [],
  roll: ["grace"],
  revoke: [],
};

export function parseCommandLine(argv: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    const ambiguous = /^Option '(--[a-z-]+)' argument is ambiguous/.exec(firstLine(err));
    if (ambiguous) throw new UsageError(`${ambiguous[1]} needs a value; a value starting with '-' is not accepted`);
    throw new UsageError(firstLine(err));
  }
  const { values, positionals } = parsed;
  const common = { json: values.json ?? false, remote: values.remote ?? false, environment: values.env };
  const [command, ...rest] = positionals;
  if (values.help || command === "help") return { ...common, cmd: { command: "help" } };
  if (!command) throw new UsageError("a command is required: create, list, roll or revoke (--help for usage)");
  const allowed = ALLOWED[command];
  if (!allowed) throw new UsageError(`unknown command '${command}': expected create, list, roll or revoke`);
  for (const option of Object.keys(values)) {
    if (!["json", "remote", "env", ...allowed].includes(option)) {
      throw new UsageError(`--${option} is not an option of ${command}`);
    }
  }
  if (common.environment !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(common.environment)) {
    throw new UsageError("--env must name an environment of wrangler.toml, e.g. live");
  }

  if (command === "create" || command === "list") {
    if (rest.length > 0) throw new UsageError(`${command} takes no argument: '${rest[0]}' was given`);
  } else if (rest.length !== 1) {
    throw new UsageError(`${command} takes exactly one key id, e.g. ${command} key_AbCdEfGh12345678`);
  }

  switch (command) {
    case "create": {
      if (values.mode === undefined) throw new UsageError("--mode is required: test or live");
      if (!isKeyMode(values.mode)) throw new UsageError(`--mode must be test or live, not '${values.mode}'`);
      if (values.name === undefined) throw new UsageError("--name is required: 1 to 100 characters");
      const name = rule(() => checkName(values.name), "--name");
      const expiresIn = values["expires-in"] === undefined ? null : seconds("--expires-in", values["expires-in"], 1);
      return { ...common, cmd: { command, name, mode: values.mode, expiresIn } };
    }
    case "list":
      return { ...common, cmd: { command } };
    case "roll":
      return {
        ...common,
        cmd: { command, id: rest[0]!, grace: values.grace === undefined ? undefined : seconds("--grace", values.grace, 0) },
      };
    default:
      return { ...common, cmd: { command: "revoke", id: rest[0]! } };
  }
}

/** Whole seconds, written as plain digits: "1e3", "-5", "10.0" and " 10" are refused, not guessed at. */
function seconds(option: string, text: string, min: number): number {
  const message = `${option} must be a whole number of seconds from ${min} to ${MAX_LIFETIME_SECONDS}, not '${text}'`;
  if (!/^[0-9]{1,10}$/.test(text)) throw new UsageError(message);
  return rule(() => checkSeconds(option === "--grace" ? "grace" : "expires_in", Number(text), min), option, message);
}

/** Runs one of the key store's own rules, turning its 422 into a usage error for the option. */
function rule<T>(check: () => T, option: string, message?: string): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof ApiError && err.options.fields?.[0]) {
      throw new UsageError(message ?? `${option} ${err.options.fields[0].message}`);
    }
    throw err;
  }
}

export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split("\n")[0]!.trim();
}

/** Every line of an error's message, as one line (wrangler's errors put their point on a later line). */
export function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ")
    .slice(0, 600);
}
