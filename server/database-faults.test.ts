// PostgreSQL going away and coming back (docs/behaviour.md, "Database faults"): the process
// keeps running, requests during the outage get a clear 503 (never a hang), /readyz says not
// ready, it reconnects by itself, LISTEN resumes, and open pages are told to reload (changes
// may have been missed) while the kept pages are dropped.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertListing } from "~/features/listings/queries.server";
import { DATABASE_UNAVAILABLE, openDb } from "~/shared/db.server";
import { missing } from "../tests/support/prerequisite";
import { startTestApp } from "../tests/support/test-app";

const listing = {
  address: "7 Outage Road",
  bedrooms: 2,
  bathrooms: 1,
  description: "",
  image_urls: [],
  thumbnail_description: "before the outage",
  property_type: "Residential" as const,
  currently_available: true,
  price: null,
  reserve_url: null,
};

/** A `/live` stream read in the background, as an open page would. */
function openLiveStream(base: string) {
  let text = "";
  const controller = new AbortController();
  void fetch(`${base}/live`, { signal: controller.signal })
    .then(async (res) => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
      }
    })
    .catch(() => undefined);
  return { text: () => text, close: () => controller.abort() };
}

/** The site on `url`, with one listing, a kept /properties page and an open live stream. */
async function siteOn(url: string) {
  const db = await openDb({ databaseUrl: url });
  await insertListing(db, "properties", "7-outage-road", listing);
  const t = await startTestApp({ db });
  const first = await fetch(`${t.base}/properties`);
  expect(first.status).toBe(200);
  expect(await first.text()).toContain("before the outage");
  const live = openLiveStream(t.base);
  return { db, t, live };
}

const elapsedSince = (start: number) => Date.now() - start;

const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(missing(!serverUrl && "TEST_DATABASE_URL is not set"))(
  "every connection of the server terminated (pg_terminate_backend)",
  () => {
    const schema = `faults_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    let site: Awaited<ReturnType<typeof siteOn>>;
    beforeAll(async () => {
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      // The listings trigger's functions name their tables unqualified.
      await admin.query(`SET search_path TO ${schema}`);
      const url = new URL(serverUrl as string);
      url.searchParams.set("options", `-c search_path=${schema}`);
      url.searchParams.set("application_name", schema);
      site = await siteOn(url.toString());
    });
    afterAll(async () => {
      site?.live.close();
      await site?.t.close();
      await site?.db.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
      await admin.end();
    });

    it("serves again within 5 s, resynchronises open pages and kept pages, and live updates still arrive", async () => {
      const { t, live } = site;
      await expect.poll(() => live.text()).toContain("retry: 1000");
      // Every connection of the server (the LISTEN one and the pool's), waiting until each has
      // ended; then a change it cannot hear about, since nothing of it is listening.
      const terminated = await admin.query(
        "SELECT pg_terminate_backend(pid, 2000) AS done FROM pg_stat_activity WHERE application_name = $1",
        [schema],
      );
      const start = Date.now();
      expect(terminated.rows.length).toBeGreaterThanOrEqual(2);
      expect(terminated.rows.every((r) => r.done === true)).toBe(true);
      await admin.query(
        `UPDATE listings SET thumbnail_description = 'changed while away' WHERE id = '7-outage-road'`,
      );

      // The site serves again by itself, and the kept page was dropped: the missed change shows.
      await expect
        .poll(async () => (await fetch(`${t.base}/properties`)).text(), { timeout: 5_000 })
        .toContain("changed while away");
      expect((await fetch(`${t.base}/readyz`)).status).toBe(200);
      // The open page was told to reload once LISTEN was back.
      await expect.poll(() => live.text(), { timeout: 5_000 }).toContain('"op":"resync"');
      expect(elapsedSince(start)).toBeLessThan(5_000);

      // And changes arrive live again. pg_terminate_backend ends the connections one after the
      // other, so LISTEN may have resumed on one about to end and be lost once more (a second
      // resync, and a change made then is not announced): a change is made on every poll.
      let available = true;
      await expect
        .poll(
          async () => {
            available = !available;
            await admin.query(
              `UPDATE listings SET currently_available = $1 WHERE id = '7-outage-road'`,
              [available],
            );
            return live.text();
          },
          { timeout: 5_000 },
        )
        .toMatch(/"collection":"properties","id":"7-outage-road","op":"update"/);
    }, 30_000);
  },
);

// A PostgreSQL cluster of this test's own (the machine's shared one stays untouched), stopped
// and started again: Debian's binaries, run as the `postgres` user.
const PG_BIN = "/usr/lib/postgresql/15/bin";
function privateClusterProblem(): string | null {
  if (!existsSync(`${PG_BIN}/initdb`)) return `${PG_BIN}/initdb is not installed`;
  if (process.getuid?.() !== 0) return "needs root to run PostgreSQL as the postgres user";
  try {
    execFileSync("id", ["-u", "postgres"]);
  } catch {
    return "there is no postgres user";
  }
  return null;
}
const problem = privateClusterProblem();
if (problem) console.warn(`Skipping the PostgreSQL restart test: ${problem}.`);

describe.skipIf(missing(problem))("a PostgreSQL cluster stopped and started again", () => {
  let dir = "";
  // PostgreSQL cannot listen on port 0 and report it, and a port picked for it would be free
  // for anyone while it is stopped. So the cluster listens only on a Unix socket in this test's
  // own directory, and the site reaches it over TCP through a relay of this test, on port 0 and
  // held from start to end: a connection while the cluster is down is reset (ECONNRESET), as
  // the machine's own would be refused. (A Unix socket itself is gone while the cluster is
  // down, and ENOENT is not among the errors the app reads as "database unavailable".)
  let relay: net.Server | undefined;
  const relayed = new Set<net.Socket>();
  const clusterUrl = () =>
    `postgres://postgres@127.0.0.1:${((relay as net.Server).address() as net.AddressInfo).port}/postgres`;
  let site: Awaited<ReturnType<typeof siteOn>> | undefined;
  const asPostgres = (args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", ...args], { stdio: "pipe" });
  const pgCtl = (...args: string[]) =>
    asPostgres([`${PG_BIN}/pg_ctl`, "-D", path.join(dir, "data"), ...args]);
  const startCluster = () =>
    pgCtl(
      "-l",
      path.join(dir, "log"),
      "-o",
      `-k ${dir} -c listen_addresses='' -c fsync=off`,
      "-w",
      "start",
    );

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "pg-restart-"));
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    await fs.chown(dir, uid, gid);
    asPostgres([
      `${PG_BIN}/initdb`,
      "-D",
      path.join(dir, "data"),
      "-A",
      "trust",
      "-U",
      "postgres",
      "--no-sync",
    ]);
    startCluster();
    relay = net.createServer((client) => {
      relayed.add(client);
      client.on("close", () => relayed.delete(client));
      const upstream = net.connect(path.join(dir, ".s.PGSQL.5432"));
      upstream.on("error", () => client.resetAndDestroy());
      client.on("error", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.on("close", () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => relay?.listen(0, "127.0.0.1", r));
    site = await siteOn(clusterUrl());
  }, 60_000);
  afterAll(async () => {
    site?.live.close();
    await site?.t.close();
    await site?.db.close().catch(() => undefined);
    for (const socket of relayed) socket.destroy();
    await new Promise((r) => (relay ? relay.close(r) : r(undefined)));
    if (dir) {
      try {
        pgCtl("-m", "immediate", "-w", "stop");
      } catch {
        // Not running.
      }
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("answers 503 quickly while it is down, and serves again within 5 s of its return with live updates", async () => {
    const { t, live } = site as NonNullable<typeof site>;
    await expect.poll(() => live.text()).toContain("retry: 1000");
    const cookie = await t.signIn("staff@example.com");
    pgCtl("-m", "fast", "-w", "stop");

    // A page nobody has seen yet (nothing kept): the root error page, 503, with the reason.
    let start = Date.now();
    const page = await fetch(`${t.base}/new-construction`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain(DATABASE_UNAVAILABLE.message.replace("'", "&#x27;"));
    // A signed-in visitor (the session is looked up first): a plain 503 with Retry-After.
    const signedIn = await fetch(`${t.base}/properties`, { headers: { cookie } });
    expect(signedIn.status).toBe(503);
    expect(signedIn.headers.get("retry-after")).toBe("5");
    expect(await signedIn.text()).toBe(DATABASE_UNAVAILABLE.message);
    const ready = await fetch(`${t.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ database: "unreachable" });
    expect((await fetch(`${t.base}/healthz`)).status).toBe(200);
    // Never a hang: each of these was answered at once.
    expect(elapsedSince(start)).toBeLessThan(3_000);

    startCluster();
    start = Date.now();
    await expect
      .poll(async () => (await fetch(`${t.base}/new-construction`)).status, { timeout: 5_000 })
      .toBe(200);
    expect((await fetch(`${t.base}/properties`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${t.base}/readyz`)).status).toBe(200);
    await expect.poll(() => live.text(), { timeout: 5_000 }).toContain('"op":"resync"');
    expect(elapsedSince(start)).toBeLessThan(5_000);

    const other = new pg.Client({
      connectionString: clusterUrl(),
    });
    await other.connect();
    try {
      await other.query(
        "UPDATE listings SET currently_available = false WHERE id = '7-outage-road'",
      );
    } finally {
      await other.end();
    }
    await expect
      .poll(() => live.text(), { timeout: 5_000 })
      .toMatch(/"collection":"properties","id":"7-outage-road","op":"update"/);
  }, 60_000);
});
