// Listing alerts through the whole app (docs/behaviour.md §31), as a browser without JavaScript
// posts the forms: the checks of /alerts (address, what is watched, honeypot, time, hourly
// limit: refusals store and send nothing), the confirmation link's page and its POST, and the
// unsubscribe link, including a mail client's one-click POST (RFC 8058).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertListing } from "~/features/listings/queries.server";
import { propertyInput } from "../../tests/support/listing-input";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("listing alerts over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { INQUIRY_RATE_LIMIT: "3" } });
    for (const [id, available] of [
      ["7-let-lane", false],
      ["8-open-lane", true],
    ] as const) {
      await insertListing(
        t.db,
        "properties",
        id,
        propertyInput(id === "7-let-lane" ? "7 Let Lane" : "8 Open Lane", {
          currently_available: available,
        }),
      );
    }
  });
  afterAll(async () => t?.close());

  const post = (path: string, fields: Record<string, string>, type?: string) =>
    fetch(`${t.base}${path}`, {
      method: "POST",
      body: type ? new URLSearchParams(fields).toString() : formOf(fields),
      headers: type ? { "content-type": type } : {},
    });
  const formOf = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return form;
  };
  const filled = (more: Record<string, string> = {}) => ({
    listing: "properties/7-let-lane",
    started: String(Date.now() - 10_000),
    email: "ana@example.com",
    website: "",
    ...more,
  });
  const counts = async () => {
    const [alerts] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listing_alerts",
    );
    const [mail] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox");
    return { alerts: alerts?.n, mail: mail?.n };
  };
  const lastMail = async () =>
    (
      await t.db.query<{ body: string; unsubscribe_url: string }>(
        "SELECT body, unsubscribe_url FROM outbox ORDER BY id DESC LIMIT 1",
      )
    )[0];

  it("refuses what it cannot take with a message, storing and sending nothing", async () => {
    const before = await counts();
    const refusals: [Record<string, string>, number, string][] = [
      [filled({ email: "ana@" }), 400, "Enter a valid e-mail address."],
      [filled({ listing: "properties/8-open-lane" }), 400, "There is nothing to watch here"],
      [filled({ listing: "properties/no-such-lane" }), 400, "There is nothing to watch here"],
      [
        filled({ started: String(Date.now()) }),
        400,
        "Your alert was not saved and no e-mail was sent",
      ],
      [filled({ listing: "", collection: "castles", search: "beds=2" }), 400, "nothing to watch"],
      // Control characters (a NUL is no text to PostgreSQL) are refused, never a 5xx.
      [filled({ listing: "properties/7-let\u0000lane" }), 400, "nothing to watch"],
      [filled({ email: "ana\u0000@example.com" }), 400, "Enter a valid e-mail address."],
      [
        filled({ listing: "", collection: "properties", search: "q=a%00b" }),
        400,
        "nothing to watch",
      ],
    ];
    for (const [fields, status, message] of refusals) {
      const res = await post("/alerts", fields);
      expect.soft(res.status, JSON.stringify(fields)).toBe(status);
      expect.soft(await res.text(), JSON.stringify(fields)).toContain(message);
    }
    // The honeypot: told it worked, nothing kept.
    const trap = await post("/alerts", filled({ website: "http://spam.example" }));
    expect(trap.status).toBe(200);
    expect(await counts()).toEqual(before);
  });

  it("keeps an alert with its confirmation e-mail; the link confirms only by POST", async () => {
    const res = await post("/alerts", filled());
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Check your e-mail: we sent you a link to confirm.");
    const mail = await lastMail();
    const token = /\/alerts\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(mail?.body ?? "")?.[1];
    expect(token).toBeTruthy();
    // Opening the link (as a mail scanner does) confirms nothing.
    const page = await fetch(`${t.base}/alerts/confirm?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirm your e-mail alert");
    const confirmed = () =>
      t.db.query<{ confirmed: boolean }>(
        "SELECT confirmed_at IS NOT NULL AS confirmed FROM listing_alerts ORDER BY id DESC LIMIT 1",
      );
    expect((await confirmed())[0]?.confirmed).toBe(false);
    // The form posts to the page's own URL (the token in it), as a browser without JavaScript does.
    const yes = await post(`/alerts/confirm?token=${token}`, {});
    expect(yes.status).toBe(200);
    expect(await yes.text()).toContain("Your alert is on.");
    expect((await confirmed())[0]?.confirmed).toBe(true);
    const bad = await post("/alerts/confirm", { token: "B".repeat(43) });
    expect(bad.status).toBe(404);
    expect(await bad.text()).toContain("This link is not valid any more.");
  });

  it("one-click unsubscribe (RFC 8058) deletes the address from every alert", async () => {
    await post("/alerts", filled({ email: "cy@example.com" }));
    await post(
      "/alerts",
      filled({ email: "cy@example.com", listing: "", collection: "properties", search: "beds=2" }),
    );
    const url = new URL((await lastMail())?.unsubscribe_url ?? "");
    expect(url.pathname).toBe("/alerts/unsubscribe");
    const emails = () =>
      t.db.query<{ email: string }>(
        "SELECT email FROM listing_alerts WHERE email = 'cy@example.com'",
      );
    expect(await emails()).toHaveLength(2);
    const res = await post(
      `/alerts/unsubscribe${url.search}`,
      { "List-Unsubscribe": "One-Click" },
      "application/x-www-form-urlencoded",
    );
    expect(res.status).toBe(200);
    expect(await emails()).toEqual([]);
    expect(await post("/alerts/unsubscribe", { token: "nonsense" })).toHaveProperty("status", 404);
  });

  it("limits each client's alerts per hour like inquiries (429 with a message)", async () => {
    // INQUIRY_RATE_LIMIT=3 here; the earlier tests used some of this client's hour.
    let answer: Response | undefined;
    for (let i = 0; i < 5; i++) {
      answer = await post("/alerts", filled({ email: `r${i}@example.com` }));
      if (answer.status === 429) break;
    }
    expect(answer?.status).toBe(429);
    const before = await counts();
    const again = await post("/alerts", filled({ email: "late@example.com" }));
    expect(again.status).toBe(429);
    expect(await again.text()).toContain("Too many alerts asked for from your network.");
    expect(await counts()).toEqual(before);
  });
});
