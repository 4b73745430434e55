// The typed client (`order-lookup-service/client`, usage in docs/api.md): Hono's `hc` over the
// worker's own route definitions, so callers are checked against what it serves.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { hc, type ClientRequestOptions } from "hono/client";
import type { AppEnv } from "./platform/env.ts";
import type { AppType } from "./api.ts";
import type { z } from "@hono/zod-openapi";
import type { EnrolledKeySchema } from "./enroll/enroll.schemas.ts";

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

/** A key as POST /enroll answers it, with its secret (docs/specification.md section 9). */
export type EnrolledKey = z.infer<typeof EnrolledKeySchema>;

/** The service refused the exchange: `status` and the error envelope's `error` say why. */
export class EnrollmentError extends Error {
  override readonly name = "EnrollmentError";
  constructor(
    readonly status: number,
    readonly error: { code: string; description: string; status_code: number } | null,
  ) {
    super(error?.description ?? `POST /enroll answered ${status}`);
  }
}

/**
 * Exchanges an enrollment code (as scanned or typed: any case, dashes or not) for the phone's key. Safe to call
 * again with the same code when an answer was lost: within 10 minutes of its use it answers the same key and
 * secret (`status` 200 instead of 201).
 */
export async function exchangeEnrollmentCode(
  baseUrl: string | URL,
  code: string,
  deviceName?: string,
  options: Pick<ClientOptions, "fetch"> = {},
): Promise<{ status: 200 | 201; key: EnrolledKey }> {
  const root = new URL("api", String(baseUrl).replace(/\/*$/, "/")).href;
  const client = hc<ApiRoutes>(root, { fetch: options.fetch });
  const res = await client.enroll.$post({
    json: deviceName === undefined ? { code } : { code, device_name: deviceName },
  });
  const body = (await res.json().catch(() => null)) as { data?: EnrolledKey; error?: EnrollmentError["error"] } | null;
  if ((res.status === 200 || res.status === 201) && body?.data) return { status: res.status, key: body.data };
  throw new EnrollmentError(res.status, body?.error ?? null);
}
