// The floors of `npm run bench`, served by their own `wrangler dev` beside the API's: a request with no work at all
// (a constant JSON body), and with one D1 round trip (`select 1`). The API's figures are ratios to these, so that
// the machine's speed cancels out. The "-logged" variants also write the API's log line, which every request of
// the API writes (docs/specification.md section 6) and which is costly under `wrangler dev`. "/answer" and
// "/select1-answer" are the floors answering an endpoint's own body and headers, set by `PUT /answer` (api.ts).
import { constantAnswer, floorLogLine, selectOneAnswer } from "./floor-work.ts";

interface FloorEnv {
  DB: D1Database;
}

/** What `PUT /answer` set: `wrangler dev` serves the floors from one isolate, which keeps it. */
let answer: { headers: [string, string][]; body: string } | null = null;

export default {
  async fetch(request, env): Promise<Response> {
    const started = performance.now();
    const { pathname } = new URL(request.url);
    const logged = pathname.endsWith("-logged");
    const floor = logged ? pathname.slice(0, -"-logged".length) : pathname;
    if (floor === "/constant") {
      if (logged) floorLogLine(request.method, pathname, started, 0);
      return constantAnswer();
    }
    if (floor === "/answer" && request.method === "PUT") {
      answer = await request.json();
      return new Response(null, { status: 204 });
    }
    if (floor === "/answer" && answer) {
      if (logged) floorLogLine(request.method, pathname, started, 0);
      return new Response(answer.body, { headers: answer.headers });
    }
    if (floor === "/select1-answer" && answer) {
      await env.DB.prepare("select 1 as one").first();
      if (logged) floorLogLine(request.method, pathname, started, 1);
      return new Response(answer.body, { headers: answer.headers });
    }
    if (floor === "/select1") {
      const response = await selectOneAnswer(env.DB);
      if (logged) floorLogLine(request.method, pathname, started, 1);
      return response;
    }
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<FloorEnv>;
