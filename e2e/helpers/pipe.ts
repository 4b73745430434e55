// A standard error that is not a terminal, for a command's progress lines (scripts/lib/progress.ts)
// in a test: it keeps the lines written to it.
export function pipe(): { lines: string[]; stream: NodeJS.WriteStream } {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => (lines.push(...text.split("\n").filter(Boolean)), true) };
  return { lines, stream: stream as unknown as NodeJS.WriteStream };
}
