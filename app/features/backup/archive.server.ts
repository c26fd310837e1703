// One backup archive: every table's rows, every photo and every application document, from
// either database and either store, restorable into an empty one of either
// (docs/decisions/0040-backups.md).
//
// A gzipped tar holding
//   manifest.json              format, version, the migrations applied, tables, counts
//   tables/{table}.json        the table's rows as PostgreSQL writes them (json_agg), exact;
//                              a bytea value (sealed answers and file names) as its `\x` hex text
//   photos/{collection}/{folder}/{name}   each photo object's bytes, under its key
//   documents/applications/{id}/{uuid}    each application document's bytes as stored: sealed
//                              (docs/decisions/0071), so the archive holds no document in clear
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import type { BlobBackend, ImageStore } from "~/features/images/index.server";
import {
  type Db,
  migrate,
  migrationFiles,
  type Queryable,
  readMigration,
} from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { HttpError } from "~/shared/http-error.server";
import { writePrivateFile } from "~/shared/private-files.server";

export const BACKUP_FORMAT = "leasing-site-backup";
const FORMAT_VERSION = 1;
/** A photo removed by an edit between the row snapshot and its copy: the backup starts again. */
const ATTEMPTS = 3;

/**
 * The largest archive a restore accepts, and the most bytes its extraction may produce (the
 * uncompressed tar stream, counted while it is read: a small file that inflates without end is
 * stopped there). 8 GiB each: far above a leasing company's rows and photos (the demo site is a
 * few MB), far below what would fill a server's disk unnoticed.
 */
export const RESTORE_LIMITS = { archiveBytes: 8 * 1024 ** 3, extractedBytes: 8 * 1024 ** 3 };
export type RestoreLimits = typeof RESTORE_LIMITS;

/**
 * Tables a restore leaves empty: sessions (no cookie from before a restore works afterwards;
 * everyone signs in again) and sign-ins in progress. Users and admin grants are restored: the
 * staff must be admins again after a restore.
 */
const NOT_RESTORED = new Set(["sessions", "login_flows"]);

/**
 * Applications' documents (docs/behaviour.md §32): sealed blobs
 * `applications/{application id}/{uuid}` of the private backend
 * (app/features/applications/private-backend.server.ts), which the rows of
 * `application_documents` name by `storage_key`. Copied byte for byte, still sealed.
 */
const DOCUMENTS_PREFIX = "applications/";
const DOCUMENT_KEY = /^applications\/[0-9]+\/[A-Za-z0-9-]+$/;
/** As the vault stores them (documents.server.ts): never cached, never typed as a document. */
const DOCUMENT_META = {
  contentType: "application/octet-stream",
  cacheControl: "private, no-store",
};

export interface BackupOptions {
  /** Who asked (the audit log's `who`). */
  by?: string;
  /**
   * The private backend of applications' documents (createPrivateBackend). Without it a backup
   * is refused once any application has a document, rather than written without them.
   */
  documents?: BlobBackend;
  /** Tables the features say a backup leaves out (server/features.ts, `notBackedUpTables`). */
  notBackedUp?: readonly string[];
}

export interface RestoreOptions {
  limits?: RestoreLimits;
  /** Where the archive's application documents go (createPrivateBackend); needed if it has any. */
  documents?: BlobBackend;
  /** As for the backup: tables whose rows in the target do not make it "not empty". */
  notBackedUp?: readonly string[];
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The schema version: every migration applied, in order. */
  migrations: string[];
  /** Tables in an order that satisfies their foreign keys, with their row counts. */
  tables: { name: string; rows: number }[];
  photos: number;
  /** Application documents (sealed); absent from archives made before there were any. */
  documents?: number;
  source: { database: Db["kind"]; storage: ImageStore["kind"] };
}

/** A backup that cannot be restored as asked; nothing was changed (docs/decisions/0058). */
export class BackupRefusedError extends HttpError {
  constructor(message: string) {
    super(422, message, "backup-refused");
  }
}

/**
 * The one table no feature owns: the migrations' record, written by the migrations themselves.
 * The features name the others a backup leaves out (their `notBackedUp`, docs/architecture.md,
 * "The feature contract"); every other table of the schema is carried, so a table nobody
 * declared is never lost.
 */
const MIGRATIONS_TABLE = "schema_migrations";

/** The application's tables (not the migrations' nor `notBackedUp`), parents before children. */
async function tablesInOrder(db: Queryable, notBackedUp: readonly string[]): Promise<string[]> {
  const tables = (
    await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND NOT (table_name = ANY($1::text[])) ORDER BY table_name`,
      [[MIGRATIONS_TABLE, ...notBackedUp]],
    )
  ).map((r) => r.name);
  const edges = await db.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const ordered: string[] = [];
  const visit = (table: string, seen: Set<string>) => {
    if (ordered.includes(table) || seen.has(table)) return;
    seen.add(table);
    for (const e of edges) {
      if (unquote(e.child) === table && unquote(e.parent) !== table) visit(unquote(e.parent), seen);
    }
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered.filter((t) => tables.includes(t));
}

function unquote(name: string) {
  const bare = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : name;
  return bare.replace(/^"|"$/g, "");
}

function ident(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Every key a row names (photos and their variants), for the completeness check. */
function namedKeys(images: ImageStore, tableJson: string): string[] {
  const urls = tableJson.match(/\/images\/[^"\\]+/g) ?? [];
  return urls.flatMap((url) => images.filesOf(url)).map((file) => keyOfFile(images, file));
}

/** filesOf gives paths on disk and keys in a bucket; describe() gives the key of both. */
function keyOfFile(images: ImageStore, file: string): string {
  return images.kind === "s3" ? file : images.describe(file).split(path.sep).join("/");
}

/**
 * Writes the archive to `file`, owner-only (0600), through an exclusively created temporary file
 * with a random name beside it, renamed when complete and removed on failure. The rows come
 * from one REPEATABLE READ transaction (one consistent snapshot while the site runs); the photos
 * and documents are copied after it, and every original and document a row names must be among
 * them, else (an edit or a withdrawal removed it meanwhile) the backup is taken again.
 */
export async function writeBackup(
  db: Db,
  images: ImageStore,
  file: string,
  { by = "cli", documents, notBackedUp = [] }: BackupOptions = {},
) {
  for (let attempt = 1; ; attempt++) {
    const staging = await fs.mkdtemp(path.join(os.tmpdir(), "backup-"));
    try {
      const manifest = await stage(db, images, documents, notBackedUp, staging);
      if (manifest === null) {
        if (attempt < ATTEMPTS) continue;
        throw new Error("Photos or documents kept changing while the backup was taken; try again.");
      }
      await writePrivateFile(file, async (handle) => {
        const pack = tar.create({ gzip: true, cwd: staging, portable: true }, [
          "manifest.json",
          "tables",
          "photos",
          "documents",
        ]);
        for await (const chunk of pack) await handle.write(chunk as Buffer);
      });
      logEvent("backup", by, { file, ...counts(manifest) });
      return manifest;
    } finally {
      await fs.rm(staging, { recursive: true, force: true });
    }
  }
}

async function stage(
  db: Db,
  images: ImageStore,
  documents: BlobBackend | undefined,
  notBackedUp: readonly string[],
  dir: string,
): Promise<BackupManifest | null> {
  await fs.mkdir(path.join(dir, "tables"));
  await fs.mkdir(path.join(dir, "photos"));
  await fs.mkdir(path.join(dir, "documents"));
  const named = new Set<string>();
  const namedDocuments = new Set<string>();
  const { tables, migrations } = await db.transaction(async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // Timestamps are written in UTC whatever the server's time zone.
    await tx.query("SET LOCAL TIME ZONE 'UTC'");
    // bytea (sealed answers and file names) as `\x` and two hex digits a byte, whatever the
    // server's bytea_output: every byte survives as JSON text, and json_populate_recordset
    // reads it back into the same bytes on a restore.
    await tx.query("SET LOCAL bytea_output = 'hex'");
    const migrations = (
      await tx.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name")
    ).map((r) => r.name);
    const tables: BackupManifest["tables"] = [];
    for (const name of await tablesInOrder(tx, notBackedUp)) {
      // Generated columns (rent, search words: db/migrations/0009) are made again on restore.
      const [row] = await tx.query<{ rows: string; n: number }>(
        `SELECT coalesce(json_agg(to_jsonb(t) - $1::text[]), '[]')::text AS rows,
           count(*)::int AS n FROM ${ident(name)} t`,
        [await generatedColumns(tx, name)],
      );
      const json = row?.rows ?? "[]";
      await fs.writeFile(path.join(dir, "tables", `${name}.json`), json);
      for (const key of namedKeys(images, json)) named.add(key);
      if (name === "application_documents") {
        for (const doc of JSON.parse(json) as { storage_key: string }[]) {
          namedDocuments.add(doc.storage_key);
        }
      }
      tables.push({ name, rows: row?.n ?? 0 });
    }
    return { tables, migrations };
  });
  const keys = await images.keys();
  for (const key of keys) {
    let data: Buffer;
    try {
      data = await images.readKey(key);
    } catch {
      continue; // removed since it was listed: the check below decides
    }
    const target = path.join(dir, "photos", ...key.split("/"));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, data);
  }
  const copied = new Set(await listFiles(path.join(dir, "photos")));
  // Originals must all be there; a variant may be missing (made in the background).
  for (const key of named) {
    // (A photo only the history or a deleted listing names is in the trash, docs/behaviour.md §21.)
    const stored = copied.has(key) || copied.has(`.trash/${key}`);
    if (/\.(jpg|png|pdf)$/.test(key) && !/\.w\d+\.jpg$/.test(key) && !stored) return null;
  }
  if (!documents && namedDocuments.size > 0) {
    throw new Error(
      `Applications have ${namedDocuments.size} documents, but the backup was not given their private store: it would be incomplete.`,
    );
  }
  const copiedDocuments = new Set(
    documents ? await copyDocuments(documents, path.join(dir, "documents")) : [],
  );
  // Every document a row names (one a withdrawal deleted meanwhile: the backup starts again).
  for (const key of namedDocuments) if (!copiedDocuments.has(key)) return null;
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    migrations,
    tables,
    photos: copied.size,
    documents: copiedDocuments.size,
    source: { database: db.kind, storage: images.kind },
  };
  await fs.writeFile(path.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Copies every document of the private backend, sealed as stored, under `dir`; their keys. */
async function copyDocuments(documents: BlobBackend, dir: string): Promise<string[]> {
  const keys: string[] = [];
  for (const { key } of await documents.list(DOCUMENTS_PREFIX)) {
    if (!DOCUMENT_KEY.test(key)) continue;
    const blob = await documents.get(key);
    if (!blob) continue; // removed since it was listed: the check decides
    const target = path.join(dir, ...key.split("/"));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await pipeline(blob.body(), createWriteStream(target));
    keys.push(key);
  }
  return keys;
}

function counts(manifest: BackupManifest) {
  return {
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    photos: manifest.photos,
    documents: manifest.documents ?? 0,
  };
}

/** Every file under `root` as a `/`-separated key, sorted (none when there is no `root`). */
async function listFiles(root: string): Promise<string[]> {
  const entries = await fs
    .readdir(root, { recursive: true, withFileTypes: true })
    .catch((error: NodeJS.ErrnoException) =>
      error.code === "ENOENT" ? [] : Promise.reject(error),
    );
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * Reads and checks an archive's manifest, before anything is opened or changed: a file that is
 * no backup of this site is refused with a clear message.
 */
export async function readBackupManifest(
  file: string,
  limits: RestoreLimits = RESTORE_LIMITS,
): Promise<BackupManifest> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "manifest-"));
  try {
    return await extract(file, dir, limits, ["manifest.json"]);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

class TooLargeError extends Error {}

/** Extracts the archive (or some of its entries) into `dir`, bounded, and checks its manifest. */
async function extract(
  file: string,
  dir: string,
  limits: RestoreLimits,
  entries?: string[],
): Promise<BackupManifest> {
  const size = (await fs.stat(file).catch(() => null))?.size;
  if (size === undefined) throw new BackupRefusedError(`${file} cannot be read.`);
  if (size > limits.archiveBytes) {
    throw new BackupRefusedError(
      `${file} is larger (${size} bytes) than a restore accepts (${limits.archiveBytes} bytes). Nothing was changed.`,
    );
  }
  let inflated = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > limits.extractedBytes) done(new TooLargeError());
      else done(null, chunk);
    },
  });
  try {
    const unpack = tar.extract({ cwd: dir, strict: true }, entries ?? []);
    const unpacked = new Promise<void>((resolve, reject) => {
      unpack.on("close", resolve);
      unpack.on("error", reject);
    });
    await pipeline(createReadStream(file), createGunzip(), bounded, async (chunks) => {
      for await (const chunk of chunks) {
        if (!unpack.write(chunk as Buffer)) await once(unpack, "drain");
      }
      unpack.end();
      await unpacked;
    });
  } catch (error) {
    if (error instanceof TooLargeError) {
      throw new BackupRefusedError(
        `${file} extracts to more than a restore accepts (${limits.extractedBytes} bytes). Nothing was changed.`,
      );
    }
    throw new BackupRefusedError(`${file} is not a readable backup: ${(error as Error).message}`);
  }
  const manifest = JSON.parse(
    await fs.readFile(path.join(dir, "manifest.json"), "utf8").catch(() => "{}"),
  ) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new BackupRefusedError(`${file} is not a backup of this site (no manifest).`);
  }
  return manifest;
}

/** Why the target is not empty, or null when it is. */
export async function whyNotEmpty(
  db: Db,
  images: ImageStore,
  documents?: BlobBackend,
  notBackedUp: readonly string[] = [],
): Promise<string | null> {
  for (const table of await tablesInOrder(db, notBackedUp)) {
    const [row] = await db.query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${ident(table)}) AS any`,
    );
    if (row?.any) return `the database has rows in ${table}`;
  }
  const keys = await images.keys();
  if (keys.length > 0) return `the photo store already holds ${keys.length} photos`;
  const stored = documents ? await documents.list(DOCUMENTS_PREFIX) : [];
  if (stored.length > 0) {
    return `the private store already holds ${stored.length} application documents`;
  }
  return null;
}

/**
 * Brings an empty database, photo store and private document store to the archive's state: the
 * rows are first loaded in a transaction that is rolled back (a table or row of the wrong shape
 * is refused before anything changes), then the schema is migrated to the backup's version,
 * photos and documents are written, every row in one transaction (not sessions: NOT_RESTORED),
 * then the migrations this code has beyond the backup's run.
 */
export async function restoreBackup(
  db: Db,
  images: ImageStore,
  file: string,
  { limits = RESTORE_LIMITS, documents, notBackedUp = [] }: RestoreOptions = {},
) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "restore-"));
  try {
    const manifest = await extract(file, dir, limits);
    const known = await migrationFiles();
    if (manifest.migrations.some((m, i) => known[i] !== m)) {
      throw new BackupRefusedError(
        "The backup was made by another version of the site (its migrations differ from this one's): restore it with that version.",
      );
    }
    const applied = await db
      .query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name")
      .then((rows) => rows.map((r) => r.name))
      .catch(() => [] as string[]);
    if (applied.some((m) => !manifest.migrations.includes(m))) {
      throw new BackupRefusedError(
        "The target database is already at a newer schema than the backup: restore into a new, empty database.",
      );
    }
    const documentKeys = await listFiles(path.join(dir, "documents"));
    const strange = documentKeys.find((key) => !DOCUMENT_KEY.test(key));
    if (strange !== undefined) {
      throw new BackupRefusedError(
        `The backup holds a document that is not an application's: ${JSON.stringify(strange)}. Nothing was changed.`,
      );
    }
    if (documentKeys.length > 0 && !documents) {
      throw new BackupRefusedError(
        `The backup holds ${documentKeys.length} application documents and no private store was given for them. Nothing was changed.`,
      );
    }
    const busy = await whyNotEmpty(db, images, documents, notBackedUp);
    if (busy)
      throw new BackupRefusedError(`The target is not empty: ${busy}. Nothing was changed.`);

    const tables = await readTables(dir, manifest);
    await dryRun(db, manifest, tables, applied);

    await migrate(db, undefined, { until: manifest.migrations.at(-1) ?? "" });
    const photos = await listFiles(path.join(dir, "photos"));
    for (const key of photos) {
      await images.writeKey(key, await fs.readFile(path.join(dir, "photos", ...key.split("/"))));
    }
    for (const key of documentKeys) {
      // (Still sealed: written as they were read, under the same key, which they are bound to.)
      const source = { file: path.join(dir, "documents", ...key.split("/")) };
      await documents?.put(key, source, DOCUMENT_META);
    }
    await db.transaction((tx) => loadRows(tx, tables));
    await migrate(db);
    logEvent("restore", "cli", { file, ...counts(manifest) });
    return { manifest, photos: photos.length, documents: documentKeys.length };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

type TableRows = { name: string; json: string; rows: Record<string, unknown>[] };

/** The archive's tables to load: each a JSON array of objects, under a plain table name. */
async function readTables(dir: string, manifest: BackupManifest): Promise<TableRows[]> {
  if (!Array.isArray(manifest.tables)) throw new BackupRefusedError("The backup lists no tables.");
  const tables: TableRows[] = [];
  for (const table of manifest.tables) {
    const name = (table as { name?: unknown })?.name;
    if (typeof name !== "string" || !/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
      throw new BackupRefusedError(
        `The backup names a table that is not a table name: ${JSON.stringify(name)}.`,
      );
    }
    if (NOT_RESTORED.has(name)) continue;
    const json = await fs
      .readFile(path.join(dir, "tables", `${name}.json`), "utf8")
      .catch(() => null);
    let rows: unknown = null;
    try {
      rows = json === null ? null : JSON.parse(json);
    } catch {
      // refused below
    }
    if (
      !Array.isArray(rows) ||
      rows.some((r) => r === null || typeof r !== "object" || Array.isArray(r))
    ) {
      throw new BackupRefusedError(
        `The backup's table ${name} is not a list of rows. Nothing was changed.`,
      );
    }
    tables.push({ name, json: json as string, rows: rows as Record<string, unknown>[] });
  }
  return tables;
}

class DryRunDone extends Error {}

/**
 * Loads every row as the restore will, at the backup's schema, in one transaction that is then
 * rolled back (PostgreSQL's DDL is transactional): a table this version does not have, a row
 * whose fields are not the table's columns, or a value of the wrong type is refused with a
 * message before anything is changed.
 */
async function dryRun(
  db: Db,
  manifest: BackupManifest,
  tables: TableRows[],
  applied: readonly string[],
) {
  try {
    await db.transaction(async (tx) => {
      for (const name of manifest.migrations.filter((m) => !applied.includes(m))) {
        await tx.exec(await readMigration(name));
      }
      const columns = new Map<string, Set<string>>();
      const generated = new Set<string>();
      for (const row of await tx.query<{
        table_name: string;
        column_name: string;
        is_generated: string;
      }>(
        `SELECT table_name, column_name, is_generated FROM information_schema.columns
          WHERE table_schema = current_schema()`,
      )) {
        const set = columns.get(row.table_name) ?? new Set<string>();
        // A generated column is made by the database; a backup's value for it is ignored.
        if (row.is_generated === "ALWAYS") generated.add(`${row.table_name}.${row.column_name}`);
        else set.add(row.column_name);
        columns.set(row.table_name, set);
      }
      for (const { name, rows } of tables) {
        const wanted = columns.get(name);
        if (!wanted)
          throw new BackupRefusedError(
            `The backup has a table this version does not know: ${name}. Nothing was changed.`,
          );
        rows.forEach((row, i) => {
          const keys = Object.keys(row);
          const unknown = keys.find((k) => !wanted.has(k) && !generated.has(`${name}.${k}`));
          const missing = [...wanted].find((c) => !(c in row));
          if (unknown !== undefined || missing !== undefined) {
            throw new BackupRefusedError(
              `The backup's table ${name} does not match this version's: row ${i + 1} ${
                unknown !== undefined
                  ? `has a field "${unknown}" the table does not have`
                  : `lacks the column "${missing}"`
              }. Nothing was changed.`,
            );
          }
        });
      }
      try {
        await loadRows(tx, tables);
      } catch (error) {
        throw new BackupRefusedError(
          `The backup's rows do not fit this version's tables: ${(error as Error).message}. Nothing was changed.`,
        );
      }
      throw new DryRunDone();
    });
  } catch (error) {
    if (!(error instanceof DryRunDone)) throw error;
  }
}

async function loadRows(tx: Queryable, tables: TableRows[]) {
  await tx.query("SET LOCAL TIME ZONE 'UTC'");
  for (const { name, json } of tables) {
    // Every column but the generated ones, which the database makes from the others.
    const skip = new Set(await generatedColumns(tx, name));
    const columns = (
      await tx.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
        [name],
      )
    )
      .map((c) => c.column_name)
      .filter((c) => !skip.has(c))
      .map(ident)
      .join(", ");
    await tx.query(
      `INSERT INTO ${ident(name)} (${columns}) OVERRIDING SYSTEM VALUE
       SELECT ${columns} FROM json_populate_recordset(NULL::${ident(name)}, $1::json)`,
      [json],
    );
    await resetSequences(tx, name);
  }
}

/** The table's generated columns (computed by the database from the others). */
async function generatedColumns(tx: Queryable, table: string): Promise<string[]> {
  const rows = await tx.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'ALWAYS'`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

/** Identity and serial columns continue after the restored rows. */
async function resetSequences(tx: Queryable, table: string) {
  const columns = await tx.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1
        AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`,
    [table],
  );
  for (const { column_name: column } of columns) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${ident(column)}), 0) + 1, false)
         FROM ${ident(table)}`,
      [ident(table), column],
    );
  }
}
