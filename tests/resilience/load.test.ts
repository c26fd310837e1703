// Load, on loopback only and bounded in time (docs/decisions/0036-resilience-suites.md): the
// production server as its own process; 1,000 live subscribers all receive an edit; then 200
// concurrent visitors browse the public pages for 30 s (LOAD_BROWSE_MS) while an admin edits, the second half
// under a slow-client attack (500 connections trickling their headers). Checked: no errors, the
// visitors' p99 stays under P99_BOUND_MS with the attack on, and the server's resident memory
// stays under RSS_BOUND_MB throughout. Figures are printed.
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "~/shared/env.server";
import { jpegWithGps } from "../support/images";
import {
  prepareAdmin,
  rssMb,
  startServerProcess,
  stopServerProcess,
} from "../support/server-process";

const VISITORS = 200;
const BROWSE_MS = Number(process.env.LOAD_BROWSE_MS ?? 30_000);
const SUBSCRIBERS = 1000;
const SLOW_CLIENTS = 500;
/** An admin at work: a change every 2 s (each clears every kept page). */
const EDIT_EVERY_MS = 2000;
/**
 * Bounds on a 2-core machine shared with other work (measured: see the decision record). The
 * server alone, with the embedded database, starts at about 360 MB resident; 687-701 MB was
 * the peak measured with the 500 slow clients and 200 visitors connected.
 */
const P99_BOUND_MS = Number(process.env.LOAD_P99_BOUND_MS ?? 5000);
const RSS_BOUND_MB = 900;

describe("load", () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let base = "";
  let cookie = "";
  let dataDir = "";
  const ids: string[] = [];
  let rssPeak = 0;
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "load-"));
    const source = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "false",
      WRITE_RATE_LIMIT: "1000000",
      RENDER_RATE_LIMIT: "1000000",
      // Every subscriber comes from 127.0.0.1: the per-client cap is raised for this test only.
      LIVE_STREAMS_PER_CLIENT: String(SUBSCRIBERS + 100),
      LIVE_STREAMS_TOTAL: String(SUBSCRIBERS + 100),
    };
    cookie = await prepareAdmin(readEnv(source), "load-admin@example.com");
    server = await startServerProcess(source);
    base = server.base;
    sampler = setInterval(() => {
      if (server.pid) {
        void rssMb(server.pid).then(
          (mb) => {
            rssPeak = Math.max(rssPeak, mb);
          },
          () => undefined,
        );
      }
    }, 250);
    const photo = await jpegWithGps(400, 300);
    if (server.pid)
      console.log(`load: server RSS after start ${(await rssMb(server.pid)).toFixed(0)} MB`);
    for (let i = 0; i < 8; i++) {
      const collection = i % 2 === 0 ? "properties" : "newConstruction";
      const form = new FormData();
      form.append(
        "data",
        JSON.stringify({ address: `${i + 1} Load Lane`, description: "x".repeat(500) }),
      );
      form.append("images", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "p.jpg");
      const res = await fetch(`${base}/api/listings/${collection}`, {
        method: "POST",
        headers: { cookie },
        body: form,
      });
      expect(res.status).toBe(201);
      ids.push(`${collection}/${((await res.json()) as { id: string }).id}`);
    }
  });
  afterAll(async () => {
    clearInterval(sampler);
    await stopServerProcess(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const property = () =>
    (ids.find((i) => i.startsWith("properties/")) ?? "").split("/")[1] as string;
  let available = true;
  const edit = () => {
    available = !available;
    return fetch(`${base}/api/listings/properties/${property()}/availability`, {
      method: "PATCH",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ currently_available: available }),
    });
  };

  it(`${SUBSCRIBERS} live subscribers all receive an edit`, async () => {
    const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    const received = new Set<number>();
    const requests: http.ClientRequest[] = [];
    const opened = await Promise.all(
      Array.from(
        { length: SUBSCRIBERS },
        (_, n) =>
          new Promise<number>((resolve, reject) => {
            const req = http.get(`${base}/live`, { agent }, (res) => {
              res.setEncoding("utf8");
              res.on("data", (chunk: string) => {
                if (chunk.includes("data: ")) received.add(n);
              });
              resolve(res.statusCode ?? 0);
            });
            req.on("error", reject);
            requests.push(req);
          }),
      ),
    );
    try {
      expect(opened.filter((s) => s !== 200)).toEqual([]);
      const started = performance.now();
      expect((await edit()).status).toBe(204);
      await expect.poll(() => received.size, { timeout: 30_000, interval: 50 }).toBe(SUBSCRIBERS);
      console.log(
        `load: ${SUBSCRIBERS} live subscribers got the edit within ${(performance.now() - started).toFixed(0)} ms; server RSS peak so far ${rssPeak.toFixed(0)} MB`,
      );
    } finally {
      for (const req of requests) req.destroy();
      agent.destroy();
    }
  });

  it(`${VISITORS} visitors browse for ${BROWSE_MS / 1000} s while an admin edits, the second half under a slow-client attack`, async () => {
    const pages = [
      "/",
      "/properties",
      "/new-construction",
      "/about",
      "/contact",
      "/rental-application",
      "/sitemap.xml",
      ...ids.map((id) =>
        id.startsWith("properties/")
          ? `/properties/${id.split("/")[1]}`
          : `/new-construction/${id.split("/")[1]}`,
      ),
    ];
    const agent = new http.Agent({ keepAlive: true, maxSockets: VISITORS });
    const quiet: number[] = [];
    const attacked: number[] = [];
    const errors: string[] = [];
    let attack = false;
    const slowTargets = new Map<string, number>();
    let end = Number.POSITIVE_INFINITY;
    let warmed = () => {};
    const warm = new Promise<void>((resolve) => {
      warmed = resolve;
    });

    const get = (target: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          `${base}${target}`,
          { agent, headers: { "accept-encoding": "br" } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
            res.on("error", reject);
          },
        );
        req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
        req.on("error", reject);
      });

    const visitor = async (n: number) => {
      // Warm-up (not measured): every visitor's connection is opened and every page rendered
      // once, as on a server that has been up for a while.
      await get(pages[n % pages.length] as string).catch(() => 0);
      await warm;
      for (let i = n + 1; performance.now() < end; i++) {
        const target = pages[i % pages.length] as string;
        const started = performance.now();
        try {
          const status = await get(target);
          if (status !== 200) errors.push(`${status} ${target}`);
        } catch (error) {
          errors.push(`${error} ${target}`);
        }
        const ms = performance.now() - started;
        (attack ? attacked : quiet).push(ms);
        if (ms > 3000) slowTargets.set(target, (slowTargets.get(target) ?? 0) + 1);
      }
    };

    const admin = async () => {
      let edits = 0;
      while (performance.now() < end) {
        const res = await edit();
        if (res.status !== 204) errors.push(`edit ${res.status}`);
        edits++;
        await new Promise((r) => setTimeout(r, EDIT_EVERY_MS));
      }
      return edits;
    };

    // Slow clients: each sends a request line and then one header byte a second, forever;
    // one that the server closes (the headers timeout) is replaced.
    const slow = new Set<net.Socket>();
    let slowClosed = 0;
    const openSlow = () => {
      const socket = net.connect(server.port, "127.0.0.1");
      socket.on("error", () => undefined);
      socket.write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ");
      const drip = setInterval(() => socket.write("a"), 1000);
      slow.add(socket);
      socket.on("close", () => {
        clearInterval(drip);
        slow.delete(socket);
        slowClosed++;
        if (attack && performance.now() < end) openSlow();
      });
    };
    const visitors = Array.from({ length: VISITORS }, (_, n) => visitor(n));
    await new Promise((r) => setTimeout(r, 3000));
    end = performance.now() + BROWSE_MS;
    warmed();
    const attackAt = setTimeout(() => {
      attack = true;
      for (let i = 0; i < SLOW_CLIENTS; i++) openSlow();
    }, BROWSE_MS / 2);
    const [edits] = await Promise.all([admin(), ...visitors]);
    clearTimeout(attackAt);
    attack = false;
    for (const socket of slow) socket.destroy();
    agent.destroy();

    const pct = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    };
    const all = [...quiet, ...attacked];
    console.log(
      `load: ${all.length} page requests by ${VISITORS} visitors in ${BROWSE_MS / 1000} s (${(all.length / (BROWSE_MS / 1000)).toFixed(0)}/s), ${edits} admin edits, ${errors.length} errors; ` +
        `p50/p99 ${pct(all, 50).toFixed(0)}/${pct(all, 99).toFixed(0)} ms overall, ` +
        `${pct(quiet, 50).toFixed(0)}/${pct(quiet, 99).toFixed(0)} ms before the attack, ` +
        `${pct(attacked, 50).toFixed(0)}/${pct(attacked, 99).toFixed(0)} ms under ${SLOW_CLIENTS} slow clients (${slowClosed} of them cut off by the server); ` +
        `server RSS peak ${rssPeak.toFixed(0)} MB; answers over 3 s by page: ${JSON.stringify(Object.fromEntries(slowTargets))}`,
    );
    expect(errors.slice(0, 10)).toEqual([]);
    expect(attacked.length).toBeGreaterThan(0);
    expect(pct(attacked, 99)).toBeLessThan(P99_BOUND_MS);
    expect(rssPeak).toBeGreaterThan(0);
    expect(rssPeak).toBeLessThan(RSS_BOUND_MB);
  });
});
