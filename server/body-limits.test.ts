// Request bodies through the whole app (docs/decisions/0072-request-body-limits.md): a body over
// its route's limit is answered 413 with a message, nothing is stored, and the server stops
// reading it (what it read off the socket stays near the limit, whatever the client sends);
// compressed bodies are refused; a write whose Sec-Fetch-Site says another site is refused.
import fs from "node:fs/promises";
import http from "node:http";
import type { Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { insertListing } from "~/features/listings/queries.server";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const ADDRESS = "5 Limit Lane";
const ID = listingKey(ADDRESS);
const MB = 1024 * 1024;

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes the client managed to hand to its socket before the answer came or it closed. */
  written: number;
}

/**
 * Sends `declared` bytes (or a chunked body when null) of `chunk` repeated, as fast as the
 * server takes them, until the answer arrives or the connection ends; at most `cap` bytes.
 */
function sendLarge(
  base: string,
  target: string,
  options: {
    declared: number | null;
    chunk: Buffer;
    cap: number;
    headers?: Record<string, string>;
  },
): Promise<Sent> {
  const url = new URL(target, base);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(url, {
      method: "POST",
      agent: false,
      headers: {
        origin: base,
        ...(options.declared === null
          ? { "transfer-encoding": "chunked" }
          : { "content-length": String(options.declared) }),
        ...options.headers,
      },
    });
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          written,
        }),
      );
      res.on("error", reject);
    });
    // The server closing mid-body is expected; only a missing answer is a failure.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const limit = Math.min(options.cap, options.declared ?? options.cap);
    const pump = () => {
      while (!answered && !req.destroyed && written < limit) {
        written += options.chunk.length;
        if (!req.write(options.chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered && options.declared === null && written >= limit) req.end();
    };
    pump();
  });
}

describe("request body limits", () => {
  let t: TestApp;
  let dataDir: string;
  /** The server's side of every connection, to see how much it read. */
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "body-limits-"));
    t = await startTestApp({ env: { INQUIRY_RATE_LIMIT: "100", DATA_DIR: dataDir } });
    t.server.on("connection", (s: Socket) => sockets.push(s));
    await insertListing(t.db, "properties", ID, {
      address: ADDRESS,
      bedrooms: 3,
      bathrooms: 2,
      description: "",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: "2500",
      reserve_url: null,
    });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const counts = async () => {
    const [row] = await t.db.query<{ leads: number; mail: number; alerts: number }>(
      `SELECT (SELECT count(*)::int FROM leads) AS leads, (SELECT count(*)::int FROM outbox) AS mail,
              (SELECT count(*)::int FROM listing_alerts) AS alerts`,
    );
    return row;
  };
  /** The most any connection of the server read off its socket (headers included). */
  const mostRead = () => Math.max(0, ...sockets.map((s) => s.bytesRead));
  const inquiry = (message: string) =>
    new URLSearchParams({
      listing: `properties/${ID}`,
      started: String(Date.now() - 10_000),
      name: "Ana Renter",
      email: "ana@example.com",
      phone: "703-555-0199",
      message,
      website: "",
    }).toString();

  it("answers a 140 MB url-encoded inquiry 413 at once, stores nothing and reads no more", async () => {
    const before = await counts();
    sockets.length = 0;
    const head = Buffer.from(`${inquiry("x")}&padding=`);
    const res = await sendLarge(t.base, "/inquiries", {
      declared: 140 * MB,
      chunk: Buffer.concat([head, Buffer.alloc(64 * 1024 - head.length, "a")]),
      cap: 140 * MB,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(413);
    expect(res.body).toContain(
      "The form is too large: at most 64 KB. Shorten what you typed and try again.",
    );
    expect(res.headers.connection).toBe("close");
    expect(await counts()).toEqual(before);
    // The server read the headers and at most about a limit's worth of the body.
    expect(mostRead()).toBeLessThan(1 * MB);
  });

  it("answers a form sent as route data (JavaScript's submission) over the limit 413", async () => {
    const before = await counts();
    const res = await fetch(`${t.base}/inquiries.data`, {
      method: "POST",
      headers: { origin: t.base, "content-type": "application/x-www-form-urlencoded" },
      body: inquiry("d".repeat(100 * 1024)),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The form is too large: at most 64 KB.");
    expect(await counts()).toEqual(before);
  });

  it("answers a chunked url-encoded form 411 (no browser sends one) and reads none of it", async () => {
    const before = await counts();
    sockets.length = 0;
    const res = await sendLarge(t.base, "/inquiries", {
      declared: null,
      chunk: Buffer.from(`${inquiry("y".repeat(16 * 1024))}&`),
      cap: 50 * MB,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(411);
    expect(res.body).toContain("Send it again from the page.");
    expect(await counts()).toEqual(before);
    expect(mostRead()).toBeLessThan(1 * MB);
  });

  it("answers a chunked multipart alert form 411, nothing stored", async () => {
    const before = await counts();
    sockets.length = 0;
    const boundary = "----limit-test";
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="q"\r\n\r\n${"z".repeat(8 * 1024)}\r\n`;
    const res = await sendLarge(t.base, "/alerts", {
      declared: null,
      chunk: Buffer.from(part),
      cap: 30 * MB,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(411);
    expect(res.body).toContain("Send it again from the page.");
    expect(await counts()).toEqual(before);
    expect(mostRead()).toBeLessThan(1 * MB);
  });

  it("answers a document upload over its limit 413 on the 'Documents' step (chunked: 411)", async () => {
    const start = await fetch(`${t.base}/rental-application/apply`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: t.base },
      body: new URLSearchParams({
        fullName: "Ana Applicant",
        email: "ana.applicant@example.com",
        phone: "703-555-0142",
        dateOfBirth: "1990-02-03",
        moveIn: `${new Date().getUTCFullYear() + 1}-05-01`,
        occupants: "2",
        listing: `properties/${ID}`,
        step: "applicant",
        intent: "next",
      }),
    });
    expect(start.status).toBe(303);
    const token = /token=([\w-]{43})/.exec(start.headers.get("location") ?? "")?.[1];
    expect(token).toBeDefined();
    const boundary = "----doc-test";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="step"\r\n\r\ndocuments\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nid\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
        "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
    );
    for (const declared of [null, 40 * MB]) {
      sockets.length = 0;
      const res = await sendLarge(t.base, `/rental-application/continue?token=${token}`, {
        declared,
        chunk: Buffer.concat([head, Buffer.alloc(256 * 1024 - head.length, "0")]),
        cap: 40 * MB,
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      });
      expect(res.status, `declared ${declared}`).toBe(declared === null ? 411 : 413);
      expect(res.body).toContain(
        declared === null ? "Send it again from the page." : "A file may be at most 10 MB.",
      );
      // The document's limit (10 MB and the form) and no more than a few chunks past it.
      expect(mostRead()).toBeLessThan(13 * MB);
    }
    const [docs] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM application_documents",
    );
    expect(docs?.n).toBe(0);
  });

  it("refuses an API body over its limit by its declared length at once (413, JSON)", async () => {
    sockets.length = 0;
    const res = await sendLarge(t.base, "/api/listings/properties/x/availability", {
      declared: 50 * MB,
      chunk: Buffer.alloc(64 * 1024, " "),
      cap: 50 * MB,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: "The request is too large." });
    expect(mostRead()).toBeLessThan(1 * MB);
  });

  it("refuses a compressed body (415) instead of inflating it, nothing stored", async () => {
    const before = await counts();
    // 64 KB of zeros the inflater would make of 100 MB.
    const bomb = gzipSync(Buffer.concat([Buffer.from(inquiry("b")), Buffer.alloc(100 * MB)]));
    const res = await fetch(`${t.base}/inquiries`, {
      method: "POST",
      headers: {
        origin: t.base,
        "content-type": "application/x-www-form-urlencoded",
        "content-encoding": "gzip",
      },
      body: bomb,
    });
    expect(res.status).toBe(415);
    expect(await res.text()).toBe(
      "The request body must be sent uncompressed (no Content-Encoding). Send it again without compression.",
    );
    expect(await counts()).toEqual(before);
  });

  it("still takes an inquiry of the longest message a person can type", async () => {
    const before = await counts();
    // 5,000 characters of a 3-byte script, percent-encoded: ≈ 45 KB.
    const body = inquiry("界".repeat(5000));
    expect(body.length).toBeGreaterThan(40 * 1024);
    const res = await fetch(`${t.base}/inquiries`, {
      method: "POST",
      headers: { origin: t.base, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(res.status).toBe(200);
    expect((await counts())?.leads).toBe((before?.leads ?? 0) + 1);
  });

  it.each(["cross-site", "same-site"])(
    "refuses a write without Origin whose Sec-Fetch-Site is %s, as a foreign Origin is",
    async (site) => {
      const before = await counts();
      const res = await fetch(`${t.base}/inquiries`, {
        method: "POST",
        headers: { "sec-fetch-site": site, "content-type": "application/x-www-form-urlencoded" },
        body: inquiry("From another site."),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        ok: false,
        error: "Cross-site requests are not allowed.",
      });
      expect(await counts()).toEqual(before);
      const logout = await fetch(`${t.base}/auth/logout`, {
        method: "POST",
        headers: { "sec-fetch-site": site },
      });
      expect(logout.status).toBe(403);
    },
  );

  it("takes a write without Origin from its own pages (Sec-Fetch-Site same-origin)", async () => {
    const before = await counts();
    const res = await fetch(`${t.base}/inquiries`, {
      method: "POST",
      headers: {
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: inquiry("From the site's own page."),
    });
    expect(res.status).toBe(200);
    expect((await counts())?.leads).toBe((before?.leads ?? 0) + 1);
  });
  it("takes 'Origin: null' from its own no-referrer pages (Sec-Fetch-Site same-origin) only", async () => {
    const before = await counts();
    const send = (site: string) =>
      fetch(`${t.base}/inquiries`, {
        method: "POST",
        headers: {
          origin: "null",
          "sec-fetch-site": site,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: inquiry("From a page sent with Referrer-Policy: no-referrer."),
      });
    expect((await send("cross-site")).status).toBe(403);
    expect((await counts())?.leads).toBe(before?.leads);
    expect((await send("same-origin")).status).toBe(200);
    expect((await counts())?.leads).toBe((before?.leads ?? 0) + 1);
  });
});
