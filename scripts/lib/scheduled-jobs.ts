// The cron triggers under `npm start` and `npm run dev`: wrangler dev runs none by itself, so this
// process asks the worker to run each cron of wrangler.toml's [triggers] when it falls due
// (GET /__scheduled?cron=..., which --test-scheduled enables), as production's triggers do
// (docs/operations.md, "Scheduled jobs"). SCHEDULED_JOBS changes the intervals or turns them off.

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

const FIELDS = [
  { min: 0, max: 59 }, // minute
  { min: 0, max: 23 }, // hour
  { min: 1, max: 31 }, // day of the month
  { min: 1, max: 12 }, // month
  { min: 0, max: 7 }, // day of the week (0 and 7: Sunday)
];

/** The values one field of a cron expression allows: *, N, A-B, any of them with /STEP, and lists. */
function fieldValues(text: string, { min, max }: { min: number; max: number }, cron: string): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`cannot read the cron "${cron}" (its field "${text}")`);
    const from = m[1] === "*" ? min : Number(m[2]);
    const to = m[1] === "*" ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1) throw new Error(`the cron "${cron}" is out of range`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/** Whether the five-field cron `cron` falls due in the UTC minute of `at` (Cloudflare's crons are UTC). */
export function cronDue(cron: string, at: Date): boolean {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`cannot read the cron "${cron}" (five fields expected)`);
  const [minute, hour, day, month, weekday] = fields.map((f, i) => fieldValues(f, FIELDS[i]!, cron));
  const dow = at.getUTCDay();
  const dayMatches = day!.has(at.getUTCDate());
  const weekdayMatches = weekday!.has(dow) || (dow === 0 && weekday!.has(7));
  // As in cron: when both day fields are restricted, either one matching is enough.
  const dayRestricted = fields[2] !== "*" && fields[4] !== "*";
  return (
    minute!.has(at.getUTCMinutes()) &&
    hour!.has(at.getUTCHours()) &&
    month!.has(at.getUTCMonth() + 1) &&
    (dayRestricted ? dayMatches || weekdayMatches : dayMatches && weekdayMatches)
  );
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
  for (const cron of crons) cronDue(cron, new Date()); // a cron that cannot be read fails at start
  if (kindOf(jobs, crons) === "off") return () => {};
  let timer: NodeJS.Timeout | undefined;
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
  const next = () => {
    if (stopped) return;
    if (jobs.kind === "every") {
      timer = setTimeout(() => {
        for (const cron of crons) void trigger(cron);
        next();
      }, jobs.seconds * 1000);
      return;
    }
    // At the start of the next minute (a little after, so the clock has surely reached it).
    const now = Date.now();
    const minute = Math.floor(now / 60_000 + 1) * 60_000;
    timer = setTimeout(
      () => {
        for (const cron of crons) if (cronDue(cron, new Date(minute))) void trigger(cron);
        next();
      },
      minute - now + 100,
    );
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
