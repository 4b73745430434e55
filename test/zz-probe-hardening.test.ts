import { it } from "vitest";
import { call } from "./helpers/http.ts";
import { makeKey } from "./helpers/keys.ts";
it("probe", async () => {
  const { secret } = await makeKey();
  let t = Date.now();
  const r = await call("/api/customers?count=0", { key: secret });
  console.error("first", r.status, Date.now() - t);
  t = Date.now();
  for (let i = 0; i < 20; i++) await call("/api/customers?count=0", { key: secret });
  console.error("20 seq", Date.now() - t);
  t = Date.now();
  await Promise.all(Array.from({ length: 20 }, () => call("/api/customers?count=0", { key: secret })));
  console.error("20 par", Date.now() - t);
}, 60000);
