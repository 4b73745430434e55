// The keys command line (docs/commands.md) on a fresh migrated PERSIST_DIR, then a real `wrangler dev` on
// the same folder: the keys it made work, the ones it revoked or rolled stop working (polled), the
// header is parsed exactly on the wire, and no secret is anywhere in the state folder.
//
// The command's own code (scripts/keys/run.ts) runs in this process, on one local platform for the
// whole file: what is tested is what it prints and does, not the starting of a process. A few runs
// go through `npm run keys` itself, exactly as the contract writes it: `create --json`, `list --json`
// and `--remote`; e2e/cli.test.ts runs its `--help` and a misspelt option.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysCommand } from "../scripts/keys/run.ts";
import type { Platform } from "../scripts/lib/local.ts";
import { type CommandResult, run } from "../scripts/lib/processes.ts";
import { type DevServer, serveState } from "./helpers/server.ts";
import { migratedStateDir } from "./helpers/state.ts";

const persistDir = migratedStateDir("olk-keys-cli-");
const env = { PERSIST_DIR: persistDir, CI: "true" };
const KEY_ID = /^key_[0-9A-Za-z]{16}$/;
/** Every secret that a command printed: none may be found in the state folder. */
const printed: string[] = [];
/** The file's one local platform: the D1 and KV of persistDir, as `npm run keys` opens them. */
let platform: Platform;
/**
 * The server of the second half, on the same folder: started with the file, so that its start-up
 * overlaps the commands of the first half (nothing sends it a request before the second half).
 */
let serverStarting: Promise<DevServer>;

beforeAll(async () => {
  serverStarting = serveState(persistDir);
  serverStarting.catch(() => undefined); // reported where it is awaited
  // scripts/lib/local.ts reads PERSIST_DIR when it loads.
  process.env.PERSIST_DIR = persistDir;
  const { openPlatform } = await import("../scripts/lib/local.ts");
  platform = await openPlatform();
}, 60_000);

interface NewKey {
  id: string;
  secret: string;
  name: string;
  mode: "test" | "live";
  expires_at: string | null;
  scopes: ("read" | "write")[];
  agent_id: number | null;
  /** The KV copy could not be written (docs/specification.md section 2); never so on a local store. */
  copy_pending: boolean;
}

interface AuditEntry {
  at: string;
  action: "create" | "roll" | "revoke" | "rotation-requested" | "rotate" | "enroll-code" | "enroll" | "revoke-code";
  key_id: string | null;
  new_key_id: string | null;
  code_id: string | null;
  key_name: string;
  mode: "test" | "live";
  actor: string;
  session_id: string | null;
}

const BOTH = ["read", "write"];

/** `keys enroll --json`'s answer (CONTRACTS.md). */
interface Enrollment {
  id: string;
  code: string;
  agent_id: number;
  mode: "test" | "live";
  scopes: ("read" | "write")[];
  name: string;
  expires_at: string;
  status: string;
}

/** `npm run keys -- ARGS` in this process: the command's code, its lines and its exit status. */
async function keys(...args: string[]): Promise<Omit<CommandResult, "seconds">> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await keysCommand(args, {
    out: { log: (line) => stdout.push(line), error: (line) => stderr.push(line) },
    openPlatform: async (target) => {
      // The file's platform is the local top-level one: anything else is a process of its own.
      if (target.remote || target.environment !== undefined)
        throw new Error(`not in-process: ${JSON.stringify(target)}`);
      return { env: platform.env, dispose: async () => {} };
    },
  });
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

/** `npm run keys -- ARGS`, a process of its own, exactly as the contract writes it. */
async function keysProcess(...args: string[]): Promise<CommandResult> {
  return run("npm", ["run", "keys", "--", ...args], env);
}

/** The JSON on the last line of standard output. */
function lastLine(stdout: string): unknown {
  const lines = stdout.trimEnd().split("\n");
  return JSON.parse(lines[lines.length - 1]!);
}

async function keysJson<T>(...args: string[]): Promise<T> {
  return jsonAnswer<T>(args, await keys(...args));
}

function jsonAnswer<T>(args: string[], res: Omit<CommandResult, "seconds">): T {
  expect({ args, code: res.code, stderr: res.code === 0 ? "" : res.stderr }).toEqual({ args, code: 0, stderr: "" });
  const value = lastLine(res.stdout) as { secret?: unknown };
  if (typeof value?.secret === "string") printed.push(value.secret);
  return value as T;
}

/**
 * Lines that the command's local workerd writes about its own SQLite file when the dev server of the
 * same PERSIST_DIR holds a lock for a moment ("database is locked", and the stack after it). D1 tries
 * again, and the command's answer is the same; they are workerd's, not the command's own lines.
 */
const WORKERD_LOCK_NOISE = /SQLITE_BUSY|^stack: .*workerd|sentryErrorContext/;

/** A failing command: exit status 1 and one line of its own on standard error (npm's and workerd's lines aside). */
async function expectError(args: string[], message: RegExp, via = keys) {
  const res = await via(...args);
  const own = res.stderr
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^npm (warn|error|ERR!)/.test(l) && !WORKERD_LOCK_NOISE.test(l));
  expect({ args, code: res.code, own }).toEqual({ args, code: 1, own: [expect.stringMatching(message)] });
  expect(res.stdout).not.toMatch(/sk_(test|live)_/);
}

async function status(server: DevServer, authorization: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api/area`, { headers: { Authorization: authorization } });
  return { status: res.status, body: await res.json() };
}

/** Polls until the key gets a 401 (revocation reaches the server within 60 s locally); the seconds it took. */
async function until401(server: DevServer, secret: string): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < 60_000) {
    if ((await status(server, `Bearer ${secret}`)).status === 401) return (Date.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the key still worked 60 s later");
}

/** Sends raw bytes as the Authorization line, as no fetch client can (they trim the value). */
function rawStatus(
  server: DevServer,
  authorizationLine: string,
): Promise<{ status: number; description: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1", () => {
      socket.write(`GET /api/area HTTP/1.1\r\nHost: 127.0.0.1\r\n${authorizationLine}\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    const done = () => {
      const description = /"description":"([^"]*)"/.exec(data)?.[1];
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]), description });
    };
    socket.on("data", (d) => {
      data += d;
      // Whole answer in (headers and Content-Length bytes of body): do not wait for the server to close.
      const split = data.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(data)?.[1] ?? NaN);
      if (split >= 0 && Buffer.byteLength(data.slice(split + 4)) >= length) {
        socket.destroy();
        done();
      }
    });
    socket.on("error", reject);
    socket.on("end", done);
  });
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

let kept: NewKey; // created, never changed: works
let revoked: NewKey; // revoked before the server gets a request
let rolledOld: NewKey; // rolled with grace 0 before the server gets a request
let rolledNew: NewKey;
let live: NewKey;
let agentKey: NewKey; // read-only, bound to sales agent 42
let agentRolled: NewKey;
let latest: NewKey; // made by rolling rolledNew while the server runs
let server: DevServer | undefined;

afterAll(async () => {
  await (await serverStarting.catch(() => undefined))?.stop();
  await platform?.dispose();
  rmSync(persistDir, { recursive: true, force: true });
});

describe("npm run keys", () => {
  it("list on a state without keys names the state it read", async () => {
    expect(await keys("list")).toEqual({
      code: 0,
      stdout: `No keys in the local D1 database order-lookup-test in ${persistDir}.\n`,
      stderr: "",
    });
  });

  it("creates keys; with --json the last line is the key's object", async () => {
    const args = ["create", "--mode", "test", "--name", "warehouse app", "--json"];
    kept = jsonAnswer<NewKey>(args, await keysProcess(...args));
    expect(kept).toEqual({
      id: expect.stringMatching(KEY_ID),
      secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/),
      name: "warehouse app",
      mode: "test",
      expires_at: null,
      scopes: BOTH,
      agent_id: null,
      copy_pending: false,
    });

    const before = Date.now();
    revoked = await keysJson<NewKey>(
      "create",
      "--mode",
      "test",
      "--name",
      "to revoke",
      "--expires-in",
      "3600",
      "--json",
    );
    expect(Object.keys(revoked).sort()).toEqual([
      "agent_id",
      "copy_pending",
      "expires_at",
      "id",
      "mode",
      "name",
      "scopes",
      "secret",
    ]);
    const expiresIn = Date.parse(revoked.expires_at!) - before;
    expect(expiresIn).toBeGreaterThan(3_590_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000 + 120_000);

    live = await keysJson<NewKey>("create", "--mode", "live", "--name", "live one", "--json");
    expect(live.secret).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);

    // Without --json: a sentence, then the secret alone on its own line, once.
    const human = await keys("create", "--mode", "test", "--name", "to roll");
    expect(human.code).toBe(0);
    const secrets = human.stdout.match(/sk_test_[0-9A-Za-z]{43}/g) ?? [];
    expect(secrets).toHaveLength(1);
    const id = /Created test-mode key (key_[0-9A-Za-z]{16}) "to roll", never expires\./.exec(human.stdout)?.[1];
    expect(id).toMatch(KEY_ID);
    rolledOld = {
      id: id!,
      secret: secrets[0]!,
      name: "to roll",
      mode: "test",
      expires_at: null,
      scopes: ["read", "write"],
      agent_id: null,
      copy_pending: false,
    };
    printed.push(rolledOld.secret, live.secret);
  }, 240_000);

  it("makes a key with --scopes and --agent (an existing sales agent only), and rolling keeps both", async () => {
    await expectError(
      ["create", "--mode", "test", "--name", "van", "--agent", "42"],
      /^Error: agent_id must be an existing sales agent's id: there is no sales agent 42$/,
    );
    await platform.env.DB.prepare(
      "INSERT INTO sales_agents (id, first_name, last_name, mobile_number) VALUES (42, 'Asha', 'Rao', '9876543210')",
    ).run();
    agentKey = await keysJson<NewKey>(
      "create",
      "--mode",
      "test",
      "--name",
      "van",
      "--scopes",
      "read",
      "--agent",
      "42",
      "--expires-in",
      "86400",
      "--json",
    );
    expect(agentKey).toEqual({
      id: expect.stringMatching(KEY_ID),
      secret: expect.stringMatching(/^sk_test_/),
      name: "van",
      mode: "test",
      expires_at: expect.any(String),
      scopes: ["read"],
      agent_id: 42,
      copy_pending: false,
    });
    agentRolled = await keysJson<NewKey>("roll", agentKey.id, "--json");
    expect(agentRolled).toEqual({
      ...agentKey,
      id: expect.stringMatching(KEY_ID),
      secret: expect.stringMatching(/^sk_test_/),
    });
    expect(agentRolled.id).not.toBe(agentKey.id);
    // Order normalized, duplicates folded.
    const both = await keysJson<NewKey>(
      "create",
      "--mode",
      "test",
      "--name",
      "both",
      "--scopes",
      "write,read,write",
      "--json",
    );
    expect(both.scopes).toEqual(BOTH);
    expect((await keys("revoke", both.id)).code).toBe(0);
  }, 240_000);

  it("lists keys, never a secret or a hash", async () => {
    const res = await keysProcess("list", "--json");
    expect(res.code).toBe(0);
    const list = lastLine(res.stdout) as Record<string, unknown>[];
    expect(list.map((k) => [k.id, k.name, k.mode, k.status, k.scopes, k.agent_id])).toEqual([
      [kept.id, "warehouse app", "test", "active", BOTH, null],
      [revoked.id, "to revoke", "test", "active", BOTH, null],
      [live.id, "live one", "live", "active", BOTH, null],
      [rolledOld.id, "to roll", "test", "active", BOTH, null],
      [agentKey.id, "van", "test", "grace", ["read"], 42],
      [agentRolled.id, "van", "test", "active", ["read"], 42],
      [expect.stringMatching(KEY_ID), "both", "test", "revoked", BOTH, null],
    ]);
    for (const k of list) {
      expect(Object.keys(k).sort()).toEqual([
        "agent_id",
        "copy_pending",
        "created_at",
        "expires_at",
        "id",
        "last_used_at",
        "mode",
        "name",
        "prefix",
        "replaced_by",
        "replaces",
        "requests_24h",
        "requests_7d",
        "revoked_at",
        "rotation",
        "scopes",
        "status",
      ]);
      expect(k.copy_pending).toBe(false);
      // Nothing has used a key yet, nor asked for a rotation.
      expect([k.last_used_at, k.requests_24h, k.requests_7d, k.rotation]).toEqual([null, 0, 0, null]);
    }
    const table = await keys("list");
    for (const text of [res.stdout, table.stdout]) {
      for (const secret of printed) expect(text).not.toContain(secret.slice(12));
      expect(text).not.toMatch(/[0-9a-f]{64}/);
    }
    expect(table.stdout).toContain(`${kept.id}  warehouse app`);
    expect(table.stdout.split("\n").find((l) => l.startsWith("ID "))).toMatch(
      /^ID +NAME +MODE +PREFIX +STATUS +SCOPES +AGENT +CREATED +EXPIRES +REVOKED +LAST USED +24H +7D +ROTATION$/,
    );
  }, 240_000);

  it("rolls with --grace 0 and revokes", async () => {
    rolledNew = await keysJson<NewKey>("roll", rolledOld.id, "--grace", "0", "--json");
    expect(rolledNew).toEqual({
      id: expect.stringMatching(KEY_ID),
      secret: expect.stringMatching(/^sk_test_/),
      name: "to roll",
      mode: "test",
      expires_at: null,
      scopes: BOTH,
      agent_id: null,
      copy_pending: false,
    });
    expect(rolledNew.id).not.toBe(rolledOld.id);

    const res = await keys("revoke", revoked.id);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(`Revoked ${revoked.id} "to revoke" at \\S+Z\\. Running servers refuse it within 10 s\\.`),
    );
    const revokedAt = /at (\S+Z)\./.exec(res.stdout)![1];
    // Again: the revocation keeps its time and no audit entry is written (checked below); the copy is written again.
    const again = await keys("revoke", revoked.id);
    expect({ code: again.code, stdout: again.stdout.trim().split("\n").at(-1) }).toEqual({
      code: 0,
      stdout: `Key ${revoked.id} "to revoke" was already revoked at ${revokedAt}; its copy for authentication was written again.`,
    });
    const json = await keysJson<Record<string, unknown>>("revoke", revoked.id, "--json");
    expect(json).toMatchObject({ id: revoked.id, status: "revoked", revoked_at: revokedAt, copy_pending: false });

    const list = lastLine((await keys("list", "--json")).stdout) as Record<string, unknown>[];
    const byId = new Map(list.map((k) => [k.id, k]));
    expect(byId.get(kept.id)?.status).toBe("active");
    expect(byId.get(revoked.id)).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
    expect(byId.get(rolledOld.id)).toMatchObject({ status: "expired", replaced_by: rolledNew.id });
    expect(byId.get(rolledNew.id)).toMatchObject({ status: "active", replaces: rolledOld.id });
  }, 240_000);

  it("prints the audit log, newest first, every change by the cli", async () => {
    const entries = await keysJson<AuditEntry[]>("audit", "--json");
    const entry = (
      action: AuditEntry["action"],
      key: NewKey,
      name: string,
      mode: "test" | "live",
      newKey: NewKey | null = null,
    ) => ({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      action,
      key_id: key.id,
      new_key_id: newKey?.id ?? null,
      code_id: null,
      key_name: name,
      mode,
      actor: "cli",
      session_id: null,
    });
    const both = entries.find((e) => e.key_name === "both" && e.action === "create")!;
    expect(entries).toEqual([
      entry("revoke", revoked, "to revoke", "test"),
      entry("roll", rolledOld, "to roll", "test", rolledNew),
      { ...entry("revoke", kept, "both", "test"), key_id: both.key_id },
      { ...entry("create", kept, "both", "test"), key_id: both.key_id },
      entry("roll", agentKey, "van", "test", agentRolled),
      entry("create", agentKey, "van", "test"),
      entry("create", rolledOld, "to roll", "test"),
      entry("create", live, "live one", "live"),
      entry("create", revoked, "to revoke", "test"),
      entry("create", kept, "warehouse app", "test"),
    ]);
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort().reverse());
    expect(await keysJson<AuditEntry[]>("audit", "--limit", "2", "--json")).toEqual(entries.slice(0, 2));
    const table = await keys("audit");
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines.at(-11)).toMatch(/^AT +ACTION +KEY +NEW KEY +CODE +NAME +MODE +ACTOR +SESSION$/);
    expect(lines.at(-10)).toMatch(new RegExp(`^\\S+Z +revoke +${revoked.id} +- +- +to revoke +test +cli +-$`));
    for (const secret of printed) expect(table.stdout + JSON.stringify(entries)).not.toContain(secret.slice(12));
  }, 240_000);

  it("fails with exit status 1 and one line for each mistake", async () => {
    const cases: [string[], RegExp][] = [
      [["revoke", "key_AAAAAAAAAAAAAAAA"], /^Error: no key with id "key_AAAAAAAAAAAAAAAA"/],
      [["roll", "nope"], /^Error: no key with id "nope": ids are key_/],
      [["roll", rolledOld.id, "--grace", "0"], /^Error: Key key_\w+ is expired: only an active key can be rolled$/],
      [["create", "--mode", "prod", "--name", "x"], /^Error: --mode must be test or live, not 'prod'$/],
      [["create", "--name", "x"], /^Error: --mode is required: test or live$/],
      [["create", "--mode", "test"], /^Error: --name is required: 1 to 100 characters$/],
      [["create", "--mode", "test", "--name", "   "], /^Error: --name must not be empty$/],
      [["create", "--mode", "test", "--name", "x".repeat(101)], /^Error: --name must be at most 100 characters$/],
      [
        ["create", "--mode", "test", "--name", "x", "--expires-in", "soon"],
        /^Error: --expires-in must be a whole number of seconds from 1 to 315360000, not 'soon'$/,
      ],
      [["create", "--mode", "test", "--name", "x", "--expires-in", "0"], /^Error: --expires-in must be a whole number/],
      [
        ["roll", kept.id, "--grace", "1.5"],
        /^Error: --grace must be a whole number of seconds from 0 to 315360000, not '1.5'$/,
      ],
      [["roll", kept.id, "--grace", "-1"], /^Error: --grace needs a value/],
      [["frobnicate"], /^Error: unknown command 'frobnicate'/],
      [
        ["create", "--mode", "test", "--name", "x", "--scopes", "admin"],
        /^Error: --scopes has 'admin' that is not a scope: use read, write$/,
      ],
      [
        ["create", "--mode", "test", "--name", "x", "--scopes", ","],
        /^Error: --scopes must name at least one scope: read, write$/,
      ],
      [
        ["create", "--mode", "test", "--name", "x", "--agent", "x1"],
        /^Error: --agent must be a sales agent's id \(a whole number from 1\), not 'x1'$/,
      ],
      [["audit", "--limit", "0"], /^Error: --limit must be a whole number from 1 to 10000, not '0'$/],
      [["enroll", "--mode", "test"], /^Error: --agent is required: the sales agent's id$/],
      [["enroll", "--agent", "42"], /^Error: --mode is required: test or live$/],
      [
        ["enroll", "--agent", "42", "--mode", "test", "--expires-in", "299"],
        /^Error: --expires-in must be a whole number of seconds from 300 to 604800, not '299'$/,
      ],
      [
        ["enroll", "--agent", "42", "--mode", "test", "--key-expires-in", "63072001"],
        /^Error: --key-expires-in must be a whole number of seconds from 3600 to 63072000, not '63072001'$/,
      ],
      [
        ["enroll", "--agent", "7", "--mode", "test"],
        /^Error: agent_id must be an existing sales agent's id: there is no sales agent 7$/,
      ],
      [["audit", "--grace", "1"], /^Error: --grace is not an option of audit/],
      [[], /^Error: a command is required/],
    ];
    // --remote reaches for the account (here: no login, no network), never the local store. A
    // process of its own, which runs while the others are checked.
    const remote = expectError(["list", "--remote"], /^Error: .*remote/i, keysProcess);
    for (const [args, message] of cases) await expectError(args, message);
    await remote;
    // Nothing was made or changed by them.
    const list = lastLine((await keys("list", "--json")).stdout) as { id: string }[];
    expect(list).toHaveLength(8);
  }, 240_000);
});

describe("the keys on a running server (wrangler dev on the same PERSIST_DIR)", () => {
  beforeAll(async () => {
    server = await serverStarting;
  }, 240_000);

  it("accepts the created and the new rolled key; refuses the revoked and the rolled-away key", async () => {
    expect(await status(server!, `Bearer ${kept.secret}`)).toEqual({ status: 200, body: { data: [] } });
    expect(await status(server!, `Bearer ${rolledNew.secret}`)).toEqual({ status: 200, body: { data: [] } });
    expect(await status(server!, `bearer ${kept.secret}`)).toMatchObject({ status: 200 });
    const refused = await status(server!, `Bearer ${revoked.secret}`);
    expect(refused).toEqual({
      status: 401,
      body: {
        error: {
          code: "AUTHENTICATION_ERROR",
          description: "Invalid API key: the key has been revoked",
          source: `${server!.url}/api/area`,
          status_code: 401,
        },
      },
    });
    expect((await status(server!, `Bearer ${rolledOld.secret}`)).body.error.description).toBe(
      "Invalid API key: the key was rolled and its grace period has ended; use its replacement",
    );
    // The isolate's first flush of usage is at once (later ones at most once a minute).
    const start = Date.now();
    let used: Record<string, unknown> | undefined;
    while (Date.now() - start < 30_000) {
      const list = lastLine((await keys("list", "--json")).stdout) as Record<string, unknown>[];
      used = list.find((k) => k.id === kept.id);
      if (used?.last_used_at) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(used).toMatchObject({
      last_used_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/),
      requests_24h: expect.any(Number),
    });
    expect(used!.requests_24h).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it("refuses a key revoked, or rolled with grace 0, while it runs: within 60 s (polled)", async () => {
    expect((await status(server!, `Bearer ${kept.secret}`)).status).toBe(200); // now in the isolate's cache
    expect((await keys("revoke", kept.id)).code).toBe(0);
    const revokedAfter = await until401(server!, kept.secret);
    expect((await status(server!, `Bearer ${kept.secret}`)).body.error.description).toBe(
      "Invalid API key: the key has been revoked",
    );

    expect((await status(server!, `Bearer ${rolledNew.secret}`)).status).toBe(200);
    latest = await keysJson<NewKey>("roll", rolledNew.id, "--grace", "0", "--json");
    const rolledAfter = await until401(server!, rolledNew.secret);
    expect((await status(server!, `Bearer ${latest.secret}`)).status).toBe(200);
    // A live key on this test-mode server: refused for its mode.
    expect((await status(server!, `Bearer ${live.secret}`)).body.error.description).toBe(
      "Wrong mode: this is a live-mode key; this deployment accepts test-mode keys only",
    );
    console.log(
      `revocation reached the server after ${revokedAfter.toFixed(1)} s; the roll after ${rolledAfter.toFixed(1)} s`,
    );
  }, 240_000);

  it("parses the header exactly as it arrives on the wire", async () => {
    const secret = rolledOld.secret; // any well-formed key: the parsing fails before the look-up
    const malformed =
      "Malformed API key: the header must be 'Bearer', one space and the key (sk_test_ or sk_live_ and its characters), with no other whitespace";
    expect(await rawStatus(server!, `Authorization: Bearer  ${secret}`)).toEqual({
      status: 401,
      description: malformed,
    });
    expect(await rawStatus(server!, `Authorization: Bearer ${secret} x`)).toEqual({
      status: 401,
      description: malformed,
    });
    expect(await rawStatus(server!, `Authorization: Bearer\t${secret}`)).toMatchObject({ status: 401 });
    // Whitespace before and after a field value is not part of the value in HTTP (RFC 9110 5.5): the
    // server's parser drops it (wrangler 4.155's does so at both ends), and the value that reaches
    // the worker is exact. Whitespace inside the value stays, and is refused above.
    expect((await rawStatus(server!, `Authorization:   Bearer ${latest.secret}`)).status).toBe(200);
    expect((await rawStatus(server!, `Authorization: Bearer ${latest.secret} `)).status).toBe(200);
    expect((await rawStatus(server!, `Authorization: Bearer ${latest.secret}\t`)).status).toBe(200);
    expect((await rawStatus(server!, `Authorization: Bearer ${latest.secret}`)).status).toBe(200);
  }, 240_000);

  it("rotate marks keys due by ID, --mode or --agent; the server says so; an app's rotate shows in list --json", async () => {
    await expectError(["rotate"], /^Error: rotate needs key ids, --mode or --agent/);
    await expectError(["rotate", "nope"], /^Error: 'nope' is not a key id/);
    await expectError(["rotate", "--mode", "prod"], /^Error: --mode must be test or live, not 'prod'/);
    await expectError(["rotate", "key_0000000000000000"], /^Error: ids names no key: key_0000000000000000/);
    const phone = await keysJson<NewKey>("create", "--mode", "test", "--name", "rotating phone", "--json");
    expect(await keysJson("rotate", phone.id, "--json")).toEqual({ requested: 1 });
    // The active keys that no rotation has touched yet, by the listing: what --agent and --mode mark.
    const markable = async (match: (k: Record<string, any>) => boolean) =>
      (lastLine((await keys("list", "--json")).stdout) as Record<string, any>[]).filter(
        (k) => k.status === "active" && k.rotation === null && match(k),
      ).length;
    const ofAgent = await markable((k) => k.agent_id === 42);
    expect(await keysJson("rotate", "--agent", "42", "--json")).toEqual({ requested: ofAgent });
    const live = await markable((k) => k.mode === "live");
    expect(live).toBeGreaterThan(0);
    expect(await keysJson("rotate", "--mode", "live", "--json")).toEqual({ requested: live });
    // Keys already due are not marked again, and the line says how many there are.
    expect((await keys("rotate", phone.id)).stdout).toBe(
      "Marked 0 active keys rotation due; 1 key was already due, marked before. Their apps rotate them at their next request (npm run keys -- list shows each key's rotation).\n",
    );
    // An agent's keys marked a moment ago (the contract's `--agent 7` case): none marked, and how many were due.
    const dueOf42 = (lastLine((await keys("list", "--json")).stdout) as Record<string, any>[]).filter(
      (k) => k.agent_id === 42 && k.status === "active" && k.rotation?.state === "due",
    ).length;
    expect(dueOf42).toBeGreaterThan(0);
    expect((await keys("rotate", "--agent", "42")).stdout).toBe(
      `Marked 0 active keys rotation due; ${dueOf42 === 1 ? "1 key was" : `${dueOf42} keys were`} already due, marked before. Their apps rotate them at their next request (npm run keys -- list shows each key's rotation).\n`,
    );
    expect((await keys("rotate", "--agent", "4242")).stdout).toBe(
      "Marked 0 active keys rotation due: no active key matches that was not marked before.\n",
    );
    const listing = await keys("list", "--json");
    const before = lastLine(listing.stdout) as Record<string, any>[];
    // Its copy waits for the 5-minute job, but the due set carries the mark: not pending, no warning.
    expect(before.find((k) => k.id === phone.id)!.copy_pending).toBe(false);
    expect(listing.stderr).not.toContain(phone.id);
    expect(before.find((k) => k.id === phone.id)!.rotation).toEqual({
      state: "due",
      requested_at: expect.stringMatching(/Z$/),
      rotated_at: null,
      successor_id: null,
      old_key_uses_after_successor: 0,
    });

    // The server (its key cache is 1 s) answers the due key with the header; the app rotates it.
    const start = Date.now();
    let due: string | null = null;
    while (due === null && Date.now() - start < 30_000) {
      const res = await fetch(`${server!.url}/api/area`, { headers: { Authorization: `Bearer ${phone.secret}` } });
      due = res.headers.get("Key-Rotation");
      if (due === null) await new Promise((r) => setTimeout(r, 250));
    }
    expect(due).toBe("due");
    const rotated = await fetch(`${server!.url}/api/keys/rotate`, {
      method: "POST",
      headers: { Authorization: `Bearer ${phone.secret}` },
    });
    const { data } = (await rotated.json()) as { data: { id: string; secret: string; replaces: string } };
    printed.push(data.secret);
    expect({ status: rotated.status, replaces: data.replaces }).toEqual({ status: 201, replaces: phone.id });
    const after = lastLine((await keys("list", "--json")).stdout) as Record<string, any>[];
    expect(after.find((k) => k.id === phone.id)).toMatchObject({
      status: "grace",
      rotation: { state: "rotated", successor_id: data.id, old_key_uses_after_successor: 0 },
    });
    expect(after.find((k) => k.id === data.id)).toMatchObject({ status: "active", rotation: null, replaces: phone.id });
  }, 120_000);

  it("keys enroll: the code, printed once, is exchanged on the server for an agent's key; the audit names it", async () => {
    const args = ["enroll", "--agent", "42", "--mode", "test", "--scopes", "read", "--expires-in", "600"];
    const made = await keysJson<Enrollment>(...args, "--key-expires-in", "3600", "--json");
    expect(made).toEqual({
      id: expect.stringMatching(/^enr_[0-9A-Za-z]{16}$/),
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/),
      agent_id: 42,
      mode: "test",
      scopes: ["read"],
      name: "Asha Rao",
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status: "pending",
    });
    // Without --json: a sentence, then the code alone on its own line, once.
    const human = await keys("enroll", "--agent", "42", "--mode", "test", "--name", "spare phone");
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^Made enrollment code enr_\w{16} for sales agent 42: a test-mode key "spare phone" \(read,write\), exchangeable once until \S+Z\.$/,
    );
    expect(lines.at(-1)).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(human.stdout.match(/[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-/g)).toHaveLength(1);
    for (const code of [made.code, lines.at(-1)!]) printed.push(code, code.replaceAll("-", ""));

    const res = await fetch(`${server!.url}/enroll`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: made.code.toLowerCase(), device_name: "Pixel" }),
    });
    const { data } = (await res.json()) as { data: NewKey & { id: string } };
    expect({ status: res.status, name: data.name, agent: data.agent_id, scopes: data.scopes }).toEqual({
      status: 201,
      name: "Asha Rao (Pixel)",
      agent: 42,
      scopes: ["read"],
    });
    printed.push(data.secret);
    expect((await status(server!, `Bearer ${data.secret}`)).status).toBe(200);

    const audit = await keysJson<AuditEntry[]>("audit", "--limit", "3", "--json");
    expect(audit.map((e) => [e.action, e.key_id, e.code_id, e.actor])).toEqual([
      ["enroll", data.id, made.id, "enrollment"],
      ["enroll-code", null, expect.stringMatching(/^enr_/), "cli"],
      ["enroll-code", null, made.id, "cli"],
    ]);
  }, 240_000);

  it("leaves no secret anywhere in the state folder", async () => {
    await server!.stop();
    server = undefined;
    const files = filesUnder(persistDir);
    expect(files.length).toBeGreaterThan(0);
    expect(printed.length).toBeGreaterThanOrEqual(6);
    const found: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const secret of printed) {
        if (bytes.includes(secret) || bytes.includes(secret.slice(8))) found.push(`${file}: ${secret.slice(0, 12)}…`);
      }
    }
    expect(found).toEqual([]);
    // The search can find what is there: the hashes are (in the KV files).
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(kept.secret).digest("hex");
    expect(files.some((f) => readFileSync(f).includes(hash))).toBe(true);
  }, 60_000);
});
