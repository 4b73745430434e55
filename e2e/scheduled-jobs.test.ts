// The scheduled jobs that `npm start` and `npm run dev` run (scripts/lib/scheduled-jobs.ts): when a
// cron falls due, SCHEDULED_JOBS read and refused, and the timers asking a server to run each cron.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  cronDue,
  describeScheduledJobs,
  scheduledJobsFromEnv,
  startScheduledJobs,
} from "../scripts/lib/scheduled-jobs.ts";

const CRONS = ["17 3 * * *", "*/5 * * * *"];

describe("cronDue", () => {
  it("matches wrangler.toml's crons in their UTC minutes only", () => {
    expect(cronDue("*/5 * * * *", new Date("2026-11-28T10:05:00Z"))).toBe(true);
    expect(cronDue("*/5 * * * *", new Date("2026-11-28T10:05:59Z"))).toBe(true);
    expect(cronDue("*/5 * * * *", new Date("2026-11-28T10:06:00Z"))).toBe(false);
    expect(cronDue("17 3 * * *", new Date("2026-11-28T03:17:00Z"))).toBe(true);
    expect(cronDue("17 3 * * *", new Date("2026-11-28T04:17:00Z"))).toBe(false);
  });

  it("reads lists, ranges, steps and both day fields as cron does", () => {
    expect(cronDue("0,30 9-17/2 * * 1-5", new Date("2026-11-30T11:30:00Z"))).toBe(true); // a Monday
    expect(cronDue("0,30 9-17/2 * * 1-5", new Date("2026-11-29T11:30:00Z"))).toBe(false); // a Sunday
    expect(cronDue("0 0 * * 7", new Date("2026-11-29T00:00:00Z"))).toBe(true);
    // Day of the month or day of the week, when both are given.
    expect(cronDue("0 0 1 * 1", new Date("2026-11-30T00:00:00Z"))).toBe(true);
    expect(() => cronDue("* * *", new Date())).toThrow('cannot read the cron "* * *" (five fields expected)');
    expect(() => cronDue("61 * * * *", new Date())).toThrow(
      'cannot read the cron "61 * * * *" (Invalid value for minute: 61)',
    );
  });
});

describe("SCHEDULED_JOBS", () => {
  it("is on by default, off, or a number of seconds; anything else is refused by name", () => {
    expect(scheduledJobsFromEnv({})).toEqual({ kind: "schedule" });
    expect(scheduledJobsFromEnv({ SCHEDULED_JOBS: "on" })).toEqual({ kind: "schedule" });
    expect(scheduledJobsFromEnv({ SCHEDULED_JOBS: "off" })).toEqual({ kind: "off" });
    expect(scheduledJobsFromEnv({ SCHEDULED_JOBS: "30" })).toEqual({ kind: "every", seconds: 30 });
    for (const bad of ["0", "yes", "1.5", "86401"]) {
      expect(() => scheduledJobsFromEnv({ SCHEDULED_JOBS: bad })).toThrow(
        `SCHEDULED_JOBS must be on (each cron on its schedule), off, or a number of seconds from 1 to 86400 (every cron that often), got "${bad}"`,
      );
    }
    expect(describeScheduledJobs({ kind: "schedule" }, CRONS)).toBe('"17 3 * * *", "*/5 * * * *", on their schedules');
    expect(describeScheduledJobs({ kind: "every", seconds: 2 }, CRONS)).toBe(
      '"17 3 * * *", "*/5 * * * *", each every 2 s (SCHEDULED_JOBS)',
    );
    expect(describeScheduledJobs({ kind: "off" }, CRONS)).toBe("off (SCHEDULED_JOBS=off)");
  });
});

describe("startScheduledJobs", () => {
  let server: Server | undefined;
  let stop = () => {};
  afterEach(() => {
    stop();
    server?.close();
    vi.useRealTimers();
  });

  /** A server that records the crons asked of it; `status` its answer. */
  async function recorder(status = 200): Promise<{ origin: string; asked: string[] }> {
    const asked: string[] = [];
    server = createServer((req, res) => {
      asked.push(new URL(req.url!, "http://x").searchParams.get("cron")!);
      res.writeHead(status).end("Ran scheduled event");
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
  }

  it("asks for every cron every N seconds", async () => {
    const { origin, asked } = await recorder();
    stop = startScheduledJobs({ origin, crons: CRONS, jobs: { kind: "every", seconds: 1 } });
    await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    expect(asked.slice(0, 4).sort()).toEqual([...CRONS, ...CRONS].sort());
  });

  it("asks for each cron at the minutes it falls due, and for none when off", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(new Date("2026-11-28T03:14:30Z"));
    const calls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      calls.push(`${new Date().toISOString().slice(11, 16)} ${new URL(url).searchParams.get("cron")}`);
      return new Response("Ran scheduled event");
    });
    try {
      stop = startScheduledJobs({ origin: "http://127.0.0.1:1", crons: CRONS, jobs: { kind: "schedule" } });
      await vi.advanceTimersByTimeAsync(11 * 60_000);
      expect(calls).toEqual(["03:15 */5 * * * *", "03:17 17 3 * * *", "03:20 */5 * * * *", "03:25 */5 * * * *"]);
      stop();
      calls.length = 0;
      stop = startScheduledJobs({ origin: "http://127.0.0.1:1", crons: CRONS, jobs: { kind: "off" } });
      await vi.advanceTimersByTimeAsync(11 * 60_000);
      expect(calls).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("says when a run fails, once the server has answered", async () => {
    const { origin } = await recorder(500);
    const warned: string[] = [];
    stop = startScheduledJobs({
      origin,
      crons: ["*/5 * * * *"],
      jobs: { kind: "every", seconds: 1 },
      warn: (l) => warned.push(l),
    });
    await vi.waitFor(() => expect(warned.length).toBeGreaterThan(0), { timeout: 5_000 });
    expect(warned[0]).toBe('Scheduled job "*/5 * * * *" failed (HTTP 500); it runs again at its next time.');
  });
});
