// Real processes for deployment tests: the built production server, Debian's nginx with the
// shipped configuration, and a fresh PostgreSQL database. *.test.ts only.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { START_BUNDLE_REPORTING_PORT, waitForReportedPort } from "../../scripts/shared/listening";
import { findNginx, NGINX_TOKEN_HEADER, startNginxOnSomePort } from "../../scripts/shared/nginx";

export const SHIPPED_NGINX_CONF = path.resolve("deploy/nginx-leasing-site.conf");

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

function track(child: ChildProcess): RunningProcess {
  let output = "";
  child.stdout?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    output += c.toString();
  });
  return { child, output: () => output, stop: () => stopChild(child) };
}

export interface SiteProcess extends RunningProcess {
  /** A per-process token: every answer of this process carries it as `x-test-instance`. */
  token: string;
  /** The port the process bound (PORT=0) and reported; known once `started` resolves. */
  port: number;
  base: string;
  /** Resolves once the process printed the port it bound. */
  started: Promise<void>;
}

/**
 * The production bundle (build/server/index.js, `npm run build` first) as `npm start` runs it,
 * on PORT=0: it prints the port the system gave it, read into `port` and `base` (see
 * scripts/shared/listening.ts).
 */
export function startSite(env: Record<string, string>): SiteProcess {
  const bundle = pathToFileURL(path.resolve("build/server/index.js")).href;
  const token = randomUUID();
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", START_BUNDLE_REPORTING_PORT, bundle],
    {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        ...env,
        PORT: "0",
        TEST_INSTANCE_TOKEN: token,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const running = track(child);
  const site: SiteProcess = {
    ...running,
    token,
    port: 0,
    base: "",
    started: waitForReportedPort(child, running.output, { what: "site" }).then((port) => {
      site.port = port;
      site.base = `http://127.0.0.1:${port}`;
    }),
  };
  // (Awaited by waitUntilServing; a rejection is not left unhandled meanwhile.)
  site.started.catch(() => undefined);
  return site;
}

/**
 * Resolves once the site reported its port and GET /healthz there answers 200 from this very
 * process (its token in `x-test-instance`); fails if the process exits first.
 */
export async function waitUntilServing(site: SiteProcess, timeoutMs = 60_000) {
  await site.started;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (site.child.exitCode !== null) {
      throw new Error(`server exited with ${site.child.exitCode}:\n${site.output()}`);
    }
    const res = await fetch(`${site.base}/healthz`).catch(() => undefined);
    if (res?.ok) {
      const from = res.headers.get("x-test-instance");
      if (from !== site.token) {
        throw new Error(`${site.base} is answered by another process (x-test-instance: ${from})`);
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not serving after ${timeoutMs} ms:\n${site.output()}`);
}

/**
 * The shipped nginx file with only its upstream servers and listen port replaced (it is written
 * for 3001, 3002 and 80), included from a minimal main configuration in a temporary prefix.
 *
 * nginx cannot listen on port 0 and report the port it got, and the sites need its address
 * (PUBLIC_URL, the sign-in redirect) before they start, while nginx needs theirs: so nginx
 * starts first with both upstreams marked `down` (it answers 502), on a random port, another
 * one if nginx says "Address already in use" (scripts/shared/nginx.ts); `route(sites)` then
 * writes the sites' ports and reloads it (SIGHUP), as a deployment would. The main
 * configuration adds a per-run token header to every answer, and every readiness check
 * requires it (and, through `route`, the token of one of our sites).
 */
export async function startNginx() {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is missing: apt-get install -y nginx-light");
  const prefix = await fs.mkdtemp(path.join(os.tmpdir(), "nginx-"));
  const shipped = await fs.readFile(SHIPPED_NGINX_CONF, "utf8");
  let upstreams = ["1 down", "1 down"];
  const config = (port: number, token: string) => {
    const replacements: [RegExp, string][] = [
      [/^(\s*server 127\.0\.0\.1:)3001;$/m, `$1${upstreams[0]};`],
      [/^(\s*server 127\.0\.0\.1:)3002;$/m, `$1${upstreams[1]};`],
      [/^(\s*listen )80;$/m, `$1127.0.0.1:${port};`],
    ];
    let site = shipped;
    for (const [pattern, value] of replacements) {
      if (!pattern.test(site)) throw new Error(`${SHIPPED_NGINX_CONF} no longer has ${pattern}`);
      site = site.replace(pattern, value);
    }
    return {
      "leasing-site.conf": site,
      "nginx.conf": [
        "user root;",
        "worker_processes 1;",
        `pid ${prefix}/nginx.pid;`,
        `error_log ${prefix}/error.log;`,
        "events { worker_connections 256; }",
        "http {",
        `  access_log ${prefix}/access.log;`,
        `  client_body_temp_path ${prefix}/body;`,
        `  proxy_temp_path ${prefix}/proxy;`,
        // Inherited by the shipped server's locations (they set no add_header of their own).
        `  add_header ${NGINX_TOKEN_HEADER} ${token} always;`,
        `  include ${prefix}/leasing-site.conf;`,
        "}",
        "",
      ].join("\n"),
    };
  };
  const started = await startNginxOnSomePort({
    binary: nginx,
    prefix,
    config,
    // Any answer with our token (a 502 while no upstream is routed).
    isOurs: async (port, token) => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!res) return "no answer";
      await res.arrayBuffer();
      return res.headers.get(NGINX_TOKEN_HEADER) === token ? "ours" : "other";
    },
  });
  const base = `http://127.0.0.1:${started.port}`;
  return {
    child: started.child,
    output: started.output,
    base,
    port: started.port,
    attempts: started.attempts,
    /**
     * Points both upstreams at these serving sites and reloads nginx; resolves once /healthz
     * through it answers 200 from one of them (their `x-test-instance` token) with nginx's token.
     */
    async route(sites: [SiteProcess, SiteProcess], timeoutMs = 10_000) {
      upstreams = sites.map((s) => String(s.port));
      for (const [name, content] of Object.entries(config(started.port, started.token))) {
        await fs.writeFile(path.join(prefix, name), content);
      }
      started.child.kill("SIGHUP");
      const tokens = sites.map((s) => s.token);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (started.child.exitCode !== null) throw new Error(`nginx exited: ${started.output()}`);
        const res = await fetch(`${base}/healthz`).catch(() => undefined);
        await res?.arrayBuffer();
        if (
          res?.ok &&
          res.headers.get(NGINX_TOKEN_HEADER) === started.token &&
          tokens.includes(res.headers.get("x-test-instance") ?? "")
        ) {
          return;
        }
        if (Date.now() > deadline) {
          throw new Error(`nginx does not reach the sites after reload: ${started.output()}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await stopChild(started.child);
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
