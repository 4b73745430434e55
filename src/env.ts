import type { Meter } from "./lib/meter.ts";
import type { KeyRecord } from "./keys/store.ts";
import type { Services } from "./middleware/services.ts";

/** The worker's bindings and vars (wrangler.toml). */
export interface Bindings {
  DB: D1Database;
  KEYS: KVNamespace;
  LOOKUP_CACHE: KVNamespace;
  RATE_LIMITER?: RateLimit;
  /** "test" or "live": the only mode of key this deployment accepts. */
  MODE: string;
  SERVER_TIMING?: string;
  LOOKUP_CACHE_TTL?: string;
  RATE_LIMIT_PER_MINUTE?: string;
  CORS_ORIGINS?: string;
  /** The dashboard's administrator token (a secret; .dev.vars locally). */
  ADMIN_TOKEN?: string;
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
