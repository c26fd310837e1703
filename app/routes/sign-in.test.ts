// /sign-in, 'Staff sign-in' (docs/behaviour.md §6, "Staff sign-in"), through the whole app:
// the same answer for any address, a code that signs a staff member in as their role, and the
// per-client limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/features/auth/admins.server";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("Staff sign-in by e-mailed code", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await grantAdmin(t.db, "agent@example.com", "test", "leasing-agent");
  });
  afterAll(async () => t?.close());

  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${t.base}/sign-in`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      redirect: "manual",
    });
  const sent = (email: string) => `We sent a 6-digit code to ${email} if it belongs to our staff.`;
  const codeIn = async (email: string) => {
    const [row] = await t.db.query<{ body: string }>(
      "SELECT body FROM outbox WHERE $1 = ANY(to_addresses) ORDER BY id DESC LIMIT 1",
      [email],
    );
    return /is (\d{6})\./.exec(row?.body ?? "")?.[1] ?? "";
  };

  it("is the page 'Staff sign-in' with 'E-mail' and 'E-mail me a code', never kept", async () => {
    const res = await fetch(`${t.base}/sign-in`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("<title>Staff sign-in");
    expect(html).toContain("E-mail me a code");
    // Linked from every page's footer.
    expect(await (await fetch(`${t.base}/about`)).text()).toMatch(
      /<a[^>]*href="\/sign-in"[^>]*>Staff sign-in<\/a>/,
    );
  });

  it("answers staff and strangers alike, and e-mails staff only", async () => {
    const staff = await post({ intent: "send", email: "agent@example.com" });
    const stranger = await post({ intent: "send", email: "stranger@example.com" });
    expect(staff.status).toBe(200);
    expect(stranger.status).toBe(200);
    expect(await staff.text()).toContain(sent("agent@example.com"));
    expect(await stranger.text()).toContain(sent("stranger@example.com"));
    expect(await codeIn("agent@example.com")).toMatch(/^\d{6}$/);
    expect(await codeIn("stranger@example.com")).toBe("");
  });

  it("signs a staff member in with the code, as their role", async () => {
    await post({ intent: "send", email: "agent@example.com" });
    const code = await codeIn("agent@example.com");
    const wrong = await post({
      intent: "verify",
      email: "agent@example.com",
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(
      "That code is not right, or it has ended. Check it, or ask for a new one.",
    );
    const res = await post({ intent: "verify", email: "agent@example.com", code });
    expect(res.status).toBe(302);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^session=[\w-]{43}$/);
    const page = (path: string) => fetch(`${t.base}${path}`, { headers: { cookie } });
    expect((await page("/admin/inbox")).status).toBe(200);
    expect((await page("/admin/site")).status).toBe(404);
    expect((await page("/addproperty")).status).toBe(404);
  });

  it("limits one client's posts, with a message", async () => {
    const client = { "x-forwarded-for": "203.0.113.77" };
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await post({ intent: "send", email: "stranger@example.com" }, client);
    }
    expect(last?.status).toBe(429);
    expect(await last?.text()).toContain("Too many sign-in attempts from your network.");
  });
});
