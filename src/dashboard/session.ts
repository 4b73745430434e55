// The session moved to src/admin/session.ts (the admin API and the dashboard both use it). This
// re-export is kept only for scripts/lib/admin-token.ts until that import points there.
export { MIN_ADMIN_TOKEN_LENGTH } from "../admin/session.ts";
