// Site settings at /admin/site (docs/behaviour.md §18) as an admin, in a real browser: every
// field, the lists, the logo and the PDF, 'Saved!', the public pages on the next request and
// every error dialog's footer; the SVG refusal; the 404 for everyone else; axe.
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { company, errorFooter } from "~/domain/company";
import { addedMessages, dialogDurations, messages } from "~/domain/messages";
import { dialogNamed, expectErrorDialog, field, successDialogDuration } from "./admin-helpers";
import { newUser, userMenuButton } from "./auth-helpers";
import { AXE_POLL, violations } from "./axe";
import { expect, test } from "./fixtures";
import { exactly, fetchHtml, gotoHydrated, heading, nav } from "./helpers";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const entries = (page: Page, legend: string) =>
  page.getByRole("group", { name: legend, exact: true }).getByTestId("list-entry");

test.describe("site settings", () => {
  test.afterEach(async ({ control }) => {
    await control.resetSiteSettings();
  });

  test("an admin changes everything; visitors see it on the next request", async ({
    adminPage: page,
    adminAccount,
    newPage,
    control,
  }) => {
    await gotoHydrated(page, "/");
    await userMenuButton(page, adminAccount.user).click();
    const menu = nav(page).locator(".dropdown-menu");
    await expect(menu.getByRole("link")).toHaveText([
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
    ]);
    await menu.getByRole("link", { name: "Site settings" }).click();
    await expect(page).toHaveURL(/\/admin\/site$/);
    await expect(heading(page)).toHaveText(exactly("Site settings"));
    await expect(page).toHaveTitle(exactly(`Site settings | ${company.name}`));

    // The form starts from the defaults.
    await expect(field(page, "Company name")).toHaveValue(company.name);
    await expect(field(page, "Tagline")).toHaveValue(company.tagline);
    await expect(field(page, "Support contact name")).toHaveValue(company.errorContactName);
    await expect(entries(page, "Services Provided")).toHaveCount(4);
    await expect(entries(page, "Contacts")).toHaveCount(3);

    await field(page, "Company name").fill("Blue Ridge Leasing");
    await field(page, "Tagline").fill("Homes in the valley.");
    await field(page, "About Us").fill("We rent cabins.\n\nSince 2020.");
    await field(page, "Founder").fill("Ana founded it.");
    const logo = await sharp({
      create: { width: 400, height: 200, channels: 4, background: "#2e86de" },
    })
      .png()
      .toBuffer();
    await field(page, "Logo").setInputFiles({
      name: "logo.png",
      mimeType: "image/png",
      buffer: logo,
    });

    // Services: remove the last, add one, move it to the top.
    const services = entries(page, "Services Provided");
    await page.getByRole("button", { name: "Remove service 4" }).click();
    await page.getByRole("button", { name: "Add service" }).click();
    await expect(services).toHaveCount(4);
    await field(services.nth(3), "Title").fill("Cabin Rentals");
    await field(services.nth(3), "Text").fill("In the Blue Ridge.");
    for (const n of [4, 3, 2]) {
      await page.getByRole("button", { name: `Move service ${n} up` }).click();
    }
    await expect(field(services.nth(0), "Title")).toHaveValue("Cabin Rentals");

    // Contacts: the first one down to the end, a new one without phone.
    const contacts = entries(page, "Contacts");
    await page.getByRole("button", { name: "Move contact 1 down" }).click();
    await expect(field(contacts.nth(1), "Name")).toHaveValue("Robert Whitfield");
    await page.getByRole("button", { name: "Add contact" }).click();
    await field(contacts.nth(3), "Role").fill("Owner");
    await field(contacts.nth(3), "Name").fill("Ana Ortiz");
    await field(contacts.nth(3), "E-mail").fill("ana@example.com");

    await field(page, "Support contact name").fill("Ana Ortiz");
    await field(page, "Rental application form").setInputFiles({
      name: "form.pdf",
      mimeType: "application/pdf",
      buffer: PDF,
    });
    await page.getByRole("button", { name: "Save settings" }).click();
    const shown = await successDialogDuration(page, "Saved!");
    expect(shown).toBeGreaterThanOrEqual(dialogDurations.saved - 100);
    expect(shown).toBeLessThan(dialogDurations.saved + 1500);

    const stored = await control.storedContent();
    expect(stored.name).toBe("Blue Ridge Leasing");
    expect(stored.logo?.src).toMatch(/^\/images\/site\/logo_\d+\.png$/);
    // The admin's own navbar shows the new logo.
    await expect(nav(page).locator(".navbar-brand img")).toHaveAttribute(
      "src",
      stored.logo?.src as string,
    );

    // A visitor: every page on its next request.
    const visitor = await newPage();
    await gotoHydrated(visitor, "/");
    await expect(visitor.locator(".hero img")).toHaveAttribute("src", stored.logo?.src as string);
    await expect(visitor.locator(".hero h1")).toHaveText("Blue Ridge Leasing");
    await expect(visitor.locator(".hero p")).toHaveText("Homes in the valley.");
    await expect(visitor).toHaveTitle(exactly("Home | Blue Ridge Leasing"));
    await gotoHydrated(visitor, "/about");
    await expect(visitor.locator("article p")).toHaveText([
      "We rent cabins.",
      "Since 2020.",
      "Ana founded it.",
    ]);
    await expect(visitor.locator("article li strong")).toHaveText([
      "Cabin Rentals",
      "Residential Leasing",
      "Commercial Leasing",
      "Vacation Rentals",
    ]);
    await gotoHydrated(visitor, "/contact");
    await expect(visitor.locator(".contact-grid .card-title")).toHaveText([
      "Vice President",
      "President",
      "Property Manager",
      "Owner",
    ]);
    await expect(visitor.getByRole("link", { name: "ana@example.com" })).toHaveAttribute(
      "href",
      "mailto:ana@example.com",
    );
    const pdf = await visitor.request.get("/rental-application.pdf");
    expect(Buffer.from(await pdf.body()).equals(PDF)).toBe(true);
    // Every error dialog's footer names the support contact.
    await gotoHydrated(visitor, "/properties/no-such-listing-here");
    const dialog = dialogNamed(visitor, messages.errorTitle);
    await expect(dialog.locator("footer")).toHaveText(
      exactly("If the problem persists, show this message to Ana Ortiz."),
    );
    expect(errorFooter({ errorContactName: "Ana Ortiz" })).toBe(
      "If the problem persists, show this message to Ana Ortiz.",
    );

    // Back to the generated form: the checkbox appears now that a PDF is in use.
    await gotoHydrated(page, "/admin/site");
    await page.getByLabel("Use the generated form").check();
    await page.getByLabel("Use the default logo").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await successDialogDuration(page, "Saved!");
    await expect.poll(async () => (await control.storedContent()).applicationPdf).toBeUndefined();
    const generated = await visitor.request.get("/rental-application.pdf");
    expect(Buffer.from(await generated.body()).equals(PDF)).toBe(false);
    await expect(nav(page).locator(".navbar-brand img")).toHaveAttribute("src", company.logo.src);
  });

  test("'Application fee' and 'Screening criteria' are saved and kept after a reload", async ({
    adminPage: page,
    control,
  }) => {
    await gotoHydrated(page, "/admin/site");
    await expect(field(page, "Application fee")).toHaveValue(company.application.fee);
    await expect(field(page, "Screening criteria")).toHaveValue(
      company.application.screeningCriteria,
    );
    const fee = "$50 per adult, paid when we review your application.";
    const criteria = "Income of about three times the rent.\n\nReferences from two landlords.";
    await field(page, "Application fee").fill(fee);
    await field(page, "Screening criteria").fill(criteria);
    await page.getByRole("button", { name: "Save settings" }).click();
    await successDialogDuration(page, "Saved!");
    expect((await control.storedContent()).application).toEqual({
      fee,
      screeningCriteria: criteria,
    });
    await gotoHydrated(page, "/admin/site");
    await expect(field(page, "Application fee")).toHaveValue(fee);
    await expect(field(page, "Screening criteria")).toHaveValue(criteria);
    // Emptied: kept empty (the online application then shows nothing for it).
    await field(page, "Application fee").fill("");
    await page.getByRole("button", { name: "Save settings" }).click();
    await successDialogDuration(page, "Saved!");
    await gotoHydrated(page, "/admin/site");
    await expect(field(page, "Application fee")).toHaveValue("");
    await expect(field(page, "Screening criteria")).toHaveValue(criteria);
  });

  test("an SVG logo is refused with the error dialog, and nothing changes", async ({
    adminPage: page,
    control,
  }) => {
    await gotoHydrated(page, "/admin/site");
    await field(page, "Company name").fill("Should Not Stick");
    await field(page, "Logo").setInputFiles({
      name: "logo.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'),
    });
    await page.getByRole("button", { name: "Save settings" }).click();
    await expectErrorDialog(
      page,
      messages.errorTitle,
      addedMessages.settingsSaveFailed(
        "SVG files are not accepted. Send a photo: JPEG, PNG, WebP, AVIF, HEIC or GIF.",
      ),
    );
    expect(await control.storedContent()).toEqual({});
    const { html } = await fetchHtml("/");
    expect(html).not.toContain("Should Not Stick");
  });

  test("others get the ordinary 404 and no menu entry", async ({ page, newPage, signIn }) => {
    const anonymous = await page.request.get("/admin/site");
    expect(anonymous.status()).toBe(404);
    const member = await newPage();
    const user = newUser("settings-member", "Mia Member");
    await signIn(member, user);
    const res = await member.goto("/admin/site");
    expect(res?.status()).toBe(404);
    await expect(heading(member)).toHaveText(exactly("Page not found"));
    await userMenuButton(member, user).click();
    await expect(member.getByRole("link", { name: "Site settings" })).toHaveCount(0);
  });

  test("axe finds nothing on the settings page", async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await gotoHydrated(page, "/admin/site", "load");
    await expect.poll(() => violations(page), AXE_POLL).toEqual([]);
  });
});
