import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext, UNSAFE_DataWithResponseInit } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { selectFeatured } from "~/domain/featured";
import { FeedCache } from "~/features/feeds/index.server";
import { DiskImageStore } from "~/features/images/storage.server";
import { readEnv } from "~/shared/env.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { DEMO_LISTINGS, seedDemoContent } from "./demo-seed.server";
import { type DetailData, loadListingDetail } from "./detail-loader.server";
import { listSummaries } from "./queries.server";

type Wrapped = UNSAFE_DataWithResponseInit<DetailData>;

describe.each(dbTargets)("loaders on $name with the demo content", (target) => {
  let context: AppLoadContext;
  let cleanup: () => Promise<void>;
  let imageRoot: string;
  beforeAll(async () => {
    const opened = await target.open();
    imageRoot = await fs.mkdtemp(path.join(os.tmpdir(), "images-"));
    context = {
      db: opened.db,
      images: new DiskImageStore(imageRoot),
      env: readEnv({}),
      viewer: {
        user: null,
        role: null,
        isAdmin: false,
        listings: null,
        signIn: { available: false, providerName: "Google" },
      },
      feeds: new FeedCache(opened.db, { publicUrl: "http://localhost:3000" }),
      applications: { key: null, vault: null },
      // Not used by the public loaders.
      erasePerson: () => Promise.reject(new Error("not part of these loaders")),
    };
    cleanup = opened.cleanup;
    expect(await seedDemoContent(context.db, context.images)).toBe(DEMO_LISTINGS.length);
  }, 120_000);
  afterAll(async () => {
    await cleanup?.();
    await fs.rm(imageRoot, { recursive: true, force: true });
  });

  it("seeds only once", async () => {
    expect(await seedDemoContent(context.db, context.images)).toBe(0);
  });

  it("lists each collection and both for the home page", async () => {
    const props = { listings: await listSummaries(context.db, "properties") };
    const cons = { listings: await listSummaries(context.db, "newConstruction") };
    const all = { listings: await listSummaries(context.db) };
    expect(props.listings.every((l) => l.collection === "properties")).toBe(true);
    expect(cons.listings.every((l) => l.collection === "newConstruction")).toBe(true);
    expect(all.listings.length).toBe(props.listings.length + cons.listings.length);
    const featured = selectFeatured(all.listings, company.featuredAddresses);
    expect(featured.map((l) => [l.address, l.collection])).toEqual([
      ["3233 4th Street N", "properties"],
      ["409 N Jackson Street", "properties"],
      ["3131 Draper Drive Fairfax, VA ", "newConstruction"],
    ]);
  });

  it("loads a detail record with its photos stored under the listing's folder", async () => {
    const result = (await loadListingDetail(context, "properties", "3233-4th-street-n")) as Wrapped;
    expect(result.init?.status ?? 200).toBe(200);
    const listing = result.data.listing;
    expect(listing?.address).toBe("3233 4th Street N");
    expect(listing?.image_urls).toHaveLength(3);
    expect(listing?.thumbnail_image_url).toBe(listing?.image_urls[0]);
    for (const [i, url] of (listing?.image_urls ?? []).entries()) {
      expect(url).toMatch(
        new RegExp(`^/images/properties/3233-4th-street-n/image_\\d+_${i}\\.jpg$`),
      );
      expect((await context.images.read(url))?.length).toBeGreaterThan(10_000);
    }
  });

  it("answers 404 with 'missing' for an unknown id", async () => {
    const result = (await loadListingDetail(context, "newConstruction", "nope")) as Wrapped;
    expect(result.init?.status).toBe(404);
    expect(result.data).toEqual({ listing: null, problem: "missing" });
  });

  it("answers 'failed' when the database read fails", async () => {
    const broken = {
      ...context,
      db: { ...context.db, query: () => Promise.reject(new Error("down")) },
    };
    const result = (await loadListingDetail(
      broken as AppLoadContext,
      "properties",
      "x",
    )) as Wrapped;
    expect(result.data.problem).toBe("failed");
    expect(result.init?.status).toBe(503);
  });
});
