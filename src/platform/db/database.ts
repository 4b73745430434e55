// The database that the queries run on: drizzle over a D1 binding or the request's metered session.
import type { DrizzleD1Database } from "drizzle-orm/d1";

// No schema: nothing uses drizzle's relational queries, and drizzle(..., { schema }) would rebuild their configuration
// from every table on each request.
export type Database = DrizzleD1Database & { $client: D1Database };
