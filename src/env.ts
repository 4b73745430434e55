import type { Meter } from "./lib/meter.ts";
import type { KeyRecord } from "./keys/store.ts";
import type { Services } from "./middleware/services.ts";

/**
 * The worker's bindings and vars: the `Env` that `wrangler types` generates from wrangler.toml into
 * worker-configuration.d.ts (`npm run cf-typegen`; `npm run check` fails when it is out of date).
 * ADMIN_TOKEN is a secret (`[secrets] required` in wrangler.toml), passed by npm start locally.
 */
export type Bindings = Env;

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
