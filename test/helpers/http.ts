// Every HTTP test goes through call(): a request into the worker (in workerd, real D1 and KV),
// its status, headers and parsed body. Every answer is checked against the OpenAPI document that
// the worker serves (./contract.ts) before the test sees it, so no test can forget the check.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { Contract } from "./contract.ts";

export const BASE = "http://127.0.0.1:8787";

export interface CallOptions {
  method?: string;
  /** API key secret, sent as "Bearer <key>" */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** "manual" answers a redirect itself instead of following it (the worker's fetch follows by default). */
  redirect?: "follow" | "manual";
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A way to send a request into the worker: its own fetch, or the app with other bindings. */
export type Fetcher = (request: Request) => Promise<Response>;

const worker = (exports as unknown as { default: { fetch: Fetcher } }).default;

let contract: Promise<Contract> | undefined;

/** The contract: the document as the real worker serves it, loaded once per test file. */
export function loadContract(): Promise<Contract> {
  contract ??= (async () => {
    const res = await worker.fetch(new Request(`${BASE}/openapi.json`));
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}: ${await res.text()}`);
    return new Contract(await res.json());
  })();
  return contract;
}

export async function call<T = any>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  return callVia<T>((request) => worker.fetch(request), path, options);
}

/** call() through another fetcher (e.g. the app with faulty bindings): same request, same check. */
export async function callVia<T = any>(
  fetcher: Fetcher,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("Authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const url = path.startsWith("http") ? path : `${BASE}${path}`;
  const method = options.method ?? "GET";
  const res = await fetcher(new Request(url, { method, headers, body, redirect: options.redirect }));
  const text = await res.text();
  (await loadContract()).check({ method, url, status: res.status, headers: res.headers, text });
  let parsed: unknown = undefined;
  if (text && (res.headers.get("Content-Type") ?? "").includes("json")) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** An answer's status and the named headers (null where absent): one object, so that one comparison shows every difference. */
export function statusAndHeaders(res: CallResult, ...names: string[]): Record<string, number | string | null> {
  return { status: res.status, ...Object.fromEntries(names.map((name) => [name, res.headers.get(name)])) };
}

/**
 * A fetch for clients (e.g. the typed client, @order-lookup/client) that goes into the worker and holds
 * every answer to the same contract as call().
 */
export async function contractFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const res = await worker.fetch(request);
  const text = await res.text();
  (await loadContract()).check({
    method: request.method,
    url: request.url,
    status: res.status,
    headers: res.headers,
    text,
  });
  return new Response(text === "" ? null : text, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** The error envelope that docs/specification.md section 3 requires, for whole-body assertions. */
export function errorEnvelope(
  status: number,
  code: string,
  description: string,
  path: string,
  extra: Record<string, unknown> = {},
) {
  return { error: { code, description, source: `${BASE}${path}`, status_code: status, ...extra } };
}

/** The answer is `status` with the envelope of this code and description; status and body are compared together. */
export function expectErrorAnswer(
  res: CallResult,
  status: number,
  code: string,
  description: string,
  path: string,
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: errorEnvelope(status, code, description, path),
  });
}

/** The 422 naming these broken parameters, in this order: the description joins "field message" with "; ". */
export function validationEnvelope(path: string, fields: { field: string; message: string }[]) {
  return errorEnvelope(422, "VALIDATION_ERROR", fields.map((f) => `${f.field} ${f.message}`).join("; "), path, {
    fields,
  });
}

/** GET path?query with the key is a 422 whose body names exactly these fields, in this order. */
export async function expectValidationFailure(
  path: string,
  query: string,
  key: string,
  fields: { field: string; message: string }[],
) {
  const res = await call(`${path}?${query}`, { key });
  expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: validationEnvelope(path, fields) });
}
