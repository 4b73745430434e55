// One load run with its printed line, and an endpoint's rounds against its floor, as `npm run bench`
// and its `--scale` run measure them.
import { measure, type Figures, type LoadOptions, type RequestParts } from "./cannon.ts";
import type { Server } from "./harness.ts";

export type Runner = (
  label: string,
  server: Server,
  path: string,
  headers?: Record<string, string>,
  request?: () => RequestParts,
) => Promise<Figures>;

/** Loads one endpoint of a server for the run's time and prints its line. */
export function loadRunner(step: (message: string) => void, load: LoadOptions): Runner {
  return async (label, server, path, headers, request) => {
    step(`${label}: ${load.seconds} s ...`);
    const figures = await measure(
      { label, url: `${server.url}${path}`, headers, request, cpuSeconds: server.cpuSeconds },
      load,
    );
    const cpu = figures.cpuMs === null ? "" : `, ${figures.cpuMs.toFixed(2)} CPU ms/request`;
    const failed = figures.failures ? `, ${figures.failures} FAILED` : "";
    step(`${label}: ${Math.round(figures.rps)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms${cpu}${failed}`);
    return figures;
  };
}

export interface Round {
  floorRun: Figures;
  figures: Figures;
}

/**
 * Several rounds, each the floor right before the endpoint: the machine's speed drifts by 10-20%
 * from one run to the next, and the median round's ratio is steadier than any one.
 */
export async function ratioRounds(
  rounds: number,
  floor: () => Promise<Figures>,
  endpoint: () => Promise<Figures>,
): Promise<{ median: Round; ratios: number[]; rounds: Round[] }> {
  const done: Round[] = [];
  for (let i = 0; i < rounds; i++) {
    const floorRun = await floor();
    done.push({ floorRun, figures: await endpoint() });
  }
  const ratioOf = (r: Round) => r.figures.rps / r.floorRun.rps;
  const median = [...done].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor(done.length / 2)]!;
  return { median, ratios: done.map(ratioOf), rounds: done };
}
