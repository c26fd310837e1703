// A multipart body that ends in the middle of a file (found by the fuzz suite,
// tests/resilience/fuzz.test.ts): busboy destroyed the file's stream with "Unexpected end of
// form" while the upload still waited for its temporary file, before anything listened for that
// error, and the process ended. Now: 400 with a message, no file left, the server lives on.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError } from "~/shared/http-error.server";
import { rawSocket } from "../../../tests/support/raw-http";
import { withUpload } from "./multipart.server";

describe("an upload cut off in the middle of a file", () => {
  let base = "";
  let dir = "";
  let close: () => void;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "multipart-test-"));
    let n = 0;
    // A slow temporary file: the whole (short) body has arrived before the file stream is piped.
    const slowTempFile = async () => {
      await new Promise((r) => setTimeout(r, 100));
      return path.join(dir, `upload-${++n}.tmp`);
    };
    const app = express();
    app.post("/upload", (req, res, next) => {
      withUpload(req, res, slowTempFile, async ({ files }) => files.length)
        .then((count) => res.json({ count }))
        .catch((error: unknown) => {
          if (!(error instanceof HttpError)) return next(error);
          res.status(error.status).json({ error: error.message });
        });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(async () => {
    close?.();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("is refused with 400 and a message, leaves no file, and the server keeps answering", async () => {
    const body =
      '--b\r\nContent-Disposition: form-data; name="images"; filename="p.jpg"\r\n' +
      "Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0 half a photo";
    const request = (text: string) =>
      rawSocket(
        base,
        Buffer.from(
          "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n" +
            `Content-Length: ${Buffer.byteLength(text, "latin1")}\r\nConnection: close\r\n\r\n${text}`,
          "latin1",
        ),
      );
    const cut = await request(body);
    expect(cut.status).toBe(400);
    expect(JSON.parse(cut.body.toString()).error).toBe("The upload could not be read.");
    await expect.poll(() => fs.readdir(dir)).toEqual([]);

    const whole = await request(`${body}\r\n--b--\r\n`);
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.body.toString())).toEqual({ count: 1 });
  });
});
