// Rotation's input rules, and what the request path decides from a key's KV copy alone (section 9): no D1 read.
import { z } from "@hono/zod-openapi";
import { errors, type FieldError } from "../platform/errors.ts";
import { seal, unseal } from "../platform/lib/crypto.ts";
import { BoundedLru } from "../platform/lib/lru.ts";
import type { AuthFailure } from "./keys.rules.ts";
import type { KeyRecord } from "./keys.record.ts";
import type { RotationFilter } from "./keys.records.ts";
import { checkAgentId, checkMode, collect } from "./keys.rules.ts";
import { KEY_ID_PATTERN } from "./keys.secret.ts";

export const KEY_ROTATION_HEADER = "Key-Rotation";
export const DEFAULT_ROTATION_GRACE_SECONDS = 7 * 86_400;
export const MAX_ROTATION_GRACE_SECONDS = 7 * 86_400;
/** After its successor's first use, the old key works this much longer (or to its grace's end if sooner). */
export const FIRST_USE_CUT_MS = 3_600_000;
/** Uses of the old key this soon after the successor's first use are requests in flight, not counted. */
export const IN_FLIGHT_MS = 60_000;
/** One request may name at most this many ids (the dashboard's select-many and `keys rotate ID...`). */
export const MAX_ROTATION_IDS = 1_000;

export interface RotationRequest {
  ids?: unknown;
  mode?: unknown;
  agentId?: unknown;
}

/** One 422 naming every broken field; at least one of the three must be given. */
export function checkRotationFilter(input: RotationRequest): RotationFilter {
  const problems: FieldError[] = [];
  const given = (v: unknown) => v !== undefined && v !== null;
  if (!given(input.ids) && !given(input.mode) && !given(input.agentId)) {
    throw errors.validation([{ field: "request", message: "must name ids, mode or agent_id (at least one)" }]);
  }
  let ids: string[] | null = null;
  if (given(input.ids)) {
    const list = input.ids;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      list.length > MAX_ROTATION_IDS ||
      !list.every((id) => typeof id === "string" && KEY_ID_PATTERN.test(id))
    ) {
      problems.push({
        field: "ids",
        message: `must be a list of 1 to ${MAX_ROTATION_IDS} key ids (key_ and 16 letters or digits)`,
      });
    } else ids = [...new Set(list as string[])];
  }
  const mode = given(input.mode) ? collect(problems, () => checkMode(input.mode)) : null;
  const agentId = given(input.agentId) ? collect(problems, () => checkAgentId(input.agentId)) : null;
  if (problems.length > 0) throw errors.validation(problems);
  return { ids, mode: mode ?? null, agentId: agentId ?? null };
}

const GRACE_RULE = `must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_SECONDS}`;

/** POST /keys/rotate's body, the one statement of the grace rule: served and documented by its route. */
export const RotateBodySchema = z.strictObject(
  {
    grace: z
      .number({ error: GRACE_RULE })
      .int({ error: GRACE_RULE })
      .min(0, { error: GRACE_RULE })
      .max(MAX_ROTATION_GRACE_SECONDS, { error: GRACE_RULE })
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `has unknown field(s): ${issue.keys.join(", ")}` : "must be a JSON object",
  },
);

/** `Key-Rotation: due` for a working key due by its copy or the fleet's due set, or already rotated (the answer may be
 * lost); a copy that says rolled outranks a due set not yet rewritten. */
export function rotationDue(record: KeyRecord, dueSet: ReadonlySet<string>): boolean {
  const state = record.rotation?.state;
  if (state === "due" || state === "rotated") return true;
  return state !== "rolled" && dueSet.has(record.id);
}

/** A use of an old key past its successor's first use and the minute of requests in flight. */
export function isLateUse(record: KeyRecord, nowMs: number): boolean {
  const first = record.successor_first_used_at;
  return first !== null && nowMs - Date.parse(first) >= IN_FLIGHT_MS;
}

/** Why an expired key is refused: a rotation's or a roll's old key past its time says so. */
export function expiredBecause(record: KeyRecord): AuthFailure {
  if (!record.replaced_by) return "expired";
  return record.rotation?.state === "rotated" ? "rotated" : "grace_ended";
}

/** A key with no rotation due may rotate itself only once it is this old (docs/specification.md section 9). */
export const MIN_SELF_ROTATION_AGE_MS = 24 * 3_600_000;

export function rotatedTooRecently(record: KeyRecord) {
  const from = new Date(Date.parse(record.created_at) + MIN_SELF_ROTATION_AGE_MS).toISOString();
  return errors.conflict(
    `Key ${record.id} was rotated too recently: with no rotation due, a key may rotate itself once it is 24 hours old (from ${from})`,
  );
}

export function alreadyRotated(id: string) {
  return errors.conflict(`Key ${id} is already rotated: use the successor`);
}

export function rolledNotRotated(record: KeyRecord) {
  return errors.conflict(
    `Key ${record.id} was rolled (its replacement is ${record.replaced_by}): a rolled key cannot rotate; use its replacement`,
  );
}

/** Successors whose first use this isolate has reported lately: one report each, until their copies say so. */
const reported = new BoundedLru<true>(1_000, IN_FLIGHT_MS);

/** True once per isolate and minute for a successor awaiting its first use: the caller reports it. */
export function claimFirstUseReport(record: KeyRecord, nowMs: number): boolean {
  if (!record.awaits_first_use || reported.get(record.id, nowMs)) return false;
  reported.set(record.id, true, nowMs);
  return true;
}

/** For tests: as a new isolate starts. */
export function clearFirstUseReports(): void {
  reported.clear();
}

const SEALED_VERSION = "v1";

/** Bound to both ids: a sealed value moved to another row does not open. */
function successorBinding(ids: { oldId: string; successorId: string }) {
  return { info: `key rotation successor ${ids.oldId}`, associatedData: `${ids.oldId}>${ids.successorId}` };
}

/** The successor's secret for a lost answer's retry, sealed under the old secret: `v1.<salt>.<iv>.<ciphertext>`. */
export async function sealSuccessorSecret(
  oldSecret: string,
  ids: { oldId: string; successorId: string },
  successorSecret: string,
): Promise<string> {
  const box = await seal(oldSecret, successorSecret, successorBinding(ids));
  return [SEALED_VERSION, box.salt, box.iv, box.sealed].join(".");
}

/** Null when it does not open with this secret (another key's secret, a damaged or moved value). */
export async function openSuccessorSecret(
  oldSecret: string,
  ids: { oldId: string; successorId: string },
  text: string,
): Promise<string | null> {
  const [version, salt, iv, sealed] = text.split(".");
  if (version !== SEALED_VERSION || !salt || !iv || !sealed) return null;
  return unseal(oldSecret, { sealed, salt, iv }, successorBinding(ids));
}
