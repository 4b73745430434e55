// A request's read session (section 6): a bookmark D1 refuses is dropped and the read run once more without it.
import { isD1Bookmark } from "../lib/d1-bookmark.ts";
import { interceptD1, type Made } from "../lib/d1-intercept.ts";

const UNCONSTRAINED = "first-unconstrained";

export function openReadSession(db: D1Database, bookmark: string | null | undefined): D1DatabaseSession {
  if (!isD1Bookmark(bookmark)) return db.withSession(UNCONSTRAINED);
  let bookmarked: D1DatabaseSession;
  try {
    bookmarked = db.withSession(bookmark);
  } catch {
    return db.withSession(UNCONSTRAINED);
  }
  let current = bookmarked;

  /** Runs work in the current session; a failure in the bookmarked one is run again without it. */
  const run = async <T>(work: (session: D1DatabaseSession) => Promise<T>): Promise<T> => {
    const used = current;
    try {
      return await work(used);
    } catch (err) {
      if (used !== bookmarked) throw err;
      if (current === bookmarked) current = db.withSession(UNCONSTRAINED);
      return work(current);
    }
  };

  // Prepared in the bookmarked session; a retry makes them again in the other from how they were made.
  const inSession = (session: D1DatabaseSession, stmt: D1PreparedStatement, made: Made | undefined) =>
    session === bookmarked || made === undefined ? stmt : session.prepare(made.sql).bind(...made.params);
  return interceptD1(bookmarked, {
    execute: (stmt, method, args, made) =>
      run((session) => {
        const s = inSession(session, stmt, made);
        return Reflect.apply(Reflect.get(s, method, s) as (...a: unknown[]) => Promise<unknown>, s, args);
      }),
    batch: (statements, made) =>
      run((session) => session.batch(statements.map((s, i) => inSession(session, s, made[i])))),
    members: { getBookmark: () => current.getBookmark() },
  });
}
