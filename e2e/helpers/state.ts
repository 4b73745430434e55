// Fresh local state for a node-side test: a copy of the folder that the global setup migrated once
// (./template-setup.ts), so that no test waits to migrate its own.
import { cpSync } from "node:fs";
import { inject } from "vitest";
import { tempStateDir } from "../../scripts/lib/processes.ts";

/** A new PERSIST_DIR with every migration applied and nothing else; the caller removes it. */
export function migratedStateDir(prefix = "olk-e2e-"): string {
  const dir = tempStateDir(prefix);
  cpSync(inject("migratedState"), dir, { recursive: true });
  return dir;
}
