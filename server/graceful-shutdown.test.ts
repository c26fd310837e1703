// `npm start` on SIGTERM (docs/decisions/0035-graceful-shutdown.md): no new connections, the
// upload in flight completes and is stored, live streams end with a reconnect hint, the
// database is closed, and the process exits 0; all within SHUTDOWN_TIMEOUT_SECONDS. And a bad
// configuration: one line per bad variable, exit 78.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/features/auth/admins.server";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { getListing, insertListing } from "~/features/listings/queries.server";
import { openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { waitForReportedPort } from "../scripts/shared/listening";
import { streamingUpload } from "../tests/support/streaming-upload";

const root = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  port: number;
  dataDir: string;
  cookie: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** A data directory with one listing and a signed-in admin, then `npm start` on it. */
async function start(vars: Record<string, string> = {}): Promise<Started> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "shutdown-test-"));
  dirs.push(dataDir);
  const vars0 = {
    NODE_ENV: "production",
    // The system picks the port; it is read from the "Listening on" line.
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_DEMO: "false",
    ...vars,
  };
  const env = readEnv(vars0);
  const db = await openDb({ dataDir: path.join(dataDir, "db") });
  await insertListing(db, "properties", "1-drain-lane", {
    address: "1 Drain Lane",
    bedrooms: 1,
    bathrooms: 1,
    description: "",
    image_urls: [],
    thumbnail_description: "",
    property_type: "Residential",
    currently_available: true,
    price: null,
    reserve_url: null,
  });
  const boss = { issuer: "https://id.example", sub: "boss" };
  await upsertUser(db, { ...boss, email: "boss@example.com", emailVerified: true, name: "B" });
  await grantAdmin(db, "boss@example.com", "test");
  const session = await createSession(db, boss, env.session);
  await db.close();

  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { PATH: process.env.PATH, ...vars0 },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d;
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const port = await waitForReportedPort(child, () => output, { what: "npm start" });
  return {
    child,
    port,
    dataDir,
    cookie: `${env.session.cookieName}=${session.token}`,
    output: () => output,
    exited,
  };
}

/** A real photo of about 1.5 MB: sent in 64 KB chunks, it can be held half-way. */
const photo = () =>
  sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: "#777",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();

describe("npm start on SIGTERM", () => {
  it("finishes the upload in flight and stores it, ends live streams with a retry hint, and exits 0", async () => {
    const site = await start();
    const base = `http://127.0.0.1:${site.port}`;
    const content = await photo();

    // A browser with a live list open.
    const live = await fetch(`${base}/live`);
    const liveText = (async () => {
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of live.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
      }
      return text;
    })();

    // An upload that pauses half-way until the signal has been sent.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const upload = streamingUpload({
      port: site.port,
      path: "/api/listings/properties/1-drain-lane/images",
      content,
      headers: { Cookie: site.cookie },
      holdAt: { bytes: content.length / 2, until: held },
    });
    // Wait until the server is reading the body (its temporary file exists).
    const tmp = path.join(site.dataDir, "images", ".tmp");
    await expect
      .poll(async () => (await fs.readdir(tmp).catch(() => [])).length, { timeout: 10_000 })
      .toBeGreaterThan(0);

    site.child.kill("SIGTERM");
    // New connections are refused at once...
    await expect
      .poll(
        () =>
          fetch(`${base}/healthz`).then(
            () => "answered",
            () => "refused",
          ),
        { timeout: 5_000 },
      )
      .toBe("refused");
    // ...the live stream ended with a reconnect hint...
    const streamed = await liveText;
    expect(streamed.startsWith("retry: 1000\n\n")).toBe(true);
    expect(streamed.endsWith("retry: 2000\n\n")).toBe(true);
    // ...and the upload, still in flight, completes.
    expect(site.child.exitCode).toBeNull();
    release();
    const result = await upload;
    expect(result.status).toBe(200);
    const stored = (JSON.parse(result.body) as { image_urls: string[] }).image_urls;
    expect(stored).toHaveLength(1);

    expect(await site.exited).toBe(0);
    expect(site.output()).toMatch(/"msg":"SIGTERM: no new connections/);
    expect(site.output()).toMatch(/"msg":"Stopped"/);

    // What the answer promised is what is stored: the record and the photo's bytes on disk.
    const db = await openDb({ dataDir: path.join(site.dataDir, "db") });
    try {
      const listing = await getListing(db, "properties", "1-drain-lane");
      expect(listing?.image_urls).toEqual(stored);
      const file = path.join(
        site.dataDir,
        "images",
        ...(stored[0] as string).replace(/^\/images\//, "").split("/"),
      );
      expect((await fs.stat(file)).size).toBeGreaterThan(10_000);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("exits within SHUTDOWN_TIMEOUT_SECONDS when a request does not finish (status 1)", async () => {
    const site = await start({ SHUTDOWN_TIMEOUT_SECONDS: "1" });
    const never = new Promise<void>(() => undefined);
    const upload = streamingUpload({
      port: site.port,
      path: "/api/listings/properties/1-drain-lane/images",
      content: await photo(),
      headers: { Cookie: site.cookie },
      holdAt: { bytes: 200_000, until: never },
    });
    const tmp = path.join(site.dataDir, "images", ".tmp");
    await expect
      .poll(async () => (await fs.readdir(tmp).catch(() => [])).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const signalled = Date.now();
    site.child.kill("SIGTERM");
    expect(await site.exited).toBe(1);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(4000);
    expect(site.output()).toContain("Requests still running after 1 s");
    await upload;
  }, 120_000);
});

describe("npm start with a bad configuration", () => {
  it("prints one line per bad variable and exits 78 (EX_CONFIG)", async () => {
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        PORT: "eighty",
        LOG_LEVEL: "loud",
        DATABASE_URL: "postgres-at-the-office",
        SHUTDOWN_TIMEOUT_SECONDS: "-5",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(78);
    expect(stderr.trim().split("\n").sort()).toEqual([
      "Configuration error: DATABASE_URL: must be a URL such as postgres://user:password@host:5432/database",
      "Configuration error: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent",
      "Configuration error: PORT: must be a whole number from 0 to 65535",
      "Configuration error: SHUTDOWN_TIMEOUT_SECONDS: must be a number above 0 and at most 3600",
    ]);
    // The bad value is not echoed (a DATABASE_URL may hold a password).
    expect(stderr).not.toContain("postgres-at-the-office");
  }, 60_000);
});
