// The two floors of `npm run bench`, served by their own `wrangler dev` beside the API's: what a
// request costs with no work at all (a constant JSON body), and with one D1 round trip (`select 1`).
// The API's figures are read as ratios to these, so that the machine's speed cancels out.
interface FloorEnv {
  DB: D1Database;
}

const CONSTANT_BODY = JSON.stringify({ data: [{ id: 1, name: "Andheri East", city_id: 1 }] });

export default {
  async fetch(request, env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/constant") {
      return new Response(CONSTANT_BODY, { headers: { "Content-Type": "application/json" } });
    }
    if (pathname === "/select1") {
      const row = await env.DB.prepare("select 1 as one").first<{ one: number }>();
      return Response.json({ data: row });
    }
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<FloorEnv>;
