// autocannon as `npm run load` drives it: a list of requests, each built per send and told of its
// answer. The package ships no types, and scripts/bench/autocannon.d.ts declares only what the
// benchmark uses, so the wider surface used here is typed here, for this module only.
import autocannon from "autocannon";

export interface MixRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before each send of this entry with the connection's own context; returns what to send. */
  setupRequest?: (request: MixRequest, context: Record<string, unknown>) => MixRequest;
  /** Called with each answer to this entry, with the same context. */
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
}

export interface RunOptions {
  url: string;
  connections: number;
  duration: number;
  /** Seconds before a request counts as timed out. */
  timeout: number;
  requests: MixRequest[];
}

interface Histogram {
  average: number;
  mean: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
}

export interface RunResult {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

export function runLoad(options: RunOptions): Promise<RunResult> {
  return (autocannon as unknown as (o: RunOptions) => Promise<RunResult>)(options);
}
