// The administrator's sign-in throttle rows (docs/specification.md section 9). SQL text: the reservation is one
// conditional INSERT ... SELECT (a count under the limit) with RETURNING, which drizzle's builder cannot write.
type D1 = Pick<D1Database, "prepare">;

export const signinQueries = {
  forget: (d1: D1, since: number) => d1.prepare("DELETE FROM admin_signin_failures WHERE at <= ?1").bind(since),
  /** D1 runs one statement at a time, so parallel attempts cannot all pass the count. */
  reserve: (d1: D1, bucket: string, address: string, nowMs: number, since: number, max: number) =>
    d1
      .prepare(
        `INSERT INTO admin_signin_failures (bucket, address, at, in_flight) SELECT ?5, ?1, ?2, 1
         WHERE (SELECT count(*) FROM admin_signin_failures WHERE bucket = ?5 AND address = ?1 AND at > ?3) < ?4
         RETURNING id`,
      )
      .bind(address, nowMs, since, max, bucket),
  newest: (d1: D1, bucket: string, address: string, since: number, max: number) =>
    d1
      .prepare(
        "SELECT at, in_flight FROM admin_signin_failures WHERE bucket = ?4 AND address = ?1 AND at > ?2 " +
          "ORDER BY at DESC, id DESC LIMIT CAST(?3 AS INTEGER)",
      )
      .bind(address, since, max, bucket),
  settle: (d1: D1, id: number) => d1.prepare("UPDATE admin_signin_failures SET in_flight = 0 WHERE id = ?1").bind(id),
  remove: (d1: D1, id: number) => d1.prepare("DELETE FROM admin_signin_failures WHERE id = ?1").bind(id),
};
