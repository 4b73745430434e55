// The keys command line (docs/keys.md): one table entry per subcommand, with its own
// options, operands and checks. Parsed and checked before anything is opened, so that a mistake
// costs nothing and says, in one line, what is wrong. To add an option or a subcommand, add it to
// COMMANDS; the parser (scripts/lib/cli.ts) refuses everything a subcommand does not list.
import { isKeyMode, KEY_ID_PATTERN } from "../../src/keys/keys.secret.ts";
import { checkName, checkSeconds, MAX_LIFETIME_SECONDS } from "../../src/keys/keys.rules.ts";
import { parseScopes } from "../../src/keys/keys.rules.ts";
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from "../../src/keys/keys.audit.ts";
import { CODE_EXPIRES_IN, KEY_EXPIRES_IN } from "../../src/enroll/enroll.codes.ts";
import { ApiError } from "../../src/platform/errors.ts";
import {
  type CommandLine,
  parseSubcommand,
  PLATFORM_OPTIONS,
  platformOf,
  subcommand,
  UsageError,
  wholeNumber,
} from "../lib/cli.ts";

/** Options that every subcommand takes. */
const COMMON = { json: { type: "boolean" }, ...PLATFORM_OPTIONS } as const;

const COMMANDS = {
  create: subcommand({
    options: {
      mode: { type: "string", value: "test|live" },
      name: { type: "string", value: "NAME" },
      "expires-in": { type: "string", value: "SECONDS" },
      scopes: { type: "string", value: "read,write" },
      agent: { type: "string", value: "SALES_AGENT_ID" },
    },
    operands: [],
    usage:
      "create --mode test|live --name NAME [--expires-in SECONDS] [--scopes read,write] [--agent SALES_AGENT_ID] [--json]",
    build(values) {
      if (values.mode === undefined) throw new UsageError("--mode is required: test or live");
      if (!isKeyMode(values.mode)) throw new UsageError(`--mode must be test or live, not '${values.mode}'`);
      if (values.name === undefined) throw new UsageError("--name is required: 1 to 100 characters");
      const name = rule(() => checkName(values.name), "--name");
      const expiresIn = values["expires-in"] === undefined ? null : seconds("--expires-in", values["expires-in"], 1);
      const scopes =
        values.scopes === undefined ? parseScopes(undefined) : rule(() => parseScopes(values.scopes), "--scopes");
      const agentId = values.agent === undefined ? null : agent(values.agent);
      return { command: "create" as const, name, mode: values.mode, expiresIn, scopes, agentId };
    },
  }),
  list: subcommand({
    options: {},
    operands: [],
    usage: "list [--json]",
    build: () => ({ command: "list" as const }),
  }),
  roll: subcommand({
    options: { grace: { type: "string", value: "SECONDS" } },
    operands: ["ID"],
    usage: "roll ID [--grace SECONDS] [--json]      (grace default 86400; 0 stops the old key at once)",
    build: (values, [id]) => ({
      command: "roll" as const,
      id: id!,
      grace: values.grace === undefined ? undefined : seconds("--grace", values.grace, 0),
    }),
  }),
  revoke: subcommand({
    options: {},
    operands: ["ID"],
    usage: "revoke ID [--json]",
    build: (_values, [id]) => ({ command: "revoke" as const, id: id! }),
  }),
  rotate: subcommand({
    options: {
      mode: { type: "string", value: "test|live" },
      agent: { type: "string", value: "SALES_AGENT_ID" },
    },
    operands: ["ID..."],
    usage: "rotate (ID... | --mode test|live | --agent SALES_AGENT_ID) [--json]      (marks active keys rotation due)",
    build(values, ids) {
      if (ids.length === 0 && values.mode === undefined && values.agent === undefined) {
        throw new UsageError("rotate needs key ids, --mode or --agent");
      }
      if (values.mode !== undefined && !isKeyMode(values.mode)) {
        throw new UsageError(`--mode must be test or live, not '${values.mode}'`);
      }
      for (const id of ids) {
        if (!KEY_ID_PATTERN.test(id)) throw new UsageError(`'${id}' is not a key id: key_ and 16 letters or digits`);
      }
      return {
        command: "rotate" as const,
        ids: ids.length > 0 ? ids : null,
        mode: values.mode ?? null,
        agentId: values.agent === undefined ? null : agent(values.agent),
      };
    },
  }),
  audit: subcommand({
    options: { limit: { type: "string", value: "N" } },
    operands: [],
    usage: `audit [--limit N] [--json]      (newest first; N default ${DEFAULT_AUDIT_LIMIT})`,
    build: (values) => ({
      command: "audit" as const,
      limit: wholeNumber("limit", values.limit, DEFAULT_AUDIT_LIMIT, 1, MAX_AUDIT_LIMIT),
    }),
  }),
  enroll: subcommand({
    options: {
      agent: { type: "string", value: "SALES_AGENT_ID" },
      mode: { type: "string", value: "test|live" },
      scopes: { type: "string", value: "read,write" },
      "expires-in": { type: "string", value: "SECONDS" },
      "key-expires-in": { type: "string", value: "SECONDS" },
      name: { type: "string", value: "NAME" },
    },
    operands: [],
    usage:
      "enroll --agent SALES_AGENT_ID --mode test|live [--scopes read,write] [--expires-in SECONDS] " +
      `[--key-expires-in SECONDS] [--name NAME] [--json]      (a one-time enrollment code; its life ${CODE_EXPIRES_IN.min} to ` +
      `${CODE_EXPIRES_IN.max}, default ${CODE_EXPIRES_IN.default}; the key's ${KEY_EXPIRES_IN.min} to ${KEY_EXPIRES_IN.max}, default none)`,
    build(values) {
      if (values.agent === undefined) throw new UsageError("--agent is required: the sales agent's id");
      const agentId = agent(values.agent);
      if (values.mode === undefined) throw new UsageError("--mode is required: test or live");
      if (!isKeyMode(values.mode)) throw new UsageError(`--mode must be test or live, not '${values.mode}'`);
      const scopes =
        values.scopes === undefined ? parseScopes(undefined) : rule(() => parseScopes(values.scopes), "--scopes");
      const expiresIn =
        values["expires-in"] === undefined
          ? CODE_EXPIRES_IN.default
          : within("--expires-in", values["expires-in"], CODE_EXPIRES_IN);
      const keyExpiresIn =
        values["key-expires-in"] === undefined
          ? null
          : within("--key-expires-in", values["key-expires-in"], KEY_EXPIRES_IN);
      const name = values.name === undefined ? null : rule(() => checkName(values.name), "--name");
      return { command: "enroll" as const, agentId, mode: values.mode, scopes, expiresIn, keyExpiresIn, name };
    },
  }),
};

export type Command = ReturnType<(typeof COMMANDS)[keyof typeof COMMANDS]["build"]>;

export const KEYS_COMMAND_LINE: CommandLine = {
  invocation: "npm run keys --",
  usage: `Usage: npm run keys -- <command> [options]
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join("\n")}
Options for every command: --remote (the Cloudflare account's key store), --env NAME (e.g. live).
Local state: PERSIST_DIR (default .wrangler/state).`,
};

export type Parsed =
  { help: true } | { help: false; cmd: Command; json: boolean; remote: boolean; environment: string | undefined };

/** Throws a UsageError for any mistake. */
export function parseKeysCommandLine(argv: readonly string[]): Parsed {
  const parsed = parseSubcommand<typeof COMMON, Command>(argv, COMMON, COMMANDS);
  if (parsed.help) return parsed;
  return { help: false, cmd: parsed.command, json: parsed.common.json ?? false, ...platformOf(parsed.common) };
}

/** Whole seconds, written as plain digits: "1e3", "-5", "10.0" and " 10" are refused, not guessed at. */
function seconds(option: string, text: string, min: number): number {
  const message = `${option} must be a whole number of seconds from ${min} to ${MAX_LIFETIME_SECONDS}, not '${text}'`;
  if (!/^[0-9]{1,10}$/.test(text)) throw new UsageError(message);
  return rule(() => checkSeconds(option === "--grace" ? "grace" : "expires_in", Number(text), min), option, message);
}

/** A sales agent's id, written as plain digits; whether it exists is the key store's to say. */
function agent(text: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(text))
    throw new UsageError(`--agent must be a sales agent's id (a whole number from 1), not '${text}'`);
  return Number(text);
}

/** Whole seconds within an enrollment bound, written as plain digits. */
function within(option: string, text: string, bounds: { min: number; max: number }): number {
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) < bounds.min || Number(text) > bounds.max) {
    throw new UsageError(
      `${option} must be a whole number of seconds from ${bounds.min} to ${bounds.max}, not '${text}'`,
    );
  }
  return Number(text);
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
