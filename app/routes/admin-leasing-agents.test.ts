// 'Only these listings' (docs/behaviour.md §6, "Staff roles"), through the whole app: a Manager
// limits a Leasing agent to one listing on 'Leasing agents'; the agent then reads that
// listing's leads and applications and /contact's messages, and nothing of another listing,
// by list, filter, export, form or URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("a Leasing agent limited to 'Only these listings'", () => {
  let t: TestApp;
  let manager = "";
  let agent = "";
  let unlimited = "";
  const leads = { mine: 0, other: 0, contact: 0 };
  const applications = { mine: 0, other: 0 };

  const page = (path: string, cookie: string, init: RequestInit = {}) =>
    fetch(`${t.base}${path}`, {
      ...init,
      headers: { cookie, ...init.headers },
      redirect: "manual",
    });
  const post = (path: string, cookie: string, fields: Record<string, string>) =>
    page(path, cookie, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: t.base },
    });

  async function lead(collection: string | null, id: string | null, address: string | null) {
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO leads (kind, collection, listing_id, listing_address, name, email, message)
       VALUES ('inquiry', $1, $2, $3, $4, 'renter@example.com', 'Is it still free?')
       RETURNING id::int AS id`,
      [collection, id, address, `Renter about ${address ?? "nothing"}`],
    );
    return row?.id ?? 0;
  }
  async function application(id: string, address: string) {
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO applications (collection, listing_id, listing_address, status, submitted_at)
       VALUES ('properties', $1, $2, 'received', now()) RETURNING id::int AS id`,
      [id, address],
    );
    await t.db.query(
      `INSERT INTO applicants (application_id, position, token_hash, token_expires_at)
       VALUES ($1, 0, $2, now() + interval '1 day')`,
      [row?.id, `hash-${id}`],
    );
    return row?.id ?? 0;
  }

  beforeAll(async () => {
    t = await startTestApp();
    for (const [id, address] of [
      ["1-mine-street", "1 Mine Street"],
      ["2-other-street", "2 Other Street"],
    ]) {
      await t.db.query(
        `INSERT INTO listings (collection, id, address, bedrooms, bathrooms, description,
           image_urls, thumbnail_description, property_type, currently_available)
         VALUES ('properties', $1, $2, 2, 1, '', '{}', '', 'Residential', true)`,
        [id, address],
      );
    }
    leads.mine = await lead("properties", "1-mine-street", "1 Mine Street");
    leads.other = await lead("properties", "2-other-street", "2 Other Street");
    leads.contact = await lead(null, null, null);
    applications.mine = await application("1-mine-street", "1 Mine Street");
    applications.other = await application("2-other-street", "2 Other Street");
    manager = await t.signIn("manager@example.com", { role: "manager" });
    agent = await t.signIn("agent@example.com", { role: "leasing-agent" });
    unlimited = await t.signIn("free-agent@example.com", { role: "leasing-agent" });
  });
  afterAll(async () => t?.close());

  it("a Manager limits the agent on 'Leasing agents'; nobody else may", async () => {
    const before = await (await page("/admin/leasing-agents", manager)).text();
    expect(before).toContain("<h1>Leasing agents</h1>");
    expect(before).toContain("Only these listings");
    expect(before).toContain("All listings");
    const added = await post("/admin/leasing-agents", manager, {
      intent: "add",
      email: "agent@example.com",
      address: "1 Mine Street",
    });
    expect(added.status).toBe(200);
    expect(await added.text()).toContain("1 Mine Street added for agent@example.com.");
    // An address that is no listing, and a person who is no Leasing agent: refused.
    const unknown = await post("/admin/leasing-agents", manager, {
      intent: "add",
      email: "agent@example.com",
      address: "9 Nowhere Lane",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Choose a listing from the suggestions.");
    const notAgent = await post("/admin/leasing-agents", manager, {
      intent: "add",
      email: "manager@example.com",
      address: "2 Other Street",
    });
    expect(notAgent.status).toBe(400);
    expect(await notAgent.text()).toContain("manager@example.com is not a Leasing agent.");
    // The agents themselves get the ordinary 404, and change nothing.
    expect((await page("/admin/leasing-agents", agent)).status).toBe(404);
    const self = await post("/admin/leasing-agents", unlimited, {
      intent: "add",
      email: "agent@example.com",
      address: "2 Other Street",
    });
    expect(self.status).toBe(404);
    const rows = await t.db.query("SELECT listing_id FROM staff_listings ORDER BY listing_id");
    expect(rows).toEqual([{ listing_id: "1-mine-street" }]);
  });

  it("the limited agent sees their listing's leads and /contact's messages, nothing else", async () => {
    const inbox = await (await page("/admin/inbox", agent)).text();
    expect(inbox).toContain("Renter about 1 Mine Street");
    expect(inbox).toContain("Renter about nothing");
    expect(inbox).not.toContain("Renter about 2 Other Street");
    // Not by the listing filter, nor in the export.
    const filtered = await (
      await page("/admin/inbox?listing=properties%2F2-other-street", agent)
    ).text();
    expect(filtered).not.toContain("Renter about 2 Other Street");
    const csv = await (await page("/admin/inbox/export", agent)).text();
    expect(csv).toContain("1 Mine Street");
    expect(csv).not.toContain("2 Other Street");
    // An agent without a limit sees every lead.
    const all = await (await page("/admin/inbox", unlimited)).text();
    expect(all).toContain("Renter about 2 Other Street");
  });

  it("the other listing's lead cannot be changed by its id", async () => {
    const status = await post("/admin/inbox", agent, {
      intent: "status",
      id: String(leads.other),
      status: "contacted",
    });
    expect(status.status).toBe(404);
    const note = await post("/admin/inbox", agent, {
      intent: "note",
      id: String(leads.other),
      notes: "Seen",
    });
    expect(note.status).toBe(404);
    const [other] = await t.db.query<{ status: string; notes: string }>(
      "SELECT status, notes FROM leads WHERE id = $1",
      [leads.other],
    );
    expect(other).toEqual({ status: "new", notes: "" });
    const mine = await post("/admin/inbox", agent, {
      intent: "status",
      id: String(leads.mine),
      status: "contacted",
    });
    expect(mine.status).toBe(200);
  });

  it("the other listing's application cannot be opened, downloaded or changed by URL", async () => {
    const list = await (await page("/admin/applications", agent)).text();
    expect(list).toContain("1 Mine Street");
    expect(list).not.toContain("2 Other Street");
    expect((await page(`/admin/applications/${applications.mine}`, agent)).status).toBe(200);
    expect((await page(`/admin/applications/${applications.other}`, agent)).status).toBe(404);
    expect((await page(`/admin/applications/${applications.other}/pdf`, agent)).status).toBe(404);
    expect(
      (await page(`/admin/applications/${applications.other}/documents/1`, agent)).status,
    ).toBe(404);
    const changed = await post(`/admin/applications/${applications.other}`, agent, {
      intent: "status",
      status: "approved",
    });
    expect(changed.status).toBe(404);
    const [other] = await t.db.query<{ status: string }>(
      "SELECT status FROM applications WHERE id = $1",
      [applications.other],
    );
    expect(other?.status).toBe("received");
    // The Manager, unlimited, opens it.
    expect((await page(`/admin/applications/${applications.other}`, manager)).status).toBe(200);
  });

  it("taking the last listing off gives the agent every listing again", async () => {
    const removed = await post("/admin/leasing-agents", manager, {
      intent: "remove",
      email: "agent@example.com",
      listing: "properties/1-mine-street",
    });
    expect(removed.status).toBe(200);
    const inbox = await (await page("/admin/inbox", agent)).text();
    expect(inbox).toContain("Renter about 2 Other Street");
  });
});
