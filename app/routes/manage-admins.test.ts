// The Manage admins page's revoke, through the whole app as a signed-in admin.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAdmin, listAdmins } from "~/features/auth/admins.server";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("Manage admins: revoking an address listed in ADMIN_EMAILS", () => {
  let t: TestApp;
  let admin = "";
  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_EMAILS: "listed@example.com" } });
    admin = await t.signIn("boss@example.com", { admin: true });
    const listed = await t.signIn("listed@example.com", { admin: true });
    expect(listed).not.toBe("");
  });
  afterAll(async () => t?.close());

  const revoke = (email: string) => {
    const form = new FormData();
    form.append("intent", "revoke");
    form.append("email", email);
    return fetch(`${t.base}/admin/admins`, {
      method: "POST",
      headers: { cookie: admin },
      body: form,
    });
  };

  it("is refused with a message that says to remove it from ADMIN_EMAILS first", async () => {
    const before = await listAdmins(t.db);
    const res = await revoke("listed@example.com");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      "Cannot revoke listed@example.com: it is listed in ADMIN_EMAILS, which grants admin again at every start. Remove it from ADMIN_EMAILS and restart the server first.",
    );
    expect(await listAdmins(t.db)).toEqual(before);
    const listedUser = {
      issuer: "https://id.example",
      sub: "test-user-2",
      email: "listed@example.com",
      emailVerified: true,
    };
    expect(await isAdmin(t.db, { ...listedUser, name: null })).toBe(true);
  });

  it("still revokes other admins", async () => {
    const other = await t.signIn("other@example.com", { admin: true });
    expect(other).not.toBe("");
    const res = await revoke("other@example.com");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("other@example.com is no longer an admin.");
  });
});
