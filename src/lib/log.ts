// One JSON object a line on the console: what Workers Logs and `wrangler tail` index.
export function log(fields: Record<string, unknown>): void {
  console.log(JSON.stringify(fields));
}
