// The size of what `wrangler deploy` would upload: the dry-run build of `npm run check` into a folder,
// then the gzipped size of its JavaScript (source maps are not part of the upload limit).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { wrangler } from "../lib/processes.ts";
import { API_CONFIG, apiEnvArgs } from "../lib/workers.ts";

export interface BundleSize {
  bytes: number;
  gzipBytes: number;
  /** What wrangler itself printed, e.g. "Total Upload: 443.27 KiB / gzip: 134.06 KiB". */
  wranglerLine: string;
}

export async function bundleSize(outDir: string): Promise<BundleSize> {
  const printed = await wrangler(["deploy", "--dry-run", "-c", API_CONFIG, ...apiEnvArgs("test"), "--outdir", outDir], {
    capture: true,
  });
  const files = readdirSync(outDir)
    .filter((name) => /\.(m?js|wasm)$/.test(name))
    .map((name) => readFileSync(join(outDir, name)));
  return {
    bytes: files.reduce((sum, content) => sum + content.length, 0),
    gzipBytes: files.reduce((sum, content) => sum + gzipSync(content).length, 0),
    wranglerLine:
      printed
        .split("\n")
        .find((line) => line.startsWith("Total Upload"))
        ?.trim() ?? "",
  };
}
