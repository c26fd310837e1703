// /about and /contact (spec §1, §2 public routes).
import { describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { useBrowser } from "./fixtures";
import { hrefs, texts } from "./helpers";

describe("static pages", () => {
  const b = useBrowser();

  it("/about has About Us, Founder and Services Provided with the four services", async () => {
    const { context, page } = await b.newPage();
    const res = await page.goto("/about");
    expect(res?.status()).toBe(200);
    expect(await texts(page, "article h1")).toEqual(["About Us"]);
    expect(await texts(page, "article h2")).toEqual(["Founder", "Services Provided"]);
    const services = await texts(page, "article ul > li");
    expect(services).toHaveLength(4);
    const titles = await texts(page, "article ul > li strong");
    expect(titles).toEqual([
      "Residential Leasing",
      "Commercial Leasing",
      "Vacation Rentals",
      "Real Estate Acquisitions",
    ]);
    expect(titles).toEqual(company.about.services.map((s) => s.title));
    expect(services[0]).toContain("3 to 5 bedroom homes");
    // Spec §1 facts.
    const body = (await page.locator("article").textContent()) ?? "";
    expect(body).toContain("family-owned");
    expect(body).toContain("2017");
    expect(body).toContain("over 30 years");
    expect(body).toContain("16 single-family homes in North Arlington");
    expect(body).toContain("five commercial buildings in Fairfax");
    expect(body).toContain("two vacation rentals in Corolla, NC");
    await context.close();
  });

  it("/contact has three cards with e-mail links and two phone links", async () => {
    const { context, page } = await b.newPage();
    const res = await page.goto("/contact");
    expect(res?.status()).toBe(200);
    const cards = page.locator("main li.card");
    expect(await cards.count()).toBe(3);
    expect(await texts(page, "main li.card .card-title")).toEqual([
      "President",
      "Vice President",
      "Property Manager",
    ]);
    for (const [i, person] of company.contacts.entries()) {
      const card = cards.nth(i);
      expect(await card.textContent()).toContain(person.name);
      const mail = card.locator("a[href^='mailto:']");
      expect(await mail.count()).toBe(1);
      expect(await mail.getAttribute("href")).toBe(`mailto:${person.email}`);
      expect(await mail.textContent()).toBe(person.email);
      const tel = card.locator("a[href^='tel:']");
      expect(await tel.count()).toBe(person.phone ? 1 : 0);
      if (person.phone) {
        expect(await tel.getAttribute("href")).toBe(`tel:${person.phone}`);
        expect(await tel.textContent()).toBe(person.phone);
      }
    }
    expect(await hrefs(page, "main a[href^='mailto:']")).toHaveLength(3);
    const phones = await hrefs(page, "main a[href^='tel:']");
    expect(phones).toHaveLength(2);
    expect(phones).toEqual(company.contacts.filter((c) => c.phone).map((c) => `tel:${c.phone}`));
    // The vice president has no phone link.
    expect(await cards.nth(1).locator("a[href^='tel:']").count()).toBe(0);
    await context.close();
  });
});
