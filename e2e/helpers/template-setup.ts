// The node project's global setup: one state folder migrated by `npm run db:migrate`, made once per
// run. A test that needs a fresh migrated state copies it (./state.ts) instead of starting a
// workerd to migrate its own.
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { run, tempStateDir } from "../../scripts/lib/processes.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated state folder to copy (PERSIST_DIR layout: v3/d1, v3/kv). */
    migratedState: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = tempStateDir("olk-migrated-");
  const migrate = await run("npm", ["run", "db:migrate"], { PERSIST_DIR: dir });
  if (migrate.code !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  project.provide("migratedState", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
