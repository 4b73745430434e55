// Local migrations (scripts/lib/migrate.ts) on a fresh state folder, in-process: every file in
// order, each whole or not at all, recorded where wrangler's own migration commands look.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform } from "../scripts/lib/local.ts";
import { tempStateDir } from "../scripts/lib/processes.ts";
import { wrangler } from "./helpers/wrangler.ts";

const dir = tempStateDir("olk-migrate-");
let platform: Platform;
let applyPendingMigrations: typeof import("../scripts/lib/migrate.ts").applyPendingMigrations;

beforeAll(async () => {
  // scripts/lib/local.ts reads PERSIST_DIR when it loads.
  process.env.PERSIST_DIR = dir;
  const { openPlatform } = await import("../scripts/lib/local.ts");
  ({ applyPendingMigrations } = await import("../scripts/lib/migrate.ts"));
  platform = await openPlatform();
}, 60_000);
afterAll(async () => {
  await platform?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const names = async (sql: string) =>
  (await platform.env.DB.prepare(sql).all<{ name: string }>()).results.map((r) => r.name);
const tables = () => names("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'probe_%' ORDER BY name");
const recorded = () => names("SELECT name FROM d1_migrations ORDER BY id");

describe("local migrations", () => {
  it("apply a folder's files in order, each whole or not at all, and stop at the first that fails", async () => {
    const folder = join(dir, "probe-migrations");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "0001_first.sql"),
      "CREATE TABLE probe_a (id INTEGER);\nINSERT INTO probe_a VALUES (1);\n",
    );
    // Its first statement succeeds and its second fails: the batch takes the first back.
    writeFileSync(
      join(folder, "0002_broken.sql"),
      "CREATE TABLE probe_b (id INTEGER);\nINSERT INTO probe_missing VALUES (1);\n",
    );
    writeFileSync(join(folder, "0003_after.sql"), "CREATE TABLE probe_c (id INTEGER);\n");

    await expect(applyPendingMigrations(platform.env.DB, folder)).rejects.toThrow(/no such table: probe_missing/);
    expect({ tables: await tables(), recorded: await recorded() }).toEqual({
      tables: ["probe_a"],
      recorded: ["0001_first.sql"],
    });

    // Mended, the folder applies from where it stopped; applied again, it applies nothing.
    writeFileSync(join(folder, "0002_broken.sql"), "CREATE TABLE probe_b (id INTEGER);\n");
    expect(await applyPendingMigrations(platform.env.DB, folder)).toEqual(["0002_broken.sql", "0003_after.sql"]);
    expect(await applyPendingMigrations(platform.env.DB, folder)).toEqual([]);
    expect({ tables: await tables(), recorded: await recorded() }).toEqual({
      tables: ["probe_a", "probe_b", "probe_c"],
      recorded: ["0001_first.sql", "0002_broken.sql", "0003_after.sql"],
    });
  });

  it("apply the project's migrations so that wrangler's own list finds none pending", async () => {
    // The probe folder's rows aside, this state has no migration applied yet.
    await platform.env.DB.prepare("DELETE FROM d1_migrations").run();
    const files = readdirSync("migrations").filter((f) => f.endsWith(".sql"));
    expect(await applyPendingMigrations(platform.env.DB)).toEqual(files);
    expect(await recorded()).toEqual(files);

    // wrangler opens the same state: the platform lets go of it meanwhile.
    await platform.dispose();
    const list = await wrangler(["d1", "migrations", "list", "DB", "--local", "--persist-to", dir]);
    const { openPlatform } = await import("../scripts/lib/local.ts");
    platform = await openPlatform();
    expect({ code: list.code, stdout: list.stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("No migrations to apply!"),
    });
  });
});
