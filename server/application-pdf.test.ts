// /rental-application.pdf (docs/behaviour.md §15): the uploaded PDF streamed from the disk or the
// bucket with validators, ranges and a bodiless HEAD; the generated form made once per content,
// and a generation that failed is not kept.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import type { ImageStore } from "~/features/images/index.server";
import {
  buildApplicationPdf,
  editableOf,
  parseSettings,
  saveSettings,
} from "~/features/site-settings/index.server";
import { type Db, openDb } from "~/shared/db.server";
import {
  imageStoreTargets,
  type OpenedStore,
  stopSharedS3,
} from "../tests/support/image-store-targets";
import { APPLICATION_PDF_PATH, applicationPdf } from "./application-pdf";
import { finalErrorHandler } from "./error-handler";

afterAll(stopSharedS3);

async function serve(handler: express.RequestHandler) {
  const server = express()
    .all(APPLICATION_PDF_PATH, handler)
    .use(finalErrorHandler)
    .listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${APPLICATION_PDF_PATH}`,
  };
}

/** A GET with exactly these headers (fetch() adds Cache-Control: no-cache to conditional ones). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status?: number; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe.each(imageStoreTargets)("the uploaded application PDF from the $name store", (target) => {
  let opened: OpenedStore;
  let images: ImageStore;
  let db: Db;
  let server: http.Server;
  let url: string;
  // 3 MB of recognisable bytes: more than a stream's buffer, so it is really streamed.
  const pdf = Buffer.concat([
    Buffer.from("%PDF-1.4\n"),
    Buffer.alloc(3 * 1024 * 1024, "0123456789abcdef"),
    Buffer.from("\n%%EOF\n"),
  ]);

  beforeAll(async () => {
    opened = await target.open();
    images = opened.images;
    db = await openDb({ dataDir: "memory://" });
    await saveSettings(
      db,
      images,
      { fields: parseSettings(editableOf(company)), application: { upload: pdf } },
      null,
    );
    ({ server, url } = await serve(applicationPdf({ db, images })));
  });
  afterAll(async () => {
    server?.close();
    await db?.close();
    await opened?.cleanup();
  });

  it("sends it whole with its type, length and validators", async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(pdf.length));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"/);
    expect(res.headers.get("last-modified")).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it("answers 304 for a current copy (by ETag or date), HEAD without a body", async () => {
    const first = await fetch(url, { method: "HEAD" });
    expect([first.status, await first.text()]).toEqual([200, ""]);
    expect(first.headers.get("content-length")).toBe(String(pdf.length));
    const etag = first.headers.get("etag") as string;
    const lastModified = first.headers.get("last-modified") as string;
    expect((await rawGet(url, { "if-none-match": etag })).status).toBe(304);
    expect((await rawGet(url, { "if-modified-since": lastModified })).status).toBe(304);
    expect((await rawGet(url, { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("answers one range with 206, a range beyond the end with 416", async () => {
    const part = await rawGet(url, { range: "bytes=0-7" });
    expect([part.status, part.body.toString()]).toEqual([206, "%PDF-1.4"]);
    const end = await fetch(url, { headers: { range: "bytes=-6" } });
    expect(end.status).toBe(206);
    expect(end.headers.get("content-range")).toBe(
      `bytes ${pdf.length - 6}-${pdf.length - 1}/${pdf.length}`,
    );
    expect(await end.text()).toBe("%%EOF\n");
    const beyond = await rawGet(url, { range: `bytes=${pdf.length + 10}-` });
    expect(beyond.status).toBe(416);
  });

  it("redirects case and slash variants to the one URL", async () => {
    const res = await fetch(url.replace("application.pdf", "Application.PDF/"), {
      redirect: "manual",
    });
    expect([res.status, res.headers.get("location")]).toEqual([308, APPLICATION_PDF_PATH]);
  });

  it("refuses other methods with 405", async () => {
    const res = await fetch(url, { method: "POST", body: "x" });
    expect([res.status, res.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });
});

describe("the generated application PDF", () => {
  let db: Db;
  let images: ImageStore;
  let opened: OpenedStore;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    opened = await (imageStoreTargets[0] as (typeof imageStoreTargets)[number]).open();
    images = opened.images;
  });
  afterAll(async () => {
    await db?.close();
    await opened?.cleanup();
  });

  it("is made once per content, and a failed generation is not kept: the next request tries again", async () => {
    let calls = 0;
    const build: typeof buildApplicationPdf = (content) => {
      calls++;
      if (calls === 1) return Promise.reject(new Error("font trouble"));
      return buildApplicationPdf(content);
    };
    const { server, url } = await serve(applicationPdf({ db, images, build }));
    try {
      const failed = await fetch(url);
      expect([failed.status, await failed.text()]).toEqual([500, "Internal Server Error"]);
      const made = await fetch(url);
      expect(made.status).toBe(200);
      expect(
        Buffer.from(await made.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
      const etag = made.headers.get("etag") as string;
      expect((await rawGet(url, { "if-none-match": etag })).status).toBe(304);
      await (await fetch(url)).arrayBuffer();
      expect(calls).toBe(2);
    } finally {
      server.close();
    }
  }, 30_000);
});
