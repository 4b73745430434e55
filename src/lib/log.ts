// One JSON object a line on the console: what Workers Logs and `wrangler tail` index. The console
// method carries the level (docs/specification.md section 6): Workers Logs files a console.error
// line as an error and a console.warn line as a warning, and `wrangler tail` shows them as such.

export type LogLevel = "info" | "warn" | "error";

export type LogFields = Record<string, unknown> & { level?: LogLevel };

/** Writes one line at `level`: the line's own `level` field when it has one, else info. */
export function log(fields: LogFields, level: LogLevel = fields.level ?? "info"): void {
  const line = JSON.stringify(fields);
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** What a log line may say of an error: its class name (and its cause's), never its message, which can hold SQL. */
export function errorName(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.name} (${cause.name})` : err.name;
  }
  return typeof err;
}
