import { env } from "cloudflare:workers";
import { importDataset } from "../../src/import/importer.ts";
import { dataset } from "../fixtures/dataset.ts";
import { makeKey } from "./api-keys.ts";

/** Loads test/fixtures/dataset.ts through the real importer into this test file's D1. */
export async function seedFixture(): Promise<void> {
  await importDataset(env.DB, dataset as Parameters<typeof importDataset>[1]);
}

/** The fixture loaded, and the secret of a fresh test-mode key (the usual start of an API test file). */
export async function seedFixtureAndKey(name?: string): Promise<string> {
  await seedFixture();
  return (await makeKey({ name })).secret;
}

/** Empties these tables of this test file's D1 in one batch (for a beforeEach that starts each test clean). */
export async function emptyTables(...tables: string[]): Promise<void> {
  await env.DB.batch(tables.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
}
