// The keys command (docs/commands.md) as a function: the command line in, its lines out and its
// exit status back, on the bindings that `openPlatform` gives it. scripts/keys.ts runs it as
// `npm run keys`; the node-side tests run it in-process on one local platform for a whole file.
import type { AuditEntry } from "../../src/keys/keys.audit.ts";
import type { CreatedKey, KeyRecord } from "../../src/keys/keys.record.ts";
import {
  KeyStore,
  publicRecord,
  REVOCATION_BOUND_LOCAL_SECONDS,
  REVOCATION_BOUND_PRODUCTION_SECONDS,
} from "../../src/keys/keys.store.ts";
import type { KeyWithUsage } from "../../src/keys/keys.usage.ts";
import { KEY_ID_PATTERN } from "../../src/keys/keys.secret.ts";
import { Enrollments } from "../../src/enroll/enroll.codes.ts";
import { ApiError } from "../../src/platform/errors.ts";
import type { Platform, Target } from "../lib/local.ts";
import { failureLine as cliFailureLine, type Output, UsageError } from "../lib/cli.ts";
import { type Command, KEYS_COMMAND_LINE, parseKeysCommandLine } from "./commands.ts";

export interface KeysIo {
  out: Output;
  /** The bindings to act on, opened once the command line is known to be good; disposed after. */
  openPlatform(target: Target): Promise<Platform>;
}

/** Who the key audit log names for changes made here. */
const CLI = { actor: "cli" } as const;

interface Context {
  store: KeyStore;
  enrollments: Enrollments;
  json: boolean;
  /** Whose keys these are: the local state in PERSIST_DIR, or the account's. */
  target: Target;
  /** The deployment mode of the store's environment (its MODE var). */
  deploymentMode: string;
  out: Output;
}

/** Runs the command line `argv`: 0 when it did what it was asked, 1 (after one line on out.error) when not. */
export async function keysCommand(argv: readonly string[], io: KeysIo): Promise<number> {
  const { out } = io;
  try {
    const parsed = parseKeysCommandLine(argv);
    if (parsed.help) {
      out.log(KEYS_COMMAND_LINE.usage);
      return 0;
    }
    const { cmd, json, remote, environment } = parsed;
    const target = { remote, environment };
    const platform = await io.openPlatform(target);
    try {
      const store = new KeyStore(platform.env.KEYS, platform.env.DB);
      const enrollments = new Enrollments(platform.env.DB, store);
      await run(cmd, { store, enrollments, json, target, deploymentMode: String(platform.env.MODE), out });
    } finally {
      await platform.dispose();
    }
    return 0;
  } catch (err) {
    out.error(failureLine(err));
    return 1;
  }
}

async function run(cmd: Command, ctx: Context): Promise<void> {
  const { store, json, out } = ctx;
  switch (cmd.command) {
    case "create": {
      const created = await store.create(
        { name: cmd.name, mode: cmd.mode, expiresInSeconds: cmd.expiresIn, scopes: cmd.scopes, agentId: cmd.agentId },
        CLI,
      );
      noteMode(ctx, cmd.mode, "this");
      printNewKey(
        out,
        created,
        json,
        `Created ${cmd.mode}-mode key ${created.record.id} "${created.record.name}", ${expiry(created.record)}.`,
      );
      if (created.copyPending) warnPending(out, created.record.id, "may be refused");
      return;
    }
    case "list": {
      const rows = (await store.listWithUsage()).map((r) => listed(r, store));
      if (json) out.log(JSON.stringify(rows));
      else if (rows.length === 0) out.log(`No keys in ${await stateRead(ctx.target)}.`);
      else printColumns(out, LIST_COLUMNS, rows);
      // A rotation's mark alone is not pending: authentication reads it from the fleet's due set.
      for (const row of rows)
        if (row.copy_pending) warnPending(out, row.id, "may be treated as before its last change");
      return;
    }
    case "audit": {
      const entries = await store.audit(cmd.limit);
      if (json) out.log(JSON.stringify(entries));
      else if (entries.length === 0) out.log("No key changes recorded.");
      else printColumns(out, AUDIT_COLUMNS, entries);
      return;
    }
    case "rotate": {
      const { requested } = await store.requestRotation(cmd, CLI);
      if (json) {
        out.log(JSON.stringify({ requested }));
        return;
      }
      // Keys marked before are not marked again (docs/specification.md section 9): say how many there are.
      const before = (await store.countDue(cmd)) - requested;
      const keys = (n: number) => `${n} active key${n === 1 ? "" : "s"}`;
      const already =
        before > 0 ? `; ${before === 1 ? "1 key was" : `${before} keys were`} already due, marked before` : "";
      out.log(
        requested === 0 && before === 0
          ? "Marked 0 active keys rotation due: no active key matches that was not marked before."
          : `Marked ${keys(requested)} rotation due${already}. Their apps rotate them at their next request ` +
              `(npm run keys -- list shows each key's rotation).`,
      );
      return;
    }
    case "roll": {
      const created = await store.roll(cmd.id, cmd.grace, CLI);
      if (!created) throw unknown(cmd.id);
      const old = await store.get(cmd.id);
      printNewKey(
        out,
        created,
        json,
        `Rolled ${cmd.id} "${created.record.name}": the new key is ${created.record.id}; ` +
          `${cmd.id} ${cmd.grace === 0 ? "stopped working now" : `keeps working until ${old?.expires_at}`}.`,
      );
      if (created.copyPending)
        warnPending(out, `${cmd.id} or ${created.record.id}`, "may be treated as before the roll");
      return;
    }
    case "enroll": {
      const made = await ctx.enrollments.create(
        {
          agent_id: cmd.agentId,
          mode: cmd.mode,
          scopes: cmd.scopes,
          expires_in: cmd.expiresIn,
          key_expires_in: cmd.keyExpiresIn,
          name: cmd.name,
        },
        CLI,
      );
      noteMode(ctx, cmd.mode, "the", " that this code makes");
      // The code is printed once, here, and nowhere else: D1 keeps only its hash.
      if (json) out.log(JSON.stringify(made));
      else {
        out.log(
          `Made enrollment code ${made.id} for sales agent ${made.agent_id}: a ${made.mode}-mode key "${made.name}" ` +
            `(${made.scopes.join(",")}), exchangeable once until ${made.expires_at}.`,
        );
        out.log(
          "The code, shown this once (enter it in the field app, or open <base URL>/enroll#<code> as a QR code):",
        );
        out.log(made.code);
      }
      return;
    }
    case "revoke": {
      const before = await store.get(cmd.id);
      const changed = await store.revoke(cmd.id, CLI);
      if (!before || !changed) throw unknown(cmd.id);
      const { record: revoked, copyPending } = changed;
      if (json)
        out.log(JSON.stringify({ ...publicRecord(revoked, store.stateOf(revoked)), copy_pending: copyPending }));
      else {
        const bound = ctx.target.remote
          ? `about ${REVOCATION_BOUND_PRODUCTION_SECONDS} s`
          : `${REVOCATION_BOUND_LOCAL_SECONDS} s`;
        out.log(
          before.revoked_at
            ? `Key ${cmd.id} "${revoked.name}" was already revoked at ${revoked.revoked_at}; its copy for authentication was written again.`
            : `Revoked ${cmd.id} "${revoked.name}" at ${revoked.revoked_at}. Running servers refuse it within ${bound}.`,
        );
      }
      if (copyPending) warnPending(out, cmd.id, "may keep working");
      return;
    }
  }
}

function noteMode(ctx: Context, mode: string, which: string, made = ""): void {
  if (mode === ctx.deploymentMode) return;
  ctx.out.error(
    `Note: this key store's deployment runs in ${ctx.deploymentMode} mode; it will refuse ${which} ${mode}-mode key${made}.`,
  );
}

function printNewKey(out: Output, { record, secret, copyPending }: CreatedKey, json: boolean, summary: string): void {
  const { id, name, mode, expires_at, scopes, agent_id } = record;
  if (json)
    return out.log(JSON.stringify({ id, secret, name, mode, expires_at, scopes, agent_id, copy_pending: copyPending }));
  out.log(summary);
  out.log("Its secret, shown this once (the key store keeps only a hash of it):");
  out.log(secret);
}

// A change that stands in D1 whose KV copy could not be written (docs/specification.md section 2):
// said on standard error, so that --json's last line of standard output stays the answer.
function warnPending(out: Output, which: string, effect: string): void {
  out.error(
    `Warning: the copy that authentication reads of ${which} is pending (its KV write failed): until it is written, the key ${effect}. ` +
      `The deployed service's 5-minute job writes it again (locally, run it on request: docs/keys.md); revoking the key writes its copy at once.`,
  );
}

function expiry(record: KeyRecord): string {
  return record.expires_at ? `expires ${record.expires_at}` : "never expires";
}

/** A key as `list` shows it: the record without its hash, its status and its use (without the per-day series). */
function listed(record: KeyWithUsage, store: KeyStore) {
  const { daily: _daily, ...rest } = publicRecord(record, store.stateOf(record));
  return rest;
}

/** The state a command read, named so that an empty answer is not mistaken for another folder's. */
async function stateRead(target: Target): Promise<string> {
  const { describeTarget } = await import("../lib/local.ts");
  const where = describeTarget(target);
  return !target.remote && !process.env.PERSIST_DIR ? `${where} (PERSIST_DIR is not set: the default folder)` : where;
}

type Columns<T> = [string, (row: T) => string | null][];

const LIST_COLUMNS: Columns<ReturnType<typeof listed>> = [
  ["ID", (r) => r.id],
  ["NAME", (r) => r.name],
  ["MODE", (r) => r.mode],
  ["PREFIX", (r) => r.prefix],
  ["STATUS", (r) => r.status],
  ["SCOPES", (r) => r.scopes.join(",")],
  ["AGENT", (r) => (r.agent_id === null ? null : String(r.agent_id))],
  ["CREATED", (r) => r.created_at],
  ["EXPIRES", (r) => r.expires_at],
  ["REVOKED", (r) => r.revoked_at],
  ["LAST USED", (r) => r.last_used_at ?? "never"],
  ["24H", (r) => String(r.requests_24h)],
  ["7D", (r) => String(r.requests_7d)],
  ["ROTATION", (r) => r.rotation?.state ?? null],
];

const AUDIT_COLUMNS: Columns<AuditEntry> = [
  ["AT", (e) => e.at],
  ["ACTION", (e) => e.action],
  ["KEY", (e) => e.key_id],
  ["NEW KEY", (e) => e.new_key_id],
  ["CODE", (e) => e.code_id],
  ["NAME", (e) => e.key_name],
  ["MODE", (e) => e.mode],
  ["ACTOR", (e) => e.actor],
  ["SESSION", (e) => e.session_id],
];

/** Rows in aligned columns, "-" for a missing value. */
function printColumns<T>(out: Output, columns: Columns<T>, rows: T[]): void {
  const lines = [columns.map(([h]) => h), ...rows.map((row) => columns.map(([, cell]) => cell(row) ?? "-"))];
  const widths = columns.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  for (const line of lines)
    out.log(
      line
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    );
}

function unknown(id: string): UsageError {
  const hint = KEY_ID_PATTERN.test(id) ? "" : ": ids are key_ and 16 letters or digits";
  return new UsageError(`no key with id ${JSON.stringify(id)}${hint} (npm run keys -- list shows them)`);
}

/** Every line of an error's message, as one line (wrangler's errors put their point on a later line). */
function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(" ")
    .slice(0, 600);
}

/** The one line on standard error for a failed command. */
function failureLine(err: unknown): string {
  if (err instanceof UsageError) return cliFailureLine(err, KEYS_COMMAND_LINE);
  let message: string;
  if (err instanceof ApiError)
    message = err.options.fields?.[0]
      ? `${err.options.fields[0].field} ${err.options.fields[0].message}`
      : err.description;
  else message = oneLine(err);
  // A database without the key tables (the account's, before its migrations were applied).
  if (/no such table/.test(message))
    message += " (apply the migrations first: npm run db:migrate -- --remote [--env live])";
  return `Error: ${message}`;
}
