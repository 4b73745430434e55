// The floors of `npm run bench`, served by their own `wrangler dev` beside the API's: what a request
// costs with no work at all (a constant JSON body), and with one D1 round trip (`select 1`). The
// API's figures are read as ratios to these, so that the machine's speed cancels out. The "-logged"
// variants also write one JSON log line, as docs/specification.md has the API do for every request: under
// `wrangler dev` a log line is costly (wrangler parses it from workerd's output, prints it and
// appends it to its own log file), so they show how much of the gap to the plain floors is that
// line alone. The page floors run the very statements of a customers or orders page (the API's own
// compiled queries, on a copy of the API's data) in one batch and answer the constant body: what
// the page's D1 work costs before the API maps, shapes or serializes anything.
import { customersPageStatements } from "../../src/customers/customers.queries.ts";
import { ordersPageStatements } from "../../src/orders/orders.queries.ts";

interface FloorEnv {
  DB: D1Database;
}

const CONSTANT_BODY = JSON.stringify({ data: [{ id: 1, name: "Andheri East", city_id: 1 }] });

function logLine(request: Request, path: string, started: number, d1RoundTrips: number): void {
  // The fields of the API's request log line (src/platform/middleware/request-log.ts), so the same size.
  console.log(
    JSON.stringify({
      request_id: crypto.randomUUID(),
      method: request.method,
      path,
      status: 200,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      key_id: "key_0000000000000000",
      d1_round_trips: d1RoundTrips,
      d1_rows_read: d1RoundTrips * 60,
      kv_reads: 0,
    }),
  );
}

export default {
  async fetch(request, env): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const { pathname } = url;
    const logged = pathname.endsWith("-logged");
    const floor = logged ? pathname.slice(0, -"-logged".length) : pathname;
    if (floor === "/constant") {
      if (logged) logLine(request, pathname, started, 0);
      return new Response(CONSTANT_BODY, { headers: { "Content-Type": "application/json" } });
    }
    if (floor === "/select1") {
      const row = await env.DB.prepare("select 1 as one").first<{ one: number }>();
      if (logged) logLine(request, pathname, started, 1);
      return Response.json({ data: row });
    }
    if (floor === "/customers-page" || floor === "/orders-page") {
      const page = { count: 10, skip: 0 };
      const phoneKey = url.searchParams.get("phone") ?? "";
      const statements =
        floor === "/customers-page" ? customersPageStatements(page) : ordersPageStatements({ phoneKey }, page);
      const results = await env.DB.batch(statements.map((q) => env.DB.prepare(q.sql).bind(...q.params)));
      // The page's one row, its list not empty, so that a floor on the wrong data shows as failing.
      const row = results[0]?.results[0] as Record<string, unknown> | undefined;
      if (!row || Object.values(row).includes("[]")) return new Response("empty page", { status: 500 });
      if (logged) logLine(request, pathname, started, 1);
      return new Response(CONSTANT_BODY, { headers: { "Content-Type": "application/json" } });
    }
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<FloorEnv>;
