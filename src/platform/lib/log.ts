// One JSON object a line, as Workers Logs indexes them; the console method carries the level (section 6).

export type LogLevel = "info" | "warn" | "error";

export type LogFields = Record<string, unknown> & { level?: LogLevel };

export function log(fields: LogFields, level: LogLevel = fields.level ?? "info"): void {
  const line = JSON.stringify(fields);
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** Never the message, which can hold SQL. */
export function errorName(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.name} (${cause.name})` : err.name;
  }
  return typeof err;
}
