// Makes the initdb template new embedded databases start from in tests (PGLITE_INITDB_TEMPLATE,
// app/shared/db.server.ts; docs/testing.md): one initdb per run instead of one per database.
// Used as a global setup by Vitest (both configs) and by Playwright's global setup; child
// processes (servers the tests start) inherit the variable.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Sets PGLITE_INITDB_TEMPLATE to a new template unless it is set; returns its removal. */
export async function providePgliteTemplate(): Promise<() => Promise<void>> {
  if (process.env.PGLITE_INITDB_TEMPLATE) return async () => {};
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "pglite-template-"));
  const file = path.join(dir, "initdb.tar");
  const pg = await PGlite.create("memory://");
  try {
    const dump = await pg.dumpDataDir("none");
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pg.close();
  }
  process.env.PGLITE_INITDB_TEMPLATE = file;
  return async () => {
    delete process.env.PGLITE_INITDB_TEMPLATE;
    await fs.rm(dir, { recursive: true, force: true });
  };
}

/** Vitest's global setup: returns the teardown. */
export default async function setup() {
  return providePgliteTemplate();
}
