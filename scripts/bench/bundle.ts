// The size of what `wrangler deploy` would upload: a dry run into a temp folder, then the gzipped
// size of its JavaScript (source maps are not part of the upload limit).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { run } from "../lib/processes.ts";

export interface BundleSize {
  bytes: number;
  gzipBytes: number;
  /** What wrangler itself printed, e.g. "Total Upload: 443.27 KiB / gzip: 134.06 KiB". */
  wranglerLine: string;
}

export async function bundleSize(outDir: string, environment?: string): Promise<BundleSize> {
  const args = ["wrangler", "deploy", "--dry-run", "--outdir", outDir, ...(environment ? ["--env", environment] : [])];
  const result = await run("npx", args);
  if (result.code !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${result.stdout}\n${result.stderr}`);
  let bytes = 0;
  let gzipBytes = 0;
  for (const name of readdirSync(outDir)) {
    if (!/\.(m?js|wasm)$/.test(name)) continue;
    const content = readFileSync(join(outDir, name));
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  const wranglerLine = `${result.stdout}\n${result.stderr}`.split("\n").find((l) => l.startsWith("Total Upload")) ?? "";
  return { bytes, gzipBytes, wranglerLine: wranglerLine.trim() };
}
