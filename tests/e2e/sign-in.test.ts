// Sign-in through the real popup, roles in the navbar, logout, admin-only routes and the
// 'Staff' page (docs/behaviour.md §2 navigation and admin routes, §4 sign-in, §6 roles).
import type { Page } from "@playwright/test";
import { answerConfirm } from "./admin-helpers";
import {
  fetchWithSession,
  loginLink,
  newUser,
  sessionCookie,
  signInThroughPopup,
  type TestUser,
  userMenuButton,
} from "./auth-helpers";
import { expect, test } from "./fixtures";
import {
  exactly,
  gotoHydrated,
  heading,
  markDocument,
  nav,
  stillSameDocument,
  uniqueSuffix,
} from "./helpers";

const navLink = (page: Page, name: string) => nav(page).getByRole("link", { name, exact: true });

/** Opens the user menu (if closed). */
async function openUserMenu(page: Page, user: Pick<TestUser, "name">) {
  const button = userMenuButton(page, user);
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await nav(page).locator(".dropdown-menu").waitFor();
}
/** The user menu's entries (assert with plain strings: their texts are read trimmed). */
const menuEntries = (page: Page) => nav(page).locator(".dropdown-menu li");

test.describe("sign-in, roles and logout", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a visitor signs in through the popup; the page updates without reload (non-admin)", async ({
    page,
    control,
  }) => {
    const user = newUser("member", "Morgan Member");
    await gotoHydrated(page, "/about");
    await expect(loginLink(page)).toHaveAttribute("href", "/auth/login");
    await markDocument(page);

    await signInThroughPopup(page, user);
    await expect.poll(() => stillSameDocument(page)).toBe(true);
    await expect(page).toHaveURL((url) => url.pathname === "/about");
    await expect(loginLink(page)).toHaveCount(0);
    // Titled with the display name (the caret is decoration, hidden from assistive technology).
    await expect(userMenuButton(page, user)).toHaveCount(1);
    await expect(nav(page).locator(".dropdown > button")).toHaveText(exactly("Morgan Member ▾"));

    // Not an admin: no Admin header, no Add links, only Logout in the menu.
    await openUserMenu(page, user);
    await expect(menuEntries(page)).toHaveText(["Logout"]);
    await expect(navLink(page, "Add Property")).toHaveCount(0);
    await expect(navLink(page, "Add New Construction")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Manage admins" })).toHaveCount(0);

    // The session is real on the server: it names the user, and it is not an admin's.
    const cookie = await sessionCookie(page.context());
    expect(cookie).not.toBe("");
    expect(await control.sessionUser(cookie)).toMatchObject({
      name: "Morgan Member",
      email: user.email,
      emailVerified: true,
    });
    expect((await fetchWithSession("/addproperty", cookie)).status).toBe(404);
  });

  test("a user without a display name gets a menu titled 'User'", async ({ page }) => {
    const user = newUser("nameless", "");
    await gotoHydrated(page, "/");
    await signInThroughPopup(page, user);
    await expect(userMenuButton(page, user)).toHaveCount(1);
    await expect(nav(page).locator(".dropdown > button")).toHaveText(exactly("User ▾"));
    await openUserMenu(page, user);
    await expect(menuEntries(page)).toHaveText(["Logout"]);
  });

  test("an admin sees the Add links and the 'Admin' header; Logout ends the session on the server", async ({
    page,
    signIn,
    seedListing,
    control,
  }) => {
    const house = await seedListing("properties", {
      address: `E2E Sign-in ${uniqueSuffix()} House`,
    });
    const user = newUser("boss");
    await signIn(page, user, { admin: true, startPath: "/properties" });
    await expect(navLink(page, "Add Property")).toHaveAttribute("href", "/addproperty");
    await expect(navLink(page, "Add New Construction")).toHaveAttribute(
      "href",
      "/addnewconstruction",
    );
    await openUserMenu(page, user);
    // (Site settings, Recently deleted, All listings, Listing feeds, Applications, Outbox, Status:
    // docs/behaviour.md §18, §22, §25, §28, §32; decisions 0062, 0081.)
    await expect(menuEntries(page)).toHaveText([
      "Admin",
      "Staff",
      "Leasing agents",
      "Site settings",
      "Recently deleted",
      "All listings",
      "Listing feeds",
      /^Inbox( \(\d+\))?$/,
      "Showings",
      "Applications",
      "Outbox",
      "Status",
      "Activity",
      "Your account",
      "Logout",
    ]);
    await expect(nav(page).getByRole("link", { name: "Staff" })).toHaveAttribute(
      "href",
      "/admin/staff",
    );

    const cookie = await sessionCookie(page.context());
    expect((await fetchWithSession("/addproperty", cookie)).status).toBe(200);

    await markDocument(page);
    await nav(page).getByRole("button", { name: "Logout" }).click();
    await expect(loginLink(page)).toBeVisible();
    await expect.poll(() => stillSameDocument(page)).toBe(true);
    await expect(userMenuButton(page, user)).toHaveCount(0);
    await expect(navLink(page, "Add Property")).toHaveCount(0);
    await expect(navLink(page, "Add New Construction")).toHaveCount(0);
    await expect.poll(() => sessionCookie(page.context())).toBe("");

    // The old cookie, replayed, is worth nothing: the session is gone on the server.
    expect((await fetchWithSession("/addproperty", cookie)).status).toBe(404);
    const write = await fetchWithSession(`/api/listings/properties/${house.id}`, cookie, {
      method: "DELETE",
    });
    expect(write.status).toBe(401);
    expect(await control.getListing("properties", house.id)).not.toBeNull();
  });

  test("admin-only routes are the ordinary 404 page for anonymous visitors and non-admins", async ({
    newPage,
    signIn,
    seedListing,
  }) => {
    const s = uniqueSuffix();
    const house = await seedListing("properties", { address: `E2E Sign-in ${s} House` });
    const build = await seedListing("newConstruction", { address: `E2E Sign-in ${s} Build` });
    const adminPaths = [
      "/addproperty",
      "/addnewconstruction",
      `/editproperties/${house.id}`,
      `/edit-construction/${build.id}`,
      "/admin/staff",
    ];
    const anonymous = await newPage();
    const member = await newPage();
    await signIn(member, newUser("not-admin"));
    for (const page of [anonymous, member]) {
      for (const path of adminPaths) {
        const res = await gotoHydrated(page, path);
        expect(res?.status(), path).toBe(404);
        await expect(heading(page), path).toHaveText(exactly("Page not found"));
        await expect(page.locator("form.admin-form"), path).toHaveCount(0);
      }
      // Reached by a client-side navigation too: still not found.
      await gotoHydrated(page, "/");
      await page.evaluate(() => {
        window.history.pushState({}, "", "/addproperty");
        window.dispatchEvent(new PopStateEvent("popstate"));
      });
      await expect(heading(page)).toHaveText(exactly("Page not found"));
    }

    // The same paths open for an admin (so the 404s above are about who asks).
    const admin = await newPage();
    await signIn(admin, newUser("route-admin"), { admin: true });
    const titles = [
      "Add Property",
      "Add New Construction",
      "Edit Property",
      "Edit Construction",
      "Staff",
    ];
    for (const [i, path] of adminPaths.entries()) {
      const res = await gotoHydrated(admin, path);
      expect(res?.status(), path).toBe(200);
      await expect(heading(admin), path).toHaveText(exactly(titles[i] as string));
    }
  });
});

test.describe("Staff", () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  const row = (page: Page, email: string) => page.locator("tbody tr", { hasText: email });

  test("adds a person in a role (effective at their first sign-in), changes it and removes them", async ({
    page,
    newPage,
    signIn,
    control,
  }) => {
    const owner = newUser("grantor", "Grace Grantor");
    await signIn(page, owner, { admin: true });
    // Reached from the user menu under the 'Admin' header.
    await openUserMenu(page, owner);
    await nav(page).getByRole("link", { name: "Staff" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/admin/staff");
    await expect(heading(page)).toHaveText(exactly("Staff"));
    await expect(row(page, owner.email)).toHaveCount(1);

    const newcomer = newUser("newcomer", "Nia Newcomer");
    await page.getByLabel("E-mail", { exact: true }).fill(newcomer.email.toUpperCase());
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Manager" });
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const status = page.getByRole("status").filter({ hasText: newcomer.email });
    await expect(status).toHaveText(exactly(`${newcomer.email} is now staff, as Manager.`));
    await expect(row(page, newcomer.email)).toHaveCount(1);
    // Added again (a double click, a second tab): refused with a message, nothing sent twice.
    await page.getByLabel("E-mail", { exact: true }).fill(newcomer.email);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: newcomer.email })).toHaveText(
      exactly(`${newcomer.email} is already staff.`),
    );
    const grantsOf = async (email: string) =>
      (await control.listAdmins())
        .filter((g) => g.email === email)
        .map(({ email, uid, role }) => ({ email, uid, role }));
    expect(await grantsOf(newcomer.email)).toEqual([
      { email: newcomer.email, uid: null, role: "manager" },
    ]);

    // The newcomer signs in for the first time and is a Manager at once: no 'Staff' for them.
    const other = await newPage();
    await signIn(other, newcomer);
    await expect(navLink(other, "Add Property")).toHaveCount(1);
    await openUserMenu(other, newcomer);
    await expect(nav(other).getByRole("link", { name: "Outbox" })).toHaveCount(1);
    await expect(nav(other).getByRole("link", { name: "Staff" })).toHaveCount(0);

    // Now a Viewer: signed out by the change, so their next page load has no 'Add Property'.
    await row(page, newcomer.email).getByLabel(`Role of ${newcomer.email}`).selectOption({
      label: "Viewer",
    });
    await row(page, newcomer.email).getByRole("button", { name: "Save" }).click();
    await expect(status).toHaveText(exactly(`${newcomer.email} is now Viewer.`));
    await gotoHydrated(other, "/");
    await expect(navLink(other, "Add Property")).toHaveCount(0);
    expect((await gotoHydrated(other, "/admin/inbox"))?.status()).toBe(404);

    // 'Remove' asks 'Are you sure?'; Cancel keeps them, Yes removes them.
    await row(page, newcomer.email)
      .getByRole("button", { name: `Remove ${newcomer.email}` })
      .click();
    await answerConfirm(page, "Cancel");
    expect(await grantsOf(newcomer.email)).toHaveLength(1);
    await row(page, newcomer.email)
      .getByRole("button", { name: `Remove ${newcomer.email}` })
      .click();
    await answerConfirm(page, "Yes");
    await expect(status).toHaveText(exactly(`${newcomer.email} is no longer staff.`));
    await expect(row(page, newcomer.email)).toHaveCount(0);
    expect(await grantsOf(newcomer.email)).toEqual([]);
    expect((await gotoHydrated(other, "/admin/listings"))?.status()).toBe(404);
  });

  // The last Owner's refusal needs every other grant set aside, which would take the admin
  // area from the other workers' tests for a while: app/routes/admin-staff.test.ts shows it
  // through the whole app, and app/features/auth/admins.server.test.ts under concurrency.

  for (const [role, entries, addLinks] of [
    ["leasing-agent", ["All listings", /^Inbox( \(\d+\))?$/, "Showings", "Applications"], false],
    ["viewer", ["All listings", "Listing feeds"], false],
    [
      "manager",
      [
        "Leasing agents",
        "Site settings",
        "Recently deleted",
        "All listings",
        "Listing feeds",
        /^Inbox( \(\d+\))?$/,
        "Showings",
        "Applications",
        "Outbox",
      ],
      true,
    ],
  ] as const) {
    test(`a ${role} sees only the menu entries the role allows, under 'Admin'`, async ({
      page,
      signIn,
    }) => {
      const user = newUser(role);
      await signIn(page, user, { role });
      await openUserMenu(page, user);
      await expect(menuEntries(page)).toHaveText(["Admin", ...entries, "Your account", "Logout"]);
      await expect(navLink(page, "Add Property")).toHaveCount(addLinks ? 1 : 0);
      await expect(navLink(page, "Add New Construction")).toHaveCount(addLinks ? 1 : 0);
    });
  }

  test("a grant made while someone is signed in shows on their next page load", async ({
    page,
    signIn,
    grantAdmin,
  }) => {
    const user = newUser("promoted");
    await signIn(page, user);
    await expect(navLink(page, "Add Property")).toHaveCount(0);
    await grantAdmin(user.email);
    await gotoHydrated(page, "/");
    await expect(navLink(page, "Add Property")).toHaveCount(1);
  });
});
