// Passkeys (docs/behaviour.md §6, "Staff sign-in") through Chromium's virtual authenticator
// (CDP WebAuthn): a staff member adds one on 'Your account', signs out, signs in with it on
// 'Staff sign-in', and after 'Remove' it signs nobody in.
import type { Page } from "@playwright/test";
import { answerConfirm } from "./admin-helpers";
import { newUser, userMenuButton } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, nav } from "./helpers";

test.use({ viewport: { width: 1280, height: 800 } });

/** A platform authenticator with user verification, as a phone or laptop has, for this page. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

async function logOut(page: Page, name: string) {
  await userMenuButton(page, { name }).click();
  await nav(page).getByRole("button", { name: "Logout" }).click();
  await expect(userMenuButton(page, { name })).toHaveCount(0);
}

test("a staff member adds a passkey, signs in with it, and removes it", async ({
  page,
  signIn,
}) => {
  const agent = newUser("passkey-agent", "Pia Passkey");
  await signIn(page, agent, { role: "leasing-agent" });
  const authenticator = await addVirtualAuthenticator(page);

  // 'Your account', from the user menu.
  await userMenuButton(page, agent).click();
  await nav(page).getByRole("link", { name: "Your account" }).click();
  await expect(heading(page)).toHaveText(exactly("Your account"));
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  await page.getByRole("button", { name: "Add a passkey", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey" })).toHaveText(
    exactly("Passkey added."),
  );
  const rows = page.locator("table.passkeys tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.locator("td").nth(0)).toHaveText(exactly("Chrome on Linux"));
  await expect(rows.locator("td").nth(2)).toHaveText(exactly("Never"));
  // A discoverable credential for this site, as the server asked.
  const [credential] = await authenticator.credentials();
  expect(credential?.isResidentCredential).toBe(true);
  expect(credential?.rpId).toBe("localhost");

  // Signed out, then in again with the passkey alone.
  await logOut(page, agent.name);
  await gotoHydrated(page, "/sign-in");
  await expect(heading(page)).toHaveText(exactly("Staff sign-in"));
  // The identity provider's sign-in is offered on the page too.
  await expect(
    page.locator(".sign-in-provider").getByRole("link", { name: "Login with Google" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Sign in with a passkey", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userMenuButton(page, agent)).toBeVisible();
  await gotoHydrated(page, "/account");
  await expect(rows.locator("td").nth(2)).not.toHaveText("Never");
  // Signed in as the same person, in the same role.
  await expect(page.locator("dd").nth(2)).toHaveText(exactly("Leasing agent"));

  // 'Remove' asks first; afterwards the passkey still in the device signs nobody in.
  await page.getByRole("button", { name: "Remove Chrome on Linux" }).click();
  await answerConfirm(page, "Cancel");
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "Remove Chrome on Linux" }).click();
  await answerConfirm(page, "Yes");
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  await logOut(page, agent.name);
  await gotoHydrated(page, "/sign-in");
  await page.getByRole("button", { name: "Sign in with a passkey", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    exactly("That passkey did not sign you in. Try again, or e-mail yourself a code."),
  );
  await expect(userMenuButton(page, agent)).toHaveCount(0);
});

test("without an authenticator the prompt's refusal is told, and nobody is signed in", async ({
  page,
}) => {
  // An authenticator that holds no passkey of this site: the browser's prompt fails.
  await addVirtualAuthenticator(page);
  await gotoHydrated(page, "/sign-in");
  await page.getByRole("button", { name: "Sign in with a passkey", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    exactly("No passkey was chosen. Try again when you are ready."),
  );
});
