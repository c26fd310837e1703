import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../../scripts/shared/free-port";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    controlURL: string;
    dataDir: string;
  }
}

let child: ChildProcess | undefined;
let dataDir = "";

/** Starts the built site on a fresh embedded database with the demo content. */
export async function setup(project: TestProject) {
  await fs.access("build/server/index.js").catch(() => {
    throw new Error("Run `npm run build` before the browser tests (npm test does).");
  });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "leasing-e2e-"));
  const [port, controlPort] = [await freePort(), await freePort()];
  child = spawn(process.execPath, ["--import", "tsx", "tests/e2e/test-server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: "",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OIDC_CLIENT_ID: "",
      OIDC_CLIENT_SECRET: "",
      ADMIN_EMAILS: "",
      DATA_DIR: dataDir,
      PORT: String(port),
      CONTROL_PORT: String(controlPort),
      SEED_DEMO: "true",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("test server did not start in 60 s")), 60_000);
    child?.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("test-server ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child?.on("exit", (code) => reject(new Error(`test server exited with ${code}`)));
  });
  project.provide("baseURL", `http://127.0.0.1:${port}`);
  project.provide("controlURL", `http://127.0.0.1:${controlPort}`);
  project.provide("dataDir", dataDir);
}

export async function teardown() {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}
