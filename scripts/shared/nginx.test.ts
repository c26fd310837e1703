// startNginxOnSomePort: a port another process holds is never taken for nginx's own.
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { missing } from "../../tests/support/prerequisite";
import { findNginx, startNginxOnSomePort } from "./nginx";

const nginx = findNginx();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server on port 0 that is not nginx; `answers`: with an HTTP page, else it drops each connection. */
async function holder(answers: boolean): Promise<number> {
  const server = answers
    ? http.createServer((_req, res) => res.end("someone else"))
    : net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return (server.address() as net.AddressInfo).port;
}

async function start(taken: number, next?: () => number) {
  const prefix = await fs.mkdtemp(path.join(os.tmpdir(), "nginx-test-"));
  cleanups.push(() => fs.rm(prefix, { recursive: true, force: true }));
  const tried: number[] = [];
  const started = await startNginxOnSomePort({
    binary: nginx as string,
    prefix,
    // The held port first, then whatever the default picks.
    ports: () => {
      const port =
        tried.length === 0 ? taken : (next?.() ?? 10_000 + Math.floor(Math.random() * 20_000));
      tried.push(port);
      return port;
    },
    config: (port, token) => ({
      "nginx.conf": `pid ${prefix}/nginx.pid; error_log ${prefix}/error.log;
events { worker_connections 16; }
http { access_log off; client_body_temp_path ${prefix}; proxy_temp_path ${prefix};
  server { listen 127.0.0.1:${port}; location / { return 200 "${token}"; } } }
`,
    }),
    isOurs: async (port, token) => {
      const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      if (!res) return "no answer";
      return (await res.text()) === token ? "ours" : "other";
    },
  });
  cleanups.push(async () => {
    const exited = new Promise((r) => started.child.once("exit", r));
    started.child.kill("SIGTERM");
    await exited;
  });
  return { started, tried };
}

describe.skipIf(missing(!nginx && "nginx is not installed"))(
  "nginx on a port nobody reserved",
  () => {
    it("tries another port when the first is answered by another process", async () => {
      const taken = await holder(true);
      const { started, tried } = await start(taken);
      expect(tried[0]).toBe(taken);
      expect(started.attempts).toBe(2);
      expect(started.port).not.toBe(taken);
      expect(await (await fetch(`http://127.0.0.1:${started.port}/`)).text()).toBe(started.token);
    });

    it("never tries a port fetch refuses to reach (10080), where no answer could come", async () => {
      const taken = await holder(true);
      const queue = [10080, 10_000 + Math.floor(Math.random() * 20_000)];
      const { started, tried } = await start(taken, () => queue.shift() ?? 20_000);
      expect(tried).toEqual([taken, 10080, started.port]);
      expect(started.port).not.toBe(10080);
      expect(started.attempts).toBe(2);
    }, 30_000);

    it("tries another port when nginx reports Address already in use", async () => {
      const taken = await holder(false);
      const { started, tried } = await start(taken);
      expect(tried[0]).toBe(taken);
      expect(started.attempts).toBe(2);
      expect(await (await fetch(`http://127.0.0.1:${started.port}/`)).text()).toBe(started.token);
    }, 30_000);
  },
);
