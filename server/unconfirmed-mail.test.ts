// Mail to an address nobody has confirmed, through the whole app (docs/behaviour.md §26):
// 'Save and finish later' sends fixed text; over the per-address cap the answers are saved and
// the page says no link went out; an alert over the cap is refused with a message.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../tests/support/test-app";

describe("mail to unconfirmed addresses", () => {
  let dataDir: string;
  let t: TestApp;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "unconfirmed-mail-"));
    t = await startTestApp({
      env: { DATA_DIR: dataDir, UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY: "1" },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const later = () =>
    fetch(`${t.base}/rental-application/apply`, {
      method: "POST",
      body: new URLSearchParams({
        fullName: "URGENT verify at phish.example",
        email: "target@example.com",
        intent: "later",
        step: "applicant",
      }),
      redirect: "manual",
    });

  it("'Save and finish later': fixed text, then saved without a link over the cap", async () => {
    const first = await later();
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toMatch(/&saved=1$/);
    const [mail] = await t.db.query<{ body: string }>(
      "SELECT body FROM outbox WHERE kind = 'application-link'",
    );
    expect(mail?.body).not.toContain("phish");
    const second = await later();
    expect(second.status).toBe(303);
    const location = second.headers.get("location") ?? "";
    expect(location).toMatch(/&saved=0$/);
    const [n] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM applications");
    expect(n?.n).toBe(2);
    const page = await (await fetch(`${t.base}${location}`)).text();
    expect(page).toContain(
      "Your answers are saved, but we have sent as many e-mails to target@example.com as we may for now, so no link went out. Bookmark this page to finish later.",
    );
  });

  it("'Save and finish later' without an e-mail on the first step says why nothing was sent", async () => {
    const res = await fetch(`${t.base}/rental-application/apply`, {
      method: "POST",
      body: new URLSearchParams({ fullName: "Later Person", email: "", intent: "later" }),
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    const page = await res.text();
    // docs/behaviour.md §32, word for word.
    expect(page).toContain(
      "Enter a valid e-mail address on the first step, so we can send you the link.",
    );
    expect(page).toContain('value="Later Person"');
  });
});
