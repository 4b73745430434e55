// The worker's entry (wrangler.toml `main`): the app's fetch, and the daily cron (src/scheduled.ts).
import { createApp } from "./app.ts";
import { scheduled } from "./scheduled.ts";

// The module exports only the handler: workerd rejects any other runtime export of the main module.
// The app itself keeps its fetch (and routes, for the tests).
export default Object.assign(createApp(), { scheduled });
