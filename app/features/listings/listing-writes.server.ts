import { type Listing, listingKey } from "~/domain/listing";
import { type Collection, KINDS } from "~/domain/listing-kinds";
import { addedMessages, messages } from "~/domain/messages";
import {
  type ImageStore,
  type ProcessedImage,
  processImage,
  type StagedRemoval,
} from "~/features/images/index.server";
import { dropFeatured, setFeatured } from "~/features/site-settings/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import {
  type Actor,
  type HistoryAction,
  historyEntry,
  type ListingSnapshot,
  recordChange,
  snapshotOf,
  strip,
  withoutPhoto,
} from "./history.server";
import type { ListingFields } from "./listing-input.server";
import {
  deleteListing,
  getListing,
  insertListing,
  listingExists,
  lockListing,
  setAvailability,
  setImages,
  updateListing,
} from "./queries.server";

/** What a photo change answers: the new list and version, and the version it was applied to. */
export interface ImagesChange {
  image_urls: string[];
  version: number;
  /**
   * The version just before this change. An edit form that was at this version moves to
   * `version`; one that was older stays older, so its next save is still refused.
   */
  previous_version: number;
}

/**
 * The docs/behaviour.md §7 write sequences, arranged so that a failed step leaves data as it was. Every
 * read-modify-write runs in one transaction on the locked row (lockListing): two staff, or two
 * tabs, changing one listing at once are applied one after the other, never interleaved.
 */
export class ListingWrites {
  constructor(
    private readonly db: Db,
    private readonly images: ImageStore,
  ) {}

  /** Checks and re-encodes every upload (files on disk) before anything is stored. */
  private async processAll(files: string[]): Promise<ProcessedImage[]> {
    const out: ProcessedImage[] = [];
    for (const file of files) out.push(await processImage(file));
    return out;
  }

  private async store(
    collection: Collection,
    id: string,
    processed: ProcessedImage[],
    start: number,
  ) {
    const timestamp = this.images.timestamp();
    const names = processed.map((_, i) => this.images.fileName(timestamp, start + i));
    // Noted before the first file is written: a crash before the record names them leaves a
    // note the start-up repair acts on (docs/decisions/0037-crash-safe-photo-writes.md).
    const settled = await this.images.notePending(
      names.map((name) => this.images.url(collection, id, name)),
    );
    const urls: string[] = [];
    try {
      for (const [i, image] of processed.entries()) {
        urls.push(await this.images.saveProcessed(collection, id, names[i] as string, image));
      }
      return { urls, settled };
    } catch (error) {
      await this.discard(collection, id, urls);
      await settled();
      throw error;
    }
  }

  /** Deletes photos that never made it into a record (and their folder if it is left empty). */
  private async discard(collection: Collection, id: string, urls: string[]) {
    for (const url of urls) await this.images.remove(url).catch(() => undefined);
    await this.images.removeFolderIfEmpty(collection, id);
  }

  private notFound(collection: Collection) {
    return new HttpError(404, messages.notFoundOnDelete(KINDS[collection].noun));
  }

  private async locked(tx: Queryable, collection: Collection, id: string) {
    const row = await lockListing(tx, collection, id);
    if (!row) throw this.notFound(collection);
    return row;
  }

  private async existing(collection: Collection, id: string): Promise<Listing> {
    const listing = await getListing(this.db, collection, id);
    if (!listing) throw this.notFound(collection);
    return listing;
  }

  /** Uploads all images first, then writes the record; on any failure nothing remains. */
  async add(
    collection: Collection,
    fields: ListingFields,
    files: string[],
    captions: string[] = [],
    actor: Actor | null = null,
  ) {
    const id = listingKey(fields.address);
    const duplicate = new HttpError(409, messages.duplicateAddress(KINDS[collection].noun));
    if (await listingExists(this.db, collection, id)) throw duplicate;
    const processed = await this.processAll(files);
    const { urls, settled } = await this.store(collection, id, processed, 0);
    try {
      const image_captions = Object.fromEntries(
        urls.flatMap((url, i) => (captions[i] ? [[url, captions[i]]] : [])),
      );
      await this.db.transaction(async (tx) => {
        const created = await insertListing(tx, collection, id, {
          ...fields,
          image_urls: urls,
          image_captions,
        });
        if (!created) throw duplicate;
        await this.record(tx, collection, id, actor, "added", null);
      });
    } catch (error) {
      await this.discard(collection, id, urls);
      throw error;
    } finally {
      await settled();
    }
    return { id };
  }

  /**
   * 'Import CSV' (docs/behaviour.md §25): new listings without photos, all in one transaction with
   * a history entry each; one that cannot be added (its address taken meanwhile) adds none.
   */
  async addMany(
    rows: readonly { collection: Collection; id: string; fields: ListingFields }[],
    actor: Actor | null = null,
  ) {
    await this.db.transaction(async (tx) => {
      for (const { collection, id, fields } of rows) {
        const created = await insertListing(tx, collection, id, {
          ...fields,
          image_urls: [],
          image_captions: {},
        });
        if (!created) throw new HttpError(409, messages.duplicateAddress(KINDS[collection].noun));
        await this.record(tx, collection, id, actor, "imported", null);
      }
    });
  }

  /** Writes the history entry of a change made in `tx` (docs/behaviour.md §21). */
  private async record(
    tx: Queryable,
    collection: Collection,
    id: string,
    actor: Actor | null,
    action: HistoryAction,
    before: (ListingSnapshot & { updated_at?: string }) | null,
  ) {
    const after = await snapshotOf(tx, collection, id);
    if (!after) throw this.notFound(collection);
    await recordChange(tx, { collection, id, actor, action, before, after });
  }

  private async before(tx: Queryable, collection: Collection, id: string) {
    const snapshot = await snapshotOf(tx, collection, id);
    if (!snapshot) throw this.notFound(collection);
    return snapshot;
  }

  /**
   * Full update on save, refused (409, "stale") unless the record is still at `baseVersion`, the
   * version the edit form was opened on. The photo list may be reordered but not changed here.
   */
  async save(
    collection: Collection,
    id: string,
    fields: ListingFields,
    imageUrls: string[],
    baseVersion: number,
    /** Captions by photo URL (docs/behaviour.md §20); absent: unchanged. */
    captions?: Record<string, string>,
    actor: Actor | null = null,
  ): Promise<{ version: number }> {
    return this.db.transaction(async (tx) => {
      const current = await this.locked(tx, collection, id);
      if (current.version !== baseVersion) {
        throw new HttpError(409, addedMessages.staleEdit(KINDS[collection].noun), "stale");
      }
      const same =
        imageUrls.length === current.image_urls.length &&
        [...imageUrls].sort().join("\n") === [...current.image_urls].sort().join("\n");
      if (!same) {
        throw new HttpError(
          409,
          "The photos changed while you were editing. Reload the page and try again.",
        );
      }
      const before = await this.before(tx, collection, id);
      const version = await updateListing(tx, collection, id, {
        ...fields,
        image_urls: imageUrls,
        image_captions: captions,
      });
      if (version === null) throw this.notFound(collection);
      await this.record(tx, collection, id, actor, "saved", before);
      return { version };
    });
  }

  async setAvailability(id: string, available: boolean, actor: Actor | null = null) {
    await this.db.transaction(async (tx) => {
      await this.locked(tx, "properties", id);
      const before = await this.before(tx, "properties", id);
      await setAvailability(tx, id, available);
      await this.record(tx, "properties", id, actor, "availability", before);
    });
  }

  /** 'Feature on home page' / 'Remove from home page' (docs/behaviour.md §19). */
  async setFeatured(collection: Collection, id: string, featured: boolean) {
    await this.db.transaction(async (tx) => {
      await this.locked(tx, collection, id);
      await setFeatured(tx, { collection, id }, featured);
    });
  }

  /**
   * Appends uploaded photos to an existing record. The slow part (decoding, re-encoding,
   * storing) runs before the row is locked; the append itself reads the list under the lock,
   * so a save or a removal meanwhile is never undone and the new photo never dropped.
   */
  async addImages(
    collection: Collection,
    id: string,
    files: string[],
    actor: Actor | null = null,
  ): Promise<ImagesChange> {
    if (files.length === 0) throw new HttpError(400, "Choose at least one image.");
    const current = await this.existing(collection, id);
    const processed = await this.processAll(files);
    const { urls, settled } = await this.store(
      collection,
      id,
      processed,
      current.image_urls.length,
    );
    try {
      return await this.db.transaction(async (tx) => {
        const locked = await this.locked(tx, collection, id);
        const before = await this.before(tx, collection, id);
        const next = [...locked.image_urls, ...urls];
        const version = await setImages(tx, collection, id, next);
        if (version === null) throw this.notFound(collection);
        await this.record(tx, collection, id, actor, "photos-added", before);
        return { image_urls: next, version, previous_version: locked.version };
      });
    } catch (error) {
      await this.discard(collection, id, urls);
      throw error;
    } finally {
      await settled();
    }
  }

  /**
   * Removes one photo from the record. Its files move to the trash while the row is locked (out
   * of public reach, kept for the history until the listing is purged; docs/behaviour.md §21)
   * and come back if the record cannot be changed.
   */
  async removeImage(
    collection: Collection,
    id: string,
    url: string,
    actor: Actor | null = null,
  ): Promise<ImagesChange> {
    // (A holder object: assignments inside the callback stay visible to the type checker.)
    const staged: { removal?: StagedRemoval } = {};
    let change: ImagesChange;
    try {
      change = await this.db.transaction(async (tx) => {
        const locked = await this.locked(tx, collection, id);
        if (!locked.image_urls.includes(url)) {
          throw new HttpError(404, "That image is not part of this listing.");
        }
        const before = await this.before(tx, collection, id);
        staged.removal = await this.images.moveToTrash([url]);
        const next = locked.image_urls.filter((u) => u !== url);
        const version = await setImages(tx, collection, id, next);
        if (version === null) throw this.notFound(collection);
        await this.record(tx, collection, id, actor, "photo-removed", before);
        return { image_urls: next, version, previous_version: locked.version };
      });
    } catch (error) {
      await staged.removal?.rollback();
      throw error;
    }
    await staged.removal?.commit();
    return change;
  }

  /**
   * Deleting moves the listing, with its photos, to 'Recently deleted' (docs/behaviour.md §22):
   * the row to `deleted_listings`, the photos to the trash, in one transaction.
   */
  async remove(collection: Collection, id: string, actor: Actor | null = null) {
    const staged: { removal?: StagedRemoval } = {};
    try {
      await this.db.transaction(async (tx) => {
        await this.locked(tx, collection, id);
        const before = await this.before(tx, collection, id);
        // A featured listing leaves the home page's list with it (docs/behaviour.md §19).
        await dropFeatured(tx, { collection, id });
        const record = strip(before);
        const at = new Date();
        await tx.query(
          `INSERT INTO deleted_listings (collection, id, record, deleted_at, deleted_by)
           VALUES ($1, $2, $3::jsonb, $4, $5)`,
          [collection, id, JSON.stringify(record), at.toISOString(), actor?.email ?? null],
        );
        await recordChange(tx, {
          collection,
          id,
          actor,
          action: "deleted",
          before,
          after: record,
          at,
        });
        staged.removal = await this.images.moveToTrash(record.image_urls);
        if (!(await deleteListing(tx, collection, id))) throw this.notFound(collection);
      });
    } catch (error) {
      await staged.removal?.rollback();
      throw error;
    }
    await staged.removal?.commit();
    await this.images.removeFolderIfEmpty(collection, id);
  }

  /**
   * 'Erase for good' on a listing's history page (docs/behaviour.md §21): a photo only the
   * history names is deleted with every variant and trash copy, and every history entry stops
   * naming it (its caption too); a new entry says a photo was erased. The files go while the row
   * is locked and before the change commits: a failure leaves the history naming a photo that is
   * still there (variants go first, so the original, which a restore needs, goes last).
   */
  async eraseHistoryPhoto(collection: Collection, id: string, url: string, actor: Actor | null) {
    await this.db.transaction(async (tx) => {
      const listing = await this.locked(tx, collection, id);
      if (listing.image_urls.includes(url)) {
        throw new HttpError(
          409,
          "That photo is still part of the listing: remove it from the listing first.",
        );
      }
      // Every entry of this listing: those that name the photo, and those that only keep its
      // caption (a removed photo's caption stays in the record's captions).
      const rows = await tx.query<{
        seq: string | number;
        before: ListingSnapshot | null;
        after: ListingSnapshot;
      }>(
        "SELECT seq, before, after FROM listing_history WHERE collection = $1 AND id = $2 FOR UPDATE",
        [collection, id],
      );
      const names = (snapshot: ListingSnapshot | null) =>
        Array.isArray(snapshot?.image_urls) && snapshot.image_urls.includes(url);
      if (!rows.some((row) => names(row.before) || names(row.after))) {
        throw new HttpError(404, "That photo is not in this listing's history.");
      }
      const [deleted] = await tx.query(
        `SELECT 1 FROM deleted_listings WHERE record->'image_urls' @> jsonb_build_array($1::text)
          LIMIT 1`,
        [url],
      );
      if (deleted) {
        throw new HttpError(
          409,
          "That photo belongs to a listing in Recently deleted: erase that listing there instead.",
        );
      }
      for (const row of rows) {
        const before = JSON.stringify(withoutPhoto(row.before, url));
        const after = JSON.stringify(withoutPhoto(row.after, url));
        if (before === JSON.stringify(row.before) && after === JSON.stringify(row.after)) continue;
        await tx.query(
          "UPDATE listing_history SET before = $2::jsonb, after = $3::jsonb WHERE seq = $1",
          [row.seq, before, after],
        );
      }
      await tx.query(
        "UPDATE listings SET image_captions = image_captions - $3::text WHERE collection = $1 AND id = $2",
        [collection, id, url],
      );
      const now = await this.before(tx, collection, id);
      await recordChange(tx, {
        collection,
        id,
        actor,
        action: "photo-erased",
        before: now,
        after: now,
        changes: [{ photos: "erased", count: 1 }],
      });
      await this.images.purge([url]);
    });
  }

  /** Refused (409, the duplicate-address message) when another listing has this address. */
  private async refuseTakenAddress(
    tx: Queryable,
    collection: Collection,
    id: string,
    address: string,
  ) {
    const rows = await tx.query(
      "SELECT 1 FROM listings WHERE collection = $1 AND id <> $2 AND (id = $3 OR address = $4)",
      [collection, id, listingKey(address), address],
    );
    if (rows.length > 0) {
      throw new HttpError(409, messages.duplicateAddress(KINDS[collection].noun));
    }
  }

  /** Brings the photos of `wanted` back from the trash; refused if one is gone for good. */
  private async photosBack(urls: string[]) {
    const { staged, missing } = await this.images.restoreFromTrash(urls);
    if (missing.length > 0) {
      await staged.rollback();
      throw new HttpError(
        409,
        `${missing.length === 1 ? "A photo" : `${missing.length} photos`} of that version no longer exist.`,
      );
    }
    return staged;
  }

  /**
   * 'Restore this version' (docs/behaviour.md §21): the fields and the photo list of a history
   * entry become the listing's again, as a new entry. Photos removed since come back from the
   * trash; photos added since go there.
   */
  async restoreVersion(collection: Collection, id: string, seq: number, actor: Actor | null) {
    const moves: StagedRemoval[] = [];
    try {
      await this.db.transaction(async (tx) => {
        await this.locked(tx, collection, id);
        const entry = await historyEntry(tx, collection, id, seq);
        if (!entry) throw new HttpError(404, "That version is not in this listing's history.");
        const before = await this.before(tx, collection, id);
        const target = entry.after;
        await this.refuseTakenAddress(tx, collection, id, target.address);
        const leaving = before.image_urls.filter((u) => !target.image_urls.includes(u));
        const coming = target.image_urls.filter((u) => !before.image_urls.includes(u));
        moves.push(await this.photosBack(coming));
        moves.push(await this.images.moveToTrash(leaving));
        const offer = KINDS[collection].hasOffer;
        const version = await updateListing(tx, collection, id, {
          ...target,
          currently_available: offer ? target.currently_available === true : null,
          price: offer ? target.price : null,
          reserve_url: offer ? target.reserve_url : null,
          image_captions: target.image_captions ?? {},
        });
        if (version === null) throw this.notFound(collection);
        await this.record(tx, collection, id, actor, "restored", before);
      });
    } catch (error) {
      for (const move of moves.reverse()) await move.rollback();
      throw error;
    }
  }

  /**
   * 'Restore' on 'Recently deleted' (docs/behaviour.md §22): the same id, fields and photos,
   * refused with the duplicate-address message when the address was taken meanwhile.
   */
  async restoreDeleted(
    entry: number,
    actor: Actor | null,
  ): Promise<{ collection: Collection; id: string }> {
    const moves: StagedRemoval[] = [];
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx.query<{
          collection: Collection;
          id: string;
          record: ListingSnapshot;
          deleted_at: string;
        }>(
          "SELECT collection, id, record, deleted_at FROM deleted_listings WHERE entry = $1 FOR UPDATE",
          [entry],
        );
        if (!row || Date.now() - new Date(row.deleted_at).getTime() > RETENTION_MS) {
          throw new HttpError(404, "That listing is no longer in Recently deleted.");
        }
        const { collection, id, record } = row;
        await this.refuseTakenAddress(tx, collection, id, record.address);
        const duplicate = new HttpError(409, messages.duplicateAddress(KINDS[collection].noun));
        moves.push(await this.photosBack(record.image_urls));
        const created = await insertListing(tx, collection, id, {
          ...record,
          image_captions: record.image_captions ?? {},
        });
        if (!created) throw duplicate;
        await tx.query("DELETE FROM deleted_listings WHERE entry = $1", [entry]);
        await this.record(tx, collection, id, actor, "undeleted", null);
        return { collection, id };
      });
    } catch (error) {
      for (const move of moves.reverse()) await move.rollback();
      throw error;
    }
  }
}

/** How long a deleted listing can be restored (docs/behaviour.md §22). */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
