// Real processes for deployment tests: the built production server, Debian's nginx with the
// shipped configuration, and a fresh PostgreSQL database. *.test.ts only.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";

export const SHIPPED_NGINX_CONF = path.resolve("deploy/nginx-leasing-site.conf");

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

function track(child: ChildProcess): RunningProcess {
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface SiteProcess extends RunningProcess {
  port: number;
  base: string;
}

/** The production bundle (build/server/index.js, `npm run build` first) as `npm start` runs it. */
export function startSite(env: Record<string, string>, port: number): SiteProcess {
  const bundle = pathToFileURL(path.resolve("build/server/index.js")).href;
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `(await import(${JSON.stringify(bundle)})).startServer(process.env)`,
    ],
    {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return { ...track(child), port, base: `http://127.0.0.1:${port}` };
}

/** Resolves once GET /healthz answers 200 (fails if the process exits first). */
export async function waitUntilServing(site: SiteProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (site.child.exitCode !== null) {
      throw new Error(`server exited with ${site.child.exitCode}:\n${site.output()}`);
    }
    const ok = await fetch(`${site.base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not serving after ${timeoutMs} ms:\n${site.output()}`);
}

/**
 * The shipped nginx file with only its upstream ports and listen port replaced (it is written
 * for 3001, 3002 and 80), included from a minimal main configuration in a temporary prefix.
 */
export async function startNginx(upstreamPorts: [number, number], port: number) {
  const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find(
    (p) => spawnSync(p, ["-v"]).status === 0,
  );
  if (!nginx) throw new Error("nginx is missing: apt-get install -y nginx-light");
  const prefix = await fs.mkdtemp(path.join(os.tmpdir(), "nginx-"));
  const shipped = await fs.readFile(SHIPPED_NGINX_CONF, "utf8");
  const replacements: [RegExp, string][] = [
    [/^(\s*server 127\.0\.0\.1:)3001;$/m, `$1${upstreamPorts[0]};`],
    [/^(\s*server 127\.0\.0\.1:)3002;$/m, `$1${upstreamPorts[1]};`],
    [/^(\s*listen )80;$/m, `$1127.0.0.1:${port};`],
  ];
  let site = shipped;
  for (const [pattern, value] of replacements) {
    if (!pattern.test(site)) throw new Error(`${SHIPPED_NGINX_CONF} no longer has ${pattern}`);
    site = site.replace(pattern, value);
  }
  await fs.writeFile(path.join(prefix, "leasing-site.conf"), site);
  await fs.writeFile(
    path.join(prefix, "nginx.conf"),
    [
      "user root;",
      "worker_processes 1;",
      `pid ${prefix}/nginx.pid;`,
      `error_log ${prefix}/error.log;`,
      "events { worker_connections 256; }",
      "http {",
      `  access_log ${prefix}/access.log;`,
      `  client_body_temp_path ${prefix}/body;`,
      `  proxy_temp_path ${prefix}/proxy;`,
      `  include ${prefix}/leasing-site.conf;`,
      "}",
      "",
    ].join("\n"),
  );
  const child = spawn(
    nginx,
    ["-c", `${prefix}/nginx.conf`, "-p", `${prefix}/`, "-g", "daemon off;"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const running = track(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${running.output()}`);
    // (Start it once the instances serve: a 502 marks an upstream down for a while.)
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx not answering: ${running.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    ...running,
    base,
    port,
    async stop() {
      await running.stop();
      await fs.rm(prefix, { recursive: true, force: true });
    },
  };
}

/** A new empty database on the TEST_DATABASE_URL server; drop() removes it. */
export async function freshDatabase(serverUrl: string) {
  const name = `leasing_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
