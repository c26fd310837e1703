// Showings that book themselves in the browser (docs/behaviour.md §33): an admin opens a day on
// 'Showing hours'; a renter picks a time on the listing's page, presses 'Book showing' before
// filling anything in, then books; a second renter in another tab who chose the same time is
// told it was just taken, with the times refreshed. Staff see the booking arrive in the Inbox
// as a 'Showing' without reloading, and cancel it on 'Showings'. The hours are closed
// again after, so the other tests of this worker see detail pages without times.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, uniqueSuffix } from "./helpers";

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

async function setHours(page: Page, open: boolean) {
  await gotoHydrated(page, "/admin/showings/hours");
  await expect(heading(page)).toHaveText(exactly("Showing hours"));
  for (const day of DAYS) {
    await page.getByLabel(`${day} From`).fill(open ? "00:00" : "");
    await page.getByLabel(`${day} To`).fill(open ? "23:30" : "");
  }
  await page.getByLabel("Minimum notice").fill("0");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(exactly("Showing hours saved."))).toBeVisible();
}

test("a renter books a free time; the next renter of that time is told it was just taken", async ({
  adminPage,
  page,
  newPage,
  seedListing,
}) => {
  const address = `9 Showing Row ${uniqueSuffix()}`;
  const listing = await seedListing("properties", { address, bedrooms: 2, price: "1800" });
  await setHours(adminPage, true);
  try {
    await gotoHydrated(page, `/properties/${listing.id}`);
    const section = page.locator("section.showings");
    await expect(section.getByRole("heading", { name: "Schedule a showing" })).toBeVisible();
    const first = section.locator("a").first();
    const time = (await first.textContent()) ?? "";
    expect(time).toMatch(/^\d{1,2}:\d\d [AP]M$/);
    const href = (await first.getAttribute("href")) ?? "";

    // The same time chosen in a second tab before the first books it.
    const other = await newPage();
    // The pages' clocks are the browser's: a form is refused sooner than 3 s after loading.
    await other.clock.install();
    await gotoHydrated(other, href);
    await page.clock.install();

    // Staff have the Inbox open while the renter books.
    await gotoHydrated(adminPage, "/admin/inbox");
    const renter = `Rae Renter ${uniqueSuffix()}`;

    await first.click();
    await expect(page).toHaveURL(/\/showings\/book\?/);
    await expect(page.getByRole("radio", { name: time }).first()).toBeChecked();
    // Pressed before anything is filled in: the inquiry form's messages, nothing lost.
    await page.getByRole("button", { name: "Book showing" }).click();
    await expect(page.getByText(exactly("Enter your name."))).toBeVisible();
    await page.getByLabel("Your name").fill(renter);
    await page.getByLabel("E-mail").fill(`rae-${uniqueSuffix()}@example.com`);
    await page.getByLabel("People who will live here (optional)").fill("2");
    await page.clock.fastForward(5000);
    await page.getByRole("button", { name: "Book showing" }).click();
    await expect(
      page.getByText(new RegExp(`^You're booked for \\w+day, \\w+ \\d+ at ${time}\\.$`)),
    ).toBeVisible();

    await other.getByLabel("Your name").fill("Sam Second");
    await other.getByLabel("E-mail").fill(`sam-${uniqueSuffix()}@example.com`);
    await other.clock.fastForward(5000);
    await other.getByRole("button", { name: "Book showing" }).click();
    await expect(
      other.getByText(exactly("That time was just taken. Please choose another.")),
    ).toBeVisible();
    await expect(other.getByLabel("Your name")).toHaveValue("Sam Second");

    // In the Inbox, live: an item of kind 'Showing'.
    const item = adminPage.getByRole("list", { name: "Showings" }).getByRole("listitem").filter({
      hasText: renter,
    });
    await expect(item).toContainText("Showing");
    await expect(item).toContainText(address);
    await expect(item).toContainText("Booked");
    // On 'Showings': 'Cancel' (still ahead), which frees the time and tells the renter.
    await gotoHydrated(adminPage, "/admin/showings");
    const row = adminPage.getByRole("row").filter({ hasText: renter });
    await row.getByRole("button", { name: "Cancel" }).click();
    await expect(adminPage.getByText(exactly("Status saved: Cancelled."))).toBeVisible();
    await expect(row.getByRole("cell").last()).toHaveText("Cancelled");
  } finally {
    await setHours(adminPage, false);
  }
  await gotoHydrated(page, `/properties/${listing.id}`);
  await expect(page.locator("section.showings")).toHaveCount(0);
});
