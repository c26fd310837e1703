// Refusals the fuzz suite (tests/resilience/fuzz.test.ts) found wrong, through the whole app:
// each answers a 4xx that says what it is, never a 5xx or an empty body, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import { listAdmins } from "~/features/auth/admins.server";
import { rawClient, rawSocket } from "../tests/support/raw-http";
import { startTestApp, type TestApp } from "../tests/support/test-app";

describe("refusals found by the fuzz suite", () => {
  let t: TestApp;
  let admin = "";
  let client: ReturnType<typeof rawClient>;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn("boss@example.com", { admin: true });
    client = rawClient(t.base);
  });
  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  it.each(COLLECTIONS)(
    "a %s detail URL that is not valid percent-encoding is the ordinary 404 with the missing-record dialog",
    async (c) => {
      // express-static-gzip answered these with its own 400 'URI malformed'.
      for (const id of ["%FF", "%ED%A0%80", "%F1%80", "%"]) {
        const res = await client.send({ method: "GET", target: `${KINDS[c].route}/${id}` });
        expect.soft(res.status, id).toBe(404);
        expect.soft(res.body.toString(), id).toContain(messages.noData);
      }
    },
  );

  it("the inbox's CSV is a 404 that says so to anyone but an admin, whatever the method", async () => {
    // OPTIONS by an anonymous client got an empty 404 (a resource route's thrown data(null)).
    const user = await t.signIn("visitor@example.com");
    for (const method of ["GET", "OPTIONS", "POST"]) {
      for (const cookie of ["", user]) {
        const res = await client.send({
          method,
          target: "/admin/inbox/export",
          headers: cookie ? { cookie } : {},
        });
        expect.soft(res.status, `${method} ${cookie ? "user" : "anonymous"}`).toBe(404);
        expect.soft(res.body.toString(), method).toBe("Not Found");
      }
    }
  });

  it("HEAD /live answers the stream's headers at once and ends (it never hangs)", async () => {
    const res = await client.send({
      method: "HEAD",
      target: "/live",
      headers: { "content-encoding": "gzip" },
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
  });

  it("a client file path that is not valid percent-encoding is not found", async () => {
    const res = await client.send({ method: "GET", target: "/assets/%FF.js" });
    expect(res.status).toBe(404);
    expect(res.body.toString()).toBe("Not Found");
  });

  it("a write to a client file or a read-only resource is 405 with its text", async () => {
    for (const target of [
      "/assets/x.js",
      "/sitemap.xml",
      "/robots.txt",
      "/feeds/hotpads.xml",
      "/feeds/listings.json",
      "/feeds/new-listings.xml",
      "/rental-application.pdf",
    ]) {
      const res = await client.send({ method: "POST", target, headers: { cookie: admin } });
      expect.soft(res.status, target).toBe(405);
      expect.soft(res.body.toString(), target).toBe("Method Not Allowed");
    }
  });

  it("Staff: a body that is no form (JSON) is 400 with a message, nothing changed", async () => {
    const before = await listAdmins(t.db);
    const res = await client.send({
      method: "POST",
      target: "/admin/staff",
      headers: { cookie: admin, "content-type": "application/json" },
      body: JSON.stringify({ intent: "add", email: "new@example.com", role: "viewer" }),
    });
    expect(res.status).toBe(400);
    expect(res.body.toString()).toContain(
      "The form could not be read. Reload the page and try again.",
    );
    expect(await listAdmins(t.db)).toEqual(before);
  });

  it.each(["a\0b@example.com", "x@exa\u0001mple.com", "tab\t@example.com"])(
    "Staff: an address with NUL or a control character (%j) is refused as invalid",
    async (email) => {
      const before = await listAdmins(t.db);
      const body = new URLSearchParams({ intent: "add", email, role: "viewer" }).toString();
      const res = await client.send({
        method: "POST",
        target: "/admin/staff",
        headers: { cookie: admin, "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.toString()).toContain("Invalid email address");
      expect(await listAdmins(t.db)).toEqual(before);
    },
  );

  it("headers too large: 431 with a message (none for HEAD), and the server keeps serving", async () => {
    const big = `X-Big: ${"a".repeat(20_000)}\r\n`;
    const get = await rawSocket(t.base, `GET / HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    expect(get.status).toBe(431);
    expect(get.body.toString()).toBe("The request's headers are too large.");
    const head = await rawSocket(t.base, `HEAD / HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    expect(head.status).toBe(431);
    expect(head.headers["content-length"]).toBe("0");
    expect((await client.send({ method: "GET", target: "/about" })).status).toBe(200);
  });

  it("garbage after a request that is still being answered: that request's own answer comes first", async () => {
    // A GET followed by a body it did not declare. The 400 for the garbage used to go out at
    // once and reach the client as the answer to the GET (which still ran, unseen).
    const res = await rawSocket(t.base, "GET /about HTTP/1.1\r\nHost: x\r\n\r\na=b\r\n\r\n");
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain("About");
  });

  it("a page write answered without reading its body does not stall the connection", async () => {
    // The unread body kept the kept-alive connection blocked: the next request on it waited
    // for the keep-alive timeout (5 s) and then failed with ECONNRESET.
    const one = rawClient(t.base, { maxSockets: 1, timeoutMs: 3000 });
    try {
      const refused = await one.send({
        method: "POST",
        target: "/properties",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `a=${"x".repeat(200_000)}`,
      });
      // Over a form's 64 KB it is refused for its size before the route's 405: either way it
      // is answered unread (docs/decisions/0072-request-body-limits.md).
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe("close");
      const next = await one.send({ method: "GET", target: "/about" });
      expect(next.status).toBe(200);
      expect(next.ms).toBeLessThan(2000);
    } finally {
      one.close();
    }
  });

  it("HEAD /live answers its headers at once (it used to hang: nothing is written to a HEAD)", async () => {
    const one = rawClient(t.base, { timeoutMs: 3000 });
    try {
      const res = await one.send({ method: "HEAD", target: "/live" });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
    } finally {
      one.close();
    }
  });

  it("a request Node cannot parse: 400 with a message", async () => {
    for (const raw of ["garbage\r\n\r\n", "GET /a\0b HTTP/1.1\r\nHost: x\r\n\r\n"]) {
      const res = await rawSocket(t.base, raw);
      expect.soft(res.status, raw).toBe(400);
      expect
        .soft(res.body.toString(), raw)
        .toBe("The request could not be read: it is not well-formed HTTP.");
    }
  });
});
