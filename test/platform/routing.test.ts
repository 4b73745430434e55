import { describe, expect, it } from "vitest";
import { call, errorEnvelope } from "../helpers/http.ts";
import { makeKey } from "../helpers/api-keys.ts";

describe("paths and methods", () => {
  it("answers 404 in the envelope for an unknown path", async () => {
    const { secret } = await makeKey();
    for (const path of ["/api/nope", "/nope", "/api/customers/42", "/"]) {
      const res = await call(path, { key: secret });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorEnvelope(404, "NOT_FOUND", `No endpoint at ${path}`, path));
    }
  });

  it("answers 405 with Allow for another method on a known path", async () => {
    const { secret } = await makeKey();
    for (const path of ["/api/customers", "/customers", "/api/area", "/areas", "/api/orders"]) {
      const res = await call(path, { key: secret, method: "DELETE" });
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("GET, HEAD");
      expect(res.body).toEqual(
        errorEnvelope(405, "METHOD_NOT_ALLOWED", "DELETE is not allowed here; allowed: GET, HEAD", path),
      );
    }
  });
});
