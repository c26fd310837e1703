// /admin/activity, 'Activity' (docs/behaviour.md §6): what staff did, for Owners only, with no
// renter's or stranger's address in it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("Activity", () => {
  let t: TestApp;
  let owner = "";
  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.signIn("boss@example.com", { admin: true });
  });
  afterAll(async () => t?.close());

  const page = (cookie: string, path = "/admin/activity") =>
    fetch(`${t.base}${path}`, { headers: { cookie } });

  it("shows an Owner who did what, newest first; nobody else sees it", async () => {
    const form = new FormData();
    form.append("intent", "add");
    form.append("email", "agent@example.com");
    form.append("role", "leasing-agent");
    await fetch(`${t.base}/admin/staff`, {
      method: "POST",
      headers: { cookie: owner },
      body: form,
    });
    // A stranger's wrong code: a refusal that names nobody.
    await fetch(`${t.base}/sign-in`, {
      method: "POST",
      body: new URLSearchParams({
        intent: "verify",
        email: "stranger@example.com",
        code: "123456",
      }),
    });
    await vi.waitFor(async () => {
      const kinds = await t.db.query<{ kind: string }>("SELECT kind FROM activity_events");
      expect(kinds.map((k) => k.kind).sort()).toEqual(["admin granted", "sign-in refused"]);
    });
    const res = await page(owner);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Activity");
    expect(html).toContain("Admin granted");
    expect(html).toContain("agent@example.com");
    expect(html).toContain("Sign-in refused");
    const filtered = await (await page(owner, "/admin/activity?kind=sign-in+refused")).text();
    // (Its kinds stay in the filter's options; the row, with its details, is gone.)
    expect(filtered).not.toContain("agent@example.com");
    expect(filtered).toContain("Sign-in refused");
    // Never the stranger's address.
    const all = JSON.stringify(await t.db.query("SELECT * FROM activity_events"));
    expect(all).not.toContain("stranger@example.com");
    const manager = await t.signIn("manager@example.com", { role: "manager" });
    expect((await page(manager)).status).toBe(404);
    expect((await page("")).status).toBe(404);
  });
});
