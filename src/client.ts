// The typed client (`order-lookup-service/client`, usage in docs/api.md): Hono's `hc` over the
// worker's own route definitions, so callers are checked against what it serves.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { hc, type ClientRequestOptions } from "hono/client";
import type { AppEnv } from "./platform/env.ts";
import type { AppType } from "./api.ts";

// hc demands every part a route describes (query, header, json, form) in every call, even an all-optional
// one; this lets such a part be left out. Type-only: nothing of the worker is bundled into a caller.
type OptionalParts<I> = { [K in keyof I as Partial<I[K]> extends I[K] ? K : never]?: I[K] } & {
  [K in keyof I as Partial<I[K]> extends I[K] ? never : K]: I[K];
};
type WithOptionalParts<E> = E extends { input: infer I } ? Omit<E, "input"> & { input: OptionalParts<I> } : E;
type Relaxed<S> = { [P in keyof S]: { [M in keyof S[P]]: WithOptionalParts<S[P][M]> } };
type SchemaOf<A> = A extends Hono<AppEnv, infer S> ? S : never;

/** The app's route type with all-optional parts made optional (paths without the /api prefix). */
export type ApiRoutes = OpenAPIHono<AppEnv, Relaxed<SchemaOf<AppType>>>;

export interface ClientOptions {
  fetch?: ClientRequestOptions["fetch"];
  /** Headers sent with every request besides Authorization. */
  headers?: Record<string, string>;
}

/** `baseUrl` is the service's origin (e.g. "https://orders.example.com"): the /api prefix is added. */
export function createClient(baseUrl: string | URL, apiKey: string, options: ClientOptions = {}) {
  const root = new URL("api", String(baseUrl).replace(/\/*$/, "/")).href;
  return hc<ApiRoutes>(root, {
    fetch: options.fetch,
    headers: { ...options.headers, Authorization: `Bearer ${apiKey}` },
  });
}

export type ApiClient = ReturnType<typeof createClient>;

/** What the app keeps of a rotated key: its secret above all, stored before it is used. */
export interface RotatedKey {
  id: string;
  secret: string;
  replaces: string;
}

export interface KeyRotationOptions {
  /** The key the app has now. */
  secret: string;
  /** Stores the new key where the app keeps its secret; it is used only once this resolves. */
  store(key: RotatedKey): Promise<void>;
  fetch?: ClientRequestOptions["fetch"];
}

export interface KeyRotation {
  /** Give it to createClient (or call it): it sends the current key and rotates it once when told to. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The key in use now. */
  readonly secret: string;
}

/**
 * Carries out the rotation that the service asks for (docs/specification.md section 9): an answer with
 * `Key-Rotation: due` makes it call POST /keys/rotate once with the key in use, hand the successor to
 * `store`, and send the successor from then on. A lost rotate answer is retried the same way at the next
 * such answer (the old key still works and still says due), and gets the same successor again.
 */
export function keyRotation(baseUrl: string | URL, options: KeyRotationOptions): KeyRotation {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const rotateUrl = new URL("api/keys/rotate", String(baseUrl).replace(/\/*$/, "/")).href;
  let secret = options.secret;
  let rotating: Promise<void> | null = null;

  async function rotate(old: string): Promise<void> {
    const res = await send(rotateUrl, { method: "POST", headers: { Authorization: `Bearer ${old}` } });
    if (res.status !== 200 && res.status !== 201) return;
    const { data } = (await res.json()) as { data: RotatedKey };
    await options.store({ id: data.id, secret: data.secret, replaces: data.replaces });
    if (secret === old) secret = data.secret;
  }

  return {
    get secret() {
      return secret;
    },
    async fetch(input, init) {
      const used = secret;
      const request = new Request(input, init);
      request.headers.set("Authorization", `Bearer ${used}`);
      const res = await send(request);
      if (res.headers.get("Key-Rotation") === "due" && used === secret) {
        // One rotate at a time; a failure (a lost answer) is left for the next answer that says due.
        rotating ??= rotate(used)
          .catch(() => undefined)
          .finally(() => (rotating = null));
        await rotating;
      }
      return res;
    },
  };
}
