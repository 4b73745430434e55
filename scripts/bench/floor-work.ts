// What the floors do (docs/performance.md, "The benchmark"): served by floors.ts, and run by the own-time loop
// (own-time.worker.ts) beside the API's requests.
const CONSTANT_BODY = JSON.stringify({ data: [{ id: 1, name: "Andheri East", city_id: 1 }] });

/** The fields of the API's request log line (src/platform/middleware/request-log.ts), so the same size. */
export function floorLogLine(method: string, path: string, started: number, d1RoundTrips: number): void {
  console.log(
    JSON.stringify({
      request_id: crypto.randomUUID(),
      method,
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

/** No work at all: a constant JSON body. */
export const constantAnswer = () => new Response(CONSTANT_BODY, { headers: { "Content-Type": "application/json" } });

/** One D1 round trip. */
export async function selectOneAnswer(db: D1Database): Promise<Response> {
  const row = await db.prepare("select 1 as one").first<{ one: number }>();
  return Response.json({ data: row });
}
