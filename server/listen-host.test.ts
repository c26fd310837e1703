// The real entry point (npm start: scripts/start.mjs) in its own process: where it listens, and how long it
// lets a slow client hold a connection.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForReportedPort } from "../scripts/shared/listening";
import { networkAddress } from "../tests/support/network-address";
import { missing } from "../tests/support/prerequisite";

const lanAddress = networkAddress();

/** Starts `npm start`'s script on a fresh data directory with these settings; resolves once it listens. */
async function startServer(vars: Record<string, string | undefined>) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "entry-point-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The system picks the port; the test reads it from the "Listening on" line.
    PORT: "0",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SEED_DEMO: "false",
    OIDC_CLIENT_ID: "",
    OIDC_CLIENT_SECRET: "",
    PUBLIC_URL: "",
    HOST: undefined,
    // The test waits for the "Listening on" line, an info line.
    LOG_LEVEL: "info",
    ...vars,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => {
    log += d;
  });
  child.stderr?.on("data", (d: Buffer) => {
    log += d;
  });
  const port = await waitForReportedPort(child, () => log);
  return {
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Started = Awaited<ReturnType<typeof startServer>>;

// Started the README's offline way (NODE_ENV=development, no HOST).
describe("the server started for offline development (npm start)", () => {
  let server: Started;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development", ADMIN_EMAILS: "you@example.com" });
  }, 90_000);
  afterAll(async () => server?.stop());

  it("answers on loopback", async () => {
    const discovery = "/dev-oidc/.well-known/openid-configuration";
    expect((await fetch(`http://127.0.0.1:${server.port}${discovery}`)).status).toBe(200);
  });

  // So nobody on the network can reach its development sign-in.
  it.skipIf(missing(!lanAddress && "this machine has no network address"))(
    `is not reachable on the network address (${lanAddress})`,
    async () => {
      const error = await fetch(`http://${lanAddress}:${server.port}/healthz`).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
    },
  );

  it("drops a client that sends its headers too slowly, and keeps serving others", async () => {
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    const started = Date.now();
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n");
    // One header byte a second, never the blank line that ends the headers.
    const drip = setInterval(() => socket.writable && socket.write("X"), 1000);
    let answer = "";
    socket.on("data", (d) => {
      answer += d.toString();
    });
    await new Promise((r) => socket.once("close", r));
    clearInterval(drip);
    // Node's own defaults would hold it for 60 s or more.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
  }, 30_000);
});
