// 'Listing feeds' (docs/behaviour.md §28) in a browser: reached from the user menu; each feed's
// address and count; a fetch by a listing site shows up with its user agent; an available
// property the HotPads feed leaves out is listed with its reasons and a link to fix it.
import { userMenuButton } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, uniqueSuffix } from "./helpers";
import { siteURL } from "./server-info";

test("'Listing feeds': addresses, counts, the last fetch and what is left out", async ({
  adminPage: page,
  adminAccount,
  seedListing,
}) => {
  const suffix = uniqueSuffix();
  // Available, but without a ZIP code or photos: left out of the HotPads feed.
  const bare = await seedListing("properties", {
    address: `${suffix} Bare Lane`,
    price: "1700",
    city: "Arlington",
    state: "VA",
    bedrooms: 2,
    bathrooms: 1,
    description: "Quiet.",
  });

  await gotoHydrated(page, "/");
  await userMenuButton(page, adminAccount.user).click();
  await page.getByRole("link", { name: "Listing feeds", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/feeds$/);
  await expect(heading(page)).toHaveText(exactly("Listing feeds"));
  for (const label of ["Feed", "Address", "Listings", "Last fetched", "By"]) {
    await expect(page.getByRole("columnheader", { name: label, exact: true })).toBeVisible();
  }
  const hotpads = page.locator('tr[data-feed="hotpads"]');
  await expect(hotpads.getByRole("rowheader")).toHaveText("HotPads (Zillow rental network)");
  await expect(hotpads.getByRole("link")).toHaveText(/\/feeds\/hotpads\.xml$/);

  const item = page.locator(".feeds-left-out li", { hasText: bare.address });
  await expect(item).toContainText("no ZIP code");
  await expect(item).toContainText("no photos");
  await expect(item.getByRole("link", { name: bare.address })).toHaveAttribute(
    "href",
    `/editproperties/${bare.id}`,
  );

  // A listing site fetches the JSON feed: the page names it, with the count it was sent.
  const agent = `FeedReader/${suffix}`;
  const fetched = await fetch(siteURL("/feeds/listings.json"), {
    headers: { "user-agent": agent },
  });
  expect(fetched.status).toBe(200);
  const sent = ((await fetched.json()) as { count: number }).count;
  await expect(async () => {
    await page.reload();
    const row = page.locator('tr[data-feed="listings-json"]');
    await expect(row.locator(".feeds-agent")).toHaveText(agent, { timeout: 1000 });
    await expect(row).toContainText(`UTC (${sent} listing${sent === 1 ? "" : "s"})`, {
      timeout: 1000,
    });
  }).toPass();
});
