// The worker's entry (wrangler.toml `main`): the app's fetch and the crons' handler.
import { createApp } from "./app.ts";
import { scheduled } from "./scheduled.ts";

// Only the handler is exported: workerd rejects any other runtime export of the main module.
export default Object.assign(createApp(), { scheduled });
