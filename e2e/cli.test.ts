// The one command-line parser of scripts/ (scripts/lib/cli.ts), on its own and through every real
// command: --help prints the usage (exit 0); an unknown or misspelt option, or a missing value, is
// one line naming it (exit 1); `--env=live` and `--env live` are the same.
import { readFileSync } from "node:fs";
import { delimiter, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseKeysCommandLine } from "../scripts/keys/commands.ts";
import { parseOptions, parseSubcommand, PLATFORM_OPTIONS, subcommand, UsageError } from "../scripts/lib/cli.ts";
import { run } from "../scripts/lib/processes.ts";

const PACKAGE_SCRIPTS = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> })
  .scripts;
const TABLE = { ...PLATFORM_OPTIONS, duration: { type: "string", value: "SECONDS" } } as const;

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error("no UsageError");
}

describe("parseOptions", () => {
  it("reads --name=value and --name value alike", () => {
    const inline = parseOptions(["--remote", "--env=live", "--duration=5"], TABLE);
    const spaced = parseOptions(["--remote", "--env", "live", "--duration", "5"], TABLE);
    expect(inline).toEqual(spaced);
    expect(spaced).toEqual({ values: { remote: true, env: "live", duration: "5" }, positionals: [], help: false });
  });

  it("names an unknown option, and the one probably meant", () => {
    expect(usageError(() => parseOptions(["--bogus"], TABLE))).toBe("unknown option --bogus");
    expect(usageError(() => parseOptions(["--remot"], TABLE))).toBe("unknown option --remot (did you mean --remote?)");
    expect(usageError(() => parseOptions(["--durration", "5"], TABLE))).toBe(
      "unknown option --durration (did you mean --duration?)",
    );
    expect(usageError(() => parseOptions(["-x"], TABLE))).toBe("unknown option -x");
  });

  it("names an option whose value is missing, or that takes none", () => {
    expect(usageError(() => parseOptions(["--env"], TABLE))).toMatch(/^--env needs a value/);
    expect(usageError(() => parseOptions(["--duration", "--remote"], TABLE))).toMatch(/^--duration needs a value/);
    expect(usageError(() => parseOptions(["--remote=yes"], TABLE))).toBe("--remote takes no value");
  });

  it("refuses an option given twice and arguments beyond those expected", () => {
    expect(usageError(() => parseOptions(["--env", "live", "--env=test"], TABLE))).toBe("--env is given twice");
    expect(usageError(() => parseOptions(["stray"], TABLE))).toBe("unexpected argument 'stray'");
    expect(usageError(() => parseOptions(["a", "b"], TABLE, 1))).toBe("unexpected extra argument 'b'");
    expect(parseOptions(["a", "--env=live"], TABLE, 1)).toMatchObject({ positionals: ["a"], values: { env: "live" } });
  });

  it("gives the usage for --help or -h, even beside a mistake", () => {
    expect(parseOptions(["--help"], TABLE).help).toBe(true);
    expect(parseOptions(["-h"], TABLE).help).toBe(true);
    expect(parseOptions(["--bogus", "--help"], TABLE).help).toBe(true);
  });
});

describe("parseSubcommand", () => {
  type Result = { made: string | undefined } | { dropped: string | undefined };
  const commands = {
    make: subcommand({
      options: { size: { type: "string", value: "N" } },
      operands: [],
      usage: "make [--size N]",
      build: (v): Result => ({ made: v.size }),
    }),
    drop: subcommand({
      options: {},
      operands: ["ID"],
      usage: "drop ID",
      build: (_v, [id]): Result => ({ dropped: id }),
    }),
  };

  it("parses each subcommand with its own options and the common ones", () => {
    expect(parseSubcommand(["make", "--size=3", "--env", "live"], PLATFORM_OPTIONS, commands)).toEqual({
      help: false,
      common: { env: "live" },
      command: { made: "3" },
    });
    expect(parseSubcommand(["drop", "x1"], PLATFORM_OPTIONS, commands)).toMatchObject({ command: { dropped: "x1" } });
  });

  it("names what is wrong", () => {
    expect(usageError(() => parseSubcommand(["drop", "x", "--size", "3"], PLATFORM_OPTIONS, commands))).toBe(
      "--size is not an option of drop",
    );
    expect(usageError(() => parseSubcommand(["make", "--sise", "3"], PLATFORM_OPTIONS, commands))).toBe(
      "unknown option --sise (did you mean --size?)",
    );
    expect(usageError(() => parseSubcommand(["mend"], PLATFORM_OPTIONS, commands))).toBe(
      "unknown command 'mend': expected make or drop",
    );
    expect(usageError(() => parseSubcommand([], PLATFORM_OPTIONS, commands))).toBe(
      "a command is required: make or drop",
    );
    expect(usageError(() => parseSubcommand(["drop"], PLATFORM_OPTIONS, commands))).toBe("drop needs ID");
    expect(usageError(() => parseSubcommand(["make", "x"], PLATFORM_OPTIONS, commands))).toBe(
      "make takes no argument: 'x' was given",
    );
  });
});

describe("the keys command line keeps its syntax", () => {
  it("parses every form of the contract", () => {
    const local = { help: false, json: false, remote: false, environment: undefined };
    expect(parseKeysCommandLine(["create", "--mode", "test", "--name", "app"])).toEqual({
      ...local,
      cmd: { command: "create", mode: "test", name: "app", expiresIn: null, scopes: ["read", "write"], agentId: null },
    });
    expect(
      parseKeysCommandLine([
        "create",
        "--mode=live",
        "--name=app",
        "--expires-in=60",
        "--scopes=write,read",
        "--agent",
        "7",
        "--json",
      ]),
    ).toEqual({
      ...local,
      json: true,
      cmd: { command: "create", mode: "live", name: "app", expiresIn: 60, scopes: ["read", "write"], agentId: 7 },
    });
    expect(parseKeysCommandLine(["create", "--mode", "test", "--name", "field app", "--scopes", "read"])).toEqual({
      ...local,
      cmd: { command: "create", mode: "test", name: "field app", expiresIn: null, scopes: ["read"], agentId: null },
    });
    expect(parseKeysCommandLine(["list", "--json"])).toEqual({ ...local, json: true, cmd: { command: "list" } });
    expect(parseKeysCommandLine(["roll", "key_AAAAAAAAAAAAAAAA", "--grace", "0", "--json"])).toEqual({
      ...local,
      json: true,
      cmd: { command: "roll", id: "key_AAAAAAAAAAAAAAAA", grace: 0 },
    });
    expect(parseKeysCommandLine(["revoke", "key_AAAAAAAAAAAAAAAA", "--remote", "--env=live"])).toEqual({
      ...local,
      remote: true,
      environment: "live",
      cmd: { command: "revoke", id: "key_AAAAAAAAAAAAAAAA" },
    });
    expect(parseKeysCommandLine(["audit", "--limit", "5", "--json"])).toEqual({
      ...local,
      json: true,
      cmd: { command: "audit", limit: 5 },
    });
    expect(
      parseKeysCommandLine([
        "enroll",
        "--agent",
        "7",
        "--mode",
        "live",
        "--scopes",
        "read",
        "--expires-in",
        "600",
        "--key-expires-in",
        "3600",
        "--name",
        "van 7",
        "--json",
      ]),
    ).toEqual({
      ...local,
      json: true,
      cmd: {
        command: "enroll",
        agentId: 7,
        mode: "live",
        scopes: ["read"],
        expiresIn: 600,
        keyExpiresIn: 3600,
        name: "van 7",
      },
    });
    expect(parseKeysCommandLine(["enroll", "--agent=7", "--mode=test"])).toEqual({
      ...local,
      cmd: {
        command: "enroll",
        agentId: 7,
        mode: "test",
        scopes: ["read", "write"],
        expiresIn: 86_400,
        keyExpiresIn: null,
        name: null,
      },
    });
    expect(parseKeysCommandLine(["help"])).toEqual({ help: true });
  });
});

/** `npm run SCRIPT -- ARGS`: exit status, standard output, and standard error without npm's own lines. */
async function npmRun(script: string, args: string[]) {
  const npmArgs =
    script === "start" ? ["--silent", "start", "--", ...args] : ["--silent", "run", script, "--", ...args];
  const res = await run("npm", npmArgs, { PERSIST_DIR: "/nonexistent/olk-cli-test" });
  const own = res.stderr.split("\n").filter((l) => l.trim() !== "" && !/^npm (warn|error|ERR!)/.test(l));
  return { code: res.code, stdout: res.stdout, stderr: own };
}

/**
 * SCRIPT's line of package.json run as `npm run` runs it (`sh -c`, the arguments appended, the
 * project's node_modules/.bin first on PATH, so its Node.js 22), without npm's own start (half a
 * second of CPU each).
 */
async function scriptRun(script: string, args: string[]) {
  const line = PACKAGE_SCRIPTS[script];
  if (!line) throw new Error(`package.json has no script ${script}`);
  const res = await run("sh", ["-c", `${line} "$@"`, "sh", ...args], {
    PERSIST_DIR: "/nonexistent/olk-cli-test",
    PATH: `${resolve("node_modules/.bin")}${delimiter}${process.env.PATH}`,
  });
  return { code: res.code, stdout: res.stdout, stderr: res.stderr.split("\n").filter((l) => l.trim() !== "") };
}

describe("every command: --help and an unknown option", () => {
  const scripts = [
    "keys",
    "db:migrate",
    "db:import",
    "bench",
    "demo:generate",
    "start",
    "dev",
    "deploy",
    "check",
    "lint:openapi",
    "graph",
  ];

  it("--help prints the usage and exits 0, touching nothing", async () => {
    // Through npm for the two ways of naming a script (`npm start`, `npm run X`); the rest run their
    // package.json line as npm does, without npm's own start (half a second of CPU each).
    const results = await Promise.all(
      scripts.map((s) => (s === "start" || s === "keys" ? npmRun(s, ["--help"]) : scriptRun(s, ["--help"]))),
    );
    for (const [i, res] of results.entries()) {
      expect({ script: scripts[i], code: res.code, stderr: res.stderr }).toEqual({
        script: scripts[i],
        code: 0,
        stderr: [],
      });
      expect(res.stdout).toContain(`Usage: npm ${scripts[i] === "start" ? "start" : `run ${scripts[i]}`}`);
    }
    // The serving commands' environment, one variable a line, each saying what its values do.
    for (const script of ["start", "dev"]) {
      const { stdout } = results[scripts.indexOf(script)]!;
      expect(stdout).toContain(
        `  Environment:
    PORT                   the port to listen on (default 8787)
    PERSIST_DIR            the folder of the local D1 and KV (default .wrangler/state)
    ADMIN_TOKEN            the dashboard's administrator token (default: one kept in PERSIST_DIR)
    RATE_LIMIT_PER_MINUTE  requests a minute per key (default 600; 0 turns limiting off)
    USAGE_FLUSH_SECONDS    seconds between writes of the keys' usage counts (default 60; 0 writes
                           after every request; off records no usage)
    SCHEDULED_JOBS         the cron jobs of wrangler.toml: on (default, each on its schedule), off,
                           or a number of seconds (each that often)
    INSPECT=1              opens the devtools inspector
  Ctrl-C or SIGTERM stops it and every process it started.`,
      );
    }
  }, 120_000);

  it("an unknown or misspelt option is one line naming it, exit 1, before anything runs", async () => {
    const results = await Promise.all(scripts.map((s) => scriptRun(s, [s === "keys" ? "--bogus" : "--remot"])));
    for (const [i, res] of results.entries()) {
      const script = scripts[i]!;
      const name = script === "keys" ? "--bogus" : "--remot";
      const invocation = script === "start" ? "npm start --" : `npm run ${script} --`;
      expect({ script, code: res.code, stderr: res.stderr }).toEqual({
        script,
        code: 1,
        stderr: [expect.stringMatching(new RegExp(`^Error: unknown option ${name}.*; see ${invocation} --help$`))],
      });
      // Nothing started: no banner, no migrations, no server.
      expect(res.stdout).not.toMatch(/Applying|Base URL|Loading/);
    }
  }, 120_000);

  it("a missing value names the option", async () => {
    const [keys, migrate] = await Promise.all([npmRun("keys", ["list", "--env"]), npmRun("db:migrate", ["--env"])]);
    expect(keys).toMatchObject({ code: 1, stderr: [expect.stringMatching(/^Error: --env needs a value/)] });
    expect(migrate).toMatchObject({ code: 1, stderr: [expect.stringMatching(/^Error: --env needs a value/)] });
  }, 120_000);
});

describe("npm run db:migrate -- --remote with --env", () => {
  // `--env=live` reads as `--env live` ("parseOptions" above): one process shows where it leads.
  it("--env live targets the live database (no test database, no account needed to see it)", async () => {
    const res = await npmRun("db:migrate", ["--remote", "--env", "live"]);
    // The target is named before wrangler asks for the account, which this machine has not got.
    expect(res.stdout.split("\n")[0]).toBe(
      "Applying the migrations to the account's D1 database order-lookup-live (--env live)...",
    );
    expect(res.stdout).not.toContain("order-lookup-test");
    expect(res.code).toBe(1);
    expect(res.stderr.at(-1)).toMatch(/^Error: applying the migrations failed/);
  }, 120_000);

  it("an environment that wrangler.toml has not got is refused by name", async () => {
    const res = await npmRun("db:migrate", ["--remote", "--env", "lve"]);
    expect(res).toMatchObject({
      code: 1,
      stderr: ["Error: --env lve: wrangler.toml has no such environment (it has: live)"],
    });
  }, 120_000);
});
