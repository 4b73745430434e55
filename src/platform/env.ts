// The app's types: bindings, per-request services and variables.
import type { LookupCache } from "../lookups/lookups.cache.ts";
import type { Database } from "./db/database.ts";
import type { Meter } from "./lib/meter.ts";
import type { KeyRecord, KeyStore } from "../keys/keys.store.ts";

/** Generated from wrangler.toml by `npm run cf-typegen` (`npm run check` fails when it is out of date). */
export type Bindings = Env;

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
  apiKey?: KeyRecord;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
