// The enrollment helper: a phone exchanges the code of its QR code for its own key (docs/specification.md
// section 9, Enrollment).
import type { EnrolledKey, ErrorEnvelope } from "./api.gen.js";
import { type FetchLike, routes } from "./client.js";

/** The service refused the exchange: `status` and the error envelope's `error` say why (401 used, 429 ...). */
export class EnrollmentError extends Error {
  override readonly name = "EnrollmentError";
  constructor(
    readonly status: number,
    readonly error: ErrorEnvelope["error"] | null,
  ) {
    super(error?.description ?? `POST /enroll answered ${status}`);
  }
}

/**
 * Exchanges an enrollment code (as scanned or typed: any case, dashes or not) for the phone's key. Safe to call
 * again with the same code when an answer was lost: within 10 minutes of its use it answers the same key and
 * secret (`status` 200 instead of 201). A failure to reach the service rejects with fetch's own error.
 */
export async function exchangeEnrollmentCode(
  baseUrl: string | URL,
  code: string,
  deviceName?: string,
  options: { fetch?: FetchLike } = {},
): Promise<{ status: 200 | 201; key: EnrolledKey }> {
  const res = await routes(baseUrl, { fetch: options.fetch }).enroll.$post({
    json: deviceName === undefined ? { code } : { code, device_name: deviceName },
  });
  if (res.status === 200 || res.status === 201) return { status: res.status, key: (await res.json()).data };
  const body = (await res.json().catch(() => null)) as Partial<ErrorEnvelope> | null;
  throw new EnrollmentError(res.status, body?.error ?? null);
}
