// The importer and customers created through the API: an import never overwrites one with another
// shop's record, even when the API creates it during the import; the same shop's record replaces it.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { ImportError, importDataset, type Dataset } from "../../src/import/importer.ts";
import { writeBeforeBatchD1 } from "../helpers/faults.ts";
import { call } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";
import { base, emptyTables, expectRejected, snapshot, stagingTables } from "./import.helpers.ts";
import { createBody } from "../fixtures/create-body.ts";

beforeEach(emptyTables);

describe("customers created through the API", () => {
  // The base dataset has customers 1 and 2: the API's next customers are 3 and 4.
  beforeEach(async () => {
    await importDataset(env.DB, base());
  });

  async function createThroughApi(mobile: string, company: string): Promise<number> {
    const { secret } = await makeKey();
    const res = await call("/api/customers/create", {
      method: "POST",
      key: secret,
      body: createBody(mobile, { company_name: company, contactpersons_name: "R. Sharma" }),
    });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  /** A customer record of the file with this id and number, otherwise customer 2's. */
  function upstream(id: number, number: string) {
    return { ...base().customers![1]!, id, contactperson_number: number, company_name: `Upstream ${id}` };
  }

  it("are marked as made by the API; imported ones as imported", async () => {
    const id = await createThroughApi("98765 43219", "Sharma Kirana");
    const origins = await env.DB.prepare("SELECT id, origin FROM customers ORDER BY id").all();
    expect(origins.results).toEqual([
      { id: 1, origin: "import" },
      { id: 2, origin: "import" },
      { id, origin: "api" },
    ]);
  });

  it("fail the whole import when the file gives their ids to another shop, naming every such id", async () => {
    const first = await createThroughApi("98765 43219", "Sharma Kirana");
    const second = await createThroughApi("98765 43218", "Verma Stores");
    expect([first, second]).toEqual([3, 4]);
    // Customer 1 is imported: the file may change it. 3 and 4 were made by the API: it may not.
    const data: Dataset = {
      customers: [
        { ...base().customers![0]!, display_name: "Renamed" },
        upstream(3, "9811100003"),
        upstream(4, "9811100004"),
      ],
    };
    const e = await expectRejected(() => importDataset(env.DB, data), {
      type: "customer",
      id: 3,
      where: "customers[1]",
      field: "id",
    });
    expect(e.message).toBe(
      "customer 3 at customers[1], field id: customers 3, 4 of the database were created through the API, and the " +
        "file gives these ids to records with another contact number; an import never overwrites such a customer " +
        "(give the file's records other ids, or the same number if they are the same shop)",
    );
  });

  it("fail it for a record without a 10-digit number too", async () => {
    const id = await createThroughApi("98765 43219", "Sharma Kirana");
    const e = await expectRejected(() => importDataset(env.DB, { customers: [upstream(id, "12345")] }), {
      type: "customer",
      id,
      where: "customers[0]",
      field: "id",
    });
    expect(e.problem).toMatch(/^customer 3 of the database was created through the API/);
  });

  it("fail the import even when the API creates the customer after the check, just before the final batch", async () => {
    const file: Dataset = { customers: [upstream(3, "9811100003")] };
    const racing = writeBeforeBatchD1(/api_customer_guard/, () => createThroughApi("98765 43219", "Sharma Kirana"));
    const before = await snapshot();
    const err = await importDataset(racing, file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).message).toMatch(
      /^customer 3 at customers\[0\], field id: customer 3 of the database was created through the API/,
    );
    // Nothing of the file was written; the API's customer is there as the API made it.
    const after = await snapshot();
    expect({
      ...after,
      customers: after.customers!.filter((c) => c.id !== 3),
      customer_addresses: after.customer_addresses!.filter((a) => a.customer_id !== 3),
    }).toEqual(before);
    expect(after.customers!.find((c) => c.id === 3)).toMatchObject({
      company_name: "Sharma Kirana",
      phone_key: "9876543219",
      origin: "api",
    });
    expect(await stagingTables()).toEqual([]);
  });

  it("are replaced by the file's record when its number normalizes to the same 10 digits (the same shop)", async () => {
    const id = await createThroughApi("98765 43219", "Sharma Kirana");
    await importDataset(env.DB, { customers: [upstream(id, "+91 98765-43219")] });
    const row = await env.DB.prepare(
      "SELECT company_name, contactperson_number, phone_key, origin FROM customers WHERE id = ?",
    )
      .bind(id)
      .first();
    expect(row).toEqual({
      company_name: "Upstream 3",
      contactperson_number: "+91 98765-43219",
      phone_key: "9876543219",
      origin: "import",
    });
    // Now an imported customer: a later file may change it like any other.
    await importDataset(env.DB, { customers: [upstream(id, "9811100003")] });
    expect((await env.DB.prepare("SELECT phone_key FROM customers WHERE id = ?").bind(id).first())?.phone_key).toBe(
      "9811100003",
    );
  });
});
