// Totals kept by triggers (row_counts; docs/specification.md section 4): a listing's `total` is exact on the
// primary right after creates, racing creates, and imports, and reading it is one row.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { importDataset, type Dataset } from "../src/import/index.ts";
import { call } from "./helpers/http.ts";
import { makeKey } from "./helpers/keys.ts";
import { seedFixture } from "./helpers/seed.ts";
import { customerRecord } from "./fixtures/dataset.ts";

let key: string;
beforeAll(async () => {
  await seedFixture();
  key = (await makeKey()).secret;
});

/** What count(*) says: the truth that the kept totals must equal. */
async function realCount(table: "customers" | "postal_codes" | "sales_agents"): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row!.n;
}

/** The three listings' totals as the API answers them. */
async function totals() {
  const [customers, postalcodes, salesagents] = await Promise.all(
    ["/api/customers?count=1", "/api/postalcodes?count=1", "/api/salesagents?count=1"].map((path) => call(path, { key })),
  );
  return {
    customers: customers!.body.data.pagination.total as number,
    postal_codes: postalcodes!.body.data.pagination.total as number,
    sales_agents: salesagents!.body.data.pagination.total as number,
  };
}

async function realCounts() {
  return { customers: await realCount("customers"), postal_codes: await realCount("postal_codes"), sales_agents: await realCount("sales_agents") };
}

const newCustomer = (mobile: string) => ({
  company_name: "Totals Traders",
  mobile_number: mobile,
  contactpersons_name: "Tara",
  address: "1 Count Road",
  area_id: 1,
  postalcode_id: 1,
  gst_treatment: "Unregistered",
  salesagent_id: 1,
});

describe("kept totals", () => {
  it("equal the real counts after the fixture's import", async () => {
    expect(await totals()).toEqual({ customers: 25, postal_codes: 5, sales_agents: 3 });
    expect(await realCounts()).toEqual(await totals());
  });

  it("count every one of several racing creates, and nothing for the ones refused", async () => {
    const mobiles = ["9600000001", "9600000002", "9600000003", "9600000004", "9600000005", "9600000006"];
    // Each number twice: exactly one of each pair wins, the other gets 409 and must not be counted.
    const answers = await Promise.all(
      [...mobiles, ...mobiles].map((mobile) => call("/api/customers/create", { key, method: "POST", body: newCustomer(mobile) })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(6).fill(201), ...Array(6).fill(409)]);
    const after = await totals();
    expect(after.customers).toBe(25 + 6);
    expect(after).toEqual(await realCounts());
  });

  it("stay exact through an import of new rows, and through the same import again (upserts add nothing)", async () => {
    const file = {
      postal_codes: [{ id: 90, code: "400001" }],
      sales_agents: [{ id: 90, first_name: "Nita", last_name: "Shah", mobile_number: "9876500090", email: null, avatar: null, postalcode_ids: [90] }],
      customers: [
        customerRecord(900, {
          contact_person_name: "Imported",
          company_name: "Imported Co",
          display_name: "Imported Co",
          email: null,
          contactperson_number: "9500000900",
          gstin: null,
          salesagent_id: 90,
          address: { addressline1: "9 Import Lane", addressline2: "", area_id: 1, postalcode_id: 90 },
        }),
      ],
    } as Dataset;
    await importDataset(env.DB, file);
    const once = await totals();
    expect(once).toEqual({ customers: 32, postal_codes: 6, sales_agents: 4 });
    expect(once).toEqual(await realCounts());
    await importDataset(env.DB, file);
    expect(await totals()).toEqual(once);
  });

  it("follow a delete too", async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM customer_addresses WHERE customer_id = 900"),
      env.DB.prepare("DELETE FROM customers WHERE id = 900"),
    ]);
    expect((await totals()).customers).toBe(31);
    expect(await realCounts()).toEqual(await totals());
  });
});
