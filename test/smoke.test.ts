import { env, exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { KeyStore } from "../src/keys/store.ts";

it("serves customers", async () => {
  const { secret } = await new KeyStore(env.KEYS).create({ name: "t", mode: "test" });
  await env.DB.batch([
    env.DB.prepare("insert into states values (1,'MH','Maharashtra')"),
    env.DB.prepare("insert into cities values (1,'Mumbai','MUM',1)"),
    env.DB.prepare("insert into areas values (1,'Andheri East','AE',1)"),
    env.DB.prepare("insert into postal_codes values (1,'400069')"),
    env.DB.prepare("insert into customers (id,contact_person_name,company_name,display_name,email,contactperson_number,phone_key,company_phone,gst_treatment,gstin,customer_code,status,approval) values (1,'A','B','B',null,'+91 98200 00001','9820000001',null,'Unregistered','',null,'Active','accepted')"),
    env.DB.prepare("insert into customer_addresses values (1,'l1','',1,1)"),
  ]);
  const res = await (exports as any).default.fetch("http://x/api/customers?count=1", { headers: { Authorization: `Bearer ${secret}` } });
  console.log(res.status, [...res.headers], await res.text());
  const r2 = await (exports as any).default.fetch("http://x/api/orders?phone_number=9820000001", { headers: { Authorization: `Bearer ${secret}` } });
  console.log(r2.status, await r2.text());
  const r3 = await (exports as any).default.fetch("http://x/areas", { headers: { Authorization: `Bearer ${secret}` } });
  console.log(r3.status, [...r3.headers], await r3.text());
  const r4 = await (exports as any).default.fetch("http://x/api/customers?count=0&skip=-1&page=2", { headers: { Authorization: `Bearer ${secret}` } });
  console.log(r4.status, await r4.text());
  const r5 = await (exports as any).default.fetch("http://x/api/customers", { method: "DELETE", headers: { Authorization: `Bearer ${secret}` } });
  console.log(r5.status, [...r5.headers], await r5.text());
  expect(res.status).toBe(200);
});
