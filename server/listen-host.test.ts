// Started the README's offline way (NODE_ENV=development, no HOST), the real server is reachable
// from this computer only: nobody on the network can reach its development sign-in.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/shared/free-port";
import { networkAddress } from "../tests/support/network-address";

const lanAddress = networkAddress();

describe.skipIf(!lanAddress)(`a development server, seen from ${lanAddress}`, () => {
  let child: ChildProcess;
  let dataDir: string;
  let port: number;
  let log = "";
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "listen-host-"));
    port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "false",
      ADMIN_EMAILS: "you@example.com",
      OIDC_CLIENT_ID: "",
      OIDC_CLIENT_SECRET: "",
      PUBLIC_URL: "",
    };
    delete env.HOST;
    child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d: Buffer) => {
      log += d;
    });
    child.stderr?.on("data", (d: Buffer) => {
      log += d;
    });
    const deadline = Date.now() + 60_000;
    while (!log.includes("Listening")) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
      if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("answers on loopback", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/dev-oidc/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
  });

  it("is not reachable on the network address", async () => {
    const error = await fetch(`http://${lanAddress}:${port}/healthz`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });
});
