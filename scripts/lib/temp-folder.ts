// The commands' temporary folders (copies of the wrangler config, the env file with the admin token,
// build output): under the OS temp dir, never in the project, and gone when the command ends, by
// remove() or with the process however it exits but SIGKILL (signal-exit, as wrangler does for its own).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onExit } from "signal-exit";

/**
 * A new folder readable by this user only (mkdtemp's 0700), named `order-lookup-<purpose>-XXXXXX`;
 * remove() removes it now (and no longer at exit), and a second call does nothing.
 */
export function tempFolder(purpose: string) {
  const path = mkdtempSync(join(tmpdir(), `order-lookup-${purpose}-`));
  const removeNow = () => rmSync(path, { recursive: true, force: true });
  const forget = onExit(removeNow);
  return {
    path,
    remove: () => {
      forget();
      removeNow();
    },
  };
}
