// Leads through the whole app (docs/behaviour.md §27): a form posted to /inquiries as
// a browser without JavaScript posts it, its checks (fields, honeypot, time, hourly limit), what
// is stored and written to the outbox, and the staff's inbox (admins only): status, notes, the
// record of who changed what, 'Erase this person', 'Export CSV'.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { insertListing } from "~/features/listings/queries.server";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

const ADDRESS = "12 Lead Lane";
const ID = listingKey(ADDRESS);

describe("inquiries and the inbox", () => {
  let t: TestApp;
  let admin = "";
  beforeAll(async () => {
    t = await startTestApp({ env: { INQUIRY_RATE_LIMIT: "4" } });
    admin = await t.signIn("boss@example.com", { admin: true });
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
  afterAll(async () => t?.close());

  const post = (fields: Record<string, string | string[]>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    }
    return fetch(`${t.base}/inquiries`, {
      method: "POST",
      body: form,
      headers: { origin: t.base },
    });
  };
  const filled = (more: Record<string, string | string[]> = {}) => ({
    listing: `properties/${ID}`,
    started: String(Date.now() - 10_000),
    name: "Ana Renter",
    email: "ana@example.com",
    phone: "703-555-0199",
    message: `I'm interested in ${ADDRESS}.`,
    website: "",
    ...more,
  });
  const counts = async () => {
    const [leads] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM leads");
    const [mail] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox");
    return { leads: leads?.n, mail: mail?.n };
  };

  it("stores a showing request with the listing's own address, and writes two e-mails", async () => {
    // The 'Automatic reply' (docs/behaviour.md §33) is on by default: it answers the renter.
    const res = await post(
      filled({ showing: "on", time: ["2027-03-01T10:00", "", "2027-03-02T17:30"] }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thanks! We&#x27;ll get back to you soon.");
    const [lead] = await t.db.query<Record<string, unknown>>(
      "SELECT kind, collection, listing_id, listing_address, name, email, phone, preferred_times, status FROM leads",
    );
    expect(lead).toEqual({
      kind: "showing",
      collection: "properties",
      listing_id: ID,
      listing_address: ADDRESS,
      name: "Ana Renter",
      email: "ana@example.com",
      phone: "703-555-0199",
      preferred_times: ["2027-03-01T10:00", "2027-03-02T17:30"],
      status: "new",
    });
    const mail = await t.db.query<{ to_addresses: string[]; subject: string; body: string }>(
      "SELECT to_addresses, subject, body FROM outbox ORDER BY id",
    );
    // To the office (the site settings' e-mail, as INBOX_NOTIFY_EMAILS is not set), and to the renter.
    expect(mail.map((m) => [m.to_addresses, m.subject])).toEqual([
      [["office@example.com"], `Showing request: ${ADDRESS}`],
      [["ana@example.com"], `Your question about ${ADDRESS}`],
    ]);
    expect(mail[0]?.body).toContain("Tuesday, March 2, 2027 at 17:30");
  });

  it("refuses missing or wrong fields with their messages, keeping what was typed", async () => {
    const before = await counts();
    const res = await post(filled({ name: " ", email: "ana@", message: "", phone: "12345" }));
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const message of [
      "Enter your name.",
      "Enter a valid e-mail address.",
      "Write a message.",
    ]) {
      expect(html).toContain(message);
    }
    expect(html).toContain('value="ana@"');
    expect(html).toContain('value="12345"');
    expect(await counts()).toEqual(before);
  });

  it("refuses a body that is no form with a message, storing and sending nothing", async () => {
    const before = await counts();
    const res = await fetch(`${t.base}/inquiries`, {
      method: "POST",
      body: JSON.stringify(filled()),
      headers: { origin: t.base, "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      "The form could not be read. Reload the page and try again.",
    );
    expect(await counts()).toEqual(before);
  });

  it("tells a script that filled the hidden field it worked, and keeps and sends nothing", async () => {
    const before = await counts();
    const res = await post(filled({ website: "http://spam.example" }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thanks!");
    expect(await counts()).toEqual(before);
  });

  it("refuses a form sent sooner than 3 seconds after its page loaded", async () => {
    const before = await counts();
    const rendered = await post(filled({ started: String(Date.now()) }));
    expect(rendered.status).toBe(400);
    expect(await rendered.text()).toContain("Please check your message and press");
    // The browser's own measure wins where the page's script ran.
    const measured = await post(filled({ elapsed: "900" }));
    expect(measured.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it("answers 429 beyond INQUIRY_RATE_LIMIT an hour per client, storing nothing", async () => {
    // The first test's request counted; three more reach the limit of four.
    for (let i = 0; i < 3; i++)
      expect((await post(filled({ message: `More ${i}` }))).status).toBe(200);
    const before = await counts();
    const refused = await post(filled({ message: "One too many" }));
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(
      /Too many messages from your network\. Try again in \d+ minutes?\./,
    );
    expect(await counts()).toEqual(before);
  });

  it("shows the inbox to admins only, and records who changed what", async () => {
    const user = await t.signIn("visitor@example.com");
    for (const cookie of ["", user]) {
      expect((await fetch(`${t.base}/admin/inbox`, { headers: { cookie } })).status).toBe(404);
      expect((await fetch(`${t.base}/admin/inbox/export`, { headers: { cookie } })).status).toBe(
        404,
      );
    }
    const page = await fetch(`${t.base}/admin/inbox?kind=showing`, { headers: { cookie: admin } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Showing request");
    expect(html).toContain("ana@example.com");
    expect(html).toContain("1 item");

    const [lead] = await t.db.query<{ id: number }>(
      "SELECT id::int AS id FROM leads WHERE kind = 'showing'",
    );
    const act = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      return fetch(`${t.base}/admin/inbox`, {
        method: "POST",
        body: form,
        headers: { cookie: admin, origin: t.base },
      });
    };
    expect(
      (await act({ intent: "status", id: String(lead?.id), status: "contacted" })).status,
    ).toBe(200);
    expect((await act({ intent: "note", id: String(lead?.id), notes: "Called her." })).status).toBe(
      200,
    );
    expect((await act({ intent: "status", id: String(lead?.id), status: "nope" })).status).toBe(
      400,
    );
    expect((await act({ intent: "status", id: "999999", status: "closed" })).status).toBe(404);
    const events = await t.db.query<{ by_email: string; action: string; detail: unknown }>(
      "SELECT by_email, action, detail FROM lead_events WHERE lead_id = $1 ORDER BY id",
      [lead?.id],
    );
    expect(events).toEqual([
      { by_email: null, action: "received", detail: {} },
      { by_email: null, action: "auto-reply", detail: {} },
      { by_email: "boss@example.com", action: "status", detail: { from: "new", to: "contacted" } },
      { by_email: "boss@example.com", action: "note", detail: {} },
    ]);
    // A visitor's post to the inbox changes nothing.
    const form = new FormData();
    form.append("intent", "erase");
    form.append("email", "ana@example.com");
    const intruder = await fetch(`${t.base}/admin/inbox`, {
      method: "POST",
      body: form,
      headers: { cookie: user, origin: t.base },
    });
    expect(intruder.status).toBe(404);

    const csv = await fetch(`${t.base}/admin/inbox/export?status=contacted`, {
      headers: { cookie: admin },
    });
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="inbox.csv"');
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(
      "received,kind,status,listing,name,email,phone,message,preferred_times,notes",
    );
    expect(text).toContain("Called her.");
    expect(text.trim().split("\r\n")).toHaveLength(2);
  });

  it("answers from the inbox: reply, confirm a showing at another time, decline; for admins only", async () => {
    const [lead] = await t.db.query<{ id: number }>(
      "SELECT id::int AS id FROM leads WHERE kind = 'showing'",
    );
    const id = String(lead?.id);
    const act = (fields: Record<string, string>, cookie = admin) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      return fetch(`${t.base}/admin/inbox`, {
        method: "POST",
        body: form,
        headers: { cookie, origin: t.base },
      });
    };
    const answers = async () =>
      t.db.query<{ kind: string; to: string[] }>(
        `SELECT kind, to_addresses AS "to" FROM outbox
         WHERE ref = $1 AND kind NOT LIKE 'lead%' ORDER BY id`,
        [`lead:${id}`],
      );

    // Refused: a visitor's answer, an empty reply, a confirmation with no time; nothing sent.
    const visitor = await t.signIn("visitor2@example.com");
    expect((await act({ intent: "reply", id, text: "Hi" }, visitor)).status).toBe(404);
    const empty = await act({ intent: "reply", id, text: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Write a reply.");
    const noTime = await act({ intent: "confirm", id, time: "other", otherTime: "" });
    expect(noTime.status).toBe(400);
    expect(await noTime.text()).toContain(
      "Choose a proposed time, or enter another date and time.",
    );
    expect(await answers()).toEqual([]);

    const reply = await act({ intent: "reply", id, text: "It is still available." });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain("Reply sent.");
    const confirm = await act({
      intent: "confirm",
      id,
      time: "other",
      otherTime: "2027-03-05T11:15",
      text: "",
    });
    expect(confirm.status).toBe(200);
    const [status] = await t.db.query<{ status: string }>(
      "SELECT status FROM leads WHERE id = $1",
      [id],
    );
    expect(status?.status).toBe("showing-scheduled");
    const decline = await act({ intent: "decline", id });
    expect(decline.status).toBe(200);
    expect(await answers()).toEqual([
      { kind: "reply", to: ["ana@example.com"] },
      { kind: "showing-confirm", to: ["ana@example.com"] },
      { kind: "showing-decline", to: ["ana@example.com"] },
    ]);

    // The thread shows each answer with who sent it.
    const page = await fetch(`${t.base}/admin/inbox?kind=showing`, { headers: { cookie: admin } });
    const html = await page.text();
    expect(html).toContain("Thread");
    expect(html).toContain("It is still available.");
    expect(html).toContain("Showing confirmed for Friday, March 5, 2027 at 11:15");
    expect(html).toContain("Showing declined");
  });

  it("'Erase this person' deletes every item from the address, with its e-mail", async () => {
    expect((await counts()).leads).toBeGreaterThan(0);
    const form = new FormData();
    form.append("intent", "erase");
    form.append("email", "ANA@example.com");
    const res = await fetch(`${t.base}/admin/inbox`, {
      method: "POST",
      body: form,
      headers: { cookie: admin, origin: t.base },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/Erased \d+ items from ANA@example\.com\./);
    expect(await counts()).toEqual({ leads: 0, mail: 0 });
    expect(await t.db.query("SELECT 1 FROM lead_events")).toEqual([]);
  });
});
