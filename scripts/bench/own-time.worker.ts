// The API as `npm run bench -- api` times it inside its own isolate (docs/performance.md, "The worker's own time"):
// the app itself, and at one more path a loop of requests to it, away from wrangler's proxy, its log and the
// machine's other processes, beside the floors' work in the same loop.
import { createApp } from "../../src/app.ts";
import { customersPageStatements } from "../../src/customers/customers.queries.ts";
import { ordersPageStatements } from "../../src/orders/orders.queries.ts";
import { openReadSession } from "../../src/platform/db/read-session.ts";
import { constantAnswer, floorLogLine, selectOneAnswer } from "./floor-work.ts";
import { FLOOR_TARGETS, OWN_TIME_PATH, STATEMENT_TARGETS } from "./own-time.paths.ts";

const app = createApp();

async function floor(target: string, db: D1Database): Promise<Response> {
  const started = performance.now();
  if (target === FLOOR_TARGETS.constant) {
    floorLogLine("GET", "/constant-logged", started, 0);
    return constantAnswer();
  }
  const answer = await selectOneAnswer(db);
  floorLogLine("GET", "/select1-logged", started, 1);
  return answer;
}

const FIRST_PAGE = { count: 10, skip: 0 };
const ORDERS_PREFIX = STATEMENT_TARGETS.orders("");

/**
 * A page's statement as the page sends it (one batch on a read session), its row answered as JSON text (about the
 * page's bytes, so that the answer's size costs both alike): D1's part of the page.
 */
async function statement(target: string, db: D1Database): Promise<Response> {
  const [page] = target.startsWith(ORDERS_PREFIX)
    ? ordersPageStatements({ phoneKey: target.slice(ORDERS_PREFIX.length) }, FIRST_PAGE)
    : customersPageStatements(FIRST_PAGE);
  const session = openReadSession(db, null);
  const [result] = await session.batch([session.prepare(page.sql).bind(...page.params)]);
  const rows = result?.results ?? [];
  return new Response(JSON.stringify(rows), { status: rows.length ? 200 : 404 });
}

// workerd's clock moves only at I/O (a Spectre defence): a timer before and after the loop reads its real length.
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function ownTime(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  const target = url.searchParams.get("target") ?? "";
  const n = Number(url.searchParams.get("n") ?? "1000");
  const headers = { Authorization: request.headers.get("Authorization") ?? "" };
  const isFloor = (Object.values(FLOOR_TARGETS) as string[]).includes(target);
  const isStatement = target === STATEMENT_TARGETS.customers || target.startsWith(ORDERS_PREFIX);
  const one = async () => {
    const res = isFloor
      ? await floor(target, env.DB)
      : isStatement
        ? await statement(target, env.DB)
        : await app.fetch(new Request(new URL(target, url), { headers }), env, ctx);
    await res.arrayBuffer();
    return res.status;
  };
  const statuses: Record<number, number> = {};
  // Each log line is formatted but not written: the write is wrangler's work, and the floors write one line too.
  const write = console.log;
  console.log = () => undefined;
  try {
    for (let i = 0; i < Math.min(n, 50); i++) await one(); // caches and JIT warm, as in a busy isolate
    await tick();
    const start = Date.now();
    for (let i = 0; i < n; i++) {
      const status = await one();
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    await tick();
    return Response.json({ target, n, microseconds: ((Date.now() - start) * 1000) / n, statuses });
  } finally {
    console.log = write;
  }
}

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === OWN_TIME_PATH) return ownTime(request, env, ctx);
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
