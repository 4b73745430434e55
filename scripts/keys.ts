// `npm run keys -- <command>` (docs/commands.md): the operator's key management on the local key store
// (PERSIST_DIR) or, with --remote, the Cloudflare account's. The command is ./keys/run.ts.
import { keysCommand } from "./keys/run.ts";
import { consoleOutput } from "./lib/cli.ts";

const code = await keysCommand(process.argv.slice(2), {
  out: consoleOutput,
  // Loaded only now: wrangler is a large module, and a mistake in the arguments should not wait for it.
  // Key records live in D1: a fresh local state gets its migrations first.
  openPlatform: async (target) => (await import("./lib/migrate.ts")).openMigratedPlatform(target),
});
// Explicitly: wrangler's platform proxy may leave handles that would keep the process alive.
process.exit(code);
