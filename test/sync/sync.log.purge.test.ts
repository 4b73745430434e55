// The daily purge of the sync log's old deletes (docs/specification.md section 8, "Retention"),
// through the worker's scheduled handler on the real D1.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index.ts";
import { importDataset } from "../../src/import/importer.ts";
import { purgeTombstones, retentionDays } from "../../src/sync/sync.log.purge.ts";
import { captureConsole } from "../helpers/logs.ts";
import { books, deleted, emptyBooks, log, type Entry } from "./sync.log.helpers.ts";

const DAY = 86_400;
const NOW = Date.parse("2026-05-31T03:17:00.000Z");
const nowSeconds = NOW / 1000;

beforeEach(emptyBooks);
afterEach(() => vi.restoreAllMocks());

/** books() with customer 1 moved out of book 1 (tombstones for it and orders 11, 12) and customer 3 out of book 2. */
async function withTombstones(): Promise<void> {
  await importDataset(env.DB, books());
  const moved = books();
  moved.customers![0]!.salesagent_id = null;
  moved.customers![2]!.salesagent_id = null;
  await importDataset(env.DB, moved);
}

/** Sets changed_at of the entries of `book` and `kind` (every kind when left out). */
async function age(book: number, seconds: number, kind?: string): Promise<void> {
  await env.DB.prepare("UPDATE sync_changes SET changed_at = ?1 WHERE book = ?2 AND (?3 IS NULL OR kind = ?3)")
    .bind(seconds, book, kind ?? null)
    .run();
}

async function marks(): Promise<{ book: number; purge_mark: number }[]> {
  return (
    await env.DB.prepare("SELECT book, purge_mark FROM sync_books ORDER BY book").all<{
      book: number;
      purge_mark: number;
    }>()
  ).results;
}

async function runDaily(vars: Partial<Env> = {}) {
  const lines = captureConsole();
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: NOW, cron: "17 3 * * *" }),
    { ...env, ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return lines.map((l) => [l.method, JSON.parse(l.text)]).filter(([, line]) => line.event === "sync_retention");
}

describe("the daily purge", () => {
  it("deletes tombstones older than SYNC_RETENTION_DAYS, and raises each book's purge mark to the highest purged", async () => {
    await withTombstones();
    const all = await log();
    // Book 1: every entry 31 days old; book 2: its tombstones 30 days old to the second (kept).
    await age(1, nowSeconds - 31 * DAY);
    await age(2, nowSeconds - 30 * DAY);
    expect(await runDaily()).toEqual([
      [
        "log",
        { level: "info", event: "sync_retention", cron: "17 3 * * *", tombstones_purged: 3, tombstones_left: false },
      ],
    ]);
    const purged = all.filter((l) => l.entry[0] === 1 && l.entry[3] === 1);
    expect(purged.map((l) => l.entry)).toEqual(deleted(1, "customer 1", "order 11", "order 12") satisfies Entry[]);
    // The upserts of book 1 (customer 2) and everything of book 2 stay.
    expect(await log()).toEqual(all.filter((l) => !purged.includes(l)));
    expect(await marks()).toEqual([{ book: 1, purge_mark: Math.max(...purged.map((l) => l.seq)) }]);
  });

  it("takes the retention from SYNC_RETENTION_DAYS, and never lowers a mark", async () => {
    await withTombstones();
    const all = await log();
    await age(1, nowSeconds - 8 * DAY);
    await age(2, nowSeconds - 6 * DAY);
    const top = Math.max(...all.filter((l) => l.entry[0] === 2).map((l) => l.seq)) + 1000;
    await env.DB.prepare("INSERT INTO sync_books (book, purge_mark) VALUES (2, ?1)").bind(top).run();
    expect((await runDaily({ SYNC_RETENTION_DAYS: "7" }))[0]![1].tombstones_purged).toBe(3);
    expect(await marks()).toEqual([
      { book: 1, purge_mark: Math.max(...all.filter((l) => l.entry[0] === 1).map((l) => l.seq)) },
      { book: 2, purge_mark: top },
    ]);
    expect((await runDaily({ SYNC_RETENTION_DAYS: "5" }))[0]![1].tombstones_purged).toBe(2);
    expect(await marks()).toEqual([
      { book: 1, purge_mark: Math.max(...all.filter((l) => l.entry[0] === 1).map((l) => l.seq)) },
      { book: 2, purge_mark: top },
    ]);
    expect((await log()).map((l) => l.entry).filter(([, , , deleted]) => deleted === 1)).toEqual([]);
  });

  it("goes in chunks: every old tombstone is purged, each book marked at its highest", async () => {
    await withTombstones();
    const all = await log();
    await age(1, nowSeconds - 40 * DAY);
    await age(2, nowSeconds - 40 * DAY);
    expect(await purgeTombstones(env.DB, new Date(NOW), 30, 2)).toEqual({
      tombstones_purged: 5,
      tombstones_left: false,
    });
    const tombstones = all.filter((l) => l.entry[3] === 1);
    expect(await log()).toEqual(all.filter((l) => !tombstones.includes(l)));
    const highest = (book: number) => Math.max(...tombstones.filter((l) => l.entry[0] === book).map((l) => l.seq));
    expect(await marks()).toEqual([
      { book: 1, purge_mark: highest(1) },
      { book: 2, purge_mark: highest(2) },
    ]);
  });
});

describe("SYNC_RETENTION_DAYS", () => {
  it("is a whole number of days, at least 1; otherwise 30", () => {
    const values = [undefined, "", "7", " 45 ", "0", "-3", "1.5", "abc", "100000"];
    expect(values.map(retentionDays)).toEqual([30, 30, 7, 45, 30, 30, 30, 30, 30]);
  });
});
