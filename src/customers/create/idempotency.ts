// Idempotency-Key for POST /customers/create (SPEC.md section 5): the header's rule, the key as
// stored, the hash that says whether two requests carry the same parameters, and the replay.
import type { Context } from "hono";
import type { FieldError } from "../../lib/errors.ts";
import type { NewCustomer } from "./validate.ts";
import { sha256Hex } from "../../lib/crypto.ts";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** A stored answer is replayed for this long; after it, the key is as good as new. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

const KEY_RULE = /^[\x20-\x7e]{1,255}$/;

/** The header's value when it is usable, or the field error that says why not. Absent: neither. */
export function readIdempotencyKey(header: string | undefined): { key?: string; error?: FieldError } {
  if (header === undefined) return {};
  if (!KEY_RULE.test(header)) {
    return { error: { field: IDEMPOTENCY_HEADER, message: "must be 1 to 255 printable ASCII characters" } };
  }
  return { key: header };
}

/**
 * The key as stored: scoped to the API key that sent it, so that two callers who happen to pick the
 * same key never see each other's customer. API key ids (key_ + base62) hold no ":".
 */
export function storedKey(apiKeyId: string, key: string): string {
  return `${apiKeyId}:${key}`;
}

/** SHA-256 (hex) of the merged, normalized parameters: what decides "the same parameters". */
export async function requestHash(input: NewCustomer): Promise<string> {
  const canonical = JSON.stringify([
    input.companyName,
    input.mobileNumber,
    input.contactPersonName,
    input.address,
    input.areaId,
    input.postalcodeId,
    input.gstTreatment,
    input.gstin,
    input.salesagentId,
  ]);
  return sha256Hex(canonical);
}

export function isFresh(createdAt: number, now: number): boolean {
  return now - createdAt < REPLAY_WINDOW_MS;
}

/** The first answer again, byte for byte, marked as a replay. */
export function replay(c: Context, stored: { status: number; body: string }): Response {
  return c.body(stored.body, stored.status as 201, { "Content-Type": "application/json", [REPLAYED_HEADER]: "true" });
}
