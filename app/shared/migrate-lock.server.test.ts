// Several instances started together on one empty PostgreSQL database migrate it once: the
// advisory lock is taken before anything is created (docs/decisions/0039-several-instances.md).
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { missing } from "../../tests/support/prerequisite";
import { type Db, migrate, openDb } from "./db.server";

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(missing(!serverUrl && "TEST_DATABASE_URL is not set"))(
  "migrations started at the same moment on PostgreSQL",
  () => {
    it("succeed in every instance and apply each file once", async () => {
      const files = (await fs.readdir("db/migrations")).filter((f) => f.endsWith(".sql")).sort();
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        // Several rounds: the old race (CREATE TABLE IF NOT EXISTS outside the lock) failed on
        // pg_type in most of them.
        for (let round = 0; round < 5; round++) {
          const schema = `test_mig_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
          await admin.query(`CREATE SCHEMA ${schema}`);
          const url = new URL(serverUrl as string);
          url.searchParams.set("options", `-c search_path=${schema}`);
          const instances: Db[] = [];
          try {
            for (let i = 0; i < 4; i++) {
              instances.push(await openDb({ databaseUrl: url.toString(), migrate: false }));
            }
            const results = await Promise.allSettled(instances.map((db) => migrate(db)));
            expect(results.map((r) => r.status)).toEqual(Array(4).fill("fulfilled"));
            const applied = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
            expect(applied.sort()).toEqual(files);
            const { rows } = await admin.query(
              `SELECT name FROM ${schema}.schema_migrations ORDER BY name`,
            );
            expect(rows.map((r) => r.name)).toEqual(files);
          } finally {
            for (const db of instances) await db.close();
            // The scheduler's tables are in a schema beside it (scheduler.server.ts).
            await admin.query(`DROP SCHEMA ${schema} CASCADE`);
            await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
          }
        }
      } finally {
        await admin.end();
      }
    });
  },
);
