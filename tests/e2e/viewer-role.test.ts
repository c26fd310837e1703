// A 'Viewer' sees no personal data anywhere (docs/behaviour.md §6, "Staff roles"): with a
// renter's inquiry stored, every page their menu offers shows nothing of the renter, and every
// page that holds renters' data answers the ordinary 404.
import { newUser, userMenuButton } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, nav, uniqueSuffix } from "./helpers";

test.use({ viewport: { width: 1280, height: 800 } });

test("a Viewer sees no renter's name, e-mail or phone on any page", async ({
  page,
  signIn,
  seedListing,
  control,
}) => {
  const suffix = uniqueSuffix();
  const house = await seedListing("properties", { address: `${suffix} Viewer Court` });
  const renter = {
    name: `Rhea Renter ${suffix}`,
    email: `rhea.${suffix}@example.com`,
    phone: `703-555-${String(Math.floor(1000 + Math.random() * 8999))}`,
  };
  await control.outOfBandSql(
    `INSERT INTO leads (kind, collection, listing_id, listing_address, name, email, phone, message)
     VALUES ('inquiry', 'properties', $1, $2, $3, $4, $5, 'Is it still free?')`,
    [house.id, `${suffix} Viewer Court`, renter.name, renter.email, renter.phone],
  );
  const viewer = newUser("viewer-role", "Vera Viewer");
  await signIn(page, viewer, { role: "viewer" });

  // Every page of the Viewer's menu, and the listing's own pages.
  await userMenuButton(page, viewer).click();
  const links = nav(page).locator(".dropdown-menu a");
  const paths = (await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).filter(
    (href): href is string => typeof href === "string",
  );
  expect(paths).toEqual(["/admin/listings", "/admin/feeds", "/account"]);
  for (const path of [
    ...paths,
    `/properties/${house.id}`,
    `/properties/${house.id}/history`,
    "/admin/listings?q=Viewer",
  ]) {
    const res = await gotoHydrated(page, path);
    expect(res?.status(), path).toBe(200);
    // The whole document, the page's data for hydration included.
    const text = await page.content();
    for (const value of Object.values(renter))
      expect(text, `${path}: ${value}`).not.toContain(value);
  }

  // Where renters' data lives: the ordinary 404 page, for the page and for its downloads.
  for (const path of [
    "/admin/inbox",
    "/admin/applications",
    "/admin/outbox",
    "/admin/activity",
    "/admin/staff",
    "/admin/leasing-agents",
  ]) {
    const res = await gotoHydrated(page, path);
    expect(res?.status(), path).toBe(404);
    await expect(heading(page), path).toHaveText(exactly("Page not found"));
  }
  const csv = await page.request.get("/admin/inbox/export");
  expect(csv.status()).toBe(404);
  expect(await csv.text()).not.toContain(renter.email);
});
