// Crash: the real server process (the production bundle) is killed with SIGKILL in the middle
// of a burst of concurrent admin writes, 10 rounds (CRASH_ROUNDS), on PGlite and on PostgreSQL
// (TEST_DATABASE_URL). After each kill: the database opens cleanly, the start-up code runs
// (startServices: lock, migrations, image-store repair), every write acknowledged before the
// kill is there and intact, and no record names a missing photo nor any photo lacks a record.
// docs/decisions/0037-crash-safe-photo-writes.md
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import type { Collection } from "~/domain/listing-kinds";
import { readEnv } from "~/shared/env.server";
import { startServices } from "../../server/services";
import { jpegWithGps } from "../support/images";
import { seededRandom } from "../support/seeded-random";
import { prepareAdmin, serverProcessTargets, startServerProcess } from "../support/server-process";
import { storageProblems } from "../support/storage-consistency";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const random = seededRandom("crash");
const WORKERS = 6;
const ADMIN = "crash-admin@example.com";

/** What a listing must look like: exactly these URLs, or these first and `count` in all. */
type Expect =
  | { exists: false }
  | { exists: true; description: string; urls: string[]; count: number };

interface Model {
  collection: Collection;
  id: string;
  acked: Expect;
  /** The write in flight when the server died: it may or may not have happened. */
  pending: Expect | null;
}

function matches(actual: { description: string; image_urls: string[] } | undefined, e: Expect) {
  if (!e.exists) return actual === undefined;
  if (!actual || actual.description !== e.description) return false;
  if (actual.image_urls.length !== e.count) return false;
  return e.urls.every((url, i) => actual.image_urls[i] === url);
}

for (const target of await serverProcessTargets()) {
  describe(`SIGKILL during concurrent admin writes on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it(`keeps every acknowledged write and a consistent photo store, ${ROUNDS} rounds`, async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `crash-${target.name}-`));
      // The server listens on port 0 and reports its port: a new one after every restart.
      let base = "";
      const source: Record<string, string> = {
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: target.databaseUrl ?? "",
        SEED_DEMO: "false",
        WRITE_RATE_LIMIT: "1000000",
        RENDER_RATE_LIMIT: "1000000",
      };
      const env = readEnv(source);

      // A signed-in admin, made before the first start (the session survives every restart).
      const cookie = await prepareAdmin(env, ADMIN);

      const photo = await jpegWithGps(64, 48);
      const models: Model[] = [];
      const acknowledged = { writes: 0, inFlightAtKill: 0 };
      let serial = 0;
      const failures: string[] = [];
      const timings: number[][] = [];

      try {
        for (let round = 1; round <= ROUNDS; round++) {
          const t0 = performance.now();
          const server = await startServerProcess(source);
          base = server.base;
          const t1 = performance.now();
          // Killed once a random number of writes were acknowledged, while the others run.
          const ackedBefore = acknowledged.writes;
          const killAfter = 2 + Math.floor(random() * 14);
          const workers = Array.from({ length: WORKERS }, (_, w) =>
            runWorker(w % 2 === 0 ? "properties" : "newConstruction"),
          );
          const deadline = performance.now() + 15_000;
          while (acknowledged.writes - ackedBefore < killAfter && performance.now() < deadline) {
            await new Promise((r) => setTimeout(r, 5));
          }
          const ackedAtKill = acknowledged.writes - ackedBefore;
          server.kill("SIGKILL");
          await once(server, "exit");
          await Promise.allSettled(workers);
          // A round whose writes hung proves nothing about a crash: it needs its acknowledged
          // writes before the kill, or hung writes would pass as writes the kill interrupted.
          expect(
            ackedAtKill,
            `round ${round}: writes acknowledged before the kill`,
          ).toBeGreaterThanOrEqual(killAfter);

          const t2 = performance.now();
          // The database opens cleanly and the server's own start-up code puts the store right.
          const services = await startServices(env);
          timings.push([t1 - t0, t2 - t1, performance.now() - t2]);
          try {
            const rows = await services.db.query<{
              collection: Collection;
              id: string;
              description: string;
              image_urls: string[];
            }>("SELECT collection, id, description, image_urls FROM listings");
            const byKey = new Map(rows.map((r) => [`${r.collection}/${r.id}`, r]));
            const wrong: string[] = [];
            for (const model of models) {
              const actual = byKey.get(`${model.collection}/${model.id}`);
              byKey.delete(`${model.collection}/${model.id}`);
              const ok =
                matches(actual, model.acked) ||
                (model.pending !== null && matches(actual, model.pending));
              if (!ok) {
                wrong.push(
                  `${model.id}: ${JSON.stringify(actual ?? null)} is neither ${JSON.stringify(model.acked)} nor ${JSON.stringify(model.pending)}`,
                );
              }
              // From now on the record is what survived (checked again after every later kill).
              model.acked = actual
                ? {
                    exists: true,
                    description: actual.description,
                    urls: actual.image_urls,
                    count: actual.image_urls.length,
                  }
                : { exists: false };
              model.pending = null;
            }
            for (const key of byKey.keys()) {
              // A record no acknowledged write made is only allowed from an add in flight.
              wrong.push(`unexpected record ${key}`);
            }
            expect(wrong, `round ${round}`).toEqual([]);
            expect(failures, `round ${round}`).toEqual([]);
            expect(await storageProblems(services.db, services.images), `round ${round}`).toEqual(
              [],
            );
            // Every acknowledged photo is still a whole JPEG.
            for (const row of rows) {
              for (const url of row.image_urls) {
                const file = services.images.filesOf(url)[0] as string;
                const meta = await sharp(file).metadata();
                expect(meta.format, url).toBe("jpeg");
              }
            }
          } finally {
            await services.close();
          }
        }
      } finally {
        await fs.rm(dataDir, { recursive: true, force: true });
      }
      console.log(
        `crash ${target.name}: ${ROUNDS} rounds, ${acknowledged.writes} writes acknowledged before a kill, ${acknowledged.inFlightAtKill} in flight at a kill, ${models.length} listings; ms per round (start, burst, restart): ${timings.map((t) => t.map((x) => x.toFixed(0)).join("/")).join(" ")}`,
      );

      /** One listing's life, write after write, until the server dies under it. */
      async function runWorker(collection: Collection) {
        const address = `${++serial} Crash Street ${randomUUID().slice(0, 8)}`;
        const model: Model = {
          collection,
          id: "",
          acked: { exists: false },
          pending: null,
        };
        const send = async (method: string, url: string, body?: BodyInit, json = false) => {
          const res = await fetch(`${base}/api/listings/${collection}${url}`, {
            method,
            headers: { cookie, ...(json ? { "content-type": "application/json" } : {}) },
            body,
          });
          const text = await res.text();
          if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
          acknowledged.writes++;
          return text ? JSON.parse(text) : null;
        };
        const form = (data?: object) => {
          const f = new FormData();
          if (data) f.append("data", JSON.stringify(data));
          f.append("images", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "p.jpg");
          return f;
        };
        let state: Extract<Expect, { exists: true }> | null = null;
        let version = 0;
        const step = async (pending: Expect, write: () => Promise<void>) => {
          model.pending = pending;
          try {
            await write();
          } catch (error) {
            acknowledged.inFlightAtKill++;
            throw error;
          }
          model.acked = pending;
          model.pending = null;
        };
        try {
          // Add (one photo): the id follows from the address.
          model.id = listingKey(address);
          models.push(model);
          state = { exists: true, description: "v0", urls: [], count: 1 };
          await step(state, async () => {
            await send("POST", "", form({ address, description: "v0" }));
          });
          for (let n = 1; ; n++) {
            const current: Extract<Expect, { exists: true }> = state;
            // Upload one more photo.
            await step({ ...current, count: current.count + 1 }, async () => {
              const change = await send("POST", `/${model.id}/images`, form());
              version = change.version;
              state = { ...current, urls: change.image_urls, count: change.image_urls.length };
            });
            if (state) model.acked = state;
            // Edit (based on the version just acknowledged).
            const edited: Extract<Expect, { exists: true }> = { ...state, description: `v${n}` };
            await step(edited, async () => {
              await send(
                "PUT",
                `/${model.id}`,
                JSON.stringify({ address, description: `v${n}`, image_urls: edited.urls, version }),
                true,
              );
              state = edited;
            });
            // Remove the first photo.
            const first = edited.urls[0] as string;
            const removed = { ...edited, urls: edited.urls.slice(1), count: edited.count - 1 };
            await step(removed, async () => {
              const change = await send(
                "DELETE",
                `/${model.id}/images`,
                JSON.stringify({ url: first }),
                true,
              );
              version = change.version;
              state = { ...removed, urls: change.image_urls, count: change.image_urls.length };
            });
            if (state) model.acked = state;
            if (n % 3 === 0) {
              await step({ exists: false }, async () => {
                await send("DELETE", `/${model.id}`);
              });
              return;
            }
          }
        } catch (error) {
          // The server died: whatever was in flight stays in model.pending. Any answer with an
          // error status, though, is a refusal the test did not expect.
          if (!(error instanceof TypeError)) failures.push(String(error));
        }
      }
    });
  });
}
