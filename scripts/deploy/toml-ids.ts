// Writes a resource id into wrangler.toml in place, keeping every comment and the layout: the line
// `database_id = "..."` or `id = "..."` of the [[d1_databases]] / [[kv_namespaces]] entry (or its
// [[env.<name>.…]] twin) whose binding is the one named.
import type { ResourceKind } from "./resources.ts";

export interface IdTarget {
  /** undefined: the top level (test mode); else the environment's name, e.g. "live". */
  env: string | undefined;
  kind: ResourceKind;
  binding: string;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;

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
