// Idempotency-Key for POST /customers/create (docs/specification.md section 5): the header's rule, the
// key as stored, and the fingerprint that says whether two requests carry the same parameters.
import type { FieldError } from "../../platform/errors.ts";
import { sha256Hex } from "../../platform/lib/crypto.ts";
import { PARAM_NAMES, PARAMS, type NewCustomer } from "./create.params.ts";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** A stored answer is replayed for this long; after it, the key is as good as new. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

const KEY_RULE = /^[\x20-\x7e]{1,255}$/;

export function readIdempotencyKey(header: string | undefined): { key?: string; error?: FieldError } {
  if (header === undefined) return {};
  if (!KEY_RULE.test(header)) {
    return { error: { field: IDEMPOTENCY_HEADER, message: "must be 1 to 255 printable ASCII characters" } };
  }
  return { key: header };
}

/**
 * Scoped to the API key's lineage (docs/specification.md section 5), and for an agent-bound key to its agent, so
 * that a request sent again after the app rotated its key, or after a new enrollment of the same agent, replays;
 * two callers who pick the same key never see each other's customer. Neither scope (key_ + base62, agent- and
 * digits) holds a ":".
 */
export function storedKey(apiKey: { lineage_id: string; agent_id: number | null }, key: string): string {
  return `${apiKey.agent_id === null ? apiKey.lineage_id : `agent-${apiKey.agent_id}`}:${key}`;
}

/** What decides "the same parameters" (docs/specification.md section 5): the table's order, normalized. */
export async function requestHash(input: NewCustomer): Promise<string> {
  return sha256Hex(JSON.stringify(PARAM_NAMES.map((name) => input[PARAMS[name].field])));
}

export function isFresh(createdAt: number, now: number): boolean {
  return now - createdAt < REPLAY_WINDOW_MS;
}
