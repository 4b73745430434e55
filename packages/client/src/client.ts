// createClient: Hono's `hc` over the API's route types (api.gen.ts, generated from the worker's routes), so that
// paths, query parameters and each status's body are checked by the app's compiler.
import type { Hono } from "hono";
import { hc, type ClientRequestOptions } from "hono/client";
import type { ApiSchema } from "./api.gen.js";

// hc demands every part a route describes (query, header, json) in every call, even an all-optional one; this
// lets such a part be left out.
type OptionalParts<I> = { [K in keyof I as Partial<I[K]> extends I[K] ? K : never]?: I[K] } & {
  [K in keyof I as Partial<I[K]> extends I[K] ? never : K]: I[K];
};
type WithOptionalParts<E> = E extends { input: infer I } ? Omit<E, "input"> & { input: OptionalParts<I> } : E;
type Relaxed<S> = { [P in keyof S]: { [M in keyof S[P]]: WithOptionalParts<S[P][M]> } };

/** The API as hc sees it: every route under /api, paths without the prefix. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- hc reads no environment of the app
export type ApiApp = Hono<{}, Relaxed<ApiSchema>, "/">;

/** A fetch as the client calls it: the platform's own, or one of the app's (retries, tests, key rotation). */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  fetch?: FetchLike;
  /** Headers sent with every request besides Authorization. */
  headers?: Record<string, string>;
}

/** The API's root under `baseUrl`, the service's origin: its /api prefix added. */
export function apiRoot(baseUrl: string | URL): string {
  return new URL("api", String(baseUrl).replace(/\/*$/, "/")).href;
}

/** A client over the API's routes with no key (POST /enroll) or the headers given. */
export function routes(baseUrl: string | URL, options: ClientRequestOptions = {}) {
  return hc<ApiApp>(apiRoot(baseUrl), options);
}

export type ApiClient = ReturnType<typeof routes>;

/**
 * A client of the API at `baseUrl`, the service's origin (e.g. "https://orders.example.com"): the /api prefix
 * is added, and every request carries `apiKey` as its Bearer token.
 */
export function createClient(baseUrl: string | URL, apiKey: string, options: ClientOptions = {}): ApiClient {
  return routes(baseUrl, {
    fetch: options.fetch,
    headers: { ...options.headers, Authorization: `Bearer ${apiKey}` },
  });
}
