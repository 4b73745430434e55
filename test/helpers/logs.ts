// The worker's log lines as the tests see them: every console.log, console.warn and console.error
// call, with the method that wrote it (Workers Logs and `wrangler tail` take the level from it).
import { vi } from "vitest";

export type ConsoleMethod = "log" | "warn" | "error";

export interface LogLine {
  method: ConsoleMethod;
  text: string;
}

/**
 * Records (and silences) every line written through console.log, .warn and .error from now until
 * vi.restoreAllMocks(). The array fills as lines are written.
 */
export function captureConsole(): LogLine[] {
  const lines: LogLine[] = [];
  for (const method of ["log", "warn", "error"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push({ method, text: args.map(String).join(" ") });
    });
  }
  return lines;
}

/** The JSON lines that mention `requestId`, parsed, each with the console method that wrote it. */
export function jsonLinesOf(
  lines: LogLine[],
  requestId: string,
): { method: ConsoleMethod; line: Record<string, unknown> }[] {
  return lines
    .filter((l) => l.text.includes(requestId))
    .map((l) => ({ method: l.method, line: JSON.parse(l.text) as Record<string, unknown> }));
}
