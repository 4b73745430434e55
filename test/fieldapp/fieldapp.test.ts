// The field app's files at /app/ (docs/specification.md section 10): the page with its own CSP, the
// content-named files cached for good, the service worker never cached by HTTP, the manifest and
// its icons; the behaviour in a browser is e2e/field-app.test.ts's.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const BASE = "http://example.com";
const get = (path: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`${BASE}${path}`, { headers, redirect: "manual" });

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

async function page(): Promise<{ html: string; names: Record<string, string> }> {
  const html = await (await get("/app/")).text();
  const names = {
    script: html.match(/src="\/app\/(app-[0-9a-f]{10}\.js)"/)?.[1] ?? "",
    style: html.match(/href="\/app\/(app-[0-9a-f]{10}\.css)"/)?.[1] ?? "",
    manifest: html.match(/href="\/app\/(manifest-[0-9a-f]{10}\.webmanifest)"/)?.[1] ?? "",
  };
  return { html, names };
}

describe("the field app's files", () => {
  it("serves the page at /app/ and /app/enroll with its own CSP, checked at every load", async () => {
    for (const path of ["/app/", "/app/enroll"]) {
      const res = await get(path);
      expect({
        status: res.status,
        type: res.headers.get("Content-Type"),
        csp: res.headers.get("Content-Security-Policy"),
        cache: res.headers.get("Cache-Control"),
      }).toEqual({ status: 200, type: "text/html; charset=utf-8", csp: CSP, cache: "no-cache" });
      expect(await res.text()).toContain('<section id="status" aria-label="Sync status">');
    }
    const again = await get("/app/", { "If-None-Match": (await get("/app/")).headers.get("ETag")! });
    expect(again.status).toBe(304);
  });

  it("redirects /app to /app/", async () => {
    const res = await get("/app");
    expect({ status: res.status, location: res.headers.get("Location") }).toEqual({ status: 301, location: "/app/" });
  });

  it("names the script, styles and manifest by their content and lets them be cached for a year", async () => {
    const { names } = await page();
    for (const [name, type] of [
      [names.script, "text/javascript; charset=utf-8"],
      [names.style, "text/css; charset=utf-8"],
      [names.manifest, "application/manifest+json"],
    ] as const) {
      expect(name).not.toBe("");
      const res = await get(`/app/${name}`);
      expect({
        status: res.status,
        type: res.headers.get("Content-Type"),
        cache: res.headers.get("Cache-Control"),
      }).toEqual({
        status: 200,
        type,
        cache: "public, max-age=31536000, immutable",
      });
    }
  });

  it("serves the service worker under /app/ with no HTTP caching, listing only the app's own files", async () => {
    const res = await get("/app/sw.js");
    expect({
      status: res.status,
      type: res.headers.get("Content-Type"),
      cache: res.headers.get("Cache-Control"),
    }).toEqual({
      status: 200,
      type: "text/javascript; charset=utf-8",
      cache: "no-store",
    });
    const body = await res.text();
    const { names } = await page();
    for (const name of Object.values(names)) expect(body).toContain(`/app/${name}`);
    expect(body).not.toContain("/api");
  });

  it("has a manifest for an installable app, with PNG icons of 192 and 512 pixels made at build time", async () => {
    const { names } = await page();
    const manifest = (await (await get(`/app/${names.manifest}`)).json()) as any;
    expect(manifest).toMatchObject({ start_url: "/app/", scope: "/app/", display: "standalone" });
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(["192x192", "512x512"]);
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const res = await get(`/app/${icon.src}`);
      expect(res.headers.get("Content-Type")).toBe("image/png");
      const bytes = new Uint8Array(await res.arrayBuffer());
      const view = new DataView(bytes.buffer);
      // PNG signature, then IHDR's width and height.
      expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
      expect(`${view.getUint32(16)}x${view.getUint32(20)}`).toBe(icon.sizes);
    }
  });

  it("answers an unknown file under /app/ with the service's 404 envelope", async () => {
    const res = await get("/app/nothing-here.js");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});
