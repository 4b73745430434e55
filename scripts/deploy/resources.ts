// The account resources that a mode of the API binds (wrangler.toml): its D1 database and KV
// namespaces, the names they are created under, and whether their ids are still the placeholders
// that the repository ships with (docs/operations.md, Deploying).
import { readConfig } from "../lib/config.ts";
import { API_CONFIG, type Mode } from "../lib/workers.ts";

export type ResourceKind = "d1" | "kv";

export interface Resource {
  kind: ResourceKind;
  binding: string;
  /** The name it is created and found under: the D1 database_name, the KV namespace title. */
  name: string;
  /** The id in wrangler.toml: undefined when there is none. */
  id: string | undefined;
}

/** The repository's stand-in ids: zeros (and dashes), at most a last digit to tell them apart. */
export function isPlaceholderId(id: string | undefined): boolean {
  return id === undefined || /^[0-]*[1-9]?$/.test(id);
}

/** The Worker's name and the resources of `mode`, as wrangler.toml has them now. */
export function readResources(mode: Mode, configPath = API_CONFIG): { worker: string; resources: Resource[] } {
  const top = readConfig(configPath);
  const section = mode === "live" ? top.env?.live : top;
  if (!section) throw new Error(`${configPath} has no [env.live] section`);
  const worker = section.name ?? (mode === "live" ? `${top.name}-live` : top.name);
  if (!worker) throw new Error(`${configPath} names no Worker`);
  const resources: Resource[] = [
    ...(section.d1_databases ?? []).map((db) => ({
      kind: "d1" as const,
      binding: db.binding,
      name: db.database_name ?? `${worker}-${slug(db.binding)}`,
      id: db.database_id,
    })),
    // The title that wrangler's own automatic provisioning would give: <worker>-<binding>.
    ...(section.kv_namespaces ?? []).map((kv) => ({
      kind: "kv" as const,
      binding: kv.binding,
      name: `${worker}-${slug(kv.binding)}`,
      id: kv.id,
    })),
  ];
  return { worker, resources };
}

function slug(binding: string): string {
  return binding.toLowerCase().replaceAll("_", "-");
}

export function describeResource(r: Resource): string {
  return r.kind === "d1" ? `D1 database ${r.name} (${r.binding})` : `KV namespace ${r.name} (${r.binding})`;
}
