// Staff without a cloud account (docs/behaviour.md §6, "Staff roles", "Staff sign-in"): an
// Owner adds a Leasing agent on 'Staff'; the agent is told by e-mail, signs in on 'Staff
// sign-in' with the code the test SMTP server received, and sees only what the role allows.
import { newUser, userMenuButton } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { exactly, gotoHydrated, heading, nav } from "./helpers";

test.use({ viewport: { width: 1280, height: 800 } });

test("an Owner adds a Leasing agent, who signs in with an e-mailed code", async ({
  page,
  newPage,
  signIn,
  control,
}) => {
  const owner = newUser("code-owner", "Olive Owner");
  await signIn(page, owner, { admin: true });
  await gotoHydrated(page, "/admin/staff");
  const agent = newUser("code-agent");
  await page.getByLabel("E-mail", { exact: true }).fill(agent.email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Leasing agent" });
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "@" })).toHaveText(
    exactly(`${agent.email} is now staff, as Leasing agent.`),
  );
  await expect
    .poll(async () => (await control.mailTo(agent.email)).map((m) => m.subject))
    .toEqual(["You have been added to the Northern Virginia Family Leasing staff"]);

  // The agent, in a browser of their own, from the footer's 'Staff sign-in'.
  const theirs = await newPage();
  await gotoHydrated(theirs, "/about");
  await theirs.getByRole("contentinfo").getByRole("link", { name: "Staff sign-in" }).click();
  await expect(heading(theirs)).toHaveText(exactly("Staff sign-in"));
  await theirs.getByLabel("E-mail", { exact: true }).fill(agent.email);
  await theirs.getByRole("button", { name: "E-mail me a code" }).click();
  await expect(theirs.getByRole("status").filter({ hasText: "@" })).toHaveText(
    exactly(`We sent a 6-digit code to ${agent.email} if it belongs to our staff.`),
  );
  await expect.poll(async () => (await control.mailTo(agent.email)).length).toBe(2);
  const mail = (await control.mailTo(agent.email))[1];
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);
  await theirs.getByLabel("Code", { exact: true }).fill(code);
  await theirs.getByRole("button", { name: "Sign in", exact: true }).click();

  // Signed in as a Leasing agent: 'Inbox' under 'Admin', no 'Add Property', no site settings.
  const menu = userMenuButton(theirs, { name: "" });
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(nav(theirs).getByRole("link", { name: "Inbox" })).toBeVisible();
  await expect(nav(theirs).getByRole("link", { name: "Site settings" })).toHaveCount(0);
  await expect(nav(theirs).getByRole("link", { name: "Add Property", exact: true })).toHaveCount(0);
  for (const path of ["/admin/site", "/addproperty"]) {
    const res = await gotoHydrated(theirs, path);
    expect(res?.status(), path).toBe(404);
    await expect(heading(theirs), path).toHaveText(exactly("Page not found"));
  }
  expect((await gotoHydrated(theirs, "/admin/inbox"))?.status()).toBe(200);
  await expect(heading(theirs)).toHaveText(exactly("Inbox"));
});

test("a stranger gets the same answer, no e-mail, and a wrong code signs nobody in", async ({
  page,
  control,
}) => {
  const stranger = newUser("code-stranger");
  await gotoHydrated(page, "/sign-in");
  await page.getByLabel("E-mail", { exact: true }).fill(stranger.email);
  await page.getByRole("button", { name: "E-mail me a code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "@" })).toHaveText(
    exactly(`We sent a 6-digit code to ${stranger.email} if it belongs to our staff.`),
  );
  await page.getByLabel("Code", { exact: true }).fill("123456");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    exactly("That code is not right, or it has ended. Check it, or ask for a new one."),
  );
  expect(await control.mailTo(stranger.email)).toEqual([]);
});
