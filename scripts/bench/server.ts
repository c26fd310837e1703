// Starts the real server (built bundle, fresh embedded database with the demo content).
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
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
): Promise<RunningServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `bench-${label}-`));
  const outputFile = `${dataDir}.log`;
  const output = openSync(outputFile, "w");
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      // The system picks the port; it is read from the "Listening on" line.
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "true",
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
  // The port it bound, from its own log: nobody else can listen there while it runs.
  const port = await waitForReportedPort(child, () => readFileSync(outputFile, "utf8"), {
    timeoutMs: 120_000,
    what: `${label} server`,
  });
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
