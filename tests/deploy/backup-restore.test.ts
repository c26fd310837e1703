// `npm run backup` / `npm run restore`: demo data after some edits (and an online application
// with a bytea value), backed up while the site runs, restored into a fresh place, compared row
// for row (bytea as hex) and photo byte for byte, across
// PGlite+disk → PGlite+disk, PGlite+disk → PostgreSQL+S3, PostgreSQL+S3 → PGlite+disk
// (docs/decisions/0040-backups.md).
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { grantAdmin } from "~/features/auth/admins.server";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { DiskImageStore, type ImageStore, S3ImageStore } from "~/features/images/storage.server";
import { seedDemoContent } from "~/features/listings/demo-seed.server";
import { ListingWrites } from "~/features/listings/listing-writes.server";
import { getListing } from "~/features/listings/queries.server";
import { type Db, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { notBackedUpTables } from "../../server/features";
import { jpegWithGps } from "../support/images";
import { missing } from "../support/prerequisite";
import { startS3, type TestS3 } from "../support/s3";
import { freshDatabase, startSite, waitUntilServing } from "./processes";

const serverUrl = process.env.TEST_DATABASE_URL;

/** `npm run backup|restore -- file` with exactly these variables. */
async function cli(command: "backup" | "restore", file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ["scripts/backup.mjs", command, file], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const started = Date.now();
  const [code] = (await once(child, "exit")) as [number | null];
  console.info(`${command} ${path.basename(file)}: exit ${code} in ${Date.now() - started} ms`);
  return { code, out };
}

interface State {
  /** Every table's rows, as PostgreSQL writes them in JSON (UTC), sorted. */
  tables: Record<string, string[]>;
  migrations: string[];
  /** Every photo's bytes by key. */
  photos: Map<string, Buffer>;
}

async function stateOf(db: Db, images: ImageStore): Promise<State> {
  const tables: Record<string, string[]> = {};
  await db.transaction(async (tx) => {
    await tx.query("SET LOCAL TIME ZONE 'UTC'");
    const names = await tx.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema()
          -- What the features say backups leave out (server/features.ts) is not compared.
          AND NOT (table_name = ANY($1::text[]))`,
      [["schema_migrations", ...notBackedUpTables()]],
    );
    for (const { name } of names) {
      // An archive cannot hold the 'Activity' event of its own making, written once it is done.
      const own = name === "activity_events" ? "WHERE kind NOT IN ('backup', 'restore')" : "";
      const rows = await tx.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM ${name} t ${own}`,
      );
      tables[name] = rows.map((r) => r.row).sort();
    }
  });
  const migrations = (
    await db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name")
  ).map((r) => r.name);
  const photos = new Map<string, Buffer>();
  for (const key of await images.keys()) photos.set(key, await images.readKey(key));
  return { tables, migrations, photos };
}

function expectSameState(actual: State, expected: State) {
  expect(Object.keys(actual.tables).sort()).toEqual(Object.keys(expected.tables).sort());
  for (const [table, rows] of Object.entries(expected.tables)) {
    // A restore ends every session (docs/behaviour.md §24): those tables come back empty.
    const ended = table === "sessions" || table === "login_flows";
    expect(actual.tables[table], table).toEqual(ended ? [] : rows);
  }
  expect(actual.migrations).toEqual(expected.migrations);
  expect([...actual.photos.keys()]).toEqual([...expected.photos.keys()]);
  for (const [key, bytes] of expected.photos) {
    expect(actual.photos.get(key)?.equals(bytes), key).toBe(true);
  }
}

describe.skipIf(missing(!serverUrl && "TEST_DATABASE_URL is not set"))("backup and restore", () => {
  let work: string;
  let s3: TestS3;
  const databases: Awaited<ReturnType<typeof freshDatabase>>[] = [];
  let source: State;
  let archive: string;

  const embedded = (dir: string) => ({ DATA_DIR: dir });
  async function openEmbedded(dir: string) {
    const db = await openDb({ dataDir: path.join(dir, "db"), migrate: false });
    return { db, images: new DiskImageStore(path.join(dir, "images")) };
  }

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), "backup-test-"));
    s3 = await startS3();
    archive = path.join(work, "site.tar.gz");

    // The demo data, then some edits, on an embedded database.
    const sourceDir = path.join(work, "source");
    {
      const { db, images } = await openEmbedded(sourceDir);
      const { migrate } = await import("~/shared/db.server");
      await migrate(db);
      expect(await seedDemoContent(db, images)).toBeGreaterThan(0);
      const writes = new ListingWrites(db, images);
      const upload = path.join(work, "upload.jpg");
      await fs.writeFile(upload, await jpegWithGps(900, 600, "#884422"));
      await writes.add(
        "properties",
        {
          address: "21 Backup Row",
          bedrooms: 3,
          bathrooms: 2,
          description: 'Restored exactly — ünïcode and "quotes"',
          thumbnail_description: "Thumb",
          property_type: "Residential",
          currently_available: true,
          price: "1850",
          reserve_url: null,
        },
        [upload, upload],
      );
      const [demo] = await db.query<{ collection: "properties"; id: string }>(
        "SELECT collection, id FROM listings WHERE collection = 'properties' AND id <> '21-backup-row' ORDER BY id LIMIT 1",
      );
      const listing = await getListing(db, "properties", demo?.id as string);
      await writes.removeImage("properties", demo?.id as string, listing?.image_urls[0] as string);
      await writes.setAvailability("21-backup-row", false);
      await upsertUser(db, {
        issuer: "https://id.example",
        sub: "u-1",
        email: "staff@example.com",
        emailVerified: true,
        name: "Staff",
      });
      await createSession(db, { issuer: "https://id.example", sub: "u-1" }, readEnv({}).session);
      await grantAdmin(db, "staff@example.com", "test");
      // An online application (docs/behaviour.md §32): sealed answers are bytea; here every byte value once.
      const [application] = await db.query<{ id: number }>(
        "INSERT INTO applications (status, notes) VALUES ('received', 'Zoë — \"ok\"') RETURNING id::int AS id",
      );
      await db.query(
        `INSERT INTO applicants (application_id, position, token_hash, token_expires_at, answers)
         VALUES ($1, 0, 'hash-0', now() + interval '30 days', $2)`,
        [application?.id, Buffer.from(Array.from({ length: 256 }, (_, i) => i))],
      );
      await db.query(
        "INSERT INTO application_events (application_id, action) VALUES ($1, 'viewed')",
        [application?.id],
      );
      await db.close();
    }

    // Backed up while the site runs on it: through the running server's admin socket.
    const site = startSite({ DATA_DIR: sourceDir, SEED_DEMO: "false", LOG_LEVEL: "debug" });
    try {
      await waitUntilServing(site);
      // The scheduler's first runs write too (the two digests record when they last ran): they
      // are done before the backup, so that what it holds is what the database holds after.
      await vi.waitFor(
        () => {
          for (const job of ["alerts.digest", "listings.stale-digest"]) {
            expect(site.output(), job).toContain(`"job":"${job}"`);
          }
        },
        { timeout: 30_000, interval: 100 },
      );
      const backup = await cli("backup", archive, embedded(sourceDir));
      expect(backup.out).toContain("by the running server");
      expect(backup.code).toBe(0);
      expect((await fs.stat(archive)).mode & 0o777).toBe(0o600);
    } finally {
      await site.stop();
    }
    const { db, images } = await openEmbedded(sourceDir);
    source = await stateOf(db, images);
    await db.close();
    expect(source.photos.size).toBeGreaterThan(50);
    for (const table of ["listings", "users", "sessions", "admins", "applicants"]) {
      expect(source.tables[table]?.length, table).toBeGreaterThan(0);
    }
  }, 180_000);

  afterAll(async () => {
    for (const database of databases) await database.drop();
    await s3?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it("restores PGlite + disk into a fresh DATA_DIR exactly, and refuses it once not empty", async () => {
    const target = path.join(work, "restored-embedded");
    const restored = await cli("restore", archive, embedded(target));
    expect(restored.code, restored.out).toBe(0);
    const { db, images } = await openEmbedded(target);
    try {
      expectSameState(await stateOf(db, images), source);
    } finally {
      await db.close();
    }
    const again = await cli("restore", archive, embedded(target));
    expect(again.code).toBe(1);
    expect(again.out).toContain("Refused: The target is not empty: the database has rows in");
  }, 120_000);

  it("restores PGlite + disk into PostgreSQL + S3 exactly, then backs that up and restores it into PGlite + disk", async () => {
    const database = await freshDatabase(serverUrl as string);
    databases.push(database);
    const bucket = await s3.createBucket();
    const serverEnv = {
      DATABASE_URL: database.url,
      ...s3.env(bucket),
      DATA_DIR: path.join(work, "pg-node"),
    };
    const restored = await cli("restore", archive, serverEnv);
    expect(restored.code, restored.out).toBe(0);
    const db = await openDb({ databaseUrl: database.url, migrate: false });
    const images = new S3ImageStore({
      bucket,
      forcePathStyle: true,
      tempDir: path.join(work, "tmp"),
    });
    try {
      expectSameState(await stateOf(db, images), source);
      // Refused once it holds data, and nothing changes.
      const again = await cli("restore", archive, serverEnv);
      expect(again.code).toBe(1);
      expect(again.out).toContain("not empty");
    } finally {
      await db.close();
    }

    // PostgreSQL + S3 → PGlite + disk: the way back.
    const second = path.join(work, "from-postgres.tar.gz");
    const backup = await cli("backup", second, serverEnv);
    expect(backup.code, backup.out).toBe(0);
    const target = path.join(work, "back-to-embedded");
    const back = await cli("restore", second, embedded(target));
    expect(back.code, back.out).toBe(0);
    const embeddedDb = await openEmbedded(target);
    try {
      expectSameState(await stateOf(embeddedDb.db, embeddedDb.images), source);
    } finally {
      await embeddedDb.db.close();
    }
  }, 180_000);

  it("refuses what is not a backup with a clear message", async () => {
    const bogus = path.join(work, "bogus.tar.gz");
    await fs.writeFile(bogus, "not an archive");
    const result = await cli("restore", bogus, embedded(path.join(work, "never")));
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/Refused: .*bogus\.tar\.gz is not (a readable backup|a backup)/);
    const usage = await cli("restore", "", embedded(path.join(work, "never")));
    expect(usage.code).toBe(2);
  }, 60_000);
});
