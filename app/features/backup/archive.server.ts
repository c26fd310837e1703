// One backup archive: every table's rows and every photo, from either database and either store,
// restorable into an empty one of either (docs/decisions/0040-backups.md).
//
// A gzipped tar holding
//   manifest.json              format, version, the migrations applied, tables, counts
//   tables/{table}.json        the table's rows as PostgreSQL writes them (json_agg), exact
//   photos/{collection}/{folder}/{name}   each photo object's bytes, under its key
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import type { ImageStore } from "~/features/images/index.server";
import { type Db, migrate, migrationFiles, type Queryable } from "~/shared/db.server";

export const BACKUP_FORMAT = "leasing-site-backup";
const FORMAT_VERSION = 1;
/** A photo removed by an edit between the row snapshot and its copy: the backup starts again. */
const ATTEMPTS = 3;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The schema version: every migration applied, in order. */
  migrations: string[];
  /** Tables in an order that satisfies their foreign keys, with their row counts. */
  tables: { name: string; rows: number }[];
  photos: number;
  source: { database: Db["kind"]; storage: ImageStore["kind"] };
}

export class BackupRefusedError extends Error {}

/** The application's tables (not schema_migrations), parents before children. */
async function tablesInOrder(db: Queryable): Promise<string[]> {
  const tables = (
    await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND table_name <> 'schema_migrations' ORDER BY table_name`,
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
 * Writes the archive to `file` (through `{file}.partial`, renamed when complete). The rows come
 * from one REPEATABLE READ transaction (one consistent snapshot while the site runs); the photos
 * are copied after it, and every original a row names must be among them, else (an edit removed
 * it meanwhile) the backup is taken again.
 */
export async function writeBackup(db: Db, images: ImageStore, file: string) {
  for (let attempt = 1; ; attempt++) {
    const staging = await fs.mkdtemp(path.join(os.tmpdir(), "backup-"));
    try {
      const manifest = await stage(db, images, staging);
      if (manifest === null) {
        if (attempt < ATTEMPTS) continue;
        throw new Error("Photos kept changing while the backup was taken; try again.");
      }
      const partial = `${file}.partial`;
      await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, [
        "manifest.json",
        "tables",
        "photos",
      ]);
      await fs.rename(partial, file);
      return manifest;
    } finally {
      await fs.rm(staging, { recursive: true, force: true });
    }
  }
}

async function stage(db: Db, images: ImageStore, dir: string): Promise<BackupManifest | null> {
  await fs.mkdir(path.join(dir, "tables"));
  await fs.mkdir(path.join(dir, "photos"));
  const named = new Set<string>();
  const { tables, migrations } = await db.transaction(async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
    // Timestamps are written in UTC whatever the server's time zone.
    await tx.query("SET LOCAL TIME ZONE 'UTC'");
    const migrations = (
      await tx.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name")
    ).map((r) => r.name);
    const tables: BackupManifest["tables"] = [];
    for (const name of await tablesInOrder(tx)) {
      const [row] = await tx.query<{ rows: string; n: number }>(
        `SELECT coalesce(json_agg(t), '[]')::text AS rows, count(*)::int AS n FROM ${ident(name)} t`,
      );
      const json = row?.rows ?? "[]";
      await fs.writeFile(path.join(dir, "tables", `${name}.json`), json);
      for (const key of namedKeys(images, json)) named.add(key);
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
  const copied = new Set(await listPhotos(path.join(dir, "photos")));
  // Originals must all be there; a variant may be missing (made in the background).
  for (const key of named) {
    // (A photo only the history or a deleted listing names is in the trash, docs/behaviour.md §21.)
    const stored = copied.has(key) || copied.has(`.trash/${key}`);
    if (/\.(jpg|png|pdf)$/.test(key) && !/\.w\d+\.jpg$/.test(key) && !stored) return null;
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    migrations,
    tables,
    photos: copied.size,
    source: { database: db.kind, storage: images.kind },
  };
  await fs.writeFile(path.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function listPhotos(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * Reads and checks an archive's manifest, before anything is opened or changed: a file that is
 * no backup of this site is refused with a clear message.
 */
export async function readBackupManifest(file: string): Promise<BackupManifest> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "manifest-"));
  try {
    return await extract(file, dir, ["manifest.json"]);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Extracts the archive (or some of its entries) into `dir` and checks its manifest. */
async function extract(file: string, dir: string, entries?: string[]): Promise<BackupManifest> {
  try {
    if (entries) await tar.extract({ file, cwd: dir, strict: true }, entries);
    else await tar.extract({ file, cwd: dir, strict: true });
  } catch (error) {
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
export async function whyNotEmpty(db: Db, images: ImageStore): Promise<string | null> {
  for (const table of await tablesInOrder(db)) {
    const [row] = await db.query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${ident(table)}) AS any`,
    );
    if (row?.any) return `the database has rows in ${table}`;
  }
  const keys = await images.keys();
  if (keys.length > 0) return `the photo store already holds ${keys.length} photos`;
  return null;
}

/**
 * Brings an empty database and photo store to the archive's state: the schema is migrated to
 * the backup's version, photos are written, then every row in one transaction, then the
 * migrations this code has beyond the backup's run.
 */
export async function restoreBackup(db: Db, images: ImageStore, file: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "restore-"));
  try {
    const manifest = await extract(file, dir);
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
    const busy = await whyNotEmpty(db, images);
    if (busy)
      throw new BackupRefusedError(`The target is not empty: ${busy}. Nothing was changed.`);

    await migrate(db, undefined, { until: manifest.migrations.at(-1) ?? "" });
    const photos = await listPhotos(path.join(dir, "photos"));
    for (const key of photos) {
      await images.writeKey(key, await fs.readFile(path.join(dir, "photos", ...key.split("/"))));
    }
    await db.transaction(async (tx) => {
      await tx.query("SET LOCAL TIME ZONE 'UTC'");
      for (const { name } of manifest.tables) {
        const json = await fs.readFile(path.join(dir, "tables", `${name}.json`), "utf8");
        await tx.query(
          `INSERT INTO ${ident(name)} OVERRIDING SYSTEM VALUE
           SELECT * FROM json_populate_recordset(NULL::${ident(name)}, $1::json)`,
          [json],
        );
        await resetSequences(tx, name);
      }
    });
    await migrate(db);
    return { manifest, photos: photos.length };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
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
