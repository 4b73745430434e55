// The floors of `npm run bench`, served by their own `wrangler dev` beside the API's: a request with no work at all
// (a constant JSON body), and with one D1 round trip (`select 1`). The API's figures are ratios to these, so that
// the machine's speed cancels out. The "-logged" variants also write the API's log line, which every request of
// the API writes (docs/specification.md section 6) and which is costly under `wrangler dev`.
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
    const { pathname } = new URL(request.url);
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
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<FloorEnv>;
