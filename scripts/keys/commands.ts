// The keys command line (docs/keys.md): one table entry per subcommand, with its own
// options, operands and checks. Parsed and checked before anything is opened, so that a mistake
// costs nothing and says, in one line, what is wrong. To add an option or a subcommand, add it to
// COMMANDS; the parser (scripts/lib/cli.ts) refuses everything a subcommand does not list.
import { isKeyMode, KEY_ID_PATTERN, type KeyMode } from "../../src/keys/keys.secret.ts";
import { checkName, MAX_LIFETIME_SECONDS, parseScopes } from "../../src/keys/keys.rules.ts";
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
      const mode = keyMode(values.mode);
      if (values.name === undefined) throw new UsageError("--name is required: 1 to 100 characters");
      const name = rule(() => checkName(values.name), "--name");
      const expiresIn = seconds("expires-in", values["expires-in"], null, 1);
      const scopes = scopesOf(values.scopes);
      const agentId = values.agent === undefined ? null : agent(values.agent);
      return { command: "create" as const, name, mode, expiresIn, scopes, agentId };
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
      grace: seconds("grace", values.grace, undefined, 0),
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
      for (const id of ids) {
        if (!KEY_ID_PATTERN.test(id)) throw new UsageError(`'${id}' is not a key id: key_ and 16 letters or digits`);
      }
      return {
        command: "rotate" as const,
        ids: ids.length > 0 ? ids : null,
        mode: values.mode === undefined ? null : keyMode(values.mode),
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
      const mode = keyMode(values.mode);
      const scopes = scopesOf(values.scopes);
      const expiresIn = seconds("expires-in", values["expires-in"], CODE_EXPIRES_IN.default, CODE_EXPIRES_IN);
      const keyExpiresIn = seconds("key-expires-in", values["key-expires-in"], null, KEY_EXPIRES_IN);
      const name = values.name === undefined ? null : rule(() => checkName(values.name), "--name");
      return { command: "enroll" as const, agentId, mode, scopes, expiresIn, keyExpiresIn, name };
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

/** Throws a UsageError for any mistake. */
export function parseKeysCommandLine(argv: readonly string[]) {
  const parsed = parseSubcommand<typeof COMMON, Command>(argv, COMMON, COMMANDS);
  if (parsed.help) return { help: true as const };
  return { help: false as const, cmd: parsed.command, json: parsed.common.json ?? false, ...platformOf(parsed.common) };
}

/** Whole seconds from min (or bounds.min) to bounds.max, written as plain digits: "1e3", "-5" and " 10" are refused. */
function seconds<F>(
  option: string,
  text: string | undefined,
  fallback: F,
  bounds: number | { min: number; max: number },
) {
  const { min, max } = typeof bounds === "number" ? { min: bounds, max: MAX_LIFETIME_SECONDS } : bounds;
  return wholeNumber(option, text, fallback, min, max, "of seconds ");
}

function keyMode(text: string | undefined): KeyMode {
  if (text === undefined) throw new UsageError("--mode is required: test or live");
  if (!isKeyMode(text)) throw new UsageError(`--mode must be test or live, not '${text}'`);
  return text;
}

const scopesOf = (text: string | undefined) => rule(() => parseScopes(text), "--scopes");

/** A sales agent's id, written as plain digits; whether it exists is the key store's to say. */
function agent(text: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(text))
    throw new UsageError(`--agent must be a sales agent's id (a whole number from 1), not '${text}'`);
  return Number(text);
}

/** Runs one of the key store's own rules, turning its 422 into a usage error for the option. */
function rule<T>(check: () => T, option: string): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof ApiError && err.options.fields?.[0]) {
      throw new UsageError(`${option} ${err.options.fields[0].message}`);
    }
    throw err;
  }
}
