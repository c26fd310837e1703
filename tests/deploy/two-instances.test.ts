// Two production servers on one PostgreSQL database and one bucket, behind nginx running the
// shipped deploy/nginx-leasing-site.conf, act as one site (docs/decisions/0039-several-instances.md).
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import express from "express";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar, followUntil, redirectTarget, request } from "~/features/auth/http-test-client";
import { jpegWithGps } from "../support/images";
import { missing } from "../support/prerequisite";
import { startS3, type TestS3 } from "../support/s3";
import {
  freshDatabase,
  type SiteProcess,
  startNginx,
  startSite,
  waitUntilServing,
} from "./processes";

const serverUrl = process.env.TEST_DATABASE_URL;
const ADMIN = "staff@example.com";

/** Server-sent events as they arrive, with their arrival time. */
function openLiveStream(url: string) {
  const events: { data: unknown; at: number }[] = [];
  let buffer = "";
  let opened!: () => void;
  const ready = new Promise<void>((r) => {
    opened = r;
  });
  const req = http.get(url, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      if (buffer.includes("retry:")) opened();
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
          .find((l) => l.startsWith("data: "))
          ?.slice(6);
        if (data) events.push({ data: JSON.parse(data), at: Date.now() });
        end = buffer.indexOf("\n\n");
      }
    });
  });
  req.on("error", () => undefined);
  return { events, ready, close: () => req.destroy() };
}

describe.skipIf(missing(!serverUrl && "TEST_DATABASE_URL is not set"))(
  "two instances behind nginx",
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let s3: TestS3;
    let sites: [SiteProcess, SiteProcess];
    /** Instance A and B. */
    const siteA = () => sites[0];
    const siteB = () => sites[1];
    let nginx: Awaited<ReturnType<typeof startNginx>>;
    let issuer: http.Server;
    let dataDirs: string;
    const jar = new CookieJar();

    beforeAll(async () => {
      db = await freshDatabase(serverUrl as string);
      s3 = await startS3();
      const bucket = await s3.createBucket();
      // nginx first: its address is the sites' PUBLIC_URL and the sign-in redirect; it is
      // pointed at the instances once they serve (processes.ts, startNginx).
      nginx = await startNginx();
      const site = nginx.base;
      // An identity provider outside both instances (as Google is): the project's development
      // provider, on its own loopback port.
      const issuerApp = express();
      issuer = issuerApp.listen(0, "127.0.0.1");
      await new Promise((r) => issuer.once("listening", r));
      const issuerBase = `http://127.0.0.1:${(issuer.address() as { port: number }).port}`;
      const { createDevIdentityProvider, DEV_OIDC_PATH } = await import(
        "~/features/auth/dev-provider.server"
      );
      const provider = await createDevIdentityProvider({
        publicUrl: issuerBase,
        redirectUri: `${site}/auth/callback`,
      });
      issuerApp.use(DEV_OIDC_PATH, provider.router);

      dataDirs = await fs.mkdtemp(path.join(os.tmpdir(), "two-instances-"));
      const env = (i: number) => ({
        DATA_DIR: path.join(dataDirs, `instance-${i}`),
        DATABASE_URL: db.url,
        ...s3.env(bucket),
        PUBLIC_URL: site,
        TRUST_PROXY: "loopback",
        SEED_DEMO: "false",
        ADMIN_EMAILS: ADMIN,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
      });
      // Both at the same moment, on an empty database.
      sites = [startSite(env(0)), startSite(env(1))];
      await Promise.all(sites.map((s) => waitUntilServing(s)));
      await nginx.route(sites);
    }, 120_000);

    afterAll(async () => {
      for (const site of sites ?? []) await site.stop();
      await nginx?.stop();
      issuer?.closeAllConnections();
      issuer?.close();
      await s3?.close();
      await db?.drop();
      if (dataDirs) await fs.rm(dataDirs, { recursive: true, force: true });
    });

    const write = (site: SiteProcess, path: string, init: RequestInit) =>
      request(jar, `${site.base}${path}`, {
        ...init,
        headers: { origin: nginx.base, ...(init.headers as Record<string, string>) },
      });

    it("migrated the empty database once, both instances running", async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query("SELECT name FROM schema_migrations ORDER BY name");
      await client.end();
      const files = (await fs.readdir("db/migrations")).filter((f) => f.endsWith(".sql")).sort();
      expect(rows.map((r) => r.name)).toEqual(files);
      for (const site of sites) {
        expect(site.child.exitCode).toBeNull();
        expect(site.output()).not.toMatch(/error/i);
      }
    });

    it("passes requests through nginx to both instances", async () => {
      const res = await fetch(`${nginx.base}/healthz`);
      expect(res.status).toBe(200);
      expect((await res.json()).database).toBe("postgres");
    });

    it("keeps a session made through one instance valid on the other", async () => {
      // The sign-in popup, through instance A (its callback too).
      const login = await request(jar, `${siteA().base}/auth/login`);
      const authorize = redirectTarget(login, siteA().base);
      const { url: interaction } = await followUntil(jar, authorize, "/dev-oidc/interaction/");
      const form = await request(jar, interaction);
      const action = /action="([^"]+)"/.exec(await form.text())?.[1]?.replaceAll("&amp;", "&");
      if (!action) throw new Error("no login form");
      const posted = await request(jar, new URL(action, interaction), {
        method: "POST",
        body: new URLSearchParams({ email: ADMIN, name: "Staff" }),
      });
      const { url: callback } = await followUntil(
        jar,
        redirectTarget(posted, interaction),
        "/auth/",
      );
      const onA = new URL(`${callback.pathname}${callback.search}`, siteA().base);
      const done = await request(jar, onA);
      expect(done.status, await done.clone().text()).toBe(200);
      expect(jar.get("session")).toBeTruthy();
      // The admin page answers the signed-in admin on instance B.
      const page = await request(jar, `${siteB().base}/admin/staff`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`\\"email\\",\\"${ADMIN}\\"`);
      // (Without the cookie, instance B knows nobody.)
      const anonymous = await fetch(`${siteB().base}/admin/staff`, { redirect: "manual" });
      expect(await anonymous.text()).not.toContain(ADMIN);
    });

    it("serves a photo uploaded through one instance from the other (and through nginx)", async () => {
      const body = new FormData();
      body.append(
        "data",
        JSON.stringify({
          address: "5 Twin Street",
          bedrooms: 2,
          bathrooms: 1,
          description: "Two servers",
          price: "1500",
          thumbnail_description: "Thumb",
          currently_available: true,
          property_type: "Residential",
        }),
      );
      const photo = await jpegWithGps(640, 480, "#336699");
      body.append("images", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "p.jpg");
      const added = await write(siteA(), "/api/listings/properties", { method: "POST", body });
      expect(added.status).toBe(201);
      const detail = await fetch(`${siteB().base}/properties/5-twin-street`);
      const url = /src="(\/images\/properties\/5-twin-street\/image_\d+_0\.jpg)"/.exec(
        await detail.text(),
      )?.[1];
      expect(url).toBeTruthy();
      const fromB = await fetch(`${siteB().base}${url}`);
      expect(fromB.status).toBe(200);
      expect(fromB.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const stored = Buffer.from(await fromB.arrayBuffer());
      const viaNginx = Buffer.from(await (await fetch(`${nginx.base}${url}`)).arrayBuffer());
      expect(viaNginx.equals(stored)).toBe(true);
      expect(stored.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    });

    it("brings an edit through either instance to live streams through nginx within 1 s", async () => {
      // Two streams through nginx (it spreads them over the instances), edits through each
      // instance directly: whichever instance holds a stream, an edit through the other reaches it.
      const streams = [0, 1].map(() => openLiveStream(`${nginx.base}/live?collections=properties`));
      try {
        await Promise.all(streams.map((s) => s.ready));
        for (const [site, available] of [
          [siteA, false],
          [siteB, true],
        ] as const) {
          const counts = streams.map((s) => s.events.length);
          const sent = Date.now();
          const res = await write(site(), "/api/listings/properties/5-twin-street/availability", {
            method: "PATCH",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ currently_available: available }),
          });
          expect(res.status).toBe(204);
          for (const [i, stream] of streams.entries()) {
            await expect
              .poll(() => stream.events.length, { timeout: 1000, interval: 10 })
              .toBeGreaterThan(counts[i] as number);
            const delay = (stream.events.at(-1)?.at ?? Infinity) - sent;
            expect(delay).toBeLessThan(1000);
            console.info(`live event ${delay} ms after the edit was sent`);
          }
        }
      } finally {
        for (const s of streams) s.close();
      }
    });
  },
);
