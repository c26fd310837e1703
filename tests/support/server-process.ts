// The production bundle (build/server/index.js) as a process of its own, as `npm start` runs
// it: for tests that kill it, or measure its memory apart from the test's.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { grantAdmin } from "~/features/auth/admins.server";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { openDb } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { START_BUNDLE_REPORTING_PORT, waitForReportedPort } from "../../scripts/shared/listening";
import { missing } from "./prerequisite";

/**
 * A signed-in admin's Cookie header, written into the database the server will use before it
 * starts (an embedded database belongs to one process at a time).
 */
export async function prepareAdmin(env: Env, email: string): Promise<string> {
  const db = await openDb({ databaseUrl: env.databaseUrl, dataDir: path.join(env.dataDir, "db") });
  try {
    const key = { issuer: "https://id.example", sub: `admin-${email}` };
    await upsertUser(db, { ...key, email, emailVerified: true, name: email });
    await grantAdmin(db, email, "test");
    const session = await createSession(db, key, env.session);
    return `${env.session.cookieName}=${session.token}`;
  } finally {
    await db.close();
  }
}

/**
 * Starts the server with these variables on PORT=0; resolves once it reported the port it bound
 * and /healthz there answered 200 from this very process (its token in `x-test-instance`).
 */
export async function startServerProcess(
  source: Record<string, string>,
): Promise<ChildProcess & { output(): string; port: number; base: string }> {
  const token = randomUUID();
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      START_BUNDLE_REPORTING_PORT,
      pathToFileURL(path.resolve("build/server/index.js")).href,
    ],
    {
      // One malloc arena, as `npm start` and the systemd unit run it (scripts/runtime.test.ts
      // keeps the three together; docs/decisions/0079-node-24-from-npm.md).
      env: {
        ...process.env,
        MALLOC_ARENA_MAX: "1",
        ...source,
        PORT: "0",
        TEST_INSTANCE_TOKEN: token,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  try {
    const port = await waitForReportedPort(child, () => output);
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      const res = await fetch(`${base}/healthz`).catch(() => undefined);
      await res?.arrayBuffer();
      if (res?.ok) {
        const from = res.headers.get("x-test-instance");
        if (from !== token) throw new Error(`${base} is answered by another process (${from})`);
        return Object.assign(child, { output: () => output, port, base });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not start: ${output}`);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

/**
 * Ends the server and waits until it has exited (SIGKILL after 15 s), so that its data
 * directory can be removed: a process still shutting down writes into it (CI saw `rm` fail
 * with ENOTEMPTY on `db/pg_xact` after a SIGTERM that was not waited for).
 */
export async function stopServerProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process, in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Where a server process keeps its data in a suite: embedded, or a schema of its own. */
export interface ServerProcessTarget {
  name: "pglite" | "postgres";
  /** DATABASE_URL for the server (none: PGlite under DATA_DIR). */
  databaseUrl?: string;
  cleanup(): Promise<void>;
}

/**
 * PGlite, and PostgreSQL (TEST_DATABASE_URL) in a schema made for the suite and dropped after
 * it; without TEST_DATABASE_URL the PostgreSQL variant is left out (an error under CI:
 * prerequisite.ts).
 */
export async function serverProcessTargets(prefix = "crash"): Promise<ServerProcessTarget[]> {
  const list: ServerProcessTarget[] = [{ name: "pglite", cleanup: async () => {} }];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!missing(!serverUrl && "TEST_DATABASE_URL is not set") && serverUrl) {
    const schema = `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(serverUrl);
    url.searchParams.set("options", `-c search_path=${schema}`);
    list.push({
      name: "postgres",
      databaseUrl: url.toString(),
      async cleanup() {
        // The scheduler's tables are in a schema beside it (scheduler.server.ts).
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
        await admin.end();
      },
    });
  }
  return list;
}
