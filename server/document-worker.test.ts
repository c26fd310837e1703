// Uploaded documents are parsed off the main thread with limits (docs/decisions/0073), on the
// production build (build/server/index.js and the document-worker.js beside it): a PDF bomb (one
// object stream of 1 GiB of zeros in a 1 MB file) is refused with a message while a kept page
// keeps answering at once.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfBomb } from "../tests/support/pdf-bomb";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const MOVE_IN = `${new Date().getUTCFullYear() + 1}-06-01`;

describe("document checks run off the main thread", () => {
  let dataDir: string;
  let t: TestApp;
  let token = "";

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "document-worker-"));
    t = await startTestApp({ env: { DATA_DIR: dataDir } });
    const res = await fetch(`${t.base}/rental-application/apply`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({
        fullName: "Bo Bomber",
        email: "bo@example.com",
        phone: "703-555-0142",
        dateOfBirth: "1988-04-02",
        moveIn: MOVE_IN,
        occupants: "1",
        intent: "next",
        step: "applicant",
      }),
    });
    token = /[?&]token=([A-Za-z0-9_-]{43})/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
    expect(token).not.toBe("");
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("refuses a PDF bomb with a message while /about keeps answering within 100 ms", async () => {
    const bomb = await pdfBomb();
    expect(bomb.length).toBeLessThan(1_200_000);
    const form = new FormData();
    form.append("step", "documents");
    form.append("intent", "upload");
    form.append("kind", "income");
    form.append("file", new Blob([new Uint8Array(bomb)], { type: "application/pdf" }), "pay.pdf");
    await fetch(`${t.base}/about`).then((r) => r.text()); // kept and warm
    let done = false;
    const upload = fetch(`${t.base}/rental-application/continue?token=${token}`, {
      method: "POST",
      body: form,
      redirect: "manual",
    }).finally(() => {
      done = true;
    });
    const times: number[] = [];
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${t.base}/about`);
      await res.text();
      expect(res.status).toBe(200);
      times.push(performance.now() - started);
    }
    const res = await upload;
    const html = await res.text();
    expect(res.status).toBe(422);
    expect(html).toContain(
      "The file is too large or too complex to check once unpacked. Print or scan it to a new PDF, JPEG or PNG and send that.",
    );
    // On the main thread the check took the event loop for seconds (9 s measured in production,
    // 25 s on a loaded test machine). A shared, busy test machine adds its own stalls to single
    // requests, so the bound is on nine in ten, and the slowest stays far from seconds.
    times.sort((a, b) => a - b);
    expect(times.length).toBeGreaterThan(0);
    expect(times[Math.floor(times.length * 0.9)]).toBeLessThan(100);
    expect(times.at(-1)).toBeLessThan(1000);
    const [stored] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM application_documents",
    );
    expect(stored?.n).toBe(0);
  }, 120_000);
});
