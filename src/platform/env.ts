// The shared layer's request context: bindings, id, meter, the key (src/env.ts adds the capabilities' services).
import type { Meter } from "./lib/meter.ts";

/** Generated from wrangler.toml by `npm run cf-typegen` (`npm run check` fails when it is out of date). */
export type Bindings = Env;

export interface PlatformVariables {
  requestId: string;
  meter: Meter;
  apiKey?: { readonly id: string };
}

export interface PlatformEnv {
  Bindings: Bindings;
  Variables: PlatformVariables;
}
