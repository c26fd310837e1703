// Signing pages in through the real sign-in popup (the test server's built-in development OpenID
// provider), and reading sessions from outside the browser. Not a test file itself.
import type { BrowserContext, Page } from "@playwright/test";
import { nav, uniqueSuffix } from "./helpers";
import { serverInfo, siteURL } from "./server-info";

export interface TestUser {
  email: string;
  /** The display name typed into the provider's 'Name' field ('' for none). */
  name: string;
}

/** A user nobody has signed in as yet (unique email), optionally with a display name. */
export function newUser(label: string, name = `E2E ${label}`): TestUser {
  return { email: `e2e-${label}-${uniqueSuffix()}@example.com`, name };
}

/** The navbar's user menu button (titled with the display name, or 'User'). */
export function userMenuButton(page: Page, user: Pick<TestUser, "name">) {
  return nav(page).getByRole("button", { name: user.name || "User", exact: true });
}

export const loginLink = (page: Page) => nav(page).getByRole("link", { name: "Login with Google" });

/**
 * Signs `page`'s context in like a person: 'Login with Google' opens the popup, the development
 * provider's form is filled in, 'Sign in'; the popup closes itself and the opener updates.
 * The page must be hydrated and signed out. Resolves once the user menu shows.
 */
export async function signInThroughPopup(page: Page, user: TestUser) {
  const popupOpened = page.waitForEvent("popup");
  await loginLink(page).click();
  const popup = await popupOpened;
  await popup.getByLabel("Email").fill(user.email);
  await popup.getByLabel("Name").fill(user.name);
  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: "Sign in" }).click();
  await closed;
  await userMenuButton(page, user).waitFor();
}

/** The session cookie's value ('' when there is none). */
export async function sessionCookie(context: BrowserContext) {
  const cookies = await context.cookies(serverInfo().baseURL);
  return cookies.find((c) => c.name === "session")?.value ?? "";
}

/** A plain HTTP request with a given session cookie (server-side checks, no browser). */
export function fetchWithSession(path: string, session: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (session) headers.set("cookie", `session=${session}`);
  return fetch(siteURL(path), { ...init, headers, redirect: "manual" });
}
