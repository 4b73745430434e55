import { env } from "cloudflare:workers";
import { it } from "vitest";
it("probe", async () => {
  console.error("binding", typeof env.RATE_LIMITER, env.RATE_LIMITER && Object.getPrototypeOf(env.RATE_LIMITER)?.constructor?.name);
  const t = Date.now();
  let ok = 0;
  for (let i = 0; i < 700; i++) {
    const r = await env.RATE_LIMITER!.limit({ key: "probe" });
    if (r.success) ok++;
    if (i % 100 === 0) console.error(i, Date.now() - t, ok);
  }
  console.error("ok", ok, Date.now() - t);
}, 120000);
