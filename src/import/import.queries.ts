// The importer's statements. SQL text: table names vary by staged table, rows travel as JSON through json_each, and
// guards fail a batch by an integer overflow, none of which drizzle's builder writes.
export const STAGING_PREFIX = "import_";
/** What a statement needs of a staged table (import.staged.ts's StagedSpec). */
export interface StagedSql {
  name: string;
  staging: string;
  /** SQL names of the live columns. */
  columns: string[];
  /** SQL names of the primary key's columns: what a staged row is matched to a live one by. */
  key: string[];
  extra: string[];
  unique?: string;
  childOf?: { parent: string; column: string };
  ownedBy?: { parent: string; column: string };
}

const NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";
/** SQLite has no other way to fail a batch on a condition outside a trigger. */
const OVERFLOW = "abs(-9223372036854775807 - 1)";

export const leaseQueries = {
  /** One statement, so two imports that start together cannot both win: D1 runs one write at a time. */
  take: (db: D1Database, name: string, holder: string, leaseMs: number) =>
    db
      .prepare(
        `INSERT INTO leases (name, holder, started_at, renewed_at) VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ'), ${NOW_MS}) ` +
          `ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, started_at = excluded.started_at, ` +
          `renewed_at = excluded.renewed_at WHERE leases.renewed_at <= excluded.renewed_at - ?3 RETURNING holder`,
      )
      .bind(name, holder, leaseMs),
  startedAt: (db: D1Database, name: string) => db.prepare("SELECT started_at FROM leases WHERE name = ?1").bind(name),
  renew: (db: D1Database, name: string, holder: string) =>
    db.prepare(`UPDATE leases SET renewed_at = ${NOW_MS} WHERE name = ?1 AND holder = ?2`).bind(name, holder),
  /** For the final batch: rolls it back unless `holder` still holds the lease. */
  guard: (db: D1Database, name: string, holder: string) =>
    db
      .prepare(
        "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM leases WHERE name = ?1 AND holder = ?2) " +
          `THEN ${OVERFLOW} END AS import_lease_guard`,
      )
      .bind(name, holder),
  held: (db: D1Database, name: string, holder: string) =>
    db.prepare("SELECT 1 AS held FROM leases WHERE name = ?1 AND holder = ?2").bind(name, holder),
  release: (db: D1Database, name: string, holder: string) =>
    db.prepare("DELETE FROM leases WHERE name = ?1 AND holder = ?2").bind(name, holder),
};

// Staged customer records that would replace a customer the API made, with another shop.
const CLASHES =
  `FROM ${STAGING_PREFIX}customers AS s JOIN customers AS t ON t.id = s.id ` +
  "WHERE t.origin = 'api' AND (s.phone_key IS NULL OR length(s.phone_key) <> 10 OR s.phone_key IS NOT t.phone_key)";

export const clashQueries = {
  first: (db: D1Database, shown: number) =>
    db.prepare(`SELECT s.id AS id, s.src AS src, count(*) OVER () AS total ${CLASHES} ORDER BY s.rowid LIMIT ${shown}`),
  /** The same check inside the final batch, for a customer the API creates meanwhile. */
  guard: (db: D1Database) =>
    db.prepare(`SELECT CASE WHEN EXISTS (SELECT 1 ${CLASHES}) THEN ${OVERFLOW} END AS api_customer_guard`),
};

/** A uniqueness check over the whole file: `column` of `table`, reported as its `owner` (and `pos` if staged). */
export interface UniqueSql {
  table: StagedSql;
  column: string;
  owner: string;
}

function selected(check: UniqueSql, row: string, other: string): string {
  const pos = check.table.extra.includes("pos") ? `${row}.pos` : "NULL";
  return `${row}.${check.owner} AS owner, ${row}.src AS src, ${pos} AS pos, ${row}.${check.column} AS value, ${other}.id AS other`;
}

export const uniqueQueries = {
  /** Two rows of the file with one value: names the later one, and the earlier one's id. */
  inFile: (db: D1Database, check: UniqueSql) => {
    const staging = check.table.staging;
    return db.prepare(
      `SELECT ${selected(check, "a", "b")} FROM (SELECT min(rowid) AS first, max(rowid) AS last FROM ${staging} ` +
        `WHERE ${check.column} IS NOT NULL GROUP BY ${check.column} HAVING count(*) > 1 ORDER BY last LIMIT 1) AS d ` +
        `JOIN ${staging} AS a ON a.rowid = d.last JOIN ${staging} AS b ON b.rowid = d.first`,
    );
  },
  /** A row of the database that keeps its value (the file does not give it a new one) and is another id. */
  againstDatabase: (db: D1Database, check: UniqueSql) => {
    const { staging, name } = check.table;
    return db.prepare(
      `SELECT ${selected(check, "s", "t")} FROM ${staging} AS s JOIN ${name} AS t ON t.${check.column} = s.${check.column} ` +
        `WHERE t.id <> s.id AND t.id NOT IN (SELECT id FROM ${staging}) ORDER BY s.rowid LIMIT 1`,
    );
  },
};

export const stagingQueries = {
  ids: (db: D1Database, table: string) => db.prepare(`SELECT id FROM ${table}`),
  drop: (db: D1Database, table: string) => db.prepare(`DROP TABLE IF EXISTS ${table}`),
  /** Same columns and affinities as the live table, without its constraints (checked later). */
  create: (db: D1Database, s: StagedSql) =>
    db.prepare(
      `CREATE TABLE ${s.staging} AS SELECT *${s.extra.map((c) => `, NULL AS ${c}`).join("")} FROM ${s.name} WHERE 0`,
    ),
  /** `rows`: one JSON array of rows, each an array of the columns and extras in order. */
  insert: (db: D1Database, s: StagedSql, rows: string) => {
    const columns = [...s.columns, ...s.extra];
    const values = columns.map((_, i) => `value ->> ${i}`).join(", ");
    return db
      .prepare(`INSERT INTO ${s.staging} (${columns.join(", ")}) SELECT ${values} FROM json_each(?1)`)
      .bind(rows);
  },
  moves: (db: D1Database, specs: StagedSql[]) => moveStatements(specs).map((sql) => db.prepare(sql)),
};

// A value no imported row holds, unique per row: parks a unique column while rows swap values.
const PARKED = (table: string) => `char(1) || 'import:' || ${table}.id`;

// Only rows whose values differ are written (docs/specification.md section 8, "Imports write only differences"): an
// unchanged file writes no row, so it fires no trigger and changes no record.
function moveStatements(specs: StagedSql[]): string[] {
  return specs.flatMap((s) => {
    const upsert = upsertStatement(s);
    if (s.childOf) {
      const key = s.key.join(", ");
      return [
        `DELETE FROM ${s.name} WHERE ${s.childOf.column} IN (SELECT id FROM ${s.childOf.parent}) ` +
          `AND (${key}) NOT IN (SELECT ${key} FROM ${s.staging})`,
        upsert,
      ];
    }
    // Unique indexes are checked row by row: rows whose unique value changes get a parked value first, so that two
    // records swapping values (or one taking another's old value) both succeed.
    const park = s.unique
      ? [
          `UPDATE ${s.name} SET ${s.unique} = ${PARKED(s.name)} FROM ${s.staging} AS s ` +
            `WHERE s.id = ${s.name}.id AND ${s.name}.${s.unique} IS NOT s.${s.unique}`,
        ]
      : [];
    const prune = s.ownedBy
      ? [
          `DELETE FROM ${s.name} WHERE ${s.ownedBy.column} IN (SELECT id FROM ${s.ownedBy.parent}) ` +
            `AND id NOT IN (SELECT id FROM ${s.staging})`,
        ]
      : [];
    return [...prune, ...park, upsert];
  });
}

// IS NOT compares NULLs as values; "WHERE true" keeps SQLite from reading ON CONFLICT as a join constraint.
function upsertStatement(s: StagedSql): string {
  const columns = s.columns.join(", ");
  const values = s.columns.filter((c) => !s.key.includes(c));
  const onConflict = values.length
    ? `ON CONFLICT (${s.key.join(", ")}) DO UPDATE SET ${values.map((c) => `${c} = excluded.${c}`).join(", ")} ` +
      `WHERE ${values.map((c) => `${s.name}.${c} IS NOT excluded.${c}`).join(" OR ")}`
    : "ON CONFLICT DO NOTHING";
  return `INSERT INTO ${s.name} (${columns}) SELECT ${columns} FROM ${s.staging} WHERE true ${onConflict}`;
}
