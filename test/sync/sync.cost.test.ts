// What an answer cut by the 1,000,000-byte cap reads (docs/specification.md section 8, "Cost" and
// "Answer size"): on a book of 600 customers with 10 orders each (3 lines, 2 statuses, 1 invoice an
// order), every answer of a first sync and of a later sync, at limit 1000, reads within the cost of the
// records it carries.
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearIsolateCaches, makeKey } from "../helpers/api-keys.ts";
import { FIRST_GENERATED_ID, generatedBookOrderStatements, generatedCustomerStatements } from "../helpers/generate.ts";
import { seedFixture } from "../helpers/seed.ts";
import { rowsReadOf } from "../helpers/timing-header.ts";
import { costBound, getSync, type SyncResult, syncCursor } from "./sync.helpers.ts";

/** Agent 3 has no customer in the fixture: its book is the generated one. */
const AGENT = 3;
const CUSTOMERS = 600;
const ORDERS_EACH = 10;

let key: string;
beforeAll(async () => {
  await seedFixture();
  const last = FIRST_GENERATED_ID + CUSTOMERS - 1;
  await env.DB.batch([
    ...generatedCustomerStatements(CUSTOMERS, AGENT),
    ...generatedBookOrderStatements(FIRST_GENERATED_ID, last, ORDERS_EACH, 100_000),
  ]);
  key = (await makeKey({ name: "Meena's app", agentId: AGENT, scopes: ["read"] })).secret;
});
beforeEach(() => clearIsolateCaches());

/** The seq of the book's entry that `n` entries follow. */
async function seqBefore(n: number): Promise<number> {
  const row = await env.DB.prepare("SELECT seq FROM sync_changes WHERE book = ? ORDER BY seq DESC LIMIT 1 OFFSET ?")
    .bind(AGENT, n)
    .first<{ seq: number }>();
  return row!.seq;
}

/** Every answer from `cursor` on at limit 1000, until has_more is false. */
async function follow(cursor?: string): Promise<SyncResult[]> {
  const answers: SyncResult[] = [];
  for (let more = true; more;) {
    const res = await getSync(key, { limit: 1000, cursor });
    expect(res.status).toBe(200);
    answers.push(res);
    cursor = res.body.data.next_cursor;
    more = res.body.data.has_more;
  }
  return answers;
}

/** Each answer's records, bytes, rows read and cost bound; and whether the byte cap cut it. */
function figures(answers: SyncResult[]) {
  return answers.map((res) => ({
    records: res.body.data.changes.length,
    bytes: new TextEncoder().encode(res.text).length,
    rows: rowsReadOf(res),
    bound: costBound(res.body.data.changes),
  }));
}

describe("an answer that the byte cap cuts reads only the records it carries", () => {
  it.each([
    ["a first sync", async () => undefined, 6_600, 11, 10],
    // The log's last 1,600 entries: orders, as from any later sync after an import of them.
    ["a later sync", async () => syncCursor(AGENT, await seqBefore(1_600)), 1_600, 3, 2],
  ])(
    "%s at limit 1000, of a book of 6,600 records: each answer within its cost",
    async (_, from, records, count, cutByCap) => {
      const answers = figures(await follow(await from()));
      expect(answers.reduce((sum, a) => sum + a.records, 0)).toBe(records);
      expect(answers.length).toBe(count);
      // All but the last end at a record that would take them past the cap (or at the limit).
      const cut = answers.filter((a) => a.records < 1000 && a.bytes > 998_000 && a.bytes <= 1_000_000);
      expect(cut.length).toBe(cutByCap);
      expect(answers.filter((a) => a.rows > a.bound)).toEqual([]);
    },
    60_000,
  );
});
