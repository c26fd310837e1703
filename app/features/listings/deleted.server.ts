// Recently deleted (docs/behaviour.md §22): deleted listings kept 30 days, then purged with
// their photos and their history.
import type { Collection } from "~/domain/listing-kinds";
import type { ImageStore } from "~/features/images/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import type { PeriodicJob } from "~/shared/scheduler.server";
import type { ListingSnapshot } from "./history.server";
import { RETENTION_MS } from "./listing-writes.server";

export interface DeletedListing {
  entry: number;
  collection: Collection;
  id: string;
  address: string;
  deleted_at: string;
  deleted_by: string | null;
}

/** What can still be restored, newest deletion first. */
export async function listDeleted(q: Queryable, now = Date.now()): Promise<DeletedListing[]> {
  const rows = await q.query<{
    entry: string | number;
    collection: Collection;
    id: string;
    record: ListingSnapshot;
    deleted_at: string | Date;
    deleted_by: string | null;
  }>(
    `SELECT entry, collection, id, record, deleted_at, deleted_by FROM deleted_listings
      WHERE deleted_at > $1 ORDER BY deleted_at DESC, entry DESC`,
    [new Date(now - RETENTION_MS).toISOString()],
  );
  return rows.map((r) => ({
    entry: Number(r.entry),
    collection: r.collection,
    id: r.id,
    address: r.record.address,
    deleted_at: new Date(r.deleted_at).toISOString(),
    deleted_by: r.deleted_by,
  }));
}

const urlsOf = (snapshot: Partial<ListingSnapshot> | null | undefined) =>
  Array.isArray(snapshot?.image_urls) ? snapshot.image_urls : [];

/**
 * Deletes for good what was deleted more than 30 days ago: the entry, the listing's history up
 * to its deletion, and every photo no live listing, other deleted listing or history still names.
 * Returns how many listings were purged.
 */
export async function purgeExpired(db: Db, images: ImageStore, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - RETENTION_MS).toISOString();
  const candidates = await db.transaction(async (tx) => {
    const expired = await tx.query<{
      entry: string;
      collection: Collection;
      id: string;
      record: ListingSnapshot;
      deleted_at: string | Date;
    }>(
      "SELECT entry, collection, id, record, deleted_at FROM deleted_listings WHERE deleted_at <= $1 FOR UPDATE",
      [cutoff],
    );
    const urls = new Set<string>();
    for (const row of expired) {
      for (const url of urlsOf(row.record)) urls.add(url);
      const at = new Date(row.deleted_at).toISOString();
      const history = await tx.query<{ before: ListingSnapshot | null; after: ListingSnapshot }>(
        `DELETE FROM listing_history WHERE collection = $1 AND id = $2 AND at <= $3
         RETURNING before, after`,
        [row.collection, row.id, at],
      );
      for (const h of history)
        for (const url of [...urlsOf(h.before), ...urlsOf(h.after)]) urls.add(url);
      await tx.query("DELETE FROM deleted_listings WHERE entry = $1", [row.entry]);
    }
    return { count: expired.length, urls: [...urls] };
  });
  if (candidates.urls.length === 0) return candidates.count;
  const stillNamed = await namedPhotos(db);
  await images.purge(candidates.urls.filter((url) => !stillNamed.has(url)));
  return candidates.count;
}

/**
 * 'Erase for good' on Recently deleted (docs/behaviour.md §22): what the 30-day purge does, now,
 * for one entry: the entry, the listing's history up to its deletion, and every photo (with its
 * variants and trash copies) nothing else names. The photos go before the change commits, so a
 * failure leaves the entry restorable (originals go last). Answers what was erased.
 */
export async function eraseDeleted(
  db: Db,
  images: ImageStore,
  entry: number,
): Promise<{ collection: Collection; id: string; address: string; photos: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{
      collection: Collection;
      id: string;
      record: ListingSnapshot;
      deleted_at: string | Date;
    }>(
      "SELECT collection, id, record, deleted_at FROM deleted_listings WHERE entry = $1 FOR UPDATE",
      [entry],
    );
    if (!row) throw new HttpError(404, "That listing is no longer in Recently deleted.");
    const urls = new Set(urlsOf(row.record));
    const history = await tx.query<{ before: ListingSnapshot | null; after: ListingSnapshot }>(
      `DELETE FROM listing_history WHERE collection = $1 AND id = $2 AND at <= $3
       RETURNING before, after`,
      [row.collection, row.id, new Date(row.deleted_at).toISOString()],
    );
    for (const h of history)
      for (const url of [...urlsOf(h.before), ...urlsOf(h.after)]) urls.add(url);
    await tx.query("DELETE FROM deleted_listings WHERE entry = $1", [entry]);
    const stillNamed = await namedPhotos(tx);
    const erased = [...urls].filter((url) => !stillNamed.has(url));
    await images.purge(erased);
    return {
      collection: row.collection,
      id: row.id,
      address: row.record.address,
      photos: erased.length,
    };
  });
}

/** Every photo URL a listing, a deleted listing or a history entry names. */
export async function namedPhotos(q: Queryable): Promise<Set<string>> {
  const rows = await q.query<{ url: string }>(
    `SELECT jsonb_array_elements_text(image_urls) AS url FROM listings
     UNION SELECT jsonb_array_elements_text(record->'image_urls') FROM deleted_listings
     UNION SELECT jsonb_array_elements_text(after->'image_urls') FROM listing_history
     UNION SELECT jsonb_array_elements_text(COALESCE(before->'image_urls', '[]'::jsonb))
       FROM listing_history`,
  );
  return new Set(rows.map((r) => r.url));
}

/** Purges at start and then every hour (docs/behaviour.md §22). */
export function deletedPurgeJob(db: Db, images: ImageStore): PeriodicJob {
  return {
    name: "listings.deleted-purge",
    everySeconds: 3600,
    run: async () => {
      const n = await purgeExpired(db, images);
      return n > 0 ? `Purged ${n} listings deleted more than 30 days ago.` : undefined;
    },
  };
}
