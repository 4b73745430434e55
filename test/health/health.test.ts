// GET /healthz (and /api/healthz): public, no data, no D1 or KV work; what `npm run deploy` calls
// as its smoke check after a deploy.
import { describe, expect, it } from "vitest";
import { version as packageVersion } from "../../package.json";
import { callWithEnv } from "../helpers/faults.ts";
import { BASE, call, errorEnvelope } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every header of a health answer (the request id and the timing vary per request). */
function healthHeaders(requestId: string) {
  return {
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "content-type": "application/json",
    "server-timing": expect.stringMatching(
      /^d1;dur=[\d.]+;desc="0 round trips",d1rows;desc="0 rows read",kv;dur=[\d.]+;desc="0 reads",total;dur=[\d.]+;desc="total"$/,
    ),
    "strict-transport-security": "max-age=15552000; includeSubDomains",
    vary: "Origin",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "x-request-id": requestId,
  };
}

describe("GET /healthz", () => {
  it("answers 200 without a key, at /api/healthz and at the root: status, version and mode, no data", async () => {
    for (const path of ["/api/healthz", "/healthz"]) {
      const res = await call(path, { headers: { "X-Request-Id": `health${path.replaceAll("/", "-")}` } });
      expect(res.status, path).toBe(200);
      // The runtime's version metadata gives this version's id (a UUID, random under the tests).
      expect(res.body, path).toEqual({ status: "ok", version: expect.stringMatching(UUID), mode: "test" });
      expect(Object.fromEntries(res.headers), path).toEqual(healthHeaders(`health${path.replaceAll("/", "-")}`));
    }
  });

  it("reports the same version on every call, and no D1 bookmark (it touches no data)", async () => {
    const [a, b] = [await call("/healthz"), await call("/api/healthz")];
    expect(a.body.version).toBe(b.body.version);
    expect(a.headers.get("X-D1-Bookmark")).toBeNull();
  });

  it("falls back to the package version where the runtime gives no version metadata", async () => {
    const res = await callWithEnv({ CF_VERSION_METADATA: { id: "", tag: "", timestamp: "" } }, "/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: packageVersion, mode: "test" });
  });

  it("names the live mode in a live deployment", async () => {
    const res = await callWithEnv({ MODE: "live" }, "/api/healthz");
    expect(res.body).toEqual({ status: "ok", version: expect.stringMatching(UUID), mode: "live" });
  });

  it("answers the same with a key, a wrong key or a broken header: it needs none and checks none", async () => {
    const { secret } = await makeKey({ name: "healthz" });
    for (const headers of [
      { Authorization: `Bearer ${secret}` },
      { Authorization: "Bearer sk_test_nope" },
      { Authorization: "Basic x" },
    ]) {
      const res = await call("/healthz", { headers });
      expect(res.status).toBe(200);
      expect(res.body.mode).toBe("test");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("fails with a 500 envelope, not a 200, when the deployment's MODE is broken", async () => {
    const res = await callWithEnv({ MODE: "staging" }, "/healthz");
    expect(res.status).toBe(500);
    expect(res.body).toEqual(
      errorEnvelope(500, "INTERNAL_ERROR", "The service failed to answer this request", "/healthz"),
    );
  });

  it("answers only GET and HEAD", async () => {
    const head = await call("/healthz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    const post = await call("/api/healthz", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD");
  });

  it("is left out of the published document, which names it in its description", async () => {
    const { body } = await call(`${BASE}/openapi.json`);
    expect(Object.keys(body.paths).filter((path) => path.includes("health"))).toEqual([]);
    expect(body.info.description).toContain("`GET /healthz`\n(a monitor's check: 200");
  });
});
