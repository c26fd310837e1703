// Loads the scale benchmark's data into a fresh PostgreSQL database: the schema (the project's
// migrations), a handful of demo photos processed once by the real image pipeline and shared by
// every listing, 10,000 listings in multi-row INSERTs, and a signed-in admin's session.
import path from "node:path";
import pg from "pg";
import { FACT_KEYS } from "~/domain/listing-facts";
import { newToken, tokenId } from "~/features/auth/tokens.server";
import { DiskImageStore, processImage } from "~/features/images/index.server";
import { demoPhoto, type SceneKind } from "~/features/listings/demo-images.server";
import { openDb } from "~/shared/db.server";
import type { ScaleListing } from "./scale-data";

/** Drops and creates `name` on the server of `serverUrl`; returns the new database's URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const SCENES: Record<ScaleListing["collection"], SceneKind[]> = {
  properties: ["house", "house", "beach", "office"],
  newConstruction: ["site", "site"],
};
const COLUMNS = [
  "collection",
  "id",
  "address",
  "bedrooms",
  "bathrooms",
  "description",
  "image_urls",
  "thumbnail_image_url",
  "thumbnail_description",
  "property_type",
  "currently_available",
  "price",
  "reserve_url",
  ...FACT_KEYS,
  "created_at",
  "updated_at",
];
const BATCH = 500;

export interface Seeded {
  listings: number;
  photos: number;
  seconds: { photos: number; insert: number };
  /** Cookie header of a signed-in admin (session row written here, as a sign-in would). */
  adminCookie: string;
}

/**
 * Migrates `databaseUrl`, stores the shared photos under `dataDir/images` (in the folder of the
 * first listing of each kind) and inserts `listings`, newest last.
 */
export async function seedScale(
  databaseUrl: string,
  dataDir: string,
  listings: ScaleListing[],
): Promise<Seeded> {
  const db = await openDb({ databaseUrl });
  try {
    const started = performance.now();
    const store = new DiskImageStore(path.join(dataDir, "images"));
    const shared = new Map<ScaleListing["collection"], string[]>();
    let seed = 1;
    for (const [collection, scenes] of Object.entries(SCENES) as [
      ScaleListing["collection"],
      SceneKind[],
    ][]) {
      const owner = listings.find((l) => l.collection === collection);
      if (!owner) continue;
      const urls: string[] = [];
      const timestamp = store.timestamp();
      for (const [i, scene] of scenes.entries()) {
        const processed = await processImage(await demoPhoto(scene, seed++));
        urls.push(
          await store.saveProcessed(collection, owner.id, store.fileName(timestamp, i), processed),
        );
      }
      shared.set(collection, urls);
    }
    const photosDone = performance.now();

    // Oldest first, one minute apart: the lists (ordered by created_at) show a fixed order.
    const now = Date.now();
    for (let from = 0; from < listings.length; from += BATCH) {
      const batch = listings.slice(from, from + BATCH);
      const params: unknown[] = [];
      const rows = batch.map((l, b) => {
        const pool = shared.get(l.collection) ?? [];
        const offset = (from + b) % Math.max(1, pool.length);
        const urls = Array.from(
          { length: Math.min(l.photos, pool.length) },
          (_, k) => pool[(offset + k) % pool.length] as string,
        );
        const at = new Date(now - (listings.length - from - b) * 60_000);
        const input = l.input;
        const values = [
          l.collection,
          l.id,
          input.address,
          input.bedrooms,
          input.bathrooms,
          input.description,
          JSON.stringify(urls),
          urls[0] ?? null,
          input.thumbnail_description,
          input.property_type,
          input.currently_available,
          input.price,
          input.reserve_url,
          ...FACT_KEYS.map((k) => input[k] ?? null),
          at,
          at,
        ];
        const first = params.length;
        params.push(...values);
        return `(${values.map((_, k) => `$${first + k + 1}${COLUMNS[k] === "image_urls" ? "::jsonb" : ""}`).join(", ")})`;
      });
      await db.query(
        `INSERT INTO listings (${COLUMNS.join(", ")}) VALUES ${rows.join(", ")}`,
        params,
      );
    }
    await db.query("ANALYZE listings");
    const inserted = performance.now();

    const adminCookie = await adminSession(db);
    return {
      listings: listings.length,
      photos: [...shared.values()].flat().length,
      seconds: {
        photos: Math.round((photosDone - started) / 100) / 10,
        insert: Math.round((inserted - photosDone) / 100) / 10,
      },
      adminCookie,
    };
  } finally {
    await db.close();
  }
}

/**
 * The rows a sign-in of an admin leaves (users, an admin grant bound to that user, a session
 * with the SHA-256 of its token): the production server, which has no sign-in here, then treats
 * the cookie exactly as a signed-in admin's. Cookie name `session`: PUBLIC_URL is plain http.
 */
async function adminSession(db: Awaited<ReturnType<typeof openDb>>): Promise<string> {
  const issuer = "https://bench.invalid";
  const sub = "bench-admin";
  const email = "bench@example.com";
  await db.query(
    "INSERT INTO users (issuer, sub, email, email_verified, name) VALUES ($1, $2, $3, true, 'Benchmark')",
    [issuer, sub, email],
  );
  await db.query(
    "INSERT INTO admins (email, uid, uid_issuer, granted_by) VALUES ($1, $2, $3, $4)",
    [email, sub, issuer, "scale benchmark"],
  );
  const token = newToken();
  const now = new Date();
  await db.query(
    `INSERT INTO sessions (id, user_issuer, user_sub, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $4, $5)`,
    [tokenId(token), issuer, sub, now, new Date(now.getTime() + 86_400_000)],
  );
  return `session=${token}`;
}
