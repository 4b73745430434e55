// `npm start`'s one-time link into the field app: an enrollment code for the demo sales agent (the
// one with the most customers, so that the app shows a full book), printed as the QR code's link
// `<base>/enroll#<code>` (docs/specification.md section 9). Opening it enrolls a browser as that agent.
import { Enrollments } from "../../src/enroll/enroll.codes.ts";
import { KeyStore } from "../../src/keys/keys.store.ts";
import type { Platform } from "../lib/local.ts";

export async function demoAppLink(platform: Platform, base: string): Promise<string | null> {
  const { DB, KEYS } = platform.env;
  const agent = await DB.prepare(
    "SELECT salesagent_id AS id FROM customers WHERE salesagent_id IS NOT NULL GROUP BY salesagent_id ORDER BY count(*) DESC, salesagent_id LIMIT 1",
  ).first<{ id: number }>();
  if (!agent) return null;
  const enrollments = new Enrollments(DB, new KeyStore(KEYS, DB));
  const made = await enrollments.create({ agent_id: agent.id, mode: "test", name: "demo app" }, { actor: "start" });
  return `${base}/enroll#${made.code}`;
}
