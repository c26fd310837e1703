// Stored files are streamed, never read whole (docs/decisions/0051-stored-files-streamed.md):
// the production server as its own process, with a 25 MB rental application PDF uploaded on the
// settings page; 100 clients download it at once, reading slowly. Checked: every client gets
// every byte, and the server's resident memory rises by less than 100 MB. Figures are printed.
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { createImageStore } from "~/features/images/index.server";
import { editableOf, parseSettings, saveSettings } from "~/features/site-settings/index.server";
import { openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { seededRandom } from "../support/seeded-random";
import { rssMb, startServerProcess, stopServerProcess } from "../support/server-process";

const DOWNLOADS = 100;
const PDF_BYTES = 25 * 1024 * 1024;
const RSS_RISE_BOUND_MB = 100;
const random = seededRandom("streaming");

describe("streamed downloads", () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let base = "";
  let dataDir = "";

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "streaming-"));
    const source = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
    };
    // Stored as the settings page stores it, before the server starts (an embedded database
    // belongs to one process at a time).
    const env = readEnv(source);
    const db = await openDb({ dataDir: path.join(env.dataDir, "db") });
    try {
      const pdf = Buffer.alloc(PDF_BYTES, "%PDF-1.4 streaming test ");
      const fields = parseSettings(editableOf(company));
      const images = createImageStore(env);
      await saveSettings(db, images, { fields, application: { upload: pdf } }, null);
    } finally {
      await db.close();
    }
    server = await startServerProcess(source);
    base = server.base;
  }, 120_000);
  afterAll(async () => {
    await stopServerProcess(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(`${DOWNLOADS} concurrent downloads of a 25 MB PDF raise RSS by less than ${RSS_RISE_BOUND_MB} MB`, async () => {
    const pid = server.pid as number;
    // Settled first: one download, so that everything loaded once is loaded before measuring.
    await (await fetch(`${base}/rental-application.pdf`)).arrayBuffer();
    const before = await rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      void rssMb(pid).then(
        (mb) => {
          peak = Math.max(peak, mb);
        },
        () => undefined,
      );
    }, 100);
    const agent = new http.Agent({ maxSockets: DOWNLOADS });
    const started = Date.now();
    const received = await Promise.all(
      Array.from(
        { length: DOWNLOADS },
        () =>
          new Promise<number>((resolve, reject) => {
            http
              .get(`${base}/rental-application.pdf`, { agent }, (res) => {
                let bytes = 0;
                res.on("data", (chunk: Buffer) => {
                  bytes += chunk.length;
                  // A slow reader now and then: the server must wait, not buffer.
                  if (random() < 0.01) {
                    res.pause();
                    setTimeout(() => res.resume(), 5);
                  }
                });
                res.on("end", () => resolve(bytes));
                res.on("error", reject);
              })
              .on("error", reject);
          }),
      ),
    );
    clearInterval(sampler);
    agent.destroy();
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `streaming: ${DOWNLOADS} × 25 MB in ${seconds.toFixed(1)} s; server RSS before ` +
        `${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (rise ${(peak - before).toFixed(0)} MB)`,
    );
    expect(received).toEqual(Array(DOWNLOADS).fill(PDF_BYTES));
    expect(peak - before).toBeLessThan(RSS_RISE_BOUND_MB);
  });
});
