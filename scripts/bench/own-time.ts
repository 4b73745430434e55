// The API's own time a request, inside its isolate: own-time.worker.ts served by `wrangler dev` as `npm run dev` serves
// the API, on a state folder, each request timed in a loop beside the floors' work (docs/performance.md, "The worker's
// own time"). It leaves out what every request pays outside the worker, which the load runs measure with the rest.
import { resolve } from "node:path";
import { configCopy, requiredSecretsAsVars } from "../lib/config.ts";
import { devConfigArgs, WRANGLER_BIN, wranglerEnv } from "../lib/wrangler-env.ts";
import { auth, median, num, type PerfRun, tableHead } from "./harness.ts";
import { FLOOR_TARGETS, type FloorName, OWN_TIME_PATH } from "./own-time.paths.ts";

/**
 * A request to time (every answer must be a 200) and the floor it is held against; for a page, its statement alone
 * (STATEMENT_TARGETS), timed beside it so that D1's part and the app's part show apart.
 */
export type OwnTimeTarget = { label: string; path: string; floor: FloorName; statement?: string };

// About half a second a round either way: a page costs some 25 times a cached lookup.
const CALLS: Record<FloorName, number> = { constant: 3_000, "one query": 300 };

/** A difference with its sign: one round on a busy machine can put a page below its statement alone. */
const signed = (n: number) => `${Math.round(n) < 0 ? "-" : "+"}${num(Math.abs(n))}`;

export async function ownTimeFigures(
  perf: PerfRun,
  state: string,
  key: string,
  targets: OwnTimeTarget[],
  roundCount: number,
): Promise<string[]> {
  const copy = configCopy("bench-own-time", (section) => {
    requiredSecretsAsVars(section);
    section.main = resolve("scripts/bench/own-time.worker.ts");
    section.vars = { ...section.vars, RATE_LIMIT_PER_MINUTE: "0" };
  });
  try {
    const args = (port: number) => [
      ...[WRANGLER_BIN, "dev", ...devConfigArgs(copy.path), "--ip", "127.0.0.1", "--port", String(port)],
      ...["--persist-to", state, "--show-interactive-dev-session=false"],
    ];
    const server = await perf.start("own-time", process.execPath, args, wranglerEnv());
    const time = async (target: string, floor: FloorName) => {
      const url = `${server.url}${OWN_TIME_PATH}?target=${encodeURIComponent(target)}&n=${CALLS[floor]}`;
      const res = await fetch(url, { headers: auth(key) });
      const body = (await res.json()) as { microseconds: number; statuses: Record<string, number> };
      const other = Object.keys(body.statuses).filter((s) => s !== "200");
      if (!res.ok || other.length > 0)
        throw new Error(`own time of ${target}: ${res.status}, answers ${JSON.stringify(body.statuses)}`);
      return body.microseconds;
    };
    const statementLabel = (t: OwnTimeTarget) => `${t.label}: its statement alone`;
    const all: OwnTimeTarget[] = [
      ...(Object.keys(FLOOR_TARGETS) as FloorName[]).map((floor) => ({
        label: `floor: ${floor}`,
        path: FLOOR_TARGETS[floor],
        floor,
      })),
      ...targets.flatMap((t) =>
        t.statement ? [{ label: statementLabel(t), path: t.statement, floor: t.floor }, t] : [t],
      ),
    ];
    const times = new Map(all.map((t) => [t.label, [] as number[]]));
    perf.step(`own time inside the isolate: ${roundCount} rounds of ${all.length} requests ...`);
    // Rounds taken in turn, so that the machine's drift spreads over every request alike.
    for (let r = 0; r < roundCount; r++) for (const t of all) times.get(t.label)!.push(await time(t.path, t.floor));
    await server.stop();

    const floorTime = (floor: FloorName) => median(times.get(`floor: ${floor}`)!);
    return [
      `own-time.worker.ts served by \`wrangler dev\` as \`npm run dev\` serves the API, on the same state; each round a ` +
        `loop of ${num(CALLS.constant)} requests (a cached lookup, the constant floor) or ${num(CALLS["one query"])} ` +
        `(a page, the one-query floor) made inside the isolate with \`app.fetch\`, log lines formatted but not written; ` +
        `microseconds a request, the median of ${roundCount} rounds (each round's in brackets).`,
      "",
      ...tableHead("| request | µs a request, inside the isolate | over its floor's work | over its statement alone |"),
      ...all.map((t) => {
        const own = median(times.get(t.label)!);
        const each = times
          .get(t.label)!
          .map((x) => num(x))
          .join(", ");
        const floor = floorTime(t.floor);
        const overFloor = t.label.startsWith("floor: ") ? "" : `${signed(own - floor)} (${num(own / floor, 2)}×)`;
        const statement = t.statement ? median(times.get(statementLabel(t))!) : null;
        const overStatement = statement === null ? "" : signed(own - statement);
        return `| ${t.label} | ${num(own)} (${each}) | ${overFloor} | ${overStatement} |`;
      }),
    ];
  } finally {
    copy.folder.remove();
  }
}
