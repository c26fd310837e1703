// Backups hold the online applications (docs/decisions/0071): their four tables, whose
// sealed bytea values (answers, file names) come back byte for byte, and their sealed documents in
// the private store, from and into embedded PGlite and PostgreSQL alike.
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentVault } from "~/features/applications/documents.server";
import {
  answersContext,
  documentContext,
  documentNameContext,
} from "~/features/applications/names.server";
import { createPrivateBackend } from "~/features/applications/private-backend.server";
import { seal, sealJson, unseal, unsealJson } from "~/features/applications/seal.server";
import { type BlobBackend, DiskImageStore, readAll } from "~/features/images/index.server";
import { type Db, openDb } from "~/shared/db.server";
import { missing } from "../../../tests/support/prerequisite";
import { startS3, type TestS3 } from "../../../tests/support/s3";
import {
  type BackupManifest,
  BackupRefusedError,
  restoreBackup,
  writeBackup,
} from "./archive.server";

/** Every byte value once, 0x00 to 0xff: what a JSON round trip of bytea must not change. */
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const APPLICATION_TABLES = [
  "applications",
  "applicants",
  "application_documents",
  "application_events",
];
const dataKey = randomBytes(32);

type Kind = "pglite" | "postgres";
const serverUrl = process.env.TEST_DATABASE_URL;
const kinds: Kind[] = ["pglite"];
// Without it the PostgreSQL variants are left out (an error under CI: tests/support/prerequisite.ts).
if (!missing(!serverUrl && "TEST_DATABASE_URL is not set") && serverUrl) kinds.push("postgres");

const cleanups: (() => Promise<void>)[] = [];
let root: string;

/** A database of either kind: migrated (a source) or empty (a restore's target). */
async function openDatabase(kind: Kind, migrate: boolean): Promise<Db> {
  if (kind === "pglite") {
    const db = await openDb({ dataDir: "memory://", migrate });
    cleanups.push(() => db.close());
    return db;
  }
  // A schema of its own on the server, dropped afterwards (as tests/support/db-targets.ts).
  const schema = `test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(serverUrl as string);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const db = await openDb({ databaseUrl: url.toString(), migrate });
  cleanups.push(async () => {
    await db.close();
    // The scheduler's tables are in a schema beside it (scheduler.server.ts).
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
    await admin.end();
  });
  return db;
}

/** DATA_DIR/private of a fresh data directory, as the site makes it. */
async function privateStore(name: string): Promise<BlobBackend> {
  return createPrivateBackend({ dataDir: path.join(root, name), s3: null });
}

interface Seeded {
  applicationId: number;
  /** Document storage keys and the bytes sealed under each. */
  documents: Map<string, Buffer>;
}

/**
 * Applications as the site writes them: ids past some deleted ones, the main applicant's answers
 * ALL_BYTES, another adult's sealed answers, two sealed documents (one file name ALL_BYTES
 * reversed, one sealed), a 'viewed' event.
 */
async function seedApplications(db: Db, documents: BlobBackend): Promise<Seeded> {
  const vault = new DocumentVault(documents, dataKey);
  let applicationId = 0;
  for (let i = 0; i < 3; i++) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO applications (collection, listing_id, listing_address, status, submitted_at, notes)
       VALUES ('properties', '1-main-st', '1 Main St', 'received', now(), 'Called back — Zoë')
       RETURNING id::int AS id`,
    );
    applicationId = row?.id as number;
  }
  await db.query("DELETE FROM applications WHERE id <> $1", [applicationId]);
  const applicant = async (position: number, answers: Buffer) =>
    (
      await db.query<{ id: number }>(
        `INSERT INTO applicants (application_id, position, token_hash, token_expires_at, email_mac, answers)
         VALUES ($1, $2, $3, now() + interval '30 days', $4, $5) RETURNING id::int AS id`,
        [applicationId, position, randomBytes(32).toString("hex"), `mac-${position}`, answers],
      )
    )[0]?.id as number;
  const main = await applicant(0, ALL_BYTES);
  await applicant(
    1,
    sealJson(dataKey, { firstName: "Zoë", income: "4200" }, answersContext(applicationId, 1)),
  );
  const stored = new Map<string, Buffer>();
  for (const [name, nameSealed] of [
    ["id", (_key: string) => Buffer.from(ALL_BYTES).reverse()],
    [
      "income",
      (key: string) => seal(dataKey, Buffer.from("payslip – März.pdf"), documentNameContext(key)),
    ],
  ] as const) {
    const data = Buffer.concat([Buffer.from(`%PDF-1.7 ${name}\n`), randomBytes(3000), ALL_BYTES]);
    const storageKey = await vault.store(applicationId, data);
    stored.set(storageKey, data);
    await db.query(
      `INSERT INTO application_documents (applicant_id, kind, storage_key, name_sealed, content_type, bytes)
       VALUES ($1, $2, $3, $4, 'application/pdf', $5)`,
      [main, name, storageKey, nameSealed(storageKey), data.length],
    );
  }
  await db.query(
    `INSERT INTO application_events (application_id, by_email, action, detail)
     VALUES ($1, 'staff@example.com', 'viewed', '{"from": "list"}')`,
    [applicationId],
  );
  return { applicationId, documents: stored };
}

/** The application tables' rows as PostgreSQL writes them in JSON (UTC, bytea in hex). */
async function applicationRows(db: Db): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  await db.transaction(async (tx) => {
    await tx.query("SET LOCAL TIME ZONE 'UTC'");
    await tx.query("SET LOCAL bytea_output = 'hex'");
    for (const table of APPLICATION_TABLES) {
      rows[table] = (
        await tx.query<{ row: string }>(
          `SELECT row_to_json(t)::text AS row FROM ${table} t ORDER BY id`,
        )
      ).map((r) => r.row);
    }
  });
  return rows;
}

/** Every document in a private store, by key. */
async function storedDocuments(documents: BlobBackend): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for (const { key } of await documents.list("applications/")) {
    const blob = await documents.get(key);
    if (blob) found.set(key, await readAll(blob));
  }
  return found;
}

interface Source {
  db: Db;
  seeded: Seeded;
  rows: Record<string, string[]>;
  sealedDocuments: Map<string, Buffer>;
  archive: string;
  manifest: BackupManifest;
}
const sources = new Map<Kind, Source>();

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "backup-applications-"));
  for (const kind of kinds) {
    const db = await openDatabase(kind, true);
    const documents = await privateStore(`source-${kind}`);
    const seeded = await seedApplications(db, documents);
    const archive = path.join(root, `${kind}.tar.gz`);
    const manifest = await writeBackup(
      db,
      new DiskImageStore(path.join(root, `source-${kind}`, "images")),
      archive,
      { documents },
    );
    sources.set(kind, {
      db,
      seeded,
      rows: await applicationRows(db),
      sealedDocuments: await storedDocuments(documents),
      archive,
      manifest,
    });
  }
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe("backups of online applications", () => {
  it("list the four application tables, parents before children, and count the documents", () => {
    for (const { manifest } of sources.values()) {
      const names = manifest.tables.map((t) => t.name);
      const at = (table: string) => names.indexOf(table);
      for (const table of APPLICATION_TABLES) expect(names, table).toContain(table);
      expect(at("applications")).toBeLessThan(at("applicants"));
      expect(at("applicants")).toBeLessThan(at("application_documents"));
      expect(at("applications")).toBeLessThan(at("application_events"));
      expect(manifest.tables.find((t) => t.name === "applicants")?.rows).toBe(2);
      expect(manifest.documents).toBe(2);
    }
  });

  const pairs = kinds.flatMap((from) => kinds.map((to) => [from, to] as const));
  it.each(pairs)(
    "restore from %s into an empty %s with every bytea byte, the documents, ids and sequences",
    async (from, to) => {
      const source = sources.get(from) as Source;
      const db = await openDatabase(to, false);
      const documents = await privateStore(`target-${from}-${to}`);
      const images = new DiskImageStore(path.join(root, `target-${from}-${to}`, "images"));
      const restored = await restoreBackup(db, images, source.archive, { documents });
      expect(restored.documents).toBe(2);

      // Byte for byte: the 256 byte values, as each driver reads bytea.
      const [main] = await db.query<{ answers: Uint8Array }>(
        "SELECT answers FROM applicants WHERE position = 0",
      );
      expect(Buffer.from(main?.answers as Uint8Array).equals(ALL_BYTES)).toBe(true);
      const [name] = await db.query<{ name: Uint8Array }>(
        "SELECT name_sealed AS name FROM application_documents WHERE kind = 'id'",
      );
      expect(Buffer.from(name?.name as Uint8Array).equals(Buffer.from(ALL_BYTES).reverse())).toBe(
        true,
      );
      // Every row and column of the four tables, ids included.
      expect(await applicationRows(db)).toEqual(source.rows);

      // Sealed values still open: same ids (their context) and same key.
      const { applicationId } = source.seeded;
      const [other] = await db.query<{ answers: Uint8Array }>(
        "SELECT answers FROM applicants WHERE position = 1",
      );
      expect(
        unsealJson(
          dataKey,
          Buffer.from(other?.answers as Uint8Array),
          answersContext(applicationId, 1),
        ),
      ).toEqual({ firstName: "Zoë", income: "4200" });
      const [income] = await db.query<{ key: string; name: Uint8Array }>(
        "SELECT storage_key AS key, name_sealed AS name FROM application_documents WHERE kind = 'income'",
      );
      expect(
        unseal(
          dataKey,
          Buffer.from(income?.name as Uint8Array),
          documentNameContext(income?.key as string),
        ).toString(),
      ).toBe("payslip – März.pdf");

      // The documents: the same sealed bytes under the same keys, and they open.
      expect(await storedDocuments(documents)).toEqual(source.sealedDocuments);
      const vault = new DocumentVault(documents, dataKey);
      for (const [key, data] of source.seeded.documents) {
        expect((await vault.read(key))?.equals(data), key).toBe(true);
        // (What the archive and the store hold is ciphertext, never the document itself.)
        expect(source.sealedDocuments.get(key)?.includes(Buffer.from("%PDF-"))).toBe(false);
        expect(
          unseal(dataKey, source.sealedDocuments.get(key) as Buffer, documentContext(key)),
        ).toEqual(data);
      }

      // Identity columns continue after the restored rows.
      const [next] = await db.query<{ id: number }>(
        "INSERT INTO applications DEFAULT VALUES RETURNING id::int AS id",
      );
      expect(next?.id).toBe(applicationId + 1);
    },
    120_000,
  );

  it("keeps the documents sealed inside the archive", async () => {
    const source = sources.get("pglite") as Source;
    const archive = await fs.readFile(source.archive);
    const { gunzipSync } = await import("node:zlib");
    const tarBytes = gunzipSync(archive);
    for (const key of source.seeded.documents.keys()) {
      expect(tarBytes.includes(Buffer.from(key.split("/").at(-1) as string))).toBe(true);
    }
    expect(tarBytes.includes(Buffer.from("%PDF-1.7"))).toBe(false);
    expect(tarBytes.includes(Buffer.from("payslip"))).toBe(false);
  });
});

describe("backups of application documents refuse what would lose them", () => {
  it("refuses a backup without the private store once an application has a document", async () => {
    const source = sources.get("pglite") as Source;
    const images = new DiskImageStore(path.join(root, "no-store-images"));
    await expect(
      writeBackup(source.db, images, path.join(root, "no-store.tar.gz")),
    ).rejects.toThrow(
      /Applications have 2 documents, but the backup was not given their private store/,
    );
    await expect(fs.stat(path.join(root, "no-store.tar.gz"))).rejects.toThrow();
  });

  it("takes the backup again when a document its rows name is gone, then gives up", async () => {
    const db = await openDatabase("pglite", true);
    const documents = await privateStore("missing-document");
    const { documents: stored } = await seedApplications(db, documents);
    const [gone] = stored.keys();
    await documents.delete(gone as string);
    const images = new DiskImageStore(path.join(root, "missing-document", "images"));
    await expect(
      writeBackup(db, images, path.join(root, "missing.tar.gz"), { documents }),
    ).rejects.toThrow(/Photos or documents kept changing/);
  }, 60_000);

  it("refuses to restore documents without a private store, or into one that holds documents", async () => {
    const source = sources.get("pglite") as Source;
    const db = await openDatabase("pglite", false);
    const images = new DiskImageStore(path.join(root, "refused", "images"));
    await expect(restoreBackup(db, images, source.archive)).rejects.toThrow(
      /holds 2 application documents and no private store was given/,
    );
    const documents = await privateStore("refused");
    await documents.put("applications/1/already-here", Buffer.from("x"), {
      contentType: "application/octet-stream",
      cacheControl: "private, no-store",
    });
    const refusal = restoreBackup(db, images, source.archive, { documents });
    await expect(refusal).rejects.toBeInstanceOf(BackupRefusedError);
    await expect(refusal).rejects.toThrow(
      /not empty: the private store already holds 1 application documents/,
    );
    const tables = await db.query(
      "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema()",
    );
    expect(tables).toEqual([]);
  }, 60_000);
});

describe("createPrivateBackend", () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it("keeps documents in DATA_DIR/private, outside the photos", async () => {
    const dataDir = path.join(root, "disk-private");
    const backend = createPrivateBackend({ dataDir, s3: null });
    const meta = { contentType: "application/octet-stream", cacheControl: "private, no-store" };
    await backend.put("applications/7/abc", ALL_BYTES, meta);
    expect(
      (await fs.readFile(path.join(dataDir, "private", "applications", "7", "abc"))).equals(
        ALL_BYTES,
      ),
    ).toBe(true);
    // (Files being written go to `.tmp/`, which no listing shows.)
    expect((await backend.list("applications/")).map((b) => b.key)).toEqual(["applications/7/abc"]);
  });

  it("restores an archive's documents into the private bucket with S3, never the photo bucket", async () => {
    const source = sources.get("pglite") as Source;
    const [bucket, privateBucket] = [await s3.createBucket(), await s3.createBucket()];
    const env = {
      dataDir: path.join(root, "s3-target"),
      s3: { bucket, privateBucket, forcePathStyle: true },
    };
    const documents = createPrivateBackend(env);
    const db = await openDatabase("pglite", false);
    const images = new DiskImageStore(path.join(root, "s3-target", "images"));
    await restoreBackup(db, images, source.archive, { documents });
    expect(await storedDocuments(documents)).toEqual(source.sealedDocuments);
    const photoBucket = createPrivateBackend({ ...env, s3: { ...env.s3, privateBucket: bucket } });
    expect(await photoBucket.list("applications/")).toEqual([]);
    // And back out of the bucket into another archive, unchanged.
    const again = path.join(root, "from-s3.tar.gz");
    const manifest = await writeBackup(db, images, again, { documents });
    expect(manifest.documents).toBe(2);
  }, 60_000);
});
