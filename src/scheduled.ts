// The cron triggers' work: daily, key data past its retention and enrollment secrets past their window; every 5 minutes, the key copies
// still pending (docs/specification.md section 2, "The copy follows the record").
import { Enrollments } from "./enroll/enroll.codes.ts";
import { deleteExpiredKeyData } from "./keys/keys.retention.ts";
import { KeyStore } from "./keys/keys.store.ts";
import { errorName, log } from "./platform/lib/log.ts";

/** Must equal the crons of wrangler.toml's [triggers] and [env.live.triggers]. */
export const DAILY_RETENTION_CRON = "17 3 * * *";
export const PENDING_COPIES_CRON = "*/5 * * * *";

// The work is awaited so that the run's outcome is its own.
export async function scheduled(controller: ScheduledController, env: Env, _ctx?: ExecutionContext): Promise<void> {
  const { cron } = controller;
  const job = cron === PENDING_COPIES_CRON ? "key_copies" : cron === DAILY_RETENTION_CRON ? "key_retention" : null;
  try {
    if (job === "key_copies") {
      const result = await new KeyStore(env.KEYS, env.DB).rewritePendingCopies();
      // A copy still pending is a warning: KV refused its write, and the next run tries again.
      log({ level: result.copies_still_pending > 0 ? "warn" : "info", event: job, cron, ...result });
    } else if (job === "key_retention") {
      const now = new Date(controller.scheduledTime);
      const result = await deleteExpiredKeyData(env.DB, now);
      // Enrollment secrets past their retry window (docs/specification.md section 9), if no read erased them first.
      const store = new KeyStore(env.KEYS, env.DB);
      const sealed_secrets_erased = await new Enrollments(env.DB, store, () => now).eraseSealedSecrets();
      log({ event: job, cron, ...result, sealed_secrets_erased });
    } else {
      throw new Error(`no job for the cron ${JSON.stringify(cron)}: wrangler.toml and src/scheduled.ts disagree`);
    }
  } catch (err) {
    log({ level: "error", event: `${job ?? "scheduled"}_failed`, cron, error: errorName(err) });
    // Thrown again so that the run is marked failed (Cron Events) and the next one tries again.
    throw err;
  }
}
