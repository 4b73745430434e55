// One import at a time (docs/specification.md section 7): an import holds a lease while it works and
// renews it; another import meanwhile is refused, naming since when, and changes nothing; a lease
// that has not been renewed for two minutes lapsed and is taken over.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { ImportRunningError, importDataset, importRecords, type RawRecord } from "../../src/import/importer.ts";
import { datasetRecords } from "../../src/import/import.records.ts";
import { base, emptyTables, snapshot, stagingTables } from "./import.helpers.ts";

beforeEach(async () => {
  await emptyTables();
  await env.DB.prepare("DELETE FROM leases").run();
});

type Lease = { name: string; holder: string; started_at: string; renewed_at: number };

async function lease(): Promise<Lease | null> {
  return env.DB.prepare("SELECT * FROM leases").first<Lease>();
}

/** Another import's lease, renewed `ageMs` ago. */
async function otherLease(ageMs: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO leases VALUES ('import', 'other', '2026-11-28T09:15:00Z', CAST(unixepoch('subsec') * 1000 AS INTEGER) - ?1)",
  )
    .bind(ageMs)
    .run();
}

describe("the import lease", () => {
  it("refuses an import while another holds the lease, naming since when, and changes nothing", async () => {
    await importDataset(env.DB, base());
    const before = await snapshot();
    await otherLease(119_000);
    const changed = base();
    changed.customers![0]!.company_name = "Changed";
    const err = await importDataset(env.DB, changed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportRunningError);
    expect((err as Error).message).toBe(
      "another import has been running since 2026-11-28T09:15:00Z; imports run one at a time (try again when " +
        "it ends; one that stopped without ending lets the next start 2 minutes after its last heartbeat)",
    );
    expect(await snapshot()).toEqual(before);
    // The running import's lease and staging area are untouched.
    expect(await lease()).toMatchObject({ holder: "other", started_at: "2026-11-28T09:15:00Z" });
    expect(await stagingTables()).toEqual([]);
  });

  it("takes over a lease that lapsed two minutes after its last renewal", async () => {
    await otherLease(121_000);
    await importDataset(env.DB, base());
    expect((await snapshot()).customers).toHaveLength(2);
    // Released at the end.
    expect(await lease()).toBeNull();
  });

  it("holds the lease while it works, renews it, and ends it after a failed import too", async () => {
    const seen: Lease[] = [];
    async function* slowly(): AsyncGenerator<RawRecord> {
      for (const record of datasetRecords(base())) {
        seen.push((await lease())!);
        await new Promise((r) => setTimeout(r, 15));
        yield record;
      }
    }
    await importRecords(env.DB, slowly(), { heartbeatMs: 20 });
    const holders = new Set(seen.map((l) => l.holder));
    expect(holders.size).toBe(1);
    expect(seen[0]!.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The heartbeat moved the renewal on while the records came in.
    expect(seen.at(-1)!.renewed_at).toBeGreaterThan(seen[0]!.renewed_at);
    expect(await lease()).toBeNull();

    const bad = base();
    bad.orders![0]!.customer_id = 99;
    await expect(importDataset(env.DB, bad)).rejects.toThrow(/no customer 99/);
    expect(await lease()).toBeNull();
  });

  it("stops without committing when its lease lapsed and another import took it over", async () => {
    async function* takenOver(): AsyncGenerator<RawRecord> {
      for (const record of datasetRecords(base())) yield record;
      // As if this import had stalled for two minutes: another one took the lease over.
      await env.DB.prepare("UPDATE leases SET holder = 'other'").run();
    }
    await expect(importRecords(env.DB, takenOver(), { heartbeatMs: 60_000 })).rejects.toThrow(
      "database: this import's lease lapsed (no heartbeat for 2 minutes) and another import took it over",
    );
    expect((await snapshot()).customers).toEqual([]);
    expect(await lease()).toMatchObject({ holder: "other" });
  });
});
