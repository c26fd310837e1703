// Database suites run once on embedded PGlite and, when TEST_DATABASE_URL is set, once more
// on that PostgreSQL server, each in a schema of its own that is dropped afterwards.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { type Db, openDb } from "~/shared/db.server";
import { missing } from "./prerequisite";

export interface DbTarget {
  name: "pglite" | "postgres";
  /** `another` opens a second connection pool on the same data, as a second server would. */
  open(): Promise<{ db: Db; cleanup(): Promise<void>; another?: () => Promise<Db> }>;
}

export const dbTargets: DbTarget[] = [
  {
    name: "pglite",
    async open() {
      const db = await openDb({ dataDir: "memory://" });
      return { db, cleanup: () => db.close() };
    },
  },
];

const serverUrl = process.env.TEST_DATABASE_URL;
// Without it the PostgreSQL variants are left out (an error under CI: tests/support/prerequisite.ts).
if (!missing(!serverUrl && "TEST_DATABASE_URL is not set") && serverUrl) {
  dbTargets.push({
    name: "postgres",
    async open() {
      const schema = `test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(serverUrl);
      url.searchParams.set("options", `-c search_path=${schema}`);
      const db = await openDb({ databaseUrl: url.toString() });
      const others: Db[] = [];
      return {
        db,
        async another() {
          const other = await openDb({ databaseUrl: url.toString() });
          others.push(other);
          return other;
        },
        async cleanup() {
          for (const other of others) await other.close();
          await db.close();
          // The scheduler's tables are in a schema beside it (scheduler.server.ts).
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
          await admin.end();
        },
      };
    },
  });
}
