// `npm run keys -- create|list|roll|revoke|audit` (docs/commands.md): the operator's key management, on the
// local key store (PERSIST_DIR) or, with --remote, the Cloudflare account's, through the same
// KeyStore module that the worker uses. A secret is printed once, by the command that made it;
// with --json the last line of standard output is the JSON answer.
import type { AuditEntry } from "../src/keys/keys.audit.ts";
import type { CreatedKey, KeyRecord } from "../src/keys/keys.record.ts";
import { KeyStore, publicRecord, REVOCATION_BOUND_LOCAL_SECONDS, REVOCATION_BOUND_PRODUCTION_SECONDS } from "../src/keys/keys.store.ts";
import type { KeyWithUsage } from "../src/keys/keys.usage-read.ts";
import { KEY_ID_PATTERN } from "../src/keys/keys.secret.ts";
import { ApiError } from "../src/platform/errors.ts";
import type { Platform } from "./lib/local.ts";
import { UsageError, usageErrorLine } from "./lib/cli.ts";
import { type Command, KEYS_COMMAND_LINE, parseKeysCommandLine } from "./keys/commands.ts";

/** Who the key audit log names for changes made here. */
const CLI = { actor: "cli" } as const;

/** A failure to report in one line (exit status 1). */
class CommandError extends Error {
  override readonly name = "CommandError";
}

interface Context {
  store: KeyStore;
  json: boolean;
  remote: boolean;
  /** The deployment mode of the store's environment (its MODE var). */
  deploymentMode: string;
}

async function main(argv: string[]): Promise<void> {
  const parsed = parseKeysCommandLine(argv);
  if (parsed.help) {
    console.log(KEYS_COMMAND_LINE.usage);
    return;
  }
  const { cmd, json, remote, environment } = parsed;
  // Loaded only now: wrangler is a large module, and a mistake in the arguments should not wait for it.
  // Key records live in D1: a fresh local state gets its migrations first.
  const platform: Platform = await (await import("./lib/migrated-platform.ts")).openMigratedPlatform({ remote, environment });
  try {
    const store = new KeyStore(platform.env.KEYS, platform.env.DB);
    await run(cmd, { store, json, remote, deploymentMode: String(platform.env.MODE) });
  } finally {
    await platform.dispose();
  }
}

async function run(cmd: Command, ctx: Context): Promise<void> {
  const { store, json } = ctx;
  switch (cmd.command) {
    case "create": {
      const created = await store.create(
        { name: cmd.name, mode: cmd.mode, expiresInSeconds: cmd.expiresIn, scopes: cmd.scopes, agentId: cmd.agentId },
        CLI,
      );
      if (cmd.mode !== ctx.deploymentMode) {
        console.error(`Note: this key store's deployment runs in ${ctx.deploymentMode} mode; it will refuse this ${cmd.mode}-mode key.`);
      }
      printNewKey(created, json, `Created ${cmd.mode}-mode key ${created.record.id} "${created.record.name}", ${expiry(created.record)}.`);
      if (created.copyPending) warnPending(created.record.id, "may be refused");
      return;
    }
    case "list": {
      const rows = (await store.listWithUsage()).map((r) => listed(r, store));
      if (json) console.log(JSON.stringify(rows));
      else printTable(rows);
      for (const row of rows) if (row.copy_pending) warnPending(row.id, "may be treated as before its last change");
      return;
    }
    case "audit": {
      const entries = await store.audit(cmd.limit);
      if (json) console.log(JSON.stringify(entries));
      else printAudit(entries);
      return;
    }
    case "roll": {
      const created = await store.roll(cmd.id, cmd.grace, CLI);
      if (!created) throw unknown(cmd.id);
      const old = await store.get(cmd.id);
      printNewKey(
        created,
        json,
        `Rolled ${cmd.id} "${created.record.name}": the new key is ${created.record.id}; ` +
          `${cmd.id} ${cmd.grace === 0 ? "stopped working now" : `keeps working until ${old?.expires_at}`}.`,
      );
      if (created.copyPending) warnPending(`${cmd.id} or ${created.record.id}`, "may be treated as before the roll");
      return;
    }
    case "revoke": {
      const before = await store.get(cmd.id);
      const changed = await store.revoke(cmd.id, CLI);
      if (!before || !changed) throw unknown(cmd.id);
      const { record: revoked, copyPending } = changed;
      if (json) console.log(JSON.stringify({ ...publicRecord(revoked, store.stateOf(revoked)), copy_pending: copyPending }));
      else {
        const bound = ctx.remote ? `about ${REVOCATION_BOUND_PRODUCTION_SECONDS} s` : `${REVOCATION_BOUND_LOCAL_SECONDS} s`;
        console.log(
          before.revoked_at
            ? `Key ${cmd.id} "${revoked.name}" was already revoked at ${revoked.revoked_at}; its copy for authentication was written again.`
            : `Revoked ${cmd.id} "${revoked.name}" at ${revoked.revoked_at}. Running servers refuse it within ${bound}.`,
        );
      }
      if (copyPending) warnPending(cmd.id, "may keep working");
      return;
    }
  }
}

function printNewKey({ record, secret, copyPending }: CreatedKey, json: boolean, summary: string): void {
  if (json) {
    console.log(
      JSON.stringify({
        id: record.id,
        secret,
        name: record.name,
        mode: record.mode,
        expires_at: record.expires_at,
        scopes: record.scopes,
        agent_id: record.agent_id,
        copy_pending: copyPending,
      }),
    );
    return;
  }
  console.log(summary);
  console.log("Its secret, shown this once (the key store keeps only a hash of it):");
  console.log(secret);
}

/**
 * A change that stands in D1 whose KV copy could not be written (docs/specification.md section 2):
 * said on standard error, so that --json's last line of standard output stays the answer.
 */
function warnPending(which: string, effect: string): void {
  console.error(
    `Warning: the copy that authentication reads of ${which} is pending (its KV write failed): until it is written, the key ${effect}. ` +
      `The deployed service's 5-minute job writes it again (wrangler dev does not run it); revoking the key writes its copy at once.`,
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

function printTable(rows: ReturnType<typeof listed>[]): void {
  if (rows.length === 0) {
    console.log("No keys.");
    return;
  }
  const header = ["ID", "NAME", "MODE", "PREFIX", "STATUS", "SCOPES", "AGENT", "CREATED", "EXPIRES", "REVOKED", "LAST USED", "24H", "7D"];
  const lines = rows.map((r) => [
    r.id,
    r.name,
    r.mode,
    r.prefix,
    r.status,
    r.scopes.join(","),
    r.agent_id === null ? "-" : String(r.agent_id),
    r.created_at,
    r.expires_at ?? "-",
    r.revoked_at ?? "-",
    r.last_used_at ?? "never",
    String(r.requests_24h),
    String(r.requests_7d),
  ]);
  printColumns(header, lines);
}

function printAudit(entries: AuditEntry[]): void {
  if (entries.length === 0) {
    console.log("No key changes recorded.");
    return;
  }
  const header = ["AT", "ACTION", "KEY", "NEW KEY", "NAME", "MODE", "ACTOR", "SESSION"];
  const lines = entries.map((e) => [e.at, e.action, e.key_id, e.new_key_id ?? "-", e.key_name, e.mode, e.actor, e.session_id ?? "-"]);
  printColumns(header, lines);
}

function printColumns(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  for (const line of [header, ...lines]) console.log(line.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd());
}

function unknown(id: string): CommandError {
  const hint = KEY_ID_PATTERN.test(id) ? "" : ": ids are key_ and 16 letters or digits";
  return new CommandError(`no key with id ${JSON.stringify(id)}${hint} (npm run keys -- list shows them)`);
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

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    let message: string;
    if (err instanceof UsageError) {
      console.error(usageErrorLine(err, KEYS_COMMAND_LINE));
      process.exit(1);
    }
    if (err instanceof CommandError) message = err.message;
    else if (err instanceof ApiError) message = err.options.fields?.[0] ? `${err.options.fields[0].field} ${err.options.fields[0].message}` : err.description;
    else message = oneLine(err);
    // A database without the key tables (the account's, before its migrations were applied).
    if (/no such table/.test(message)) message += " (apply the migrations first: npm run db:migrate -- --remote [--env live])";
    console.error(`Error: ${message}`);
    process.exit(1);
  },
);
