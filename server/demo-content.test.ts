// Demo listings belong only in a database this start created: loaded once into a new embedded
// database, never into PostgreSQL unless SEED_DEMO=true, and never again after the first time
// (docs/decisions/0033-demo-content-once-on-a-new-embedded-database.md).
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_LISTINGS } from "~/features/listings/demo-seed.server";
import { readEnv } from "~/shared/env.server";
import { missing } from "../tests/support/prerequisite";
import { startServices } from "./services";

const dirs: string[] = [];
async function tempDir() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "demo-content-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** Starts the services as `npm start` does, runs `fn`, and closes them again. */
async function withServices<T>(
  env: Record<string, string>,
  fn: (s: Awaited<ReturnType<typeof startServices>>) => Promise<T>,
): Promise<T> {
  const services = await startServices(readEnv({ NODE_ENV: "test", ...env }));
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

const count = (s: Awaited<ReturnType<typeof startServices>>) =>
  s.db.query<{ n: number }>("SELECT count(*)::int AS n FROM listings").then((rows) => rows[0]?.n);

describe("demo listings on the embedded database", () => {
  it("are loaded on the first start only: delete every listing, restart, nothing comes back", async () => {
    const DATA_DIR = await tempDir();
    await withServices({ DATA_DIR }, async (s) => {
      expect(await count(s)).toBe(DEMO_LISTINGS.length);
      await s.db.query("DELETE FROM listings");
    });
    // As when staff delete each listing: its photos go too.
    await fs.rm(path.join(DATA_DIR, "images"), { recursive: true, force: true });
    await withServices({ DATA_DIR }, async (s) => expect(await count(s)).toBe(0));
    // Not even when asked for: the database has had them once.
    await withServices({ DATA_DIR, SEED_DEMO: "true" }, async (s) =>
      expect(await count(s)).toBe(0),
    );
  }, 120_000);

  it("are not loaded into a database created with SEED_DEMO=false, at any later start", async () => {
    const DATA_DIR = await tempDir();
    await withServices({ DATA_DIR, SEED_DEMO: "false" }, async (s) =>
      expect(await count(s)).toBe(0),
    );
    await withServices({ DATA_DIR }, async (s) => expect(await count(s)).toBe(0));
  }, 60_000);
});

const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(missing(!serverUrl && "TEST_DATABASE_URL is not set"))(
  "demo listings on PostgreSQL (DATABASE_URL)",
  () => {
    const schema = `demo_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    afterAll(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`).catch(() => undefined);
      await admin.end();
    });

    it("are never loaded unless SEED_DEMO=true, and then once", async () => {
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(serverUrl as string);
      url.searchParams.set("options", `-c search_path=${schema}`);
      const base = { DATABASE_URL: url.toString(), DATA_DIR: await tempDir() };

      await withServices(base, async (s) => expect(await count(s)).toBe(0));
      await withServices({ ...base, SEED_DEMO: "true" }, async (s) => {
        expect(await count(s)).toBe(DEMO_LISTINGS.length);
        await s.db.query("DELETE FROM listings");
      });
      await fs.rm(path.join(base.DATA_DIR, "images"), { recursive: true, force: true });
      await withServices({ ...base, SEED_DEMO: "true" }, async (s) =>
        expect(await count(s)).toBe(0),
      );
    }, 120_000);
  },
);
