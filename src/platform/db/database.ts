// The database that the queries run on: drizzle over a D1 binding or the request's metered session.
import type { DrizzleD1Database } from "drizzle-orm/d1";

// No schema: no relational queries, and drizzle(..., { schema }) rebuilds their configuration each request.
export type Database = DrizzleD1Database & { $client: D1Database };
