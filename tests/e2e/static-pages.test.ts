// /about and /contact (docs/behaviour.md §1, §2 public routes).
import { company } from "~/domain/company";
import { expect, test } from "./fixtures";
import { exactly, hrefs } from "./helpers";

test.describe("static pages", () => {
  test("/about has About Us, Founder and Services Provided with the four services", async ({
    page,
  }) => {
    const res = await page.goto("/about");
    expect(res?.status()).toBe(200);
    await expect(page.locator("article h1")).toHaveText([exactly("About Us")]);
    await expect(page.locator("article h2")).toHaveText([
      exactly("Founder"),
      exactly("Services Provided"),
    ]);
    const services = page.locator("article ul > li");
    await expect(services).toHaveCount(4);
    const titles = [
      "Residential Leasing",
      "Commercial Leasing",
      "Vacation Rentals",
      "Real Estate Acquisitions",
    ];
    expect(titles).toEqual(company.about.services.map((s) => s.title));
    await expect(page.locator("article ul > li strong")).toHaveText(titles.map(exactly));
    await expect(services.first()).toContainText("3 to 5 bedroom homes");
    // docs/behaviour.md §1 facts.
    const article = page.locator("article");
    for (const fact of [
      "family-owned",
      "2017",
      "over 30 years",
      "16 single-family homes in North Arlington",
      "five commercial buildings in Fairfax",
      "two vacation rentals in Corolla, NC",
    ]) {
      await expect(article).toContainText(fact);
    }
  });

  test("/contact has three cards with e-mail links and two phone links", async ({ page }) => {
    const res = await page.goto("/contact");
    expect(res?.status()).toBe(200);
    const cards = page.locator("main li.card");
    await expect(cards).toHaveCount(3);
    await expect(page.locator("main li.card .card-title")).toHaveText(
      ["President", "Vice President", "Property Manager"].map(exactly),
    );
    for (const [i, person] of company.contacts.entries()) {
      const card = cards.nth(i);
      await expect(card).toContainText(person.name);
      const mail = card.locator("a[href^='mailto:']");
      await expect(mail).toHaveCount(1);
      await expect(mail).toHaveAttribute("href", `mailto:${person.email}`);
      await expect(mail).toHaveText(exactly(person.email));
      const tel = card.locator("a[href^='tel:']");
      await expect(tel).toHaveCount(person.phone ? 1 : 0);
      if (person.phone) {
        await expect(tel).toHaveAttribute("href", `tel:${person.phone}`);
        await expect(tel).toHaveText(exactly(person.phone));
      }
    }
    await expect(page.locator("main a[href^='mailto:']")).toHaveCount(3);
    const phones = page.locator("main a[href^='tel:']");
    await expect(phones).toHaveCount(2);
    await expect
      .poll(() => hrefs(phones))
      .toEqual(company.contacts.filter((c) => c.phone).map((c) => `tel:${c.phone}`));
    // The vice president has no phone link.
    await expect(cards.nth(1).locator("a[href^='tel:']")).toHaveCount(0);
  });
});
