// "Nothing changed": a snapshot of everything the site stores, to compare before and after a
// request. Every table of the current schema (all rows, every column but the bookkeeping ones a
// read may move), and a hash of every file under the image store.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Queryable } from "~/shared/db.server";

/** Columns that any signed-in request moves (a session's idle timer), not stored data. */
const VOLATILE = new Set(["sessions.last_seen_at", "sessions.expires_at"]);

export interface StoredState {
  tables: Record<string, string>;
  images: string;
}

/** Tables of the schema the connection uses (PGlite: public; PostgreSQL tests: their own). */
export async function tableNames(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

export async function dumpTables(db: Queryable, tables: string[]): Promise<Record<string, string>> {
  const dump: Record<string, string> = {};
  for (const table of tables) {
    const rows = await db.query<Record<string, unknown>>(`SELECT * FROM "${table}"`);
    const lines = rows.map((row) =>
      JSON.stringify(Object.entries(row).filter(([column]) => !VOLATILE.has(`${table}.${column}`))),
    );
    dump[table] = lines.sort().join("\n");
  }
  return dump;
}

/**
 * Hash of every file (path and contents) under `root`. Contents are re-read only for files
 * whose size, mtime or inode moved since the last call (the cache is keyed by all three).
 */
export function imageTreeHasher(root: string) {
  const cache = new Map<string, { stamp: string; hash: string }>();
  return async function hashTree(): Promise<string> {
    const entries = await fs
      .readdir(root, { recursive: true, withFileTypes: true })
      .catch(() => []);
    const files = entries
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    const total = createHash("sha256");
    const stats = await Promise.all(files.map((file) => fs.stat(file).catch(() => null)));
    for (const [i, file] of files.entries()) {
      const stat = stats[i];
      if (!stat) continue;
      const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
      let known = cache.get(file);
      if (known?.stamp !== stamp) {
        const bytes = await fs.readFile(file).catch(() => null);
        if (!bytes) continue;
        known = { stamp, hash: createHash("sha256").update(bytes).digest("hex") };
        cache.set(file, known);
      }
      total.update(`${path.relative(root, file)}\0${known.hash}\n`);
    }
    return total.digest("hex");
  };
}

/**
 * One query that digests every table (all rows, all columns but the volatile ones): a hash per
 * table, in one round trip, for checks after every request.
 */
export async function tableDigester(db: Queryable): Promise<() => Promise<Record<string, string>>> {
  const tables = await tableNames(db);
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const parts = tables.map((table) => {
    const kept = columns
      .filter((c) => c.table_name === table && !VOLATILE.has(`${table}.${c.column_name}`))
      .map((c) => `"${c.column_name}"`);
    const row = `json_build_array(${kept.join(", ")})::text`;
    return `(SELECT md5(coalesce(string_agg(${row}, E'\\n' ORDER BY ${row}), '')) FROM "${table}") AS "${table}"`;
  });
  const sql = `SELECT ${parts.join(", ")}`;
  return async () => {
    const [row] = await db.query<Record<string, string>>(sql);
    return row ?? {};
  };
}

/** The differences between two snapshots, as readable lines (empty: nothing changed). */
export function stateDifferences(before: StoredState, after: StoredState): string[] {
  const out: string[] = [];
  for (const table of new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])) {
    if (before.tables[table] !== after.tables[table]) out.push(`table ${table} changed`);
  }
  if (before.images !== after.images) out.push("the image tree changed");
  return out;
}
