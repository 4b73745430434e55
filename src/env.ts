// The app's context types: the shared layer's, plus the per-request services and the authenticated key.
import type { KeyRecord, KeyStore } from "./keys/keys.store.ts";
import type { LookupCache } from "./lookups/lookups.cache.ts";
import type { Database } from "./platform/db/database.ts";
import type { Bindings, PlatformVariables } from "./platform/env.ts";

export type { Bindings } from "./platform/env.ts";

export interface Services {
  /** Reads: may be served by the nearest read replica (D1 Sessions API). */
  db: Database;
  /** Writes and the reads that must see them: the primary. */
  primaryDb: Database;
  cache: LookupCache;
  keys: KeyStore;
}

export interface Variables extends PlatformVariables {
  services: Services;
  apiKey?: KeyRecord;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
