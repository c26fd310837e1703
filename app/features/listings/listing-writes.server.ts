import { type Listing, listingKey } from "~/domain/listing";
import { type Collection, KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import type { ImageStore } from "~/features/images/index.server";
import { type ProcessedImage, processImage } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import type { ListingFields } from "./listing-input.server";
import {
  deleteListing,
  getListing,
  insertListing,
  listingExists,
  setAvailability,
  setImages,
  updateListing,
} from "./queries.server";

/** The spec §7 write sequences, arranged so that a failed step leaves data as it was. */
export class ListingWrites {
  constructor(
    private readonly db: Db,
    private readonly images: ImageStore,
  ) {}

  /** Checks and re-encodes every upload before anything is stored. */
  private async processAll(files: Buffer[]): Promise<ProcessedImage[]> {
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
    const timestamp = Date.now();
    const urls: string[] = [];
    try {
      for (const [i, image] of processed.entries()) {
        const name = this.images.fileName(timestamp, start + i);
        urls.push(await this.images.saveProcessed(collection, id, name, image));
      }
      return urls;
    } catch (error) {
      await this.discard(urls);
      throw error;
    }
  }

  private async discard(urls: string[]) {
    for (const url of urls) await this.images.remove(url).catch(() => undefined);
  }

  private async existing(collection: Collection, id: string): Promise<Listing> {
    const listing = await getListing(this.db, collection, id);
    if (!listing) throw new HttpError(404, messages.notFoundOnDelete(KINDS[collection].noun));
    return listing;
  }

  /** Uploads all images first, then writes the record; on any failure nothing remains. */
  async add(collection: Collection, fields: ListingFields, files: Buffer[]) {
    const id = listingKey(fields.address);
    const duplicate = new HttpError(409, messages.duplicateAddress(KINDS[collection].noun));
    if (await listingExists(this.db, collection, id)) throw duplicate;
    const processed = await this.processAll(files);
    const urls = await this.store(collection, id, processed, 0);
    try {
      const created = await insertListing(this.db, collection, id, { ...fields, image_urls: urls });
      if (!created) throw duplicate;
    } catch (error) {
      await this.discard(urls);
      throw error;
    }
    return { id };
  }

  /** Full update on save; the photo list may be reordered but not changed here. */
  async save(collection: Collection, id: string, fields: ListingFields, imageUrls: string[]) {
    const current = await this.existing(collection, id);
    const same =
      imageUrls.length === current.image_urls.length &&
      [...imageUrls].sort().join("\n") === [...current.image_urls].sort().join("\n");
    if (!same) {
      throw new HttpError(
        409,
        "The photos changed while you were editing. Reload the page and try again.",
      );
    }
    await updateListing(this.db, collection, id, { ...fields, image_urls: imageUrls });
  }

  async setAvailability(id: string, available: boolean) {
    if (!(await setAvailability(this.db, id, available))) {
      throw new HttpError(404, messages.notFoundOnDelete("Property"));
    }
  }

  /** Appends uploaded photos to an existing record. */
  async addImages(collection: Collection, id: string, files: Buffer[]) {
    if (files.length === 0) throw new HttpError(400, "Choose at least one image.");
    const current = await this.existing(collection, id);
    const processed = await this.processAll(files);
    const urls = await this.store(collection, id, processed, current.image_urls.length);
    try {
      return await this.db.transaction(async (tx) => {
        const locked = await tx.query<{ image_urls: string[] }>(
          "SELECT image_urls FROM listings WHERE collection = $1 AND id = $2 FOR UPDATE",
          [collection, id],
        );
        if (!locked[0]) throw new HttpError(404, messages.notFoundOnDelete(KINDS[collection].noun));
        const next = [...locked[0].image_urls, ...urls];
        await setImages(tx, collection, id, next);
        return next;
      });
    } catch (error) {
      await this.discard(urls);
      throw error;
    }
  }

  /** Removes one photo from the record and from storage together. */
  async removeImage(collection: Collection, id: string, url: string) {
    const current = await this.existing(collection, id);
    if (!current.image_urls.includes(url)) {
      throw new HttpError(404, "That image is not part of this listing.");
    }
    const staged = await this.images.stageRemoval(this.images.filesOf(url));
    const next = current.image_urls.filter((u) => u !== url);
    try {
      await setImages(this.db, collection, id, next);
    } catch (error) {
      await staged.rollback();
      throw error;
    }
    await staged.commit();
    return next;
  }

  /** Deletes every photo, then the record; if the record cannot be deleted the photos return. */
  async remove(collection: Collection, id: string) {
    await this.existing(collection, id);
    const staged = await this.images.stageRemoval([this.images.folder(collection, id)]);
    try {
      if (!(await deleteListing(this.db, collection, id))) {
        throw new HttpError(404, messages.notFoundOnDelete(KINDS[collection].noun));
      }
    } catch (error) {
      await staged.rollback();
      throw error;
    }
    await staged.commit();
  }
}
