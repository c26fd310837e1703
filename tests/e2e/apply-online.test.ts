// 'Apply online' in a browser (docs/behaviour.md §32): from 'How to Apply' a renter
// applies step by step for a household of two adults with two documents, saves and finishes on
// another device from the e-mailed link, is refused a step (the message beside the field, what
// was typed kept), goes 'Back' without losing anything, submits; the other adult fills in their
// own part from their e-mail; staff open the application, download a document and approve it, and
// the applicant's status page says so. And: withdrawing erases the application at once.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { control } from "./control";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, holdRequests, uniqueSuffix } from "./helpers";

const STEP_TITLES = [
  "Applicant",
  "Where you live now",
  "Employment and income",
  "References",
  "Other adults",
  "Documents",
  "Review and submit",
];
const CONFIRM = "I confirm the information is true and I agree to a background and credit check.";

/** A field of the step's own form, by its whole label ('… (optional)' for optional ones). */
const field = (page: Page, label: string) =>
  page.locator("form.application-form").getByLabel(label, { exact: true });
/** The title of the step shown (the page's h1 is always 'Apply online'). */
const stepTitle = (page: Page) => page.locator("section.application > h2");
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
const statusLine = (page: Page) => page.locator("section.application .application-status");

/** Clicks 'Next' and waits for the step that follows. */
async function next(page: Page, title: string) {
  await button(page, "Next").click();
  await expect(stepTitle(page)).toHaveText(exactly(title));
}

/** A date `days` from today (UTC, as the server checks dates), as a date input sends it. */
function isoDate(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The private link in the last e-mail to `email` with this subject, once it has arrived. */
async function mailedLink(email: string, subject: string) {
  let link = "";
  await expect
    .poll(
      async () => {
        const mail = (await control.mailTo(email)).findLast((m) => m.subject === subject);
        link =
          /https?:\/\/\S+\/rental-application\/continue\?token=\S+/.exec(mail?.text ?? "")?.[0] ??
          "";
        return link;
      },
      { message: `e-mail '${subject}' to ${email} with a private link`, timeout: 20_000 },
    )
    .not.toBe("");
  return link;
}

/** A small PNG (a photo of an ID, as far as the site can tell). */
const png = () =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: "#3a7bd5" } })
    .png()
    .toBuffer();

/** A small, plain one-page PDF (a pay slip). */
async function pdf() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText("Pay slip, November", {
    x: 20,
    y: 150,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  return Buffer.from(await doc.save());
}

/**
 * Uploads one document on the 'Documents' step and waits until it is listed: with JavaScript,
 * choosing the file is enough (it is sent at once, with a progress bar).
 */
async function upload(
  page: Page,
  kind: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  await page.getByLabel("Kind of document", { exact: true }).selectOption({ label: kind });
  await page
    .getByLabel("File (JPEG, PNG or PDF, up to 10 MB)", { exact: true })
    .setInputFiles(file);
  await expect(
    page.locator("ul.application-documents li", { hasText: `${kind}: ${file.name}` }),
  ).toBeVisible();
  // The form starts empty again: a second 'Upload' cannot send the same file twice.
  await expect(
    page.getByLabel("File (JPEG, PNG or PDF, up to 10 MB)", { exact: true }),
  ).toHaveValue("");
}

/** Fills the 'Applicant' step on /rental-application/apply (the property is chosen apart). */
async function fillApplicant(page: Page, person: { name: string; email: string }) {
  await field(page, "Full name").fill(person.name);
  await field(page, "E-mail").fill(person.email);
  await field(page, "Phone").fill("703-555-0142");
  await field(page, "Date of birth").fill("1990-04-12");
  await field(page, "Desired move-in date").fill(isoDate(45));
  await field(page, "Number of occupants").fill("2");
}

test("'Withdraw and delete my application' asks first, then leaves only 'Withdrawn'", async ({
  page,
  seedListing,
}) => {
  const suffix = uniqueSuffix();
  const listing = await seedListing("properties", {
    address: `${suffix} Withdrawal Way`,
    currently_available: true,
  });
  const applicant = { name: `Wes Withdraws ${suffix}`, email: `wes.${suffix}@example.com` };

  // From a listing's 'How to Apply' (with its address), the property needs no choosing.
  await gotoHydrated(
    page,
    `/rental-application?${new URLSearchParams({ address: listing.address })}`,
  );
  const apply = page.getByRole("main").getByRole("link", { name: "Apply online", exact: true });
  await expect(apply).toHaveAttribute(
    "href",
    `/rental-application/apply?${new URLSearchParams({ address: listing.address })}`,
  );
  await apply.click();
  await expect(stepTitle(page)).toHaveText(exactly("Applicant"));
  await expect(page.locator(".application-for")).toHaveText(`For ${listing.address}`);
  await expect(field(page, "Property you are applying for")).toHaveCount(0);
  await fillApplicant(page, applicant);
  await next(page, "Where you live now");
  await field(page, "Address").fill("9 Old Road, Falls Church, VA");
  await field(page, "Since when").fill("2019-05-01");
  await next(page, "Employment and income");
  await field(page, "Monthly income").fill("4800");
  await next(page, "References");
  await field(page, "Reference 1: name").fill("Pat Reference");
  await field(page, "Reference 1: phone").fill("703-555-0101");
  await field(page, "Reference 2: name").fill("Quinn Reference");
  await field(page, "Reference 2: phone").fill("703-555-0102");
  await next(page, "Other adults");
  await next(page, "Documents");
  await next(page, "Review and submit");
  // No document was sent: 'Review' says so plainly.
  await expect(
    page.locator("section.application-review").filter({ hasText: "Documents" }),
  ).toContainText("No documents were sent with this application.");
  await page.getByLabel(CONFIRM, { exact: true }).check();
  await button(page, "Submit application").click();
  await expect(heading(page)).toHaveText(exactly("Application received"));
  await page.getByRole("link", { name: "Your application's status", exact: true }).click();
  await expect(statusLine(page)).toHaveText(/^Status: Received since \S/);
  await expect(page.locator(".application-for")).toHaveText(`For ${listing.address}`);
  // Nobody else in the household.
  await expect(page.getByRole("heading", { name: "Other adults" })).toHaveCount(0);

  await page.getByRole("link", { name: "Withdraw and delete my application", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Are you sure?" });
  await expect(dialog).toBeVisible();
  await dialog
    .getByRole("button", { name: "Withdraw and delete my application", exact: true })
    .click();

  // Only 'Withdrawn' is left: no answers, no address, nothing more to do.
  await expect(statusLine(page)).toHaveText(/^Status: Withdrawn since \S/);
  const section = page.locator("section.application");
  await expect(section.locator("h1, h2, p")).toHaveText([
    exactly("Your application"),
    /^Status: Withdrawn since/,
  ]);
  await expect(section).not.toContainText(listing.address);
  await expect(section).not.toContainText(applicant.name);
  await expect(section.getByRole("link")).toHaveCount(0);
  await expect(section.getByRole("button")).toHaveCount(0);
});

test("a file chosen on 'Documents' is sent at once, and 'Next' pressed meanwhile loses nothing", async ({
  page,
}) => {
  const suffix = uniqueSuffix();
  await gotoHydrated(page, "/rental-application/apply");
  const choose = field(page, "Property you are applying for");
  if ((await choose.count()) > 0) await choose.selectOption({ index: 1 });
  await fillApplicant(page, { name: `Nell Next ${suffix}`, email: `nell.${suffix}@example.com` });
  await next(page, "Where you live now");
  const url = new URL(page.url());
  url.searchParams.set("step", "documents");
  await gotoHydrated(page, url.pathname + url.search);
  await expect(stepTitle(page)).toHaveText(exactly("Documents"));
  // The code that sends a chosen file is held back, as on a slow connection: the buttons wait
  // from the moment the file is chosen (a 'Next' meanwhile sent it twice).
  const release = await holdRequests(page, /\/assets\/upload-send-[^/]+\.js$/);
  // A pay slip large enough that its sending shows: chosen, then 'Next' at once (no 'Upload').
  await page
    .getByLabel("Kind of document", { exact: true })
    .selectOption({ label: "Proof of income" });
  await page.getByLabel("File (JPEG, PNG or PDF, up to 10 MB)", { exact: true }).setInputFiles({
    name: "payslip-march.png",
    mimeType: "image/png",
    buffer: await sharp(randomBytes(1200 * 900 * 3), {
      raw: { width: 1200, height: 900, channels: 3 },
    })
      .png()
      .toBuffer(),
  });
  await expect(button(page, "Next")).toBeDisabled();
  release();
  await button(page, "Next").click();
  await expect(stepTitle(page)).toHaveText(exactly("Review and submit"));
  await expect(
    page.locator("section.application-review").filter({ hasText: "Documents" }).locator("li"),
  ).toHaveText(["Proof of income: payslip-march.png"]);
});

test("a household of two applies with two documents, saves and resumes, submits, and an admin approves", async ({
  page,
  newPage,
  adminPage,
  adminAccount,
  seedListing,
}) => {
  // Many pages in a row (two applicants, staff): more than the usual minute on a slow machine.
  test.setTimeout(120_000);
  const suffix = uniqueSuffix();
  const listing = await seedListing("properties", {
    address: `${suffix} Application Lane`,
    currently_available: true,
    price: "2150",
  });
  const applicant = { name: `Rosa Applicant ${suffix}`, email: `rosa.${suffix}@example.com` };
  const adult = { name: `Sam Adult ${suffix}`, email: `sam.${suffix}@example.com` };

  // 'How to Apply' → 'Apply online'.
  await gotoHydrated(page, "/rental-application");
  await expect(heading(page)).toHaveText(exactly("How to Apply"));
  await page.getByRole("main").getByRole("link", { name: "Apply online", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/rental-application/apply");
  await expect(heading(page)).toHaveText(exactly("Apply online"));
  await expect(stepTitle(page)).toHaveText(exactly("Applicant"));
  await expect(page.locator("ol.application-progress li")).toHaveText(STEP_TITLES);

  // 'Applicant': the property is picked from the available ones.
  const property = field(page, "Property you are applying for");
  await expect(property.getByRole("option", { name: listing.address, exact: true })).toHaveCount(1);
  await property.selectOption({ label: listing.address });
  await fillApplicant(page, applicant);
  await next(page, "Where you live now");
  // From here on the page is the private link.
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === "/rental-application/continue" &&
      (url.searchParams.get("token") ?? "") !== "" &&
      url.searchParams.get("step") === "residence",
  );
  await expect(page.locator(".application-for")).toHaveText(`For ${listing.address}`);

  // 'Where you live now', half done: 'Save and finish later' e-mails the link.
  await field(page, "Address").fill("12 Current Street, Arlington, VA");
  await field(page, "Since when").fill("2021-09-01");
  await field(page, "Landlord's name (optional)").fill("Lee Landlord");
  await button(page, "Save and finish later").click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    `We sent a link to ${applicant.email} so you can finish later.`,
  );
  const resumeLink = await mailedLink(applicant.email, "Your rental application: finish later");
  expect(new URL(resumeLink).searchParams.get("step")).toBe("residence");

  // Finished on another device: the link opens where they stopped, with what they typed.
  const resumed = await newPage();
  await gotoHydrated(resumed, resumeLink);
  await expect(stepTitle(resumed)).toHaveText(exactly("Where you live now"));
  await expect(field(resumed, "Address")).toHaveValue("12 Current Street, Arlington, VA");
  await expect(field(resumed, "Since when")).toHaveValue("2021-09-01");
  await expect(field(resumed, "Landlord's name (optional)")).toHaveValue("Lee Landlord");
  await field(resumed, "Monthly rent (optional)").fill("1800");
  await next(resumed, "Employment and income");

  // A refused step: the message beside the field, what was typed kept.
  await field(resumed, "Employer (optional)").fill("Arlington Library");
  await field(resumed, "Position (optional)").fill("Librarian");
  await button(resumed, "Next").click();
  const income = field(resumed, "Monthly income");
  await expect(income).toHaveAttribute("aria-invalid", "true");
  await expect(income).toHaveAccessibleDescription("Fill in 'Monthly income'.");
  await expect(stepTitle(resumed)).toHaveText(exactly("Employment and income"));
  await expect(field(resumed, "Employer (optional)")).toHaveValue("Arlington Library");
  await expect(field(resumed, "Position (optional)")).toHaveValue("Librarian");
  await income.fill("5200");
  await next(resumed, "References");

  await field(resumed, "Reference 1: name").fill("Pat Reference");
  await field(resumed, "Reference 1: phone").fill("703-555-0101");
  await field(resumed, "Reference 2: name").fill("Quinn Reference");
  await field(resumed, "Reference 2: phone").fill("703-555-0102");
  await next(resumed, "Other adults");

  // The other adult, typed and then 'Back': nothing typed is lost either way.
  await field(resumed, "Adult 1: name (optional)").fill(adult.name);
  await field(resumed, "Adult 1: e-mail (optional)").fill(adult.email);
  await button(resumed, "Back").click();
  await expect(stepTitle(resumed)).toHaveText(exactly("References"));
  await expect(field(resumed, "Reference 2: name")).toHaveValue("Quinn Reference");
  await next(resumed, "Other adults");
  await expect(field(resumed, "Adult 1: name (optional)")).toHaveValue(adult.name);
  await expect(field(resumed, "Adult 1: e-mail (optional)")).toHaveValue(adult.email);
  await next(resumed, "Documents");

  // Two documents: a photo ID (PNG) and a pay slip (PDF).
  await expect(resumed.getByText("No documents yet.")).toBeVisible();
  const payslip = await pdf();
  await upload(resumed, "Photo ID", {
    name: "id-card.png",
    mimeType: "image/png",
    buffer: await png(),
  });
  await upload(resumed, "Proof of income", {
    name: "payslip.pdf",
    mimeType: "application/pdf",
    buffer: payslip,
  });
  await expect(resumed.locator("ul.application-documents li")).toHaveCount(2);
  await expect(resumed.getByRole("button", { name: "Remove id-card.png" })).toBeVisible();
  await expect(resumed.getByRole("button", { name: "Remove payslip.pdf" })).toBeVisible();
  await next(resumed, "Review and submit");

  // 'Review and submit': every answer once more, then the confirmation is required.
  const review = resumed.locator("section.application-review");
  await expect(review.filter({ hasText: "Applicant" }).first()).toContainText(applicant.name);
  await expect(review.filter({ hasText: "Employment and income" })).toContainText(
    "Arlington Library",
  );
  await expect(review.filter({ hasText: "Other adults" })).toContainText(adult.email);
  await expect(review.filter({ hasText: "Documents" }).locator("li")).toHaveText([
    "Photo ID: id-card.png",
    "Proof of income: payslip.pdf",
  ]);
  const confirm = resumed.getByLabel(CONFIRM, { exact: true });
  await button(resumed, "Submit application").click();
  await expect(confirm).toHaveAccessibleDescription("Tick the box to confirm before you submit.");
  await expect(confirm).toHaveAttribute("aria-invalid", "true");
  await confirm.check();
  await button(resumed, "Submit application").click();
  await expect(heading(resumed)).toHaveText(exactly("Application received"));

  // The status page: received, the other adult not finished yet.
  await resumed.getByRole("link", { name: "Your application's status", exact: true }).click();
  await expect(heading(resumed)).toHaveText(exactly("Your application"));
  await expect(statusLine(resumed)).toHaveText(/^Status: Received since \S/);
  await expect(resumed.getByRole("heading", { name: "Other adults", exact: true })).toBeVisible();
  await expect(resumed.locator(".application-household li")).toHaveText([
    `${adult.name}: Not finished yet`,
  ]);
  const statusUrl = resumed.url();

  // The other adult fills in their own part from their e-mail.
  const adultLink = await mailedLink(
    adult.email,
    `Your part of the rental application for ${listing.address}`,
  );
  const other = await newPage();
  await gotoHydrated(other, adultLink);
  await expect(stepTitle(other)).toHaveText(exactly("Applicant"));
  await expect(other.locator("ol.application-progress li")).toHaveText([
    "Applicant",
    "Where you live now",
    "Employment and income",
    "Documents",
    "Review and submit",
  ]);
  await expect(field(other, "Full name")).toHaveValue(adult.name);
  await expect(field(other, "E-mail")).toHaveValue(adult.email);
  await field(other, "Phone").fill("703-555-0199");
  await field(other, "Date of birth").fill("1988-11-30");
  await next(other, "Where you live now");
  await field(other, "Address").fill("12 Current Street, Arlington, VA");
  await field(other, "Since when").fill("2022-01-15");
  await next(other, "Employment and income");
  await field(other, "Monthly income").fill("3100");
  await next(other, "Documents");
  await next(other, "Review and submit");
  await expect(
    other.locator("section.application-review").filter({ hasText: "Documents" }),
  ).toContainText("You have not sent any documents with your part of the application.");
  await other.getByLabel(CONFIRM, { exact: true }).check();
  await button(other, "Submit application").click();
  await expect(heading(other)).toHaveText(exactly("Application received"));
  await expect(
    other.getByText("Thank you: your part of the application is complete."),
  ).toBeVisible();

  await gotoHydrated(resumed, statusUrl);
  await expect(resumed.locator(".application-household li")).toHaveText([
    `${adult.name}: Finished`,
  ]);

  // Staff: the inbox's 'Application' row opens the whole application.
  await gotoHydrated(adminPage, "/admin/inbox");
  const row = adminPage.locator(".inbox-applications li", { hasText: applicant.name });
  await expect(row.locator(".inbox-kind")).toHaveText("Application");
  await expect(row).toContainText(listing.address);
  await row.getByRole("link", { name: applicant.name, exact: true }).click();
  await expect(heading(adminPage)).toHaveText(exactly(`Application from ${applicant.name}`));
  const people = adminPage.locator("section.application-person");
  await expect(people).toHaveCount(2);
  await expect(people.nth(0).getByRole("heading", { level: 2 })).toContainText(
    `Applicant: ${applicant.name}`,
  );
  await expect(people.nth(1).getByRole("heading", { level: 2 })).toContainText(
    `Adult 2: ${adult.name}`,
  );
  await expect(people.nth(1).getByRole("heading", { level: 2 })).toContainText("Finished");
  await expect(people.nth(0)).toContainText("Arlington Library");
  await expect(people.nth(1)).toContainText("3100");
  await expect(people.nth(0).getByRole("listitem").getByRole("link")).toHaveText([
    "Photo ID: id-card.png",
    "Proof of income: payslip.pdf",
  ]);
  await expect(adminPage.getByRole("link", { name: "Download PDF", exact: true })).toHaveAttribute(
    "href",
    /^\/admin\/applications\/\d+\/pdf$/,
  );
  await expect(adminPage.getByRole("heading", { name: "Viewed by", exact: true })).toBeVisible();
  await expect(adminPage.locator(".application-views")).toContainText(adminAccount.user.email);

  // A document downloads as an attachment, byte for byte as sent (a PDF is kept as it is).
  const document = people.nth(0).getByRole("link", { name: "Proof of income: payslip.pdf" });
  const [download] = await Promise.all([adminPage.waitForEvent("download"), document.click()]);
  // Named from its kind and checked type, never the uploaded name.
  expect(download.suggestedFilename()).toMatch(/^income-\d+\.pdf$/);
  expect((await fs.readFile(await download.path())).equals(payslip)).toBe(true);
  const response = await adminPage.request.get((await document.getAttribute("href")) ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toMatch(/^attachment;/);
  expect(response.headers()["content-type"]).toBe("application/pdf");

  // 'Approved'; the applicant sees it on their status page and is told by e-mail.
  await adminPage.getByLabel("Status", { exact: true }).selectOption({ label: "Approved" });
  await button(adminPage, "Save status").click();
  await expect(adminPage.getByText("Status saved.", { exact: true })).toBeVisible();
  await expect(adminPage.locator(".admin-application > .application-status")).toContainText(
    "Status: Approved since",
  );
  await gotoHydrated(resumed, statusUrl);
  await expect(statusLine(resumed)).toHaveText(/^Status: Approved since \S/);
  await expect
    .poll(async () => (await control.mailTo(applicant.email)).map((m) => m.subject), {
      timeout: 20_000,
    })
    .toContain("Your rental application: Approved");
});
