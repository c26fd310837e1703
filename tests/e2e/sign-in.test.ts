// Sign-in through the real popup, roles in the navbar, logout, admin-only routes and the
// 'Manage admins' page (spec §2 navigation and admin routes, §4 sign-in, §6 roles).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fetchWithSession,
  loginLink,
  makeAdmin,
  newUser,
  removeAdmin,
  sessionCookie,
  signedInPage,
  signInThroughPopup,
  type TestUser,
  userMenuButton,
} from "./auth-fixtures";
import { sql, useBrowser } from "./fixtures";
import { deleteRow, gotoHydrated, h1Text, insertRow, POLL, uniqueSuffix } from "./helpers";

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const navLink = (page: Page, name: string) => nav(page).getByRole("link", { name, exact: true });

/** Marks the document; a reload would lose the mark. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __marker: string }).__marker = "still-here";
  });
}
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marker?: string }).__marker ?? null);

/** Opens the user menu and returns the texts of its entries. */
async function openUserMenu(page: Page, user: Pick<TestUser, "name">) {
  const button = userMenuButton(page, user);
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  const menu = nav(page).locator(".dropdown-menu");
  await menu.waitFor();
  return menu.locator("li").evaluateAll((els) => els.map((el) => el.textContent?.trim() ?? ""));
}

const s = uniqueSuffix();
const propertyId = `e2e-signin-${s}-house`;
const constructionId = `e2e-signin-${s}-build`;
const ADMIN_PATHS = [
  "/addproperty",
  "/addnewconstruction",
  `/editproperties/${propertyId}`,
  `/edit-construction/${constructionId}`,
  "/admin/admins",
];

describe("sign-in, roles and logout", () => {
  const b = useBrowser();
  const grantedEmails: string[] = [];

  beforeAll(async () => {
    await insertRow(propertyId, { address: `E2E Sign-in ${s} House` });
    await insertRow(constructionId, {
      address: `E2E Sign-in ${s} Build`,
      collection: "newConstruction",
    });
  });

  afterAll(async () => {
    await deleteRow("properties", propertyId);
    await deleteRow("newConstruction", constructionId);
    for (const email of grantedEmails) await removeAdmin(email);
  });

  async function adminUser(label: string) {
    const user = newUser(label);
    grantedEmails.push(user.email);
    return user;
  }

  it("a visitor signs in through the popup; the page updates without reload (non-admin)", async () => {
    const user = newUser("member", "Morgan Member");
    const { context, page } = await b.newPage({ viewport: { width: 1280, height: 800 } });
    await gotoHydrated(page, "/about");
    expect(await loginLink(page).getAttribute("href")).toBe("/auth/login");
    await markPage(page);

    await signInThroughPopup(page, user);
    expect(await marker(page)).toBe("still-here");
    expect(new URL(page.url()).pathname).toBe("/about");
    expect(await loginLink(page).count()).toBe(0);
    // Titled with the display name (the caret is decoration, hidden from assistive technology).
    expect(await userMenuButton(page, user).count()).toBe(1);
    expect(await nav(page).locator(".dropdown > button").textContent()).toBe("Morgan Member ▾");

    // Not an admin: no Admin header, no Add links, only Logout in the menu.
    expect(await openUserMenu(page, user)).toEqual(["Logout"]);
    expect(await navLink(page, "Add Property").count()).toBe(0);
    expect(await navLink(page, "Add New Construction").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Manage admins" }).count()).toBe(0);

    // The session is real on the server: it names the user, and it is not an admin's.
    const cookie = await sessionCookie(context);
    expect(cookie).not.toBe("");
    const rows = await sql<{ name: string; email: string; email_verified: boolean }>(
      "SELECT name, email, email_verified FROM users WHERE email = $1",
      [user.email],
    );
    expect(rows).toEqual([{ name: "Morgan Member", email: user.email, email_verified: true }]);
    expect((await fetchWithSession("/addproperty", cookie)).status).toBe(404);
    await context.close();
  });

  it("a user without a display name gets a menu titled 'User'", async () => {
    const user = newUser("nameless", "");
    const { context, page } = await b.newPage({ viewport: { width: 1280, height: 800 } });
    await gotoHydrated(page, "/");
    await signInThroughPopup(page, user);
    expect(await userMenuButton(page, user).count()).toBe(1);
    expect(await nav(page).locator(".dropdown > button").textContent()).toBe("User ▾");
    expect(await openUserMenu(page, user)).toEqual(["Logout"]);
    await context.close();
  });

  it("an admin sees the Add links and the 'Admin' header; Logout ends the session on the server", async () => {
    const user = await adminUser("boss");
    const { context, page } = await signedInPage(() => b.newPage(), user, {
      admin: true,
      startPath: "/properties",
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await navLink(page, "Add Property").getAttribute("href")).toBe("/addproperty");
    expect(await navLink(page, "Add New Construction").getAttribute("href")).toBe(
      "/addnewconstruction",
    );
    expect(await openUserMenu(page, user)).toEqual(["Admin", "Manage admins", "Logout"]);
    expect(await nav(page).getByRole("link", { name: "Manage admins" }).getAttribute("href")).toBe(
      "/admin/admins",
    );

    const cookie = await sessionCookie(context);
    expect((await fetchWithSession("/addproperty", cookie)).status).toBe(200);

    await markPage(page);
    await nav(page).getByRole("button", { name: "Logout" }).click();
    await loginLink(page).waitFor({ timeout: POLL.timeout });
    expect(await marker(page)).toBe("still-here");
    expect(await userMenuButton(page, user).count()).toBe(0);
    expect(await navLink(page, "Add Property").count()).toBe(0);
    expect(await navLink(page, "Add New Construction").count()).toBe(0);
    expect(await sessionCookie(context)).toBe("");

    // The old cookie, replayed, is worth nothing: the session is gone on the server.
    expect((await fetchWithSession("/addproperty", cookie)).status).toBe(404);
    const write = await fetchWithSession(`/api/listings/properties/${propertyId}`, cookie, {
      method: "DELETE",
    });
    expect(write.status).toBe(401);
    expect(await sql("SELECT id FROM listings WHERE id = $1", [propertyId])).toHaveLength(1);
    await context.close();
  });

  it("admin-only routes are the ordinary 404 page for anonymous visitors and non-admins", async () => {
    const member = newUser("not-admin");
    const anonymous = await b.newPage();
    const signedIn = await signedInPage(() => b.newPage(), member);
    for (const { page } of [anonymous, signedIn]) {
      for (const path of ADMIN_PATHS) {
        const res = await gotoHydrated(page, path);
        expect(res?.status(), path).toBe(404);
        expect(await h1Text(page), path).toBe("Page not found");
        expect(await page.locator("form.admin-form").count(), path).toBe(0);
      }
      // Reached by a client-side navigation too: still not found.
      await gotoHydrated(page, "/");
      await page.evaluate(() => {
        window.history.pushState({}, "", "/addproperty");
        window.dispatchEvent(new PopStateEvent("popstate"));
      });
      await expect.poll(() => h1Text(page), POLL).toBe("Page not found");
    }
    await anonymous.context.close();
    await signedIn.context.close();

    // The same paths open for an admin (so the 404s above are about who asks).
    const admin = await adminUser("route-admin");
    const { context, page } = await signedInPage(() => b.newPage(), admin, { admin: true });
    const expected = [
      "Add Property",
      "Add New Construction",
      "Edit Property",
      "Edit Construction",
      "Manage admins",
    ];
    for (const [i, path] of ADMIN_PATHS.entries()) {
      const res = await gotoHydrated(page, path);
      expect(res?.status(), path).toBe(200);
      expect(await h1Text(page), path).toBe(expected[i]);
    }
    await context.close();
  });
});

describe("Manage admins", () => {
  const b = useBrowser();
  const granted: string[] = [];

  afterAll(async () => {
    for (const email of granted) await removeAdmin(email);
  });

  const row = (page: Page, email: string) => page.locator("tbody tr", { hasText: email });

  it("grants an email (effective at that person's first sign-in) and revokes it", async () => {
    const admin = newUser("grantor", "Grace Grantor");
    granted.push(admin.email);
    const { context, page } = await signedInPage(
      () => b.newPage({ viewport: { width: 1280, height: 800 } }),
      admin,
      { admin: true },
    );
    // Reached from the user menu under the 'Admin' header.
    await openUserMenu(page, admin);
    await nav(page).getByRole("link", { name: "Manage admins" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/admins");
    await expect.poll(() => h1Text(page), POLL).toBe("Manage admins");
    expect(await row(page, admin.email).count()).toBe(1);

    const newcomer = newUser("newcomer", "Nia Newcomer");
    granted.push(newcomer.email);
    await page.getByLabel("E-mail address").fill(newcomer.email.toUpperCase());
    await page.getByRole("button", { name: "Grant admin" }).click();
    const status = page.getByRole("status").filter({ hasText: "admin" });
    await expect.poll(() => status.textContent(), POLL).toBe(`${newcomer.email} is now an admin.`);
    await expect.poll(() => row(page, newcomer.email).count(), POLL).toBe(1);
    expect(await sql("SELECT email, uid FROM admins WHERE email = $1", [newcomer.email])).toEqual([
      { email: newcomer.email, uid: null },
    ]);

    // The newcomer signs in for the first time and is an admin at once.
    const other = await signedInPage(() => b.newPage(), newcomer);
    await expect.poll(() => navLink(other.page, "Add Property").count(), POLL).toBe(1);

    // Revoke: the row goes, and the newcomer's next page load is a visitor's again.
    await row(page, newcomer.email).getByRole("button", { name: "Revoke" }).click();
    await expect
      .poll(() => status.textContent(), POLL)
      .toBe(`${newcomer.email} is no longer an admin.`);
    await expect.poll(() => row(page, newcomer.email).count(), POLL).toBe(0);
    expect(await sql("SELECT id FROM admins WHERE email = $1", [newcomer.email])).toEqual([]);
    const res = await gotoHydrated(other.page, "/addproperty");
    expect(res?.status()).toBe(404);
    expect(await navLink(other.page, "Add Property").count()).toBe(0);
    await other.context.close();
    await context.close();
  });

  it("refuses to remove the last admin", async () => {
    const admin = newUser("last", "Lee Last");
    granted.push(admin.email);
    const { context, page } = await signedInPage(() => b.newPage(), admin, { admin: true });
    // Set the other grants aside (the server is shared), so this admin is the only one.
    const others = await sql<{ email: string | null; uid: string | null; granted_by: string }>(
      "DELETE FROM admins WHERE email IS DISTINCT FROM $1 RETURNING email, uid, granted_by",
      [admin.email],
    );
    try {
      await gotoHydrated(page, "/admin/admins");
      expect(await page.locator("tbody tr").count()).toBe(1);
      await row(page, admin.email).getByRole("button", { name: "Revoke" }).click();
      const alert = page.getByRole("alert").filter({ hasText: "admin" });
      await expect.poll(() => alert.textContent(), POLL).toBe("Cannot remove the last admin.");
      expect(await sql("SELECT email FROM admins")).toEqual([{ email: admin.email }]);
      // Still an admin: the page reloads fine.
      const res = await gotoHydrated(page, "/admin/admins");
      expect(res?.status()).toBe(200);
      expect(await row(page, admin.email).count()).toBe(1);
    } finally {
      for (const grant of others) {
        await sql("INSERT INTO admins (email, uid, granted_by) VALUES ($1, $2, $3)", [
          grant.email,
          grant.uid,
          grant.granted_by,
        ]);
      }
    }
    await context.close();
  });

  it("a grant made while someone is signed in shows on their next page load", async () => {
    const user = newUser("promoted");
    granted.push(user.email);
    const { context, page } = await signedInPage(() => b.newPage(), user);
    expect(await navLink(page, "Add Property").count()).toBe(0);
    await makeAdmin(user.email);
    await gotoHydrated(page, "/");
    expect(await navLink(page, "Add Property").count()).toBe(1);
    await context.close();
  });
});
