// A trial on this computer (no PUBLIC_URL) is reached as localhost or as 127.0.0.1, the address
// its "Listening on" line shows: its forms work at both (docs/configuration.md, PUBLIC_URL).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../tests/support/test-app";
import { pageOrigin } from "./app";

/** A form post with the Host and Origin a browser at `host` sends. */
function post(port: number, host: string, path: string, body: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: {
        host,
        origin: `http://${host}`,
        "sec-fetch-site": "same-origin",
        "content-type": "application/x-www-form-urlencoded",
        "content-length": Buffer.byteLength(body),
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c: Buffer) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("a trial's forms, at localhost and at 127.0.0.1", () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: "" } });
    port = Number(new URL(t.base).port);
  });
  afterAll(() => t?.close());

  it.each(["127.0.0.1", "localhost"])("takes a form posted at %s", async (name) => {
    // An empty inquiry: the form comes back with its messages (not a bare 'Bad Request').
    const answer = await post(port, `${name}:${port}`, "/inquiries", "name=");
    expect(answer.status).toBe(400);
    expect(answer.body).toContain("Enter your name.");
  });

  it("still refuses a post that names another host", async () => {
    const answer = await post(port, `evil.example:${port}`, "/inquiries", "name=");
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain("Enter your name.");
  });
});

describe("pageOrigin", () => {
  const at = (host: string, localPort = 3000) => ({ headers: { host }, socket: { localPort } });
  const site = "https://leasing.example.com";

  it("is PUBLIC_URL's origin on a site that sets one, whatever the Host", () => {
    expect(pageOrigin({ trial: false }, site, at("127.0.0.1:3000") as never)).toBe(site);
  });

  it("is the loopback address opened, on this server's port only, in a trial", () => {
    const trial = { trial: true };
    const local = "http://localhost:3000";
    expect(pageOrigin(trial, local, at("127.0.0.1:3000") as never)).toBe("http://127.0.0.1:3000");
    expect(pageOrigin(trial, local, at("[::1]:3000") as never)).toBe("http://[::1]:3000");
    expect(pageOrigin(trial, local, at("127.0.0.1:3001") as never)).toBe(local);
    expect(pageOrigin(trial, local, at("evil.example:3000") as never)).toBe(local);
    expect(pageOrigin(trial, local, at("127.0.0.1.evil.example:3000") as never)).toBe(local);
    expect(pageOrigin(trial, local, at("") as never)).toBe(local);
  });
});
