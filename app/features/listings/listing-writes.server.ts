import { type Listing, listingKey } from "~/domain/listing";
import { type Collection, KINDS } from "~/domain/listing-kinds";
import { addedMessages, messages } from "~/domain/messages";
import {
  type ImageStore,
  type ProcessedImage,
  processImage,
  type StagedRemoval,
} from "~/features/images/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
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
  async add(collection: Collection, fields: ListingFields, files: string[]) {
    const id = listingKey(fields.address);
    const duplicate = new HttpError(409, messages.duplicateAddress(KINDS[collection].noun));
    if (await listingExists(this.db, collection, id)) throw duplicate;
    const processed = await this.processAll(files);
    const { urls, settled } = await this.store(collection, id, processed, 0);
    try {
      const created = await insertListing(this.db, collection, id, { ...fields, image_urls: urls });
      if (!created) throw duplicate;
    } catch (error) {
      await this.discard(collection, id, urls);
      throw error;
    } finally {
      await settled();
    }
    return { id };
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
      const version = await updateListing(tx, collection, id, { ...fields, image_urls: imageUrls });
      if (version === null) throw this.notFound(collection);
      return { version };
    });
  }

  async setAvailability(id: string, available: boolean) {
    await this.db.transaction(async (tx) => {
      await this.locked(tx, "properties", id);
      await setAvailability(tx, id, available);
    });
  }

  /**
   * Appends uploaded photos to an existing record. The slow part (decoding, re-encoding,
   * storing) runs before the row is locked; the append itself reads the list under the lock,
   * so a save or a removal meanwhile is never undone and the new photo never dropped.
   */
  async addImages(collection: Collection, id: string, files: string[]): Promise<ImagesChange> {
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
        const next = [...locked.image_urls, ...urls];
        const version = await setImages(tx, collection, id, next);
        if (version === null) throw this.notFound(collection);
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
   * Removes one photo from the record and from storage together: the files are staged aside
   * while the row is locked and deleted for good only once the record no longer names them.
   */
  async removeImage(collection: Collection, id: string, url: string): Promise<ImagesChange> {
    // (A holder object: assignments inside the callback stay visible to the type checker.)
    const staged: { removal?: StagedRemoval } = {};
    let change: ImagesChange;
    try {
      change = await this.db.transaction(async (tx) => {
        const locked = await this.locked(tx, collection, id);
        if (!locked.image_urls.includes(url)) {
          throw new HttpError(404, "That image is not part of this listing.");
        }
        staged.removal = await this.images.stageRemoval(this.images.filesOf(url));
        const next = locked.image_urls.filter((u) => u !== url);
        const version = await setImages(tx, collection, id, next);
        if (version === null) throw this.notFound(collection);
        return { image_urls: next, version, previous_version: locked.version };
      });
    } catch (error) {
      await staged.removal?.rollback();
      throw error;
    }
    await staged.removal?.commit();
    return change;
  }

  /** Deletes every photo, then the record; if the record cannot be deleted the photos return. */
  async remove(collection: Collection, id: string) {
    const staged: { removal?: StagedRemoval } = {};
    try {
      await this.db.transaction(async (tx) => {
        await this.locked(tx, collection, id);
        staged.removal = await this.images.stageRemoval([this.images.folder(collection, id)]);
        if (!(await deleteListing(tx, collection, id))) throw this.notFound(collection);
      });
    } catch (error) {
      await staged.removal?.rollback();
      throw error;
    }
    await staged.removal?.commit();
  }
}
