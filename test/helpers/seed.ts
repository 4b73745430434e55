import { env } from "cloudflare:workers";
import { importDataset } from "../../src/import/index.ts";
import { dataset } from "../fixtures/dataset.ts";

/** Loads test/fixtures/dataset.ts through the real importer into this test file's D1. */
export async function seedFixture(): Promise<void> {
  await importDataset(env.DB, dataset as Parameters<typeof importDataset>[1]);
}
