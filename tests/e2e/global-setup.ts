// Starts the built site once per Playwright worker for the whole run, each on a fresh embedded
// database with the demo content (or, with E2E_DATABASE_URL, on that PostgreSQL in a schema of
// its own: .ci/run runs the suite both ways), and returns the teardown that stops them and removes
// their data directories (and schemas). A worker uses only its own server (server-info.ts), so tests that change shared
// data (listings, admin grants, site settings) never meet another worker's.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import pg from "pg";
import { providePgliteTemplates } from "../support/pglite-template";

export default async function globalSetup(config: FullConfig) {
  await fs.access("build/server/index.js").catch(() => {
    throw new Error("Run `npm run build` before the browser tests (npm test does).");
  });
  const removeTemplate = await providePgliteTemplates();
  const started = await Promise.allSettled(
    Array.from({ length: config.workers }, (_, index) => startServer(index)),
  );
  const stops = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(stops.map((stop) => stop()));
    await removeTemplate();
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}

/** Starts one test server; its addresses go into the environment as E2E_*_{index}. */
async function startServer(index: number) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "leasing-e2e-"));
  const database = await postgresSchema(index);
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "tests/e2e/test-server.ts"],
    {
      env: {
        ...process.env,
        NODE_ENV: "development", // the development sign-in runs only then (decision 0013)
        DATABASE_URL: database?.url ?? "",
        OIDC_CLIENT_ID: "",
        OIDC_CLIENT_SECRET: "",
        ADMIN_EMAILS: "",
        DATA_DIR: dataDir,
        SEED_DEMO: "true",
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const removeDataDir = async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  // The server listens on port 0 and prints the ports it got (test-server.ts): a line
  // `test-server ready {"port":…,"controlPort":…}` on its own stdout.
  let ports: { port: number; controlPort: number };
  try {
    ports = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("test server did not start in 180 s")),
        180_000,
      );
      let output = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /^test-server ready (\{.*\})$/m.exec(output);
        if (ready) {
          clearTimeout(timer);
          resolve(JSON.parse(ready[1] as string));
        }
      });
      child.on("exit", (code) => reject(new Error(`test server exited with ${code}`)));
    });
  } catch (error) {
    child.kill("SIGKILL");
    await removeDataDir();
    throw error;
  }
  // E2E_SERVER_LOG=dir keeps every log line of each server (server-{index}.log) for a look after.
  if (process.env.E2E_SERVER_LOG) {
    child.stdout?.pipe(
      createWriteStream(path.join(process.env.E2E_SERVER_LOG, `server-${index}.log`)),
    );
  }
  // The server logs JSON lines on stdout: show its warnings and errors.
  child.stdout?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (/^\{"level":(4|5|6)0,/.test(line)) process.stderr.write(`test server: ${line}\n`);
    }
  });
  // Read by server-info.ts in the workers (they inherit this process's environment).
  // The server's PUBLIC_URL (test-server.ts): its host name, for passkeys.
  process.env[`E2E_BASE_URL_${index}`] = `http://localhost:${ports.port}`;
  process.env[`E2E_CONTROL_URL_${index}`] = `http://127.0.0.1:${ports.controlPort}`;
  process.env[`E2E_DATA_DIR_${index}`] = dataDir;

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await removeDataDir();
  };
}

/** With E2E_DATABASE_URL: a schema of its own for worker `index`'s server, dropped after. */
async function postgresSchema(index: number) {
  const base = process.env.E2E_DATABASE_URL;
  if (!base) return null;
  const schema = `e2e_${process.pid}_${index}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const drop = async () => {
    // The scheduler's tables are in a schema beside it (app/shared/scheduler.server.ts).
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
  };
  await drop();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      await drop();
      await admin.end();
    },
  };
}
