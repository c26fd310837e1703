// The production bundle (build/server/index.js) as a process of its own, as `npm start` runs
// it: for tests that kill it, or measure its memory apart from the test's.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { grantAdmin } from "~/features/auth/admins.server";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { openDb } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

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

/** Starts the server with these variables; resolves once /healthz answers. */
export async function startServerProcess(
  source: Record<string, string>,
  base: string,
): Promise<ChildProcess & { output(): string }> {
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      "const { startServer } = await import(process.argv[1]); await startServer(process.env);",
      path.resolve("build/server/index.js"),
    ],
    { env: { ...process.env, ...source }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Object.assign(child, { output: () => output });
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not start: ${output}`);
}

/** Resident memory of a process, in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
