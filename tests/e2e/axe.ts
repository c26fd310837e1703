// axe-core on a page of a browser.newContext() (Playwright Test's page fixtures are).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * For `expect.poll(() => violations(page), AXE_POLL)`: one axe run takes well under a second on
 * an idle machine, but more than the 5 s of the default expect timeout on a busy 2-core one
 * (seen in a full run beside other work), and a poll whose every call outlasts its timeout
 * fails without ever comparing. The test's own minute still bounds it.
 */
export const AXE_POLL = { timeout: 30_000 };

/**
 * The violations axe finds on the page as it is now, in a form that reads well in a diff.
 * `targetSize`: also WCAG 2.2's target size (24×24 CSS px or spacing), a rule axe leaves off by
 * default and Lighthouse counts.
 */
export async function violations(page: Page, { targetSize = false } = {}) {
  const builder = new AxeBuilder({ page });
  if (targetSize) builder.options({ rules: { "target-size": { enabled: true } } });
  const result = await builder.analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")),
  }));
}
