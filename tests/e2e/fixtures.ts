// Browser-test fixtures: Debian's Chromium through playwright-core, plus direct database access.
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/shared/chromium";

export const baseURL = () => inject("baseURL");

/** Runs SQL in the test server's database (seeding and changing data from outside the browser). */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []) {
  const res = await fetch(inject("controlURL"), {
    method: "POST",
    body: JSON.stringify({ sql: text, params }),
  });
  if (!res.ok) throw new Error(`SQL failed: ${await res.text()}`);
  return (await res.json()) as T[];
}

/** One browser per test file; call inside a describe or at file top level. */
export function useBrowser() {
  const state = {} as { browser: Browser };
  beforeAll(async () => {
    state.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    });
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return {
    get browser() {
      return state.browser;
    },
    /** A fresh context (own cookies and session storage) with one page at baseURL. */
    async newPage(
      options: Parameters<Browser["newContext"]>[0] = {},
    ): Promise<{ context: BrowserContext; page: Page }> {
      const context = await state.browser.newContext({ baseURL: baseURL(), ...options });
      const page = await context.newPage();
      return { context, page };
    },
  };
}
