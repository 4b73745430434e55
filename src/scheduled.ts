// The worker's cron trigger (wrangler.toml [triggers]): once a day, the key data past its retention
// (src/keys/retention.ts). The main module exports it beside fetch (src/index.ts).
import { deleteExpiredKeyData } from "./keys/retention.ts";
import { errorName, log } from "./lib/log.ts";

/** The module's `scheduled` handler: the work is awaited, so the run's outcome is its own. */
export async function scheduled(controller: ScheduledController, env: Env, _ctx?: ExecutionContext): Promise<void> {
  try {
    const result = await deleteExpiredKeyData(env.DB, new Date(controller.scheduledTime));
    log({ event: "key_retention", cron: controller.cron, ...result });
  } catch (err) {
    log({ level: "error", event: "key_retention_failed", cron: controller.cron, error: errorName(err) });
    // Thrown again so that the run is marked failed (Cron Events) and retried the next day.
    throw err;
  }
}
