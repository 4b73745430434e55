// A typed client for TypeScript callers: Hono's `hc` over AppType (the route chain of
// src/api.ts), so that paths, query parameters and each status's body are checked by the
// compiler against the same createRoute definitions that the worker serves (and that /openapi.json
// is generated from).
//
//   import { createClient } from "order-lookup-service/client";
//   const api = createClient("http://127.0.0.1:8787", process.env.API_KEY!);
//   const res = await api.orders.$get({ query: { phone_number: "9820000001", count: "5" } });
//   if (res.status === 200) for (const order of (await res.json()).data.orders) console.log(order.order_no);
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { hc, type ClientRequestOptions } from "hono/client";
import type { AppEnv } from "./platform/env.ts";
import type { AppType } from "./api.ts";

// hc wants every part a route describes (query, header, json, form) in every call, even one whose
// members are all optional (an optional header, a body that may come as JSON or as a form): such
// a part may be left out. Type-only: nothing of the worker is bundled into a caller.
type OptionalParts<I> = { [K in keyof I as Partial<I[K]> extends I[K] ? K : never]?: I[K] } & {
  [K in keyof I as Partial<I[K]> extends I[K] ? never : K]: I[K];
};
type WithOptionalParts<E> = E extends { input: infer I } ? Omit<E, "input"> & { input: OptionalParts<I> } : E;
type Relaxed<S> = { [P in keyof S]: { [M in keyof S[P]]: WithOptionalParts<S[P][M]> } };
type SchemaOf<A> = A extends Hono<AppEnv, infer S> ? S : never;

/** The API's routes (paths without the /api prefix) with their inputs and typed answers: the app's own route type. */
export type ApiRoutes = OpenAPIHono<AppEnv, Relaxed<SchemaOf<AppType>>>;

export interface ClientOptions {
  /** A fetch to use instead of the global one (tests, proxies, retries). */
  fetch?: ClientRequestOptions["fetch"];
  /** Headers sent with every request besides Authorization. */
  headers?: Record<string, string>;
}

/**
 * A client of the API at `baseUrl` (e.g. "https://orders.example.com"; the /api prefix is added),
 * authenticated with `apiKey` (`sk_test_…` or `sk_live_…`).
 */
export function createClient(baseUrl: string | URL, apiKey: string, options: ClientOptions = {}) {
  const root = new URL("api", String(baseUrl).replace(/\/*$/, "/")).href;
  return hc<ApiRoutes>(root, {
    fetch: options.fetch,
    headers: { ...options.headers, Authorization: `Bearer ${apiKey}` },
  });
}

export type ApiClient = ReturnType<typeof createClient>;
