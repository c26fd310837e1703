// Erased text leaves the embedded database's files (docs/decisions/0075): a unique marker is
// written, erased, scrubbed, then every file under the data directory is searched for its bytes.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiskImageStore } from "~/features/images/index.server";
import { erasePerson } from "../../server/features";
import { openDb } from "./db.server";
import { scheduleScrub, scrubErasedData, stopScrubs } from "./db-scrub.server";
import { readEnv } from "./env.server";

async function filesHolding(dir: string, marker: string): Promise<string[]> {
  const needle = Buffer.from(marker, "utf8");
  const hits: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await fs.readFile(file)).includes(needle)) hits.push(path.relative(dir, file));
  }
  return hits;
}

describe("scrub after erasure (embedded database files)", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it("leaves no erased lead, alert or e-mail text in the data files or the WAL", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "scrub-"));
    dirs.push(dir);
    const db = await openDb({ dataDir: dir });
    const marker = `Zq${Date.now().toString(36)}Marker`;
    const email = `${marker.toLowerCase()}@example.com`;
    await db.query(
      "INSERT INTO leads (kind, name, email, message) VALUES ('inquiry', $1, $2, $3)",
      [`Name ${marker}`, email, `Message ${marker}`],
    );
    await db.query(
      "INSERT INTO outbox (kind, to_addresses, subject, body) VALUES ('alert', ARRAY[$1], 's', $2)",
      [email, `Body ${marker}`],
    );
    await db.exec("CHECKPOINT");
    // 'Erase this person', every feature's part (the lead; the e-mail to the address).
    const services = {
      db,
      env: readEnv({}),
      images: new DiskImageStore(path.join(dir, "images")),
      applications: { key: null, vault: null },
    };
    expect(await erasePerson(services, email, { actorId: null })).toBe(1);
    // Deleted is not gone: the bytes are still in the table files and the log.
    expect((await filesHolding(dir, marker)).length).toBeGreaterThan(0);
    const started = performance.now();
    await scrubErasedData(db);
    const took = performance.now() - started;
    expect(await filesHolding(dir, marker)).toEqual([]);
    // Cheap enough for the background (measured: see docs/decisions/0075).
    expect(took).toBeLessThan(10_000);
    await stopScrubs(db);
    await db.close();
  });

  it("runs in the background once after a burst of erasures, and stops with the database", async () => {
    const db = await openDb({ dataDir: "memory://" });
    const ran: string[] = [];
    const exec = db.exec.bind(db);
    db.exec = async (sql) => {
      ran.push(sql);
      return exec(sql);
    };
    scheduleScrub(db, 20);
    scheduleScrub(db, 20);
    scheduleScrub(db, 20);
    await expect.poll(() => ran.filter((s) => s === "CHECKPOINT").length).toBe(2);
    scheduleScrub(db, 60_000);
    await stopScrubs(db);
    expect(ran.filter((s) => s.startsWith("VACUUM FULL leads"))).toHaveLength(1);
    await db.close();
  });
});
