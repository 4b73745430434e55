// The cron triggers under `npm start` and `npm run dev`: wrangler dev runs none by itself, so this
// process asks the worker to run each cron of wrangler.toml's [triggers] when it falls due
// (GET /__scheduled?cron=..., which --test-scheduled enables), as production's triggers do
// (docs/operations.md, "Scheduled jobs"). SCHEDULED_JOBS changes the intervals or turns them off.
import { Cron } from "croner";

/** SCHEDULED_JOBS: "on" (default): each cron on its own schedule; "off": none; N: every cron every N seconds. */
export type ScheduledJobs = { kind: "schedule" } | { kind: "off" } | { kind: "every"; seconds: number };

export function scheduledJobsFromEnv(env: NodeJS.ProcessEnv = process.env): ScheduledJobs {
  const raw = (env.SCHEDULED_JOBS ?? "").trim();
  if (raw === "" || raw === "on") return { kind: "schedule" };
  if (raw === "off") return { kind: "off" };
  if (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 86_400) return { kind: "every", seconds: Number(raw) };
  throw new Error(
    `SCHEDULED_JOBS must be on (each cron on its schedule), off, or a number of seconds from 1 to 86400 (every cron that often), got "${raw}"`,
  );
}

/** How the banner says it. */
export function describeScheduledJobs(jobs: ScheduledJobs, crons: readonly string[]): string {
  if (kindOf(jobs, crons) === "off") return crons.length === 0 ? "none in wrangler.toml" : "off (SCHEDULED_JOBS=off)";
  const list = crons.map((c) => `"${c}"`).join(", ");
  return jobs.kind === "every"
    ? `${list}, each every ${jobs.seconds} s (SCHEDULED_JOBS)`
    : `${list}, on their schedules`;
}

const kindOf = (jobs: ScheduledJobs, crons: readonly string[]) => (crons.length === 0 ? "off" : jobs.kind);

/** A cron of wrangler.toml as croner reads it: five fields, in UTC as Cloudflare's are; `run` at each time it falls due. */
function cronJob(cron: string, run?: () => void): Cron {
  if (cron.trim().split(/\s+/).length !== 5) throw new Error(`cannot read the cron "${cron}" (five fields expected)`);
  try {
    return new Cron(cron, { timezone: "UTC", mode: "5-part" }, run);
  } catch (err) {
    const reason = (err as Error).message.replace(/^CronPattern: /, "");
    throw new Error(`cannot read the cron "${cron}" (${reason})`, { cause: err });
  }
}

/** Whether the cron falls due in the UTC minute of `at`. */
export function cronDue(cron: string, at: Date): boolean {
  return cronJob(cron).match(new Date(Math.floor(at.getTime() / 60_000) * 60_000));
}

export interface ScheduledJobsOptions {
  /** Where the worker answers, e.g. http://127.0.0.1:8787. */
  origin: string;
  crons: readonly string[];
  jobs: ScheduledJobs;
  /** A line about a run that failed (the worker logs its jobs' outcomes itself). */
  warn?: (line: string) => void;
}

/** Starts the timers; returns the function that stops them. */
export function startScheduledJobs({ origin, crons, jobs, warn = console.warn }: ScheduledJobsOptions): () => void {
  for (const cron of crons) cronJob(cron); // a cron that cannot be read fails at start
  if (kindOf(jobs, crons) === "off") return () => {};
  let stopped = false;
  let answered = false;
  const trigger = async (cron: string) => {
    try {
      const res = await fetch(`${origin}/__scheduled?cron=${encodeURIComponent(cron)}`);
      await res.arrayBuffer();
      answered = true;
      if (!res.ok) warn(`Scheduled job "${cron}" failed (HTTP ${res.status}); it runs again at its next time.`);
    } catch (err) {
      // Before the server first answered (still starting) or once stopping, silently: the next time tries again.
      if (answered && !stopped) warn(`Scheduled job "${cron}" could not be started: ${(err as Error).message}`);
    }
  };
  if (jobs.kind === "every") {
    const timer = setInterval(() => crons.forEach((cron) => void trigger(cron)), jobs.seconds * 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }
  const running = crons.map((cron) => cronJob(cron, () => void trigger(cron)));
  return () => {
    stopped = true;
    for (const job of running) job.stop();
  };
}
