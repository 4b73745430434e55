import type { LookupCache } from "../lookups/lookups.cache.ts";
import type { Database } from "./db/database.ts";
import type { Meter } from "./lib/meter.ts";
import type { KeyRecord, KeyStore } from "../keys/keys.store.ts";

/**
 * The worker's bindings and vars: the `Env` that `wrangler types` generates from wrangler.toml into
 * worker-configuration.d.ts (`npm run cf-typegen`; `npm run check` fails when it is out of date).
 * ADMIN_TOKEN is a secret (`[secrets] required` in wrangler.toml), passed by npm start locally.
 */
export type Bindings = Env;

/** The per-request services (src/platform/middleware/services.ts builds them once per request). */
export interface Services {
  /** Reads: may be served by the nearest read replica (D1 Sessions API). */
  db: Database;
  /** Writes and the reads that must see them: the primary. */
  primaryDb: Database;
  cache: LookupCache;
  keys: KeyStore;
}

export interface Variables {
  requestId: string;
  meter: Meter;
  services: Services;
  /** The key that authenticated this request. */
  apiKey?: KeyRecord;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
