// Requests per second for the server-rendered detail page against nginx serving a file with
// the very same bytes, in the same run on the same machine (autocannon as the client).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startNginxOnSomePort } from "../shared/nginx";

export interface Throughput {
  target: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

const NGINX = "/usr/sbin/nginx";

function ensureNginx() {
  if (fs.existsSync(NGINX)) return;
  console.log("Installing nginx (Debian package) for the comparison...");
  execFileSync("apt-get", ["install", "-y", "-qq", "nginx"], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdio: "inherit",
  });
}

async function load(
  target: string,
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<Throughput> {
  const result = await autocannon({ url, connections: 50, duration: seconds, headers });
  return {
    target,
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/**
 * `signedIn` is a server (same build) and the cookie of a signed-in visitor there: their pages
 * are rendered afresh for every request, which is what that measurement shows.
 */
export async function throughput(
  base: string,
  page: string,
  signedIn: { base: string; cookie: string },
  seconds = 10,
) {
  ensureNginx();
  const html = Buffer.from(await (await fetch(base + page)).arrayBuffer());
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "bench-nginx-"));
  await fsp.mkdir(path.join(dir, "root"));
  await fsp.writeFile(path.join(dir, "root", "page.html"), html);
  // nginx cannot listen on port 0: a random port, another if taken, and ready only once
  // /.run-token answers with this run's token (scripts/shared/nginx.ts).
  const started = await startNginxOnSomePort({
    binary: NGINX,
    prefix: dir,
    config: (port, token) => ({
      "nginx.conf": `master_process on; worker_processes auto; pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  # Its own access log on, as the site's server logs every request at LOG_LEVEL=info.
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  types { text/html html; }
  server {
    listen 127.0.0.1:${port}; root ${dir}/root;
    location = /.run-token { return 200 "${token}"; }
  }
}
`,
    }),
    isOurs: async (port, token) => {
      const res = await fetch(`http://127.0.0.1:${port}/.run-token`).catch(() => undefined);
      if (!res) return "no answer";
      return (await res.text()) === token ? "ours" : "other";
    },
  });
  const nginx = started.child;
  try {
    const nginxUrl = `http://127.0.0.1:${started.port}/page.html`;
    // Warm both up, then measure one after the other.
    await load("warm-up", base + page, 2);
    await load("warm-up", nginxUrl, 2);
    const ssr = await load(`server-rendered ${page}`, base + page, seconds);
    const file = await load("nginx, same bytes", nginxUrl, seconds);
    // A signed-in visitor's pages are never kept: a session lookup and a full React render
    // for each request.
    const rendered = await load(`rendered each time ${page}`, signedIn.base + page, seconds, {
      cookie: signedIn.cookie,
    });
    return {
      bytes: html.length,
      ssr,
      nginx: file,
      rendered,
      ratio: ssr.requestsPerSecond / file.requestsPerSecond,
    };
  } finally {
    if (nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once("exit", r));
      nginx.kill("SIGTERM");
      await exited;
    }
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
