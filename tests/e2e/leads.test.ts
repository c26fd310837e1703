// The lead path in a browser (docs/behaviour.md §27): a renter asks about a listing
// and proposes times, with and without JavaScript; refused fields are marked by the page and
// nothing typed is lost; staff see the request arrive in the inbox live and work it, answer it
// ('Reply', 'Confirm showing', 'Decline'), and the renter's e-mail arrives at the test server's
// SMTP server with the invitation.
import type { Page } from "@playwright/test";
import { readInvitation } from "../support/calendar";
import { control } from "./control";
import { expect, test } from "./fixtures";
import { gotoHydrated, heading, uniqueSuffix } from "./helpers";
import { serverInfo, siteURL } from "./server-info";

const form = (page: Page) => page.locator("section.inquiry");
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: true });

test("a renter asks to see a listing; staff see it arrive in the inbox and work it", async ({
  seedListing,
  adminPage,
  newPage,
}) => {
  const suffix = uniqueSuffix();
  const listing = await seedListing("properties", {
    address: `${suffix} Inquiry Court`,
    currently_available: true,
    price: "2400",
  });
  const name = `Ana ${suffix}`;
  // Staff have the inbox open: the request must appear there without a reload.
  await gotoHydrated(adminPage, "/admin/inbox");
  await expect(heading(adminPage)).toHaveText("Inbox");

  const page = await newPage();
  // The page's clock is the browser's: a form is refused sooner than 3 s after the page loaded.
  await page.clock.install();
  await gotoHydrated(page, `/properties/${listing.id}`);
  await expect(form(page).getByRole("heading", { name: "Ask about this listing" })).toBeVisible();
  await expect(field(page, "Message")).toHaveValue(`I'm interested in ${listing.address}.`);
  // 'Preferred time' appears once 'I'd like to see it' is ticked.
  await expect(field(page, "Preferred time").first()).toBeHidden();
  await field(page, "I'd like to see it").check();
  await expect(field(page, "Preferred time")).toHaveCount(3);
  await expect(field(page, "Preferred time").first()).toBeVisible();
  await field(page, "Preferred time").first().fill("2027-03-01T10:00");

  // Refused fields are marked by the page itself; what was typed stays.
  await field(page, "E-mail").fill("ana@");
  await page.clock.fastForward(5000);
  await form(page).getByRole("button", { name: "Send" }).click();
  await expect(form(page).getByText("Enter your name.")).toBeVisible();
  await expect(form(page).getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(field(page, "Your name")).toHaveAttribute("aria-invalid", "true");
  await expect(field(page, "E-mail")).toHaveValue("ana@");
  await expect(field(page, "Preferred time").first()).toHaveValue("2027-03-01T10:00");

  await field(page, "Your name").fill(name);
  await field(page, "E-mail").fill("ana.e2e@example.com");
  await field(page, "Phone (optional)").fill("703-555-0142");
  await form(page).getByRole("button", { name: "Send" }).click();
  await expect(form(page).getByRole("status")).toHaveText("Thanks! We'll get back to you soon.");

  // Live in the inbox: kind, listing, name, proposed time.
  const item = adminPage.locator(".inbox-item", { hasText: name });
  await expect(item).toBeVisible();
  await expect(item.getByRole("heading")).toHaveText(`Showing request ${listing.address}`);
  await expect(item.getByRole("link", { name: listing.address })).toHaveAttribute(
    "href",
    `/properties/${listing.id}`,
  );
  await expect(item).toContainText("703-555-0142");
  await expect(item).toContainText("Monday, March 1, 2027 at 10:00");
  await expect(item.locator(".inbox-status")).toHaveText("New");
  // Answered at once by the 'Automatic reply'; no person has replied yet.
  await expect(item.locator(".inbox-first-reply")).toContainText("First reply: not yet");
  await expect(item.locator(".inbox-first-reply")).toContainText("Automatic reply: ");

  // Staff work it: status and a note, each recorded with who did it.
  await item.getByLabel("Status").selectOption({ label: "Contacted" });
  await item.getByRole("button", { name: "Set status" }).click();
  await expect(item.locator(".inbox-status")).toHaveText("Contacted");
  await item.getByLabel("Notes").fill("Called, showing Monday.");
  await item.getByRole("button", { name: "Save note" }).click();
  await expect(item.locator(".inbox-first-reply")).toContainText(/First reply: .+, after < 1 min/);
  await item.getByText("Changes").click();
  await expect(item.locator(".inbox-history li")).toHaveCount(4);
  await expect(item.locator(".inbox-history li").nth(1)).toContainText("automatic reply sent");
  await expect(item.locator(".inbox-history li").nth(2)).toContainText("status New → Contacted");
});

test("without JavaScript the form is a plain post, and the answer page keeps what was typed", async ({
  seedListing,
  newPage,
}) => {
  const suffix = uniqueSuffix();
  const listing = await seedListing("newConstruction", { address: `${suffix} Plain Way` });
  const page = await newPage({ javaScriptEnabled: false });
  await page.goto(`/new-construction/${listing.id}`);
  await field(page, "Your name").fill(`Ben ${suffix}`);
  await field(page, "E-mail").fill("not-an-address");
  await form(page).getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(/\/inquiries$/);
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(field(page, "Your name")).toHaveValue(`Ben ${suffix}`);
  await field(page, "E-mail").fill("ben.e2e@example.com");
  // A page rendered less than 3 s ago is refused with a request to send again; sending again
  // (as a person would) goes through once the page has been open long enough.
  await expect(async () => {
    await form(page).getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Thanks! We'll get back to you soon.")).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 20_000 });
});

test("the contact page has 'Send us a message', and the privacy notice is one click away", async ({
  page,
}) => {
  await gotoHydrated(page, "/contact");
  const section = form(page);
  await expect(section.getByRole("heading", { name: "Send us a message" })).toBeVisible();
  await expect(field(page, "Message")).toHaveValue("");
  await expect(section.getByLabel("I'd like to see it")).toHaveCount(0);
  await section.getByRole("link", { name: "How we use your details", exact: true }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(heading(page)).toHaveText("Privacy");
  await expect(page.locator("footer").getByRole("link", { name: "Privacy" })).toHaveAttribute(
    "href",
    "/privacy",
  );
});

/** A showing request sent as the listing page's form posts it (the form itself: tests above). */
async function requestShowing(listingId: string, name: string, email: string, times: string[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    listing: `properties/${listingId}`,
    started: String(Date.now() - 10_000),
    name,
    email,
    message: "Could I see it?",
    website: "",
    showing: "on",
  })) {
    form.append(k, v);
  }
  for (const t of times) form.append("time", t);
  const res = await fetch(siteURL("/inquiries"), {
    method: "POST",
    body: form,
    headers: { origin: serverInfo().baseURL },
  });
  expect(res.status).toBe(200);
}

test("staff reply and confirm a showing; the renter's e-mail arrives with the invitation", async ({
  seedListing,
  adminPage,
}) => {
  const suffix = uniqueSuffix();
  // A comma and a semicolon, escaped in the invitation and read back as written.
  const listing = await seedListing("properties", {
    address: `${suffix} Answer Court, Unit 2; rear`,
    currently_available: true,
  });
  const email = `cleo.${suffix}@example.com`.toLowerCase();
  await requestShowing(listing.id, `Cleo ${suffix}`, email, [
    "2027-04-05T10:00",
    "2027-04-06T18:30",
  ]);

  await gotoHydrated(adminPage, "/admin/inbox?kind=showing");
  const item = adminPage.locator(".inbox-item", { hasText: `Cleo ${suffix}` });
  await expect(item).toBeVisible();

  // 'Reply': the e-mail goes to the renter and the reply stays in the item's thread.
  await item.getByLabel("Your reply").fill("Yes, it is still available.");
  await item.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(adminPage.getByText("Reply sent.", { exact: true })).toBeVisible();
  // The reply box is empty again: a second click cannot send it twice.
  await expect(item.getByLabel("Your reply")).toHaveValue("");
  await expect(item.locator(".inbox-thread")).toContainText("Yes, it is still available.");
  await expect(item.locator(".inbox-status")).toHaveText("Contacted");

  // 'Confirm showing' at the second proposed time.
  await item.getByLabel("Tuesday, April 6, 2027 at 18:30").check();
  await item.getByRole("button", { name: "Confirm showing" }).click();
  await expect(item.locator(".inbox-status")).toHaveText("Showing scheduled");
  await expect(item.locator(".inbox-thread")).toContainText(
    "Showing confirmed for Tuesday, April 6, 2027 at 18:30",
  );

  // What arrived at the SMTP server: the 'Automatic reply' (docs/behaviour.md §33), the reply,
  // the invitation.
  await expect
    .poll(async () => (await control.mailTo(email)).map((m) => m.subject))
    .toEqual([
      `Your question about ${listing.address}`,
      `Re: ${listing.address}`,
      `Showing confirmed: ${listing.address}, Tuesday, April 6, 2027 at 18:30`,
    ]);
  const mails = await control.mailTo(email);
  expect(mails[0]?.text).toContain(`Thank you for asking about ${listing.address}.`);
  expect(mails[1]?.text).toContain("Yes, it is still available.");
  const invitation = mails[2]?.attachments.find((a) => a.contentType === "text/calendar");
  expect(invitation, JSON.stringify(mails[2]?.attachments)).toBeDefined();
  const { method, event } = readInvitation(invitation?.content ?? "");
  expect(method).toBe("REQUEST");
  expect(event.location).toBe(listing.address);
  expect(event.startDate.toString()).toBe("2027-04-06T18:30:00");
});

test("'Decline' asks first, then sends a polite note and closes the request", async ({
  seedListing,
  adminPage,
}) => {
  const suffix = uniqueSuffix();
  const listing = await seedListing("properties", { address: `${suffix} Decline Row` });
  const email = `dev.${suffix}@example.com`.toLowerCase();
  await requestShowing(listing.id, `Dev ${suffix}`, email, ["2027-05-01T09:00"]);
  await gotoHydrated(adminPage, "/admin/inbox?kind=showing");
  const item = adminPage.locator(".inbox-item", { hasText: `Dev ${suffix}` });
  await item.getByRole("button", { name: "Decline" }).click();
  await adminPage.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
  await expect(item.locator(".inbox-status")).toHaveText("Closed");
  await expect(item.locator(".inbox-thread")).toContainText("Showing declined");
  await expect
    .poll(async () => (await control.mailTo(email)).map((m) => m.subject))
    .toContain(`About your showing request for ${listing.address}`);

  // 'Erase this person' asks first too, then nothing of them is left in the inbox.
  await item.getByRole("button", { name: "Erase this person", exact: true }).click();
  await adminPage.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
  await expect(item).toHaveCount(0);
});
