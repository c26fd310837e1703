// Makes the templates new embedded databases start from in tests (PGLITE_INITDB_TEMPLATE and
// PGLITE_MIGRATED_TEMPLATE, app/shared/db.server.ts; docs/testing.md): one initdb and one run of
// the migrations per test run instead of one per database. Used as a global setup by Vitest (both
// configs) and by Playwright's global setup; servers the tests start inherit the variables.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { migrate, pgliteDb } from "~/shared/db.server";
import { installJobTables } from "~/shared/scheduler.server";

/** Sets the two variables to new templates unless they are set; returns their removal. */
export async function providePgliteTemplates(): Promise<() => Promise<void>> {
  if (process.env.PGLITE_INITDB_TEMPLATE && process.env.PGLITE_MIGRATED_TEMPLATE) {
    return async () => {};
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "pglite-template-"));
  const initdb = path.join(dir, "initdb.tar");
  const migrated = path.join(dir, "migrated.tar");
  const pg = await PGlite.create("memory://");
  try {
    const write = async (file: string) =>
      fs.writeFile(file, Buffer.from(await (await pg.dumpDataDir("none")).arrayBuffer()));
    await write(initdb);
    const db = pgliteDb(pg);
    await migrate(db);
    // The scheduler's tables too (pg-boss's install, about a second of CPU each time).
    await installJobTables(db);
    await write(migrated);
  } finally {
    await pg.close();
  }
  process.env.PGLITE_INITDB_TEMPLATE = initdb;
  process.env.PGLITE_MIGRATED_TEMPLATE = migrated;
  return async () => {
    delete process.env.PGLITE_INITDB_TEMPLATE;
    delete process.env.PGLITE_MIGRATED_TEMPLATE;
    await fs.rm(dir, { recursive: true, force: true });
  };
}

/** Vitest's global setup: returns the teardown. */
export default async function setup() {
  return providePgliteTemplates();
}
