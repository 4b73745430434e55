// The Workers of the service and their dry-run builds (`wrangler deploy --dry-run`), shared by
// `npm run check` and `npm run deploy`.
import { join } from "node:path";
import { wrangler } from "./processes.ts";

/** The API: wrangler.toml, one Worker per mode (the top level is test mode, [env.live] live mode). */
export const API_CONFIG = "wrangler.toml";
/** Swagger UI's files: one Worker that both modes bind (ASSETS). */
export const DOCS_CONFIG = "wrangler.docs.toml";

export type Mode = "test" | "live";

/** wrangler's --env for a mode of the API: "" names the top level explicitly (no warning). */
export function apiEnvArgs(mode: Mode): string[] {
  return ["--env", mode === "live" ? "live" : ""];
}

/** Bundles the API of `mode` into `outdir` and runs wrangler's checks, uploading nothing. */
export async function buildApi(mode: Mode, outdir: string): Promise<void> {
  await wrangler([
    "deploy",
    "--dry-run",
    "-c",
    API_CONFIG,
    ...apiEnvArgs(mode),
    "--outdir",
    join(outdir, `api-${mode}`),
  ]);
}

/** Checks the docs Worker's configuration and assets, uploading nothing. */
export async function buildDocs(outdir: string): Promise<void> {
  await wrangler(["deploy", "--dry-run", "-c", DOCS_CONFIG, "--outdir", join(outdir, "docs")]);
}
