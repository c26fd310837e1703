// /admin/status, 'Status', through the whole app: each scheduled job's last run, next run and
// last error, the outbox's waiting and failed counts, the database, storage and version.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Scheduler, startScheduler } from "~/shared/scheduler.server";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

describe("the Status page", () => {
  let t: TestApp;
  let scheduler: Scheduler;
  let admin = "";
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn("owner@example.com", { admin: true });
    let calls = 0;
    scheduler = await startScheduler(
      t.db,
      [
        { name: "test.fine", everySeconds: 3600, run: async () => undefined },
        {
          name: "test.broken",
          everySeconds: 3600,
          run: async () => {
            calls++;
            throw new Error(`The store did not answer (${calls})`);
          },
        },
      ],
      [],
      { retryDelaySeconds: 3600, pollSeconds: 0.5 },
    );
    await t.db.query(
      `INSERT INTO outbox (kind, to_addresses, subject, body, state, last_error)
       VALUES ('inquiry', '{a@example.com}', 'One', 'x', 'waiting', NULL),
              ('inquiry', '{b@example.com}', 'Two', 'x', 'waiting', NULL),
              ('inquiry', '{c@example.com}', 'Three', 'x', 'failed', '550 no such mailbox')`,
    );
    await vi.waitFor(
      async () => {
        const rows = await t.db.query<{ name: string }>(
          "SELECT name FROM job_runs WHERE last_finished_at IS NOT NULL",
        );
        expect(rows.map((r) => r.name).sort()).toEqual(["test.broken", "test.fine"]);
      },
      { timeout: 15_000 },
    );
  });
  afterAll(async () => {
    await scheduler?.stop();
    await t?.close();
  });

  const page = async (cookie = admin) => {
    const res = await fetch(`${t.base}/admin/status`, { headers: { cookie } });
    return { status: res.status, html: await res.text() };
  };

  it("lists each job with its last run, next run and last error", async () => {
    const { status, html } = await page();
    expect(status).toBe(200);
    expect(html).toContain("<title>Status");
    expect(html).toContain("<h1>Status</h1>");
    const row = (name: string) =>
      html.match(new RegExp(`<tr><th scope="row"><code>${name}</code></th>(.*?)</tr>`))?.[1] ?? "";
    const fine = row("test\\.fine");
    expect(fine).toMatch(/^<td><time dateTime="[^"]+">.+<\/time><\/td><td><time/);
    expect(fine).toContain("<td>None</td>");
    expect(row("test\\.broken")).toContain("The store did not answer (1)");
  });

  it("shows the outbox's waiting and failed counts, the database, storage and version", async () => {
    const { html } = await page();
    expect(html).toMatch(/Waiting: <!-- -->2<!-- --> · Failed: <!-- -->1/);
    expect(html).toContain("Embedded (PGlite)");
    expect(html).toContain("DATA_DIR/images");
    const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
    expect(html).toContain(`<dd>${version}</dd>`);
  });

  it("answers 404 to anyone but staff", async () => {
    const member = await t.signIn("member@example.com");
    expect((await page(member)).status).toBe(404);
    expect((await page("")).status).toBe(404);
  });
});
