// The dashboard's administrator token for `npm start` and `npm run dev`: ADMIN_TOKEN when set;
// otherwise the one kept in $PERSIST_DIR/admin-token (readable by its owner only), made on first use.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIN_ADMIN_TOKEN_LENGTH } from "../../src/admin/admin.token.ts";
import { randomBase62 } from "../../src/keys/keys.secret.ts";

export const ADMIN_TOKEN_FILE = "admin-token";
/** About 256 bits of base62. */
export const GENERATED_LENGTH = 43;
const OWNER_ONLY = 0o600;

export interface AdminToken {
  token: string;
  source: "env" | "stored" | "generated";
}

/** Throws (with a message for the operator) when ADMIN_TOKEN is set to something unusable. */
export function resolveAdminToken(persistDir: string, env: NodeJS.ProcessEnv = process.env): AdminToken {
  const given = env.ADMIN_TOKEN;
  if (given) {
    const problem = problemOf(given);
    if (problem) throw new Error(`ADMIN_TOKEN ${problem}`);
    return { token: given, source: "env" };
  }

  const file = join(persistDir, ADMIN_TOKEN_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (problemOf(stored) === null) {
      // Tighten a file that someone loosened; the token is a credential.
      if ((statSync(file).mode & 0o777) !== OWNER_ONLY) chmodSync(file, OWNER_ONLY);
      return { token: stored, source: "stored" };
    }
  }
  const token = randomBase62(GENERATED_LENGTH);
  mkdirSync(persistDir, { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: OWNER_ONLY });
  chmodSync(file, OWNER_ONLY);
  return { token, source: "generated" };
}

function problemOf(token: string): string | null {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) {
    return `is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters (the dashboard would refuse it)`;
  }
  if (/[\s"'`\\$]/.test(token)) {
    // It travels to wrangler in a dotenv file, where these would be quoted or expanded.
    return "must not contain whitespace, quotes, backslashes or $";
  }
  return null;
}
