// Backups written owner-only through an unpredictable temporary file, and restores that end every
// session and refuse oversized or misshapen archives with nothing changed (docs/behaviour.md §24).
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin, isAdmin } from "~/features/auth/admins.server";
import { createSession, findSessionUser } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { DiskImageStore } from "~/features/images/index.server";
import { type Db, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { HttpError } from "~/shared/http-error.server";
import { notBackedUpTables } from "../../../server/features";
import { captureLogs, LEVEL } from "../../../tests/support/logs";
import {
  BackupRefusedError,
  readBackupManifest,
  restoreBackup,
  writeBackup,
} from "./archive.server";

const session = readEnv({ NODE_ENV: "development" }).session;
const staff = {
  issuer: "https://id.example",
  sub: "staff-1",
  email: "staff@example.com",
  emailVerified: true,
  name: "Staff",
};

let root: string;
let source: Db;
let sessionToken: string;
let backup: string;
const logs = captureLogs();

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "archive-test-"));
  source = await openDb({ dataDir: "memory://" });
  await upsertUser(source, staff);
  await grantAdmin(source, staff.email, "test");
  sessionToken = (await createSession(source, staff, session)).token;
  const images = new DiskImageStore(path.join(root, "source-images"));
  await images.writeKey("properties/a-house/image_1_0.jpg", randomBytes(2048));
  backup = path.join(root, "out", "site.tar.gz");
  await fs.mkdir(path.dirname(backup));
  await writeBackup(source, images, backup);
}, 120_000);
afterAll(async () => {
  logs.restore();
  await source?.close();
  await fs.rm(root, { recursive: true, force: true });
});

/** A fresh empty target: database and photo store. */
async function emptyTarget(name: string) {
  const db = await openDb({ dataDir: "memory://", migrate: false });
  const images = new DiskImageStore(path.join(root, name));
  return { db, images };
}

/** The backup unpacked, changed by `edit`, packed again. */
async function alteredBackup(name: string, edit: (dir: string) => Promise<void>) {
  const dir = await fs.mkdtemp(path.join(root, "edit-"));
  await tar.extract({ file: backup, cwd: dir });
  await edit(dir);
  const file = path.join(root, `${name}.tar.gz`);
  await tar.create({ gzip: true, file, cwd: dir, portable: true }, await fs.readdir(dir));
  return file;
}

async function tableNames(db: Db) {
  return (
    await db.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()",
    )
  ).map((r) => r.name);
}

describe("writing a backup", () => {
  it("makes the archive owner-only (0600) and leaves nothing else in its folder", async () => {
    expect((await fs.stat(backup)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(path.dirname(backup))).toEqual(["site.tar.gz"]);
    expect(logs.at(LEVEL.info, "backup").at(-1)).toMatchObject({
      event: "backup",
      who: "cli",
      file: backup,
      photos: 1,
    });
  });

  it("never writes through a name planted beside the target (the old {file}.partial)", async () => {
    const victim = path.join(root, "victim.txt");
    await fs.writeFile(victim, "keep me");
    const target = path.join(root, "out", "planted.tar.gz");
    await fs.symlink(victim, `${target}.partial`);
    await writeBackup(source, new DiskImageStore(path.join(root, "source-images")), target);
    expect(await fs.readFile(victim, "utf8")).toBe("keep me");
    expect((await fs.stat(target)).mode & 0o777).toBe(0o600);
  });

  it("removes its temporary file when it cannot be put in place", async () => {
    const folder = path.join(root, "blocked");
    await fs.mkdir(path.join(folder, "site.tar.gz"), { recursive: true }); // a folder in the way
    const images = new DiskImageStore(path.join(root, "source-images"));
    await expect(writeBackup(source, images, path.join(folder, "site.tar.gz"))).rejects.toThrow();
    expect(await fs.readdir(folder)).toEqual(["site.tar.gz"]);
  });
});

describe("restoring a backup", () => {
  it("brings back users and admins but no session: no old cookie works afterwards", async () => {
    const { db, images } = await emptyTarget("restored");
    try {
      await restoreBackup(db, images, backup);
      expect(await findSessionUser(db, sessionToken, session)).toBeNull();
      const [{ count } = { count: -1 }] = await db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM sessions",
      );
      expect(count).toBe(0);
      expect(await isAdmin(db, staff)).toBe(true);
      expect(await images.keys()).toEqual(["properties/a-house/image_1_0.jpg"]);
      expect(logs.at(LEVEL.info, "restore").at(-1)).toMatchObject({
        event: "restore",
        who: "cli",
      });
    } finally {
      await db.close();
    }
  });

  it("restores into a database whose server has already run its jobs; their record is not carried", async () => {
    await source.query(
      "INSERT INTO job_runs (name, every_seconds, last_started_at) VALUES ('leads.purge', 3600, now())",
    );
    const withRuns = path.join(root, "out", "with-runs.tar.gz");
    // The server's list of what backups leave out (server/features.ts).
    await writeBackup(source, new DiskImageStore(path.join(root, "source-images")), withRuns, {
      notBackedUp: notBackedUpTables(),
    });
    await source.query("DELETE FROM job_runs");
    const db = await openDb({ dataDir: "memory://" });
    const images = new DiskImageStore(path.join(root, "restored-after-jobs"));
    try {
      // A server started on the new database once: its scheduler recorded a run.
      await db.query("INSERT INTO job_runs (name, every_seconds) VALUES ('mail.outbox', 5)");
      await restoreBackup(db, images, withRuns, { notBackedUp: notBackedUpTables() });
      expect(await isAdmin(db, staff)).toBe(true);
      const runs = await db.query<{ name: string }>("SELECT name FROM job_runs");
      expect(runs.map((r) => r.name)).toEqual(["mail.outbox"]);
    } finally {
      await db.close();
    }
  });

  it("refuses an archive over the size limit before reading it, and one that inflates past it", async () => {
    const { size } = await fs.stat(backup);
    await expect(
      readBackupManifest(backup, { archiveBytes: size - 1, extractedBytes: 1e9 }),
    ).rejects.toThrow(/larger \(\d+ bytes\) than a restore accepts/);
    // A tiny archive of a large, very compressible file (a gzip bomb in small).
    const bomb = await alteredBackup("bomb", (dir) =>
      fs.writeFile(path.join(dir, "photos", "zeros.jpg"), Buffer.alloc(4 * 1024 * 1024)),
    );
    expect((await fs.stat(bomb)).size).toBeLessThan(200_000);
    const { db, images } = await emptyTarget("bomb-target");
    try {
      await expect(
        restoreBackup(db, images, bomb, {
          limits: { archiveBytes: 1e9, extractedBytes: 1024 * 1024 },
        }),
      ).rejects.toThrow(/extracts to more than a restore accepts \(1048576 bytes\)/);
      expect(await tableNames(db)).toEqual([]);
      expect(await images.keys()).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it.each([
    [
      "a row with a field the table does not have",
      (rows: Record<string, unknown>[]) => [{ ...rows[0], is_superuser: true }],
      /table users does not match this version's: row 1 has a field "is_superuser"/,
    ],
    [
      "a row without one of the table's columns",
      (rows: Record<string, unknown>[]) => rows.map(({ email: _email, ...rest }) => rest),
      /table users does not match this version's: row 1 lacks the column "email"/,
    ],
    [
      "a value of the wrong type",
      (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, email_verified: "maybe" })),
      /rows do not fit this version's tables/,
    ],
    [
      "something other than a list of rows",
      () => ({ sub: "x" }),
      /table users is not a list of rows/,
    ],
  ])("refuses %s with a clear message and changes nothing", async (_what, change, message) => {
    const file = await alteredBackup(`shape-${randomBytes(4).toString("hex")}`, async (dir) => {
      const tableFile = path.join(dir, "tables", "users.json");
      const rows = JSON.parse(await fs.readFile(tableFile, "utf8")) as Record<string, unknown>[];
      await fs.writeFile(tableFile, JSON.stringify(change(rows)));
    });
    const { db, images } = await emptyTarget(`shape-target-${randomBytes(4).toString("hex")}`);
    try {
      const refusal = restoreBackup(db, images, file);
      await expect(refusal).rejects.toBeInstanceOf(BackupRefusedError);
      await expect(refusal).rejects.toBeInstanceOf(HttpError);
      await expect(refusal).rejects.toThrow(message);
      expect(await tableNames(db)).toEqual([]);
      expect(await images.keys()).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
