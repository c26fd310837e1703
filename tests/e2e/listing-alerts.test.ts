// Listing alerts in a browser (docs/behaviour.md §31): 'Notify me when it's available' on a
// property that is not available → the confirmation e-mail at the test SMTP server → 'Confirm'
// → staff toggle it to Available → the e-mail arrives with one-click unsubscribe, which works.
// 'E-mail me new matches' appears on a list with filters and asks for a confirmation too.
import type { Page } from "@playwright/test";
import { control } from "./control";
import { expect, test } from "./fixtures";
import { gotoHydrated, uniqueSuffix } from "./helpers";
import { siteURL } from "./server-info";

const alertForm = (page: Page) => page.locator("section.alert-form");

/** The path and query of the link to `path` in an e-mail's text (the site's own address). */
function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]{43}`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

test("'Notify me' → confirm → Available → the e-mail arrives, and its unsubscribe works", async ({
  seedListing,
  adminPage,
  newPage,
}) => {
  const suffix = uniqueSuffix();
  const listing = await seedListing("properties", {
    address: `${suffix} Waiting Lane`,
    currently_available: false,
    price: "1900",
  });
  const email = `notify.${suffix}@example.com`;

  const page = await newPage();
  await page.clock.install();
  await gotoHydrated(page, `/properties/${listing.id}`);
  await expect(
    alertForm(page).getByRole("heading", { name: "Notify me when it's available" }),
  ).toBeVisible();
  await expect(
    alertForm(page).getByRole("link", { name: "How we use your details", exact: true }),
  ).toHaveAttribute("href", "/privacy");
  // The page checks the address itself, and keeps what was typed.
  await alertForm(page).getByLabel("E-mail", { exact: true }).fill("not-an-address");
  await page.clock.fastForward(5000);
  await alertForm(page).getByRole("button", { name: "Notify me" }).click();
  await expect(alertForm(page).getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(alertForm(page).getByLabel("E-mail", { exact: true })).toHaveValue("not-an-address");
  await alertForm(page).getByLabel("E-mail", { exact: true }).fill(email);
  await alertForm(page).getByRole("button", { name: "Notify me" }).click();
  await expect(alertForm(page).getByRole("status")).toHaveText(
    "Check your e-mail: we sent you a link to confirm. Nothing is sent before you do.",
  );

  // Double opt-in: only the confirmation arrives, with one-click unsubscribe.
  await expect
    .poll(async () => (await control.mailTo(email)).map((m) => m.subject), { timeout: 15_000 })
    .toEqual(["Confirm your e-mail alert"]);
  const [confirmation] = await control.mailTo(email);
  expect(confirmation?.listUnsubscribePost).toBe("List-Unsubscribe=One-Click");
  await gotoHydrated(page, linkIn(confirmation?.text ?? "", "/alerts/confirm"));
  await expect(page.getByRole("heading", { name: "Confirm your e-mail alert" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your alert is on." })).toBeVisible();

  // Staff make it available: the e-mail arrives.
  await gotoHydrated(adminPage, `/properties/${listing.id}`);
  await adminPage.getByRole("button", { name: "Toggle Availability" }).click();
  await expect
    .poll(async () => (await control.mailTo(email)).map((m) => m.subject), { timeout: 20_000 })
    .toEqual(["Confirm your e-mail alert", `Now available: ${listing.address}`]);
  const available = (await control.mailTo(email))[1];
  expect(available?.text).toContain(`/properties/${listing.id}`);
  expect(available?.listUnsubscribePost).toBe("List-Unsubscribe=One-Click");
  const oneClick = /^<(https?:\/\/[^>]+)>$/.exec(available?.listUnsubscribe ?? "")?.[1];
  expect(oneClick).toMatch(/\/alerts\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);

  // A second alert of the same address, on a search; then the mail client's one-click POST
  // (RFC 8058) deletes the address from every alert.
  await gotoHydrated(page, "/properties?beds=2");
  await expect(
    alertForm(page).getByRole("heading", { name: "E-mail me new matches" }),
  ).toBeVisible();
  await page.clock.fastForward(5000);
  await alertForm(page).getByLabel("E-mail", { exact: true }).fill(email);
  await alertForm(page).getByRole("button", { name: "E-mail me new matches" }).click();
  await expect(alertForm(page).getByRole("status")).toBeVisible();
  await expect.poll(async () => (await control.mailTo(email)).length, { timeout: 15_000 }).toBe(3);
  const stored = () =>
    control.outOfBandSql("SELECT count(*)::int AS n FROM listing_alerts WHERE email = $1", [
      email,
    ]) as Promise<{ n: number }[]>;
  expect((await stored())[0]?.n).toBe(1);
  const searchMail = (await control.mailTo(email))[2];
  const searchOneClick = /^<(https?:\/\/[^>]+)>$/.exec(searchMail?.listUnsubscribe ?? "")?.[1];
  const sent = new URL(searchOneClick ?? "");
  const answer = await fetch(siteURL(`${sent.pathname}${sent.search}`), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(answer.status).toBe(200);
  expect((await stored())[0]?.n).toBe(0);

  // Asked again: the link in the e-mail's text opens a page that asks, and its button deletes.
  await gotoHydrated(page, "/properties?beds=2");
  await page.clock.fastForward(5000);
  await alertForm(page).getByLabel("E-mail", { exact: true }).fill(email);
  await alertForm(page).getByRole("button", { name: "E-mail me new matches" }).click();
  await expect(alertForm(page).getByRole("status")).toBeVisible();
  await expect.poll(async () => (await control.mailTo(email)).length, { timeout: 15_000 }).toBe(4);
  expect((await stored())[0]?.n).toBe(1);
  const again = (await control.mailTo(email))[3];
  await gotoHydrated(page, linkIn(again?.text ?? "", "/alerts/unsubscribe"));
  await expect(page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  // Opening the link deleted nothing; the button does.
  expect((await stored())[0]?.n).toBe(1);
  await page.getByRole("button", { name: "Unsubscribe", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "You are unsubscribed" })).toBeVisible();
  expect((await stored())[0]?.n).toBe(0);
});

test("no alert form on an available property, nor on a list without filters", async ({
  seedListing,
  newPage,
}) => {
  const listing = await seedListing("properties", {
    address: `${uniqueSuffix()} Open Lane`,
    currently_available: true,
    price: "1900",
  });
  const page = await newPage();
  await gotoHydrated(page, `/properties/${listing.id}`);
  await expect(page.getByRole("heading", { name: "Ask about this listing" })).toBeVisible();
  await expect(alertForm(page)).toHaveCount(0);
  await gotoHydrated(page, "/properties");
  await expect(page.getByRole("heading", { name: "Properties", level: 1 })).toBeVisible();
  await expect(alertForm(page)).toHaveCount(0);
});

test("without JavaScript, the links' 'Confirm' and 'Unsubscribe' buttons work", async ({
  seedListing,
  newPage,
}) => {
  const suffix = uniqueSuffix();
  const listing = await seedListing("properties", {
    address: `${suffix} Plain Lane`,
    currently_available: false,
  });
  const email = `plain.${suffix}@example.com`;
  const page = await newPage();
  await page.clock.install();
  await gotoHydrated(page, `/properties/${listing.id}`);
  await page.clock.fastForward(5000);
  await alertForm(page).getByLabel("E-mail", { exact: true }).fill(email);
  await alertForm(page).getByRole("button", { name: "Notify me" }).click();
  await expect(alertForm(page).getByRole("status")).toBeVisible();
  await expect.poll(async () => (await control.mailTo(email)).length, { timeout: 15_000 }).toBe(1);
  const [confirmation] = await control.mailTo(email);
  const stored = async () =>
    (
      (await control.outOfBandSql(
        "SELECT count(*)::int AS n FROM listing_alerts WHERE email = $1 AND confirmed_at IS NOT NULL",
        [email],
      )) as { n: number }[]
    )[0]?.n;

  const plain = await newPage({ javaScriptEnabled: false });
  await plain.goto(siteURL(linkIn(confirmation?.text ?? "", "/alerts/confirm")).href);
  await plain.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(
    plain.getByRole("status").filter({
      hasText: "Thanks! Your alert is on. Every e-mail we send has a link to stop it.",
    }),
  ).toBeVisible();
  expect(await stored()).toBe(1);

  await plain.goto(siteURL(linkIn(confirmation?.text ?? "", "/alerts/unsubscribe")).href);
  await plain.getByRole("button", { name: "Unsubscribe", exact: true }).click();
  await expect(
    plain.getByRole("status").filter({
      hasText: "You are unsubscribed: we deleted your e-mail address from every alert.",
    }),
  ).toBeVisible();
  expect(await stored()).toBe(0);
});
