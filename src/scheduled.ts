// The cron triggers' work: daily, key data past its retention, enrollment secrets past their window and the sync log's
// old tombstones; every 5 minutes, the key copies still pending (docs/specification.md sections 2, 8 and 9).
import { Enrollments } from "./enroll/enroll.codes.ts";
import { deleteDeadKeys, deleteExpiredKeyData } from "./keys/keys.audit.ts";
import { KeyStore } from "./keys/keys.store.ts";
import { errorName, log } from "./platform/lib/log.ts";
import { purgeTombstones, retentionDays } from "./sync/sync.log.purge.ts";

/** Must equal the crons of wrangler.toml's [triggers] and [env.live.triggers]. */
export const DAILY_RETENTION_CRON = "17 3 * * *";
export const PENDING_COPIES_CRON = "*/5 * * * *";

type Job = "key_copies" | "key_retention" | "sync_retention";

const JOBS: Record<string, Job[]> = {
  [PENDING_COPIES_CRON]: ["key_copies"],
  [DAILY_RETENTION_CRON]: ["key_retention", "sync_retention"],
};

// Awaited, so the run's outcome is its own; a failing job does not stop the others.
export async function scheduled(controller: ScheduledController, env: Env, _ctx?: ExecutionContext): Promise<void> {
  const { cron } = controller;
  const jobs = JOBS[cron];
  if (!jobs) {
    log({ level: "error", event: "scheduled_failed", cron, error: "Error" });
    throw new Error(`no job for the cron ${JSON.stringify(cron)}: wrangler.toml and src/scheduled.ts disagree`);
  }
  let failure: unknown = null;
  for (const job of jobs) {
    try {
      await run(job, controller, env);
    } catch (err) {
      log({ level: "error", event: `${job}_failed`, cron, error: errorName(err) });
      failure ??= err;
    }
  }
  // Thrown again so that the run is marked failed (Cron Events) and the next one tries again.
  if (failure !== null) throw failure;
}

async function run(job: Job, { cron, scheduledTime }: ScheduledController, env: Env): Promise<void> {
  if (job === "key_copies") {
    const store = new KeyStore(env.KEYS, env.DB);
    const result = { ...(await store.rewritePendingCopies()), ...(await store.rotationUpkeep()) };
    // A copy still pending is a warning: KV refused its write, and the next run tries again.
    log({ level: result.copies_still_pending > 0 ? "warn" : "info", event: job, cron, ...result });
  } else if (job === "key_retention") {
    const now = new Date(scheduledTime);
    const result = await deleteExpiredKeyData(env.DB, now);
    // Enrollment secrets past their retry window (docs/specification.md section 9), if no read erased them first.
    const store = new KeyStore(env.KEYS, env.DB);
    const enrollments = new Enrollments(env.DB, store, () => now);
    const sealed_secrets_erased = await enrollments.eraseSealedSecrets();
    // Keys and codes dead for 90 days (section 7): records that stop mattering do not pile up.
    const dead = await deleteDeadKeys(env.DB, env.KEYS, now);
    const codes_deleted = await enrollments.deleteDeadCodes();
    log({ event: job, cron, ...result, sealed_secrets_erased, ...dead, codes_deleted });
  } else {
    const result = await purgeTombstones(env.DB, new Date(scheduledTime), retentionDays(env.SYNC_RETENTION_DAYS));
    log({ level: result.tombstones_left ? "warn" : "info", event: job, cron, ...result });
  }
}
