// Oversized, chunked and compressed bodies and PDF bombs on every public write
// (docs/decisions/0072-request-body-limits.md, 0073-untrusted-files-parsed-in-a-worker.md), against the production bundle as a process of its own: each is refused with
// a 4xx and a message (never a 5xx), nothing is stored, the process stays up with its memory
// bounded, and a kept page (/about) is answered within 50 ms (KEPT_PAGE_BOUND_MS) while
// bodies are refused without a page; see the bound below for refusals rendered on their form.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { pdfBomb } from "../support/pdf-bomb";
import { rssMb, startServerProcess, stopServerProcess } from "../support/server-process";

const MB = 1024 * 1024;
const BOUND_MS = Number(process.env.KEPT_PAGE_BOUND_MS ?? 50);
// A PDF bomb is refused on the 'Documents' form, so each refusal renders that page (three at
// once here): 20-68 ms seen on this 2-core machine. A bomb checked on the main thread holds it
// for seconds (25.5 s measured before the checks moved to a worker, docs/decisions/0073), so
// this bound still fails that at once without failing on a page render's noise.
const BOMB_BOUND_MS = Number(process.env.PDF_BOMB_BOUND_MS ?? 250);

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** Streams a body (declared or chunked) until the answer comes, at most `cap` bytes. */
function attack(
  base: string,
  target: string,
  body: {
    declared: number | null;
    chunk: Buffer;
    cap: number;
    headers: Record<string, string>;
  },
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let answered = false;
    let written = 0;
    const req = http.request(new URL(target, base), {
      method: "POST",
      agent: false,
      // No Origin: the server's PUBLIC_URL is not this address (a non-browser client).
      headers: {
        ...(body.declared === null
          ? { "transfer-encoding": "chunked" }
          : { "content-length": String(body.declared) }),
        ...body.headers,
      },
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${target}: no answer in 30 s`)));
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", (error) => {
      if (!answered) reject(new Error(`${target}: ${error.message} before any answer`));
    });
    const limit = Math.min(body.cap, body.declared ?? body.cap);
    const pump = () => {
      while (!answered && !req.destroyed && written < limit) {
        const part = body.chunk.subarray(0, Math.min(body.chunk.length, limit - written));
        written += part.length;
        if (!req.write(part)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered && !req.destroyed && written >= limit) req.end();
    };
    pump();
  });
}

/**
 * Warms the kept page (/about), then asks for it every 10 ms on one kept-alive connection until
 * `stop()`: `probes` holds each answer's time in ms. The prober is a thread of its own: the
 * attacking client's pauses in this thread (its garbage collection, its pumping) are not the
 * server's, and must not be counted as a visitor's wait.
 */
async function probeKeptPage(base: string) {
  const worker = new Worker(PROBER, { eval: true, workerData: { url: `${base}/about` } });
  const probes: number[] = [];
  const failed = new Promise<never>((_, reject) => {
    worker.once("error", reject);
  });
  const stopped = new Promise<void>((resolve) => {
    worker.on("message", (message: { ready?: true; probe?: number; stopped?: true }) => {
      if (message.probe !== undefined) probes.push(message.probe);
      if (message.stopped) resolve();
    });
  });
  await Promise.race([
    failed,
    new Promise<void>((resolve) =>
      worker.on("message", (m: { ready?: true }) => m.ready && resolve()),
    ),
  ]);
  return {
    probes,
    async stop() {
      worker.postMessage("stop");
      await Promise.race([failed, stopped]);
      await worker.terminate();
    },
  };
}

const PROBER = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const about = () =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(workerData.url, { agent }, (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error("/about answered " + res.statusCode)),
        );
      })
      .on("error", reject);
  });
let probing = true;
parentPort.on("message", () => {
  probing = false;
});
(async () => {
  for (let i = 0; i < 5; i++) await about();
  parentPort.postMessage({ ready: true });
  while (probing) {
    parentPort.postMessage({ probe: await about() });
    await new Promise((r) => setTimeout(r, 10));
  }
  agent.destroy();
  parentPort.postMessage({ stopped: true });
})().catch((error) => {
  throw error;
});
`;

describe("oversized, chunked and compressed bodies and PDF bombs on every public write", () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  let source: Record<string, string>;
  let token = "";

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "oversized-bodies-"));
    source = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      APPLICATION_DATA_KEY: randomBytes(32).toString("base64"),
      INQUIRY_RATE_LIMIT: "1000000",
      WRITE_RATE_LIMIT: "1000000",
      RENDER_RATE_LIMIT: "1000000",
    };
    server = await startServerProcess(source);
    const base = server.base;
    // A private link to aim at: the first step of an application.
    const started = await fetch(`${base}/rental-application/apply`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({
        fullName: "Ana Applicant",
        email: "ana.applicant@example.com",
        phone: "703-555-0142",
        dateOfBirth: "1990-02-03",
        moveIn: `${new Date().getUTCFullYear() + 1}-05-01`,
        occupants: "2",
        step: "applicant",
        intent: "next",
      }),
    });
    expect(started.status, (await started.text()).slice(0, 2000)).toBe(303);
    token = /token=([\w-]{43})/.exec(started.headers.get("location") ?? "")?.[1] ?? "";
    expect(token).not.toBe("");
  });
  afterAll(async () => {
    await stopServerProcess(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("refuses PDF bombs on every public write, with /about answered within 250 ms", async () => {
    const live = server as NonNullable<typeof server>;
    const base = live.base;
    // One object stream of 1 GiB of zeros in a 1 MB PDF (docs/decisions/0073).
    const bomb = new Uint8Array(await pdfBomb());
    const continueUrl = `/rental-application/continue?token=${token}`;
    const upload = (target: string, intent: string) => {
      const form = new FormData();
      form.append("step", "documents");
      form.append("intent", intent);
      form.append("kind", "income");
      form.append("name", "Ana");
      form.append("email", "ana@example.com");
      form.append("message", "Hello");
      form.append("file", new Blob([bomb], { type: "application/pdf" }), "payslip.pdf");
      return async (): Promise<Answer> => {
        const started = performance.now();
        const res = await fetch(new URL(target, base), {
          method: "POST",
          redirect: "manual",
          body: form,
        });
        return { status: res.status, body: await res.text(), ms: performance.now() - started };
      };
    };
    const writes: [string, () => Promise<Answer>][] = [
      ["upload", upload(continueUrl, "upload")],
      ["'Next' with the file chosen", upload(continueUrl, "next")],
      ["'Save and finish later' with the file chosen", upload(continueUrl, "save")],
      ["the first step", upload("/rental-application/apply", "next")],
      ["an inquiry", upload("/inquiries", "send")],
      ["an alert", upload("/alerts", "create")],
    ];

    const { probes, stop } = await probeKeptPage(base);
    const answers: { what: string; answer: Answer }[] = [];
    try {
      for (const [what, write] of writes) answers.push({ what, answer: await write() });
      // Three bombs at once on the document step: the checks queue, the page does not wait.
      const [, first] = writes[0] as (typeof writes)[number];
      const together = await Promise.all([1, 2, 3].map(() => first()));
      for (const answer of together) answers.push({ what: "upload (three at once)", answer });
    } finally {
      await stop();
    }
    const sorted = [...probes].sort((a, b) => a - b);
    console.log(
      `PDF bombs: ${answers.map((a) => `${a.what} ${a.answer.status} in ${a.answer.ms.toFixed(0)} ms`).join("; ")}; ` +
        `/about ${probes.length} probes, max ${sorted.at(-1)?.toFixed(1)} ms`,
    );
    for (const { what, answer } of answers) {
      expect.soft(answer.status, what).toBeGreaterThanOrEqual(400);
      expect.soft(answer.status, what).toBeLessThan(500);
      expect.soft(answer.body.trim(), `${what}: a message`).not.toBe("");
    }
    expect(live.exitCode, live.output()).toBeNull();
    expect(probes.length).toBeGreaterThan(10);
    expect(sorted.at(-1) ?? Infinity).toBeLessThan(BOMB_BOUND_MS);
  });

  it("refuses each with a 4xx and a message, stores nothing, and keeps /about fast", async () => {
    const live = server as NonNullable<typeof server>;
    const base = live.base;
    const link = "A".repeat(43);
    const targets = [
      "/inquiries",
      "/inquiries.data",
      "/alerts",
      `/alerts/confirm?token=${link}`,
      `/alerts/unsubscribe?token=${link}`,
      "/rental-application/apply",
      `/rental-application/continue?token=${token}`,
      `/rental-application/continue.data?token=${token}`,
      "/auth/logout",
      "/api/listings/properties",
      "/api/listings-csv/check",
      "/about",
    ];
    const form = Buffer.from(`name=Ana&email=ana%40example.com&message=${"m".repeat(64 * 1024)}`);
    const boundary = "----oversized";
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n` +
          "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
      ),
      Buffer.alloc(256 * 1024, "0"),
    ]);
    const zeros = Buffer.alloc(100 * MB);
    const bombs: [string, Buffer][] = [
      ["gzip", gzipSync(zeros)],
      ["deflate", deflateSync(zeros)],
      ["br", brotliCompressSync(Buffer.alloc(10 * MB))],
    ];
    const urlencoded = { "content-type": "application/x-www-form-urlencoded" };
    const bodies: [string, Parameters<typeof attack>[2]][] = [
      ["140 MB declared", { declared: 140 * MB, chunk: form, cap: 140 * MB, headers: urlencoded }],
      ["chunked form", { declared: null, chunk: form, cap: 20 * MB, headers: urlencoded }],
      [
        "chunked multipart",
        {
          declared: null,
          chunk: multipart,
          cap: 40 * MB,
          headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        },
      ],
      ...bombs.map(
        ([encoding, bytes]) =>
          [
            `${encoding} bomb`,
            {
              declared: bytes.length,
              chunk: bytes,
              cap: bytes.length,
              headers: { ...urlencoded, "content-encoding": encoding },
            },
          ] as [string, Parameters<typeof attack>[2]],
      ),
    ];

    // Ask for the kept page every 10 ms while the attacks run.
    const { probes, stop } = await probeKeptPage(base);

    const answers: { what: string; answer: Answer }[] = [];
    let peakRss = 0;
    const slowestBy: [string, number][] = [];
    const startRss = await rssMb(live.pid as number);
    const rssAfter = [`start ${startRss.toFixed(0)} MB`];
    try {
      let probesBefore = probes.length;
      slowestBy.length = 0;
      for (const [name, body] of bodies) {
        // Every write one after the other, then all of them at once.
        for (const target of targets) {
          answers.push({ what: `${name} → ${target}`, answer: await attack(base, target, body) });
        }
        const together = await Promise.all(targets.map((t) => attack(base, t, body)));
        for (const [i, answer] of together.entries()) {
          answers.push({ what: `${name} → ${targets[i]} (together)`, answer });
        }
        const rss = await rssMb(live.pid as number);
        const slowest = Math.max(0, ...probes.slice(probesBefore));
        slowestBy.push([name, slowest]);
        probesBefore = probes.length;
        rssAfter.push(`${name} ${rss.toFixed(0)} MB, /about max ${slowest.toFixed(0)} ms`);
        peakRss = Math.max(peakRss, rss);
      }
    } finally {
      await stop();
    }

    const byStatus: Record<number, number> = {};
    for (const { answer } of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    const sorted = [...probes].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    console.log(
      `oversized bodies: ${answers.length} attacks, by status ${JSON.stringify(byStatus)}; ` +
        `/about ${probes.length} probes p50 ${p(0.5)?.toFixed(1)} ms, p99 ${p(0.99)?.toFixed(1)} ms, ` +
        `max ${sorted.at(-1)?.toFixed(1)} ms; server RSS peak ${peakRss.toFixed(0)} MB (${rssAfter.join(", ")})`,
    );

    for (const { what, answer } of answers) {
      // Logout reads no body: it signs nobody out (no session) and answers 204 unread.
      if (what.includes("/auth/logout") && answer.status === 204) continue;
      expect.soft(answer.status, what).toBeGreaterThanOrEqual(400);
      expect.soft(answer.status, what).toBeLessThan(500);
      expect.soft(answer.body.trim(), `${what}: a message`).not.toBe("");
    }
    expect(live.exitCode, live.output()).toBeNull();
    // Memory after start varies with the embedded database (465-856 MB seen): the attacks add
    // little to it.
    expect(peakRss - startRss).toBeLessThan(150);
    expect(probes.length).toBeGreaterThan(10);
    // Every refusal here is answered before a page is rendered (plain 411, 413, 415; only the
    // 'Documents' step shows a declared-too-big file on its form): /about within the bound.
    for (const [name, slowest] of slowestBy) {
      expect.soft(slowest, `/about while ${name}`).toBeLessThan(BOUND_MS);
    }

    // Nothing stored: the one application made above, and nothing else.
    await stopServerProcess(live);
    server = undefined;
    const env = readEnv(source);
    const db = await openDb({ dataDir: path.join(env.dataDir, "db") });
    try {
      const [row] = await db.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM leads) AS leads,
                (SELECT count(*)::int FROM outbox) AS outbox,
                (SELECT count(*)::int FROM listing_alerts) AS alerts,
                (SELECT count(*)::int FROM applications) AS applications,
                (SELECT count(*)::int FROM application_documents) AS documents,
                (SELECT count(*)::int FROM listings) AS listings`,
      );
      expect(row).toEqual({
        leads: 0,
        outbox: 0,
        alerts: 0,
        applications: 1,
        documents: 0,
        listings: 0,
      });
    } finally {
      await db.close();
    }
  });
});
