// The one command-line parser of every command in scripts/ (docs/operations.md, "Running it locally"), on node's
// util.parseArgs in strict mode: `--env=live` and `--env live` are the same; an unknown or misspelt
// option, a missing value or a stray argument is an error that names it (exit 1, one line on
// stderr with a pointer to --help); `--help` prints the usage (exit 0). A command that takes no
// options still goes through here, so that `npm start -- --bogus` fails instead of starting.
import { parseArgs } from "node:util";
import { distance } from "fastest-levenshtein";

export type OptionSpec =
  { type: "string"; /** The value's placeholder in the usage, e.g. SECONDS. */ value: string } | { type: "boolean" };
export type OptionTable = Readonly<Record<string, OptionSpec>>;
/** What the options of a table parse to; every one may be absent. */
export type Values<T extends OptionTable> = {
  -readonly [K in keyof T]?: T[K]["type"] extends "string" ? string : boolean;
};

/** A mistake on the command line: reported in one line, exit status 1. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  /** Whether the report points to --help (for mistakes of syntax, not of a value's meaning). */
  readonly pointToHelp: boolean;
  constructor(message: string, pointToHelp = false) {
    super(message);
    this.pointToHelp = pointToHelp;
  }
}

export interface Parsed<T extends OptionTable> {
  values: Values<T>;
  positionals: string[];
  help: boolean;
}

const HELP = { help: { type: "boolean", short: "h" } } as const;

/**
 * Parses argv against a table of options. Every mistake throws a UsageError naming the option;
 * `--help` anywhere wins over any mistake (someone asking for the usage gets it).
 */
export function parseOptions<T extends OptionTable>(
  argv: readonly string[],
  options: T,
  maxPositionals = 0,
): Parsed<T> {
  const config = {
    ...Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, { type: spec.type }])),
    ...HELP,
  };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: config, allowPositionals: true, strict: true, tokens: true });
  } catch (err) {
    if (asksForHelp(argv)) return { values: {}, positionals: [], help: true };
    throw translate(err, options);
  }
  if (parsed.values.help) return { values: {}, positionals: [], help: true };
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    // parseArgs keeps the last of a repeated option; two different answers are a mistake, not a choice.
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice`, true);
    seen.add(token.name);
  }
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals[maxPositionals]!;
    throw new UsageError(
      maxPositionals === 0 ? `unexpected argument '${extra}'` : `unexpected extra argument '${extra}'`,
      true,
    );
  }
  const { help: _help, ...values } = parsed.values;
  return { values: values as Values<T>, positionals: parsed.positionals, help: false };
}

function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** node's parseArgs errors, in one line that names the option (and a likely meant one). */
function translate(err: unknown, options: OptionTable): UsageError {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown }).code;
  const named = /'(-{1,2}[^'\s<=]+)/.exec(message)?.[1] ?? "";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const guess = closest(named.replace(/^-+/, ""), Object.keys(options));
    return new UsageError(`unknown option ${named}${guess ? ` (did you mean --${guess}?)` : ""}`, true);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/does not take an argument/.test(message)) return new UsageError(`${named} takes no value`, true);
    // Also "argument is ambiguous": `--grace -1` reads as a missing value followed by an option.
    return new UsageError(`${named} needs a value; a value starting with '-' is written ${named}=VALUE`, true);
  }
  return new UsageError(message.split("\n")[0]!.trim(), true);
}

/** The known option nearest to a misspelt one (at most two edits away), if any. */
function closest(name: string, known: string[]): string | undefined {
  const [best] = known.map((option) => ({ option, d: distance(name, option) })).sort((a, b) => a.d - b.d);
  return best && best.d <= 2 ? best.option : undefined;
}

/** Where a command's lines go: standard output and standard error when it runs as a process. */
export interface Output {
  log(line: string): void;
  error(line: string): void;
}

export const consoleOutput: Output = { log: (line) => console.log(line), error: (line) => console.error(line) };

export interface CommandLine {
  /** How to run the command, for the pointer to its usage: e.g. "npm run db:migrate --". */
  invocation: string;
  /** The whole text that --help prints. */
  usage: string;
}

/**
 * Parses a command's argv; prints the usage and exits 0 for --help, and reports a mistake and
 * exits 1, so that a command's own code only ever sees a valid command line.
 */
export function parseCommandLine<T extends OptionTable>(
  argv: readonly string[],
  command: CommandLine,
  options: T,
  maxPositionals = 0,
): Omit<Parsed<T>, "help"> {
  let parsed: Parsed<T>;
  try {
    parsed = parseOptions(argv, options, maxPositionals);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(failureLine(err, command));
    process.exit(1);
  }
  if (parsed.help) {
    console.log(command.usage);
    process.exit(0);
  }
  return parsed;
}

/**
 * One subcommand of a command such as `keys create`: its own options (beyond the command's common
 * ones), its operands, and how its parsed values become what the command runs. A new subcommand,
 * or a new option of one, is one entry in its command's table.
 */
export interface Subcommand<T extends OptionTable, R> {
  options: T;
  /** Names of its operands, in order, e.g. ["ID"]; each is required, but a last one named "ID..." takes any number. */
  operands: readonly string[];
  /** Its line in the usage, e.g. "roll ID [--grace SECONDS] [--json]". */
  usage: string;
  /** Checks the values' meaning (throwing a UsageError) and builds the command. */
  build(values: Values<T>, operands: string[]): R;
}

/** Keeps a subcommand's option types attached to its build function. */
export function subcommand<T extends OptionTable, R>(spec: Subcommand<T, R>): Subcommand<T, R> {
  return spec;
}

/**
 * Parses `SUBCOMMAND [OPERANDS] [OPTIONS]`. An option of another subcommand is refused by name
 * (`--grace is not an option of create`), an unknown one as unknown; either way nothing runs.
 */
export function parseSubcommand<G extends OptionTable, R>(
  argv: readonly string[],
  common: G,
  commands: Readonly<Record<string, Subcommand<OptionTable, R>>>,
): { help: true } | { help: false; common: Values<G>; command: R } {
  const all: Record<string, OptionSpec> = { ...common };
  for (const spec of Object.values(commands)) {
    for (const [name, option] of Object.entries(spec.options)) {
      if (all[name] && all[name].type !== option.type) throw new Error(`--${name} is declared with two types`);
      all[name] = option;
    }
  }
  const parsed = parseOptions(argv, all, Number.POSITIVE_INFINITY);
  if (parsed.help) return { help: true };
  const names = Object.keys(commands);
  const list = `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  const [name, ...operands] = parsed.positionals;
  if (name === "help") return { help: true };
  if (name === undefined) throw new UsageError(`a command is required: ${list}`, true);
  const spec = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!spec) throw new UsageError(`unknown command '${name}': expected ${list}`, true);
  const own: Record<string, unknown> = {};
  const shared: Record<string, unknown> = {};
  for (const [option, value] of Object.entries(parsed.values)) {
    if (Object.hasOwn(spec.options, option)) own[option] = value;
    else if (Object.hasOwn(common, option)) shared[option] = value;
    else throw new UsageError(`--${option} is not an option of ${name}`, true);
  }
  const variadic = spec.operands.at(-1)?.endsWith("...") ?? false;
  if (!variadic && operands.length > spec.operands.length) {
    throw new UsageError(
      spec.operands.length === 0
        ? `${name} takes no argument: '${operands[0]}' was given`
        : `unexpected extra argument '${operands[spec.operands.length]}'`,
      true,
    );
  }
  if (operands.length < spec.operands.length - (variadic ? 1 : 0))
    throw new UsageError(`${name} needs ${spec.operands.slice(operands.length).join(" ")}`, true);
  return { help: false, common: shared as Values<G>, command: spec.build(own as Values<OptionTable>, operands) };
}

/** An option's value as a whole number from min to max (plain digits only), or `fallback` when it is not given. */
export function wholeNumber<F = number>(
  name: string,
  text: string | undefined,
  fallback: F,
  min: number,
  max?: number,
  unit = "",
): number | F {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d{1,15}$/.test(text) || n < min || (max !== undefined && n > max)) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be a whole number ${unit}${range}, not '${text}'`);
  }
  return n;
}

/** The usage lines about the environment of the commands that serve with wrangler dev (start, dev). */
export const SERVE_ENVIRONMENT = `  Environment:
    PORT                   the port to listen on (default 8787)
    PERSIST_DIR            the folder of the local D1 and KV (default .wrangler/state)
    ADMIN_TOKEN            the dashboard's administrator token (default: one kept in PERSIST_DIR)
    RATE_LIMIT_PER_MINUTE  requests a minute per key (default 600; 0 turns limiting off)
    USAGE_FLUSH_SECONDS    seconds between writes of the keys' usage counts (default 60; 0 writes
                           after every request; off records no usage)
    SCHEDULED_JOBS         the cron jobs of wrangler.toml: on (default, each on its schedule), off,
                           or a number of seconds (each that often)
    INSPECT=1              opens the devtools inspector
  Ctrl-C or SIGTERM stops it and every process it started.`;

/** The options of every command that acts on D1 or KV: the account's resources, and which environment. */
export const PLATFORM_OPTIONS = {
  remote: { type: "boolean" },
  env: { type: "string", value: "NAME" },
} as const satisfies OptionTable;

/** --remote and --env as openPlatform and applyMigrations take them. */
export function platformOf(values: Values<typeof PLATFORM_OPTIONS>): {
  remote: boolean;
  environment: string | undefined;
} {
  if (values.env !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(values.env)) {
    throw new UsageError(`--env must name an environment of wrangler.toml, e.g. live; got '${values.env}'`);
  }
  return { remote: values.remote ?? false, environment: values.env };
}

/** A failed command's one line on stderr: a usage error with its pointer to --help, else the error's message. */
export function failureLine(err: unknown, command: CommandLine): string {
  if (!(err instanceof UsageError)) return `Error: ${err instanceof Error ? err.message : String(err)}`;
  return `Error: ${err.message}${err.pointToHelp ? `; see ${command.invocation} --help` : ""}`;
}
