// `npm run deploy` and `npm run check` (docs/commands.md): their arguments, the pieces that read and
// write wrangler.toml and wrangler's output, and the whole deploy in its order against a stand-in
// for wrangler (a fake `npx` first on PATH that records each command): no account is reachable here.
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEPLOY_OPTIONS, deployArgs } from "../scripts/deploy/args.ts";
import { isPlaceholderId, readResources } from "../scripts/deploy/resources.ts";
import { parseCreatedId, parseListing, recordId } from "../scripts/deploy/setup.ts";
import { deployedUrl, healthProblem, healthUrl, parseDeployOutput } from "../scripts/deploy/smoke.ts";
import { parseOptions } from "../scripts/lib/cli.ts";
import { run } from "../scripts/lib/processes.ts";

const ROOT = resolve(import.meta.dirname, "..");
const TOML = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
const D1_ID = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
const KV_ID = "0123456789abcdef0123456789abcdef";
const KV_ID_2 = "fedcba9876543210fedcba9876543210";
const temps: string[] = [];

/** A command in folder `cwd`, with its exit status and output. */
function runIn(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("deploy arguments", () => {
  const parse = (argv: string[]) => deployArgs(parseOptions(argv, DEPLOY_OPTIONS).values);

  it("takes --env live in both spellings, and defaults to test mode", () => {
    expect(parse(["--env", "live"]).mode).toBe("live");
    expect(parse(["--env=live", "--dry-run"])).toEqual({ mode: "live", setup: false, dryRun: true, url: undefined });
    expect(parse([]).mode).toBe("test");
  });

  it("names an unknown flag, a missing value, a wrong environment", () => {
    expect(() => parse(["--dryrun"])).toThrow("unknown option --dryrun (did you mean --dry-run?)");
    expect(() => parse(["--env"])).toThrow("--env needs a value");
    expect(() => parse(["--env", "--dry-run"])).toThrow("--env needs a value");
    expect(() => parse(["--env", "prod"])).toThrow("--env must be live");
    expect(() => parse(["--url", "example.com"])).toThrow("--url must be an http(s) address");
  });

  it("as commands: --help exits 0, a misspelt flag exits 1 naming it", async () => {
    for (const [script, misspelt] of [
      ["deploy", "--dry-rn"],
      ["check", "--fast"],
    ]) {
      const help = await run("npm", ["run", "-s", script!, "--", "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: npm run ${script}`);
      const wrong = await run("npm", ["run", "-s", script!, "--", misspelt!]);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(`Error: unknown option ${misspelt}`);
    }
  });
});

describe("wrangler.toml ids", () => {
  it("ships placeholder ids for every resource of both modes", () => {
    for (const mode of ["test", "live"] as const) {
      const { resources } = readResources(mode, join(ROOT, "wrangler.toml"));
      expect(resources.map((r) => [r.kind, r.binding])).toEqual([
        ["d1", "DB"],
        ["kv", "KEYS"],
        ["kv", "LOOKUP_CACHE"],
      ]);
      for (const r of resources) expect(isPlaceholderId(r.id), `${mode} ${r.binding}`).toBe(true);
    }
    expect(isPlaceholderId(KV_ID)).toBe(false);
    expect(isPlaceholderId(D1_ID)).toBe(false);
  });

  it("writes an id into the one entry named, keeping every other line", () => {
    const written = recordId(TOML, { env: "live", kind: "d1", binding: "DB" }, D1_ID);
    const changed = written.split("\n").filter((line, i) => line !== TOML.split("\n")[i]);
    expect(changed).toEqual([`database_id = "${D1_ID}"`]);
    // The test mode's database keeps its placeholder, although the two lines were the same.
    expect(written.indexOf(`database_id = "${D1_ID}"`)).toBeGreaterThan(written.indexOf("[env.live]"));
    const kv = recordId(written, { env: undefined, kind: "kv", binding: "LOOKUP_CACHE" }, KV_ID);
    expect(kv.split("\n").filter((line, i) => line !== written.split("\n")[i])).toEqual([`id = "${KV_ID}"`]);
    expect(() => recordId(TOML, { env: "live", kind: "kv", binding: "NOPE" }, KV_ID)).toThrow(
      'no [[env.live.kv_namespaces]] entry with binding = "NOPE"',
    );
    expect(() => recordId(TOML, { env: undefined, kind: "kv", binding: "KEYS" }, 'x"; evil = "')).toThrow(
      "not a resource id",
    );
  });
});

describe("wrangler's answers", () => {
  it("reads the id that `d1 create` and `kv namespace create` print, in TOML or JSON snippets", () => {
    expect(
      parseCreatedId(
        "d1",
        `✅ Successfully created DB 'order-lookup-live' in region APAC\n[[d1_databases]]\nbinding = "order_lookup_live"\ndatabase_name = "order-lookup-live"\ndatabase_id = "${D1_ID}"\n`,
      ),
    ).toBe(D1_ID);
    expect(
      parseCreatedId(
        "d1",
        `{\n  "d1_databases": [{ "binding": "DB", "database_name": "x", "database_id": "${D1_ID}" }]\n}`,
      ),
    ).toBe(D1_ID);
    expect(
      parseCreatedId("kv", `✨ Success!\n[[kv_namespaces]]\nbinding = "order_lookup_keys"\nid = "${KV_ID}"\n`),
    ).toBe(KV_ID);
    expect(parseCreatedId("kv", `{ "kv_namespaces": [{ "binding": "KEYS", "id": "${KV_ID}" }] }`)).toBe(KV_ID);
    expect(() => parseCreatedId("kv", "✘ [ERROR] A request to the Cloudflare API failed.")).toThrow(
      "printed no namespace id",
    );
  });

  it("reads the listings that let setup adopt a resource made by an earlier run", () => {
    expect(parseListing("d1", `[{"uuid":"${D1_ID}","name":"order-lookup-live","version":"production"}]`)).toEqual(
      new Map([["order-lookup-live", D1_ID]]),
    );
    expect(parseListing("kv", `banner\n[\n  {"id": "${KV_ID}", "title": "order-lookup-live-keys"}\n]\n`)).toEqual(
      new Map([["order-lookup-live-keys", KV_ID]]),
    );
  });

  it("takes the deployed address and version from wrangler's output file", () => {
    const record = parseDeployOutput(
      '{"type":"wrangler-session","version":1}\n' +
        '{"type":"deploy","version":1,"worker_name":"order-lookup-live","version_id":"v1","targets":["example.com/api/*","https://order-lookup-live.acme.workers.dev"]}\n',
    );
    expect(record).toEqual({
      versionId: "v1",
      targets: ["example.com/api/*", "https://order-lookup-live.acme.workers.dev"],
    });
    expect(deployedUrl(record)).toBe("https://order-lookup-live.acme.workers.dev");
    expect(deployedUrl(parseDeployOutput('{"type":"deploy","targets":["example.com/*"]}'))).toBeUndefined();
  });

  it("judges a health answer by its status, mode and version", () => {
    expect(healthUrl("https://a.workers.dev/")).toBe("https://a.workers.dev/healthz");
    const ok = { status: "ok", version: "v1", mode: "live" };
    expect(healthProblem(200, ok, { mode: "live", versionId: "v1" })).toBeNull();
    expect(healthProblem(200, ok, { mode: "test" })).toBe('mode "live", expected "test"');
    expect(healthProblem(200, { ...ok, version: "v0" }, { mode: "live", versionId: "v1" })).toBe(
      "version v0, still not v1",
    );
    expect(healthProblem(503, null, { mode: "live" })).toBe("status 503");
  });
});

describe("npm run deploy -- --setup --env live, then npm run deploy -- --env live, against a stand-in wrangler", () => {
  let server: Server | undefined;
  afterAll(() => server?.close());

  it("setup creates or adopts the resources and records their ids; deploy migrates, deploys docs, the API, and checks /healthz", async () => {
    const dir = mkdtempSync(join(tmpdir(), "olk-deploy-"));
    temps.push(dir);
    copyFileSync(join(ROOT, "wrangler.toml"), join(dir, "wrangler.toml"));
    copyFileSync(join(ROOT, "wrangler.docs.toml"), join(dir, "wrangler.docs.toml"));
    const log = join(dir, "commands.log");
    // The stand-in answers as wrangler 4 does: listings as JSON, created resources as config
    // snippets, the deploy's record in WRANGLER_OUTPUT_FILE_PATH. The live KEYS namespace exists already.
    writeFileSync(
      join(dir, "npx"),
      `#!/bin/sh
echo "$*" >> "${log}"
case "$*" in
  "wrangler d1 list --json") echo '[{"uuid":"ffffffff-0000-0000-0000-000000000000","name":"someone-else"}]' ;;
  "wrangler d1 create order-lookup-live --location apac") printf '[[d1_databases]]\\nbinding = "order_lookup_live"\\ndatabase_name = "order-lookup-live"\\ndatabase_id = "${D1_ID}"\\n' ;;
  "wrangler kv namespace list") echo '[{"id":"${KV_ID}","title":"order-lookup-live-keys"}]' ;;
  "wrangler kv namespace create order-lookup-live-lookup-cache") printf '[[kv_namespaces]]\\nbinding = "x"\\nid = "${KV_ID_2}"\\n' ;;
  "wrangler deploy -c wrangler.toml --env live") echo '{"type":"deploy","version_id":"v-new","targets":["https://order-lookup-live.acme.workers.dev"]}' > "$WRANGLER_OUTPUT_FILE_PATH" ;;
esac
`,
    );
    chmodSync(join(dir, "npx"), 0o755);

    // The deployment: the old version answers first, then the new one.
    let calls = 0;
    server = createServer((req, res) => {
      calls++;
      const version = calls < 2 ? "v-old" : "v-new";
      res.writeHead(req.url === "/healthz" ? 200 : 404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ status: "ok", version, mode: "live" }));
    });
    await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
    const { port } = server.address() as { port: number };

    const tsx = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    // In the temporary folder: the wrangler.toml that setup writes to is the copy.
    const deploy = (...args: string[]) =>
      runIn(dir, process.execPath, [tsx, join(ROOT, "scripts", "deploy.ts"), ...args], {
        PATH: `${dir}:${process.env.PATH}`,
      });
    const commands = () =>
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((c) => c.replace(/--outdir \S+/, "--outdir DIR"));

    const refused = await deploy("--env", "live");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("still has placeholder ids");
    expect(refused.stderr).toContain("npm run deploy -- --setup --env live");

    const setup = await deploy("--setup", "--env=live");
    expect({ code: setup.code, stderr: setup.stderr }).toEqual({ code: 0, stderr: "" });
    expect(setup.stdout).toContain(
      "Next: npx wrangler secret put ADMIN_TOKEN --env live, then npm run deploy -- --env live.",
    );
    expect(commands()).toEqual([
      "wrangler d1 list --json",
      "wrangler d1 create order-lookup-live --location apac",
      "wrangler kv namespace list",
      "wrangler kv namespace create order-lookup-live-lookup-cache",
    ]);
    writeFileSync(log, "");

    const result = await deploy("--env", "live", "--url", `http://127.0.0.1:${port}`);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(result.stdout).toContain("Deployed live mode.");
    expect(calls).toBe(2);
    expect(commands()).toEqual([
      "wrangler deploy --dry-run -c wrangler.docs.toml --outdir DIR",
      "wrangler deploy --dry-run -c wrangler.toml --env live --outdir DIR",
      "wrangler d1 migrations apply DB --remote --env live",
      "wrangler deploy -c wrangler.docs.toml",
      "wrangler deploy -c wrangler.toml --env live",
    ]);
    const live = readResources("live", join(dir, "wrangler.toml")).resources.map((r) => [r.binding, r.id]);
    expect(live).toEqual([
      ["DB", D1_ID],
      ["KEYS", KV_ID],
      ["LOOKUP_CACHE", KV_ID_2],
    ]);
    // Test mode is untouched.
    for (const r of readResources("test", join(dir, "wrangler.toml")).resources)
      expect(isPlaceholderId(r.id)).toBe(true);
  });
});
