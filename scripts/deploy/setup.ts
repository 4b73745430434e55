// `npm run deploy -- --setup`: creates the D1 database and KV namespaces that wrangler.toml still
// holds placeholder ids for, and writes their ids into wrangler.toml, before anything is migrated
// or deployed. Wrangler's own automatic provisioning creates resources during `wrangler deploy`,
// too late for the first deploy's remote migrations and for `npm run keys -- --remote`.
// A resource that already exists under its name (an earlier setup that stopped halfway) is
// adopted, not created twice.
import { readFileSync, writeFileSync } from "node:fs";
import { wrangler } from "../lib/processes.ts";
import { API_CONFIG, type Mode } from "../lib/workers.ts";
import { describeResource, isPlaceholderId, readResources, type Resource, type ResourceKind } from "./resources.ts";

/** D1's primary location hint: Asia Pacific, the nearest to a user base in India (docs/operations.md, Deploying). */
export const D1_LOCATION = "apac";

/** The resources of `mode` whose ids are still placeholders. */
export function resourcesToCreate(mode: Mode): Resource[] {
  return readResources(mode).resources.filter((r) => isPlaceholderId(r.id));
}

/** What setup would do, for a dry run. */
export function describeSetup(mode: Mode): string {
  const missing = resourcesToCreate(mode);
  if (missing.length === 0) return "every resource already has its id in wrangler.toml";
  return `would create (or adopt by name) ${missing.map(describeResource).join(", ")}; D1 with --location ${D1_LOCATION}`;
}

export async function setUp(mode: Mode): Promise<void> {
  const missing = resourcesToCreate(mode);
  if (missing.length === 0) {
    console.log("Every resource of this mode already has its id in wrangler.toml: nothing to create.");
    return;
  }
  const listings = new Map<ResourceKind, Map<string, string>>();
  for (const resource of missing) {
    if (!listings.has(resource.kind))
      listings.set(resource.kind, parseListing(resource.kind, await list(resource.kind)));
    const existing = listings.get(resource.kind)!.get(resource.name);
    const id = existing ?? parseCreatedId(resource.kind, await create(resource));
    const target = { env: mode === "live" ? "live" : undefined, kind: resource.kind, binding: resource.binding };
    writeFileSync(API_CONFIG, recordId(readFileSync(API_CONFIG, "utf8"), target, id));
    console.log(`${describeResource(resource)}: ${existing ? "found" : "created"}, id ${id} written to ${API_CONFIG}`);
  }
  const left = resourcesToCreate(mode);
  if (left.length > 0)
    throw new Error(`${API_CONFIG} still has placeholder ids for ${left.map((r) => r.binding).join(", ")}`);
  console.log(`Commit ${API_CONFIG}: the ids are what every later deploy and \`--remote\` command uses.`);
}

function list(kind: ResourceKind): Promise<string> {
  return wrangler(kind === "d1" ? ["d1", "list", "--json"] : ["kv", "namespace", "list"], { capture: true });
}

function create(resource: Resource): Promise<string> {
  const args =
    resource.kind === "d1"
      ? ["d1", "create", resource.name, "--location", D1_LOCATION]
      : ["kv", "namespace", "create", resource.name];
  return wrangler(args, { capture: true });
}

/** name -> id from `wrangler d1 list --json` (uuid, name) or `wrangler kv namespace list` (id, title). */
export function parseListing(kind: ResourceKind, output: string): Map<string, string> {
  const json = output.slice(output.indexOf("["), output.lastIndexOf("]") + 1);
  let items: unknown;
  try {
    items = JSON.parse(json);
  } catch {
    throw new Error(
      `could not read the list of ${kind === "d1" ? "D1 databases" : "KV namespaces"} that wrangler printed`,
    );
  }
  const found = new Map<string, string>();
  for (const item of Array.isArray(items) ? (items as Record<string, unknown>[]) : []) {
    const name = kind === "d1" ? item.name : item.title;
    const id = kind === "d1" ? item.uuid : item.id;
    if (typeof name === "string" && typeof id === "string") found.set(name, id);
  }
  return found;
}

/** The new resource's id from the configuration snippet that `wrangler d1 create` / `kv namespace create` prints. */
export function parseCreatedId(kind: ResourceKind, output: string): string {
  const pattern =
    kind === "d1"
      ? /"?database_id"?\s*[=:]\s*"([0-9a-fA-F-]{36})"/
      : /(?:^|[\s{,])"?id"?\s*[=:]\s*"([0-9a-fA-F]{32})"/m;
  const match = pattern.exec(output);
  if (!match)
    throw new Error(`wrangler printed no ${kind === "d1" ? "database_id" : "namespace id"}:\n${output.trim()}`);
  return match[1]!;
}

interface IdTarget {
  /** undefined: the top level (test mode); else the environment's name, e.g. "live". */
  env: string | undefined;
  kind: ResourceKind;
  binding: string;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;

/**
 * Writes a resource id into wrangler.toml in place, keeping every comment and the layout: the line
 * `database_id = "..."` or `id = "..."` of the [[d1_databases]] / [[kv_namespaces]] entry (or its
 * [[env.<name>.…]] twin) whose binding is the one named.
 */
export function recordId(toml: string, target: IdTarget, id: string): string {
  if (!/^[0-9a-fA-F-]{32,36}$/.test(id)) throw new Error(`not a resource id: ${JSON.stringify(id)}`);
  const table = `${target.env ? `env.${target.env}.` : ""}${target.kind === "d1" ? "d1_databases" : "kv_namespaces"}`;
  const key = target.kind === "d1" ? "database_id" : "id";
  const lines = toml.split("\n");
  // Each array-of-tables entry runs from its header to the next header.
  let start = -1;
  for (let i = 0; i <= lines.length; i++) {
    const header = i < lines.length ? HEADER.exec(lines[i]!) : ["", ""];
    if (!header) continue;
    if (start >= 0) {
      const entry = lines.slice(start + 1, i);
      if (entry.some((l) => new RegExp(`^\\s*binding\\s*=\\s*"${target.binding}"\\s*(#.*)?$`).test(l))) {
        const at = entry.findIndex((l) => new RegExp(`^\\s*${key}\\s*=`).test(l));
        if (at < 0) throw new Error(`[[${table}]] ${target.binding} has no ${key} line to fill in`);
        const line = lines[start + 1 + at]!.replace(new RegExp(`^(\\s*${key}\\s*=\\s*)("[^"]*"|'[^']*')`), `$1"${id}"`);
        if (!line.includes(`"${id}"`)) throw new Error(`[[${table}]] ${target.binding}: ${key} is not a quoted string`);
        lines[start + 1 + at] = line;
        return lines.join("\n");
      }
    }
    start = i < lines.length && lines[i]!.trim().startsWith("[[") && header[1] === table ? i : -1;
  }
  throw new Error(`wrangler.toml has no [[${table}]] entry with binding = "${target.binding}"`);
}
