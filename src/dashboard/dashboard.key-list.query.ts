// The key list's filters and page read from its address (refused by name when they break a rule), and written back.
import { errors, type FieldError } from "../platform/errors.ts";
import { MAX_NAME_LENGTH } from "../keys/keys.rules.ts";
import { isKeyMode, KEY_ID_PATTERN, KEY_MODES } from "../keys/keys.secret.ts";
import {
  KEY_STATES,
  type KeyListAgent,
  type KeyListCounts,
  type KeyListFilters,
  type KeyStore,
  ROTATION_STATES,
} from "../keys/keys.store.ts";
import { type AdminKeyWithUsage, withUsageView } from "../admin/admin.keys.ts";

export const KEY_LIST_PAGE_SIZE = 50;
/** The query parameters, in the order the filter form sends them; `before` is the key the page starts after. */
export const KEY_LIST_PARAMS = ["name", "agent", "mode", "status", "rotation", "before"] as const;
export type KeyListQuery = Partial<Record<(typeof KEY_LIST_PARAMS)[number], string>>;

export interface KeyList {
  keys: AdminKeyWithUsage[];
  filters: KeyListFilters;
  /** The key this page starts after, or null: the newest keys. */
  before: string | null;
  /** The id to ask for the next (older) page with, or null: no older key matches. */
  older: string | null;
  pageSize: number;
  counts: KeyListCounts;
  agents: KeyListAgent[];
}

/** Every broken parameter in one 422; an empty parameter is no filter. */
export function readKeyListQuery(query: KeyListQuery): { filters: KeyListFilters; before: string | null } {
  const problems: FieldError[] = [];
  const filters: KeyListFilters = {};
  const given = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  const name = given(query.name);
  if (name !== undefined) {
    if (name.length > MAX_NAME_LENGTH)
      problems.push({ field: "name", message: `must be at most ${MAX_NAME_LENGTH} characters` });
    else filters.name = name;
  }
  const agent = given(query.agent);
  if (agent === "none") filters.agent = "none";
  else if (agent !== undefined) {
    if (/^[1-9]\d{0,14}$/.test(agent)) filters.agent = Number(agent);
    else problems.push({ field: "agent", message: "must be a sales agent's id (a whole number from 1) or none" });
  }
  const mode = given(query.mode);
  if (mode !== undefined) {
    if (isKeyMode(mode)) filters.mode = mode;
    else problems.push({ field: "mode", message: `must be one of ${KEY_MODES.join(", ")}` });
  }
  const status = given(query.status);
  if (status !== undefined) {
    const state = KEY_STATES.find((s) => s === status);
    if (state) filters.status = state;
    else problems.push({ field: "status", message: `must be one of ${KEY_STATES.join(", ")}` });
  }
  const rotation = given(query.rotation);
  if (rotation !== undefined) {
    const state = ROTATION_STATES.find((r) => r === rotation);
    if (state) filters.rotation = state;
    else problems.push({ field: "rotation", message: `must be one of ${ROTATION_STATES.join(", ")}` });
  }
  const before = given(query.before) ?? null;
  if (before !== null && !KEY_ID_PATTERN.test(before))
    problems.push({ field: "before", message: "must be a key's id" });
  if (problems.length > 0) throw errors.validation(problems);
  return { filters, before };
}

export async function listKeyPage(store: KeyStore, filters: KeyListFilters, before: string | null): Promise<KeyList> {
  const size = KEY_LIST_PAGE_SIZE;
  const read = await store.listPage(filters, { before, size });
  return {
    keys: read.keys.map((key) => withUsageView(store, key)),
    filters,
    before,
    older: read.older,
    pageSize: size,
    counts: read.counts,
    agents: read.agents,
  };
}

/** The address of the list with these filters, starting after the key `before` (none: the newest keys). */
export function listHref(filters: KeyListFilters, before: string | null = null): string {
  const query: KeyListQuery = {
    name: filters.name,
    agent: filters.agent === undefined ? undefined : String(filters.agent),
    mode: filters.mode,
    status: filters.status,
    rotation: filters.rotation,
    before: before ?? undefined,
  };
  const params = new URLSearchParams();
  for (const name of KEY_LIST_PARAMS) {
    const value = query[name];
    if (value !== undefined) params.set(name, value);
  }
  const search = params.toString();
  return search === "" ? "/dashboard" : `/dashboard?${search}`;
}

/** Only an address of the key list itself: a form's field must not send the browser elsewhere. */
export function listAddress(given: string | undefined): string {
  return given !== undefined && /^\/dashboard(\?[\w.~%&=+-]*)?$/.test(given) ? given : "/dashboard";
}
