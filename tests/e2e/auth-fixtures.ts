// Signing browser contexts in through the real sign-in popup (the built-in development OIDC
// provider of the test server), and granting admin. Not a test file itself.
import type { BrowserContext, Page } from "playwright-core";
import { baseURL, sql } from "./fixtures";
import { gotoHydrated, POLL, uniqueSuffix } from "./helpers";

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
  return page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: user.name || "User", exact: true });
}

export const loginLink = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login with Google" });

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
  await userMenuButton(page, user).waitFor({ timeout: POLL.timeout });
}

/** Grants admin to an email (the registry's grant by address, as ADMIN_EMAILS does). */
export async function makeAdmin(email: string) {
  await sql("INSERT INTO admins (email, granted_by) VALUES ($1, 'e2e') ON CONFLICT DO NOTHING", [
    email.toLowerCase(),
  ]);
}

/** Removes every grant naming this email or its user, bypassing the last-admin rule. */
export async function removeAdmin(email: string) {
  await sql(
    "DELETE FROM admins WHERE email = $1 OR uid IN (SELECT sub FROM users WHERE email = $1)",
    [email.toLowerCase()],
  );
}

/** The session cookie's value ('' when there is none). */
export async function sessionCookie(context: BrowserContext) {
  const cookies = await context.cookies(baseURL());
  return cookies.find((c) => c.name === "session")?.value ?? "";
}

/** A plain HTTP request with a given session cookie (server-side checks, no browser). */
export function fetchWithSession(path: string, session: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (session) headers.set("cookie", `session=${session}`);
  return fetch(new URL(path, baseURL()), { ...init, headers, redirect: "manual" });
}

/**
 * A fresh context signed in through the popup at `startPath`; with `admin`, the email is granted
 * admin before signing in (a grant by address works before the first sign-in).
 */
export async function signedInPage(
  newPage: () => Promise<{ context: BrowserContext; page: Page }>,
  user: TestUser,
  { admin = false, startPath = "/" }: { admin?: boolean; startPath?: string } = {},
) {
  if (admin) await makeAdmin(user.email);
  const { context, page } = await newPage();
  await gotoHydrated(page, startPath);
  await signInThroughPopup(page, user);
  if (admin) {
    // (A locator wait rather than expect.poll: this also runs in beforeAll hooks.)
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Add Property", exact: true })
      .waitFor({ timeout: POLL.timeout });
  }
  return { context, page };
}
