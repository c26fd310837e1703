// axe-core on a page of a browser.newContext() (Playwright Test's page fixtures are).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** The violations axe finds on the page as it is now, in a form that reads well in a diff. */
export async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")),
  }));
}
