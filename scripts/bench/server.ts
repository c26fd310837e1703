// Starts the real server (built bundle, fresh embedded database with the demo content unless
// extraEnv says otherwise: DATABASE_URL, SEED_DEMO, DATA_DIR).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { waitForReportedPort } from "../shared/listening";

export interface RunningServer {
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startServer(
  label: string,
  extraEnv: Record<string, string> = {},
  /** Another checkout to run (the reference build of scripts/bench/reference.ts). */
  cwd = process.cwd(),
): Promise<RunningServer> {
  // A DATA_DIR given (photos stored beforehand, scripts/bench/scale-seed.ts) is used and, like
  // the temporary one, removed at stop().
  const dataDir =
    extraEnv.DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), `bench-${label}-`)));
  const outputFile = `${dataDir}.log`;
  const output = openSync(outputFile, "w");
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd,
    env: {
      ...process.env,
      // As `npm start` and the systemd unit run it (docs/decisions/0079-node-24-from-npm.md).
      MALLOC_ARENA_MAX: "1",
      NODE_ENV: "production",
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      // The system picks the port; it is read from the "Listening on" line.
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "true",
      // The benchmark measures renders from one address on purpose (0050).
      RENDER_RATE_LIMIT: "100000000",
      // The "Listening on" line this waits for is at info.
      LOG_LEVEL: "info",
      OIDC_CLIENT_ID: "",
      OIDC_CLIENT_SECRET: "",
      ...extraEnv,
    },
    // Into a file, as a service manager would take it: read through a pipe, the access lines
    // (one per request, at LOG_LEVEL=info) would cost this process, which also runs the load
    // generator, CPU while it measures.
    stdio: ["ignore", output, output],
  });
  closeSync(output); // The server has its own copy.
  // The port it bound, from its own log: nobody else can listen there while it runs. A build
  // older than decision 0054 logs the port it was given (0): its socket is looked up instead.
  const log = () => readFileSync(outputFile, "utf8");
  const port = await Promise.race([
    waitForReportedPort(child, log, { timeoutMs: 120_000, what: `${label} server` }),
    listeningPortOfTree(child, log),
  ]);
  const base = `http://127.0.0.1:${port}`;
  const ok = await fetch(`${base}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (!ok || child.exitCode !== null) {
    throw new Error(`${label} server does not serve:\n${readFileSync(outputFile, "utf8")}`);
  }
  return {
    base,
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(outputFile, { force: true });
    },
  };
}

/** A demo property with several photos, for the detail-page measurements. */
export async function detailPathWithPhotos(base: string): Promise<string> {
  const html = await (await fetch(`${base}/properties`)).text();
  const ids = [...html.matchAll(/href="\/properties\/([^"?]+)"/g)].map((m) => m[1] as string);
  for (const id of ids) {
    const page = await (await fetch(`${base}/properties/${id}`)).text();
    if ((page.match(/data-testid="gallery"/g) ?? []).length && page.includes(".w400.webp")) {
      return `/properties/${id}`;
    }
  }
  throw new Error("No demo property with photos found");
}

/** For builds that log "Listening on …:0": the TCP port a process (or a child of it) listens on. */
async function listeningPortOfTree(child: ChildProcess, log: () => string): Promise<number> {
  for (let i = 0; i < 1200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (!/Listening on \S+:0\b/.test(log()) || !child.pid) continue;
    const pids = descendants(child.pid);
    const sockets = execFileSync("ss", ["-Hltnp"], { encoding: "utf8" }).split("\n");
    for (const line of sockets) {
      const pid = /pid=(\d+)/.exec(line)?.[1];
      const port = /:(\d+)\s/.exec(line)?.[1];
      if (pid && port && pids.has(Number(pid))) return Number(port);
    }
  }
  return new Promise(() => undefined); // Never: the reported port wins the race.
}

function descendants(root: number): Set<number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const found = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (found.has(parent) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return found;
}
