// Every HTTP test goes through call(): a request into the worker (in workerd, real D1 and KV),
// its status, headers and parsed body.
import { exports } from "cloudflare:workers";

export const BASE = "http://127.0.0.1:8787";

export interface CallOptions {
  method?: string;
  /** API key secret, sent as "Bearer <key>" */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

const worker = (exports as unknown as { default: { fetch: (req: Request) => Promise<Response> } }).default;

export async function call<T = any>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("Authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const url = path.startsWith("http") ? path : `${BASE}${path}`;
  const res = await worker.fetch(new Request(url, { method: options.method ?? "GET", headers, body }));
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text && (res.headers.get("Content-Type") ?? "").includes("json")) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** The error envelope that SPEC.md section 3 requires, for whole-body assertions. */
export function errorEnvelope(
  status: number,
  code: string,
  description: string,
  path: string,
  extra: Record<string, unknown> = {},
) {
  return { error: { code, description, source: `${BASE}${path}`, status_code: status, ...extra } };
}
