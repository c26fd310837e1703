// /admin/outbox through the whole app (docs/behaviour.md §26): newest first, 50 a page with
// 'Newer' and 'Older', each message's subject, recipients and state ('Sent', 'Waiting',
// 'Failed: {reason}'), admins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("the Outbox page", () => {
  let t: TestApp;
  let admin = "";
  const MESSAGES = 53;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn("boss@example.com", { admin: true });
    await t.db.exec("DELETE FROM outbox");
    // Written one minute apart, message 1 the oldest; ids in the opposite order, so the page
    // must order by when each was written, not by id.
    for (let n = 1; n <= MESSAGES; n++) {
      const k = MESSAGES + 1 - n; // its subject's number: 1 is the oldest
      await t.db.query(
        `INSERT INTO outbox (created_at, kind, to_addresses, subject, body, state, last_error, sent_at)
         VALUES ($1, 'inquiry', $2, $3, $4, $5, $6, $7)`,
        [
          new Date(Date.UTC(2026, 0, 1, 12, 0) + k * 60_000).toISOString(),
          [`renter${k}@example.com`],
          `Subject ${k}`,
          `Body ${k}`,
          k === 1 ? "failed" : k === 2 ? "sent" : "waiting",
          k === 1 ? "550 mailbox unavailable" : null,
          k === 2 ? new Date().toISOString() : null,
        ],
      );
    }
  });
  afterAll(async () => t?.close());

  const page = async (query = "", cookie = admin) => {
    const res = await fetch(`${t.base}/admin/outbox${query}`, { headers: { cookie } });
    return { status: res.status, html: await res.text() };
  };
  const subjects = (html: string) =>
    [...html.matchAll(/<strong>Subject (\d+)<\/strong>/g)].map((m) => Number(m[1]));

  it("shows the newest 50 first, with 'Older' and no 'Newer'", async () => {
    const { status, html } = await page();
    expect(status).toBe(200);
    expect(html).toContain("<h1>Outbox</h1>");
    expect(subjects(html)).toEqual(Array.from({ length: 50 }, (_, i) => MESSAGES - i));
    expect(html).toMatch(/<a [^>]*href="\/admin\/outbox\?page=2"[^>]*>Older<\/a>/);
    expect(html).not.toContain(">Newer<");
    expect(html).toContain("renter53@example.com");
  });

  it("shows the rest on page 2, with 'Newer' and no 'Older', and each state", async () => {
    const { html } = await page("?page=2");
    expect(subjects(html)).toEqual([3, 2, 1]);
    expect(html).toMatch(/<a [^>]*href="\/admin\/outbox\?page=1"[^>]*>Newer<\/a>/);
    expect(html).not.toContain(">Older<");
    const states = [...html.matchAll(/<span class="outbox-state">([^<]*)<\/span>/g)].map(
      (m) => m[1],
    );
    expect(states).toEqual(["Waiting", "Sent", "Failed: 550 mailbox unavailable"]);
  });

  it("answers a page number it cannot use with the first page", async () => {
    const { status, html } = await page("?page=zero");
    expect(status).toBe(200);
    expect(subjects(html)[0]).toBe(MESSAGES);
  });

  it("is the ordinary 404 for a visitor and for someone signed in who is no admin", async () => {
    expect((await page("", "")).status).toBe(404);
    const renter = await t.signIn("renter@example.com");
    const { status, html } = await page("", renter);
    expect(status).toBe(404);
    expect(html).not.toContain("renter53@example.com");
  });
});
