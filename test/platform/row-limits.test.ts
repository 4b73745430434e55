// Every statement that the pages and sync send to D1 has a LIMIT that SQLite's planner does not read: given a bare
// parameter, SQLite prepares the statement again at each binding (docs/performance.md, "A LIMIT that is not a parameter").
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type AnyD1, interceptD1 } from "../../src/platform/lib/d1-intercept.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { callWithEnv } from "../helpers/faults.ts";
import { seedFixture } from "../helpers/seed.ts";

const BARE_LIMIT = /\blimit\s+\?\d*(?![\w(])/i;

/** The real database (and its sessions), recording the SQL of every statement it runs. */
function recordingD1(real: D1Database, seen: string[]): D1Database {
  const wrap = <T extends AnyD1>(db: T): T =>
    interceptD1(db, {
      execute: (stmt, method, args, made) => {
        seen.push(made.sql);
        return (stmt as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...args);
      },
      batch: (statements, made) => {
        seen.push(...made.map((m) => m?.sql ?? ""));
        return db.batch(statements);
      },
      members: { withSession: (constraint?: string) => wrap((db as D1Database).withSession(constraint)) },
    });
  return wrap(real);
}

let key: string;
let agentKey: string;

beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
  agentKey = (await makeKey({ name: "Asha's app", agentId: 1 })).secret;
});

/** The SQL of one request and of the pages its next_page_url (or sync cursor) leads to, two more at most. */
async function statementsOf(path: string, withKey: string): Promise<string[]> {
  const seen: string[] = [];
  const DB = recordingD1(env.DB, seen);
  let next: string | null = path;
  for (let i = 0; next && i < 3; i++) {
    const res: { status: number; body: any } = await callWithEnv<any>({ DB }, next, { key: withKey });
    expect(res.status, next).toBe(200);
    const data: any = res.body.data;
    const url: string | null = data.pagination?.next_page_url ?? null;
    next = url ? url.slice(url.indexOf("/api/")) : data.next_cursor ? `${path}&cursor=${data.next_cursor}` : null;
  }
  return seen;
}

describe("a LIMIT is never a bare parameter", () => {
  it.each([
    ["customers, first and following pages", "/api/customers?count=2"],
    ["customers by page number", "/api/customers?count=2&page=2"],
    ["orders, first and following pages", "/api/orders?phone_number=9820000001&count=1"],
    [
      "orders by page number, between dates",
      "/api/orders?phone_number=9820000001&count=1&page=2&from_date=2020-01-01&to_date=2030-12-31",
    ],
    ["postal codes", "/api/postalcodes?count=2"],
    ["postal codes by page number", "/api/postalcodes?count=2&page=2"],
    ["sales agents", "/api/salesagents?count=1"],
    ["sales agents by page number", "/api/salesagents?count=1&page=2"],
  ])("%s", async (_label, path) => {
    const sql = await statementsOf(path, key);
    expect(sql.filter((s) => /\blimit\b/i.test(s)).length).toBeGreaterThan(0);
    expect(sql.filter((s) => BARE_LIMIT.test(s))).toEqual([]);
  });

  it("sync, a first sync walked by its cursor", async () => {
    const sql = await statementsOf("/api/sync?limit=2", agentKey);
    expect(sql.filter((s) => /\blimit\b/i.test(s)).length).toBeGreaterThan(0);
    expect(sql.filter((s) => BARE_LIMIT.test(s))).toEqual([]);
  });
});
