// The session a request's reads run in (docs/specification.md section 6). A bookmark is only a freshness hint: one D1
// refuses (on opening or on the first query) is dropped and the read run once more without it.
import { isD1Bookmark } from "../lib/d1-bookmark.ts";

const UNCONSTRAINED = "first-unconstrained";
const EXECUTORS = new Set(["all", "raw", "run", "first"]);

interface Recipe {
  sql: string;
  params: unknown[];
  /** The session the statement was prepared in, and the statement itself there. */
  session: D1DatabaseSession;
  real: D1PreparedStatement;
}

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

  // Statements remember how they were made, so that a retry can make them again in the new session.
  const recipes = new WeakMap<object, Recipe>();
  const inSession = (recipe: Recipe, session: D1DatabaseSession): D1PreparedStatement =>
    session === recipe.session ? recipe.real : session.prepare(recipe.sql).bind(...recipe.params);
  const statement = (recipe: Recipe): D1PreparedStatement => {
    const wrapped = new Proxy(recipe.real, {
      get(target, prop) {
        if (prop === "bind") {
          return (...values: unknown[]) => statement({ ...recipe, params: values, real: target.bind(...values) });
        }
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof prop === "string" && EXECUTORS.has(prop) && typeof value === "function") {
          return (...args: unknown[]) =>
            run((session) => {
              const stmt = inSession(recipe, session);
              return Reflect.apply(Reflect.get(stmt, prop, stmt) as (...a: unknown[]) => Promise<unknown>, stmt, args);
            });
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    recipes.set(wrapped, recipe);
    return wrapped;
  };

  return {
    prepare(query: string) {
      const session = current;
      return statement({ sql: query, params: [], session, real: session.prepare(query) });
    },
    batch<T = unknown>(statements: D1PreparedStatement[]) {
      return run((session) =>
        session.batch<T>(
          statements.map((s) => {
            const recipe = recipes.get(s);
            return recipe ? inSession(recipe, session) : s;
          }),
        ),
      );
    },
    getBookmark: () => current.getBookmark(),
  };
}
