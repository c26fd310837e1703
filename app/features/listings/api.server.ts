import { pipeline } from "node:stream/promises";
import express, { type Request, type Response } from "express";
import { listingWarnings } from "~/domain/listing-check";
import { isPossibleListingId } from "~/domain/listing-id";
import { type Collection, isCollection, KINDS } from "~/domain/listing-kinds";
import { messages } from "~/domain/messages";
import {
  type ImageStore,
  type StoredPhoto,
  variantUrl,
  withUpload,
} from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { HttpError } from "~/shared/http-error.server";
import { JSON_BODY_BYTES } from "~/shared/request-body.server";
import { actorOf, route } from "./api-route.server";
import { csvRoutes } from "./csv-api.server";
import { eraseDeleted } from "./deleted.server";
import { historyOnlyPhotos } from "./history.server";
import {
  parseCaptionMap,
  parseJsonField,
  parseListingFields,
  parseUploadCaptions,
} from "./listing-input.server";
import { ListingWrites } from "./listing-writes.server";
import { confirmAvailability, getListing } from "./queries.server";

/** The permissions of the permission table (auth's permissions.ts) that listings ask for. */
export type ListingPermission =
  | "listings:read"
  | "listings:write"
  | "listings:availability"
  | "listings:erase";

interface ListingApiOptions {
  db: Db;
  images: ImageStore;
  /**
   * The staff guard (requireStaffApi) for a permission: 401 when signed out, 403 without it.
   * Every route asks for its own, before reading the body (docs/behaviour.md §6, "Staff roles").
   */
  guard: (permission: ListingPermission) => express.RequestHandler;
  /** The home page's list changed: this instance drops its kept pages before answering. */
  onSiteChange?: () => void;
  /** A stored photo URL as staff can open it, for the CSV export. */
  photoAddress?: (url: string) => string;
}

function collectionOf(req: Request): Collection {
  const { collection } = req.params;
  if (!isCollection(collection)) throw new HttpError(404, "Unknown collection.");
  return collection;
}

/** Every listing write: authorised, validated and sequenced on the server. */
export function createListingApi({
  db,
  images,
  guard,
  onSiteChange,
  photoAddress,
}: ListingApiOptions) {
  const writes = new ListingWrites(db, images);
  const api = express.Router();
  // Staff of any role reach the API; each route then asks for what it does.
  api.use(guard("listings:read"));
  api.use(express.json({ limit: JSON_BODY_BYTES }));
  // No record has such an id: answer as for any missing one, without asking the database.
  api.param("id", (req, _res, next, id: string) => {
    if (isPossibleListingId(id)) return next();
    const { collection } = req.params;
    if (collection !== undefined && !isCollection(collection)) {
      return next(new HttpError(404, "Unknown collection."));
    }
    next(new HttpError(404, messages.notFoundOnDelete(KINDS[collection ?? "properties"].noun)));
  });

  // Uploads are streamed to temporary files under the image store, deleted when done.
  const tempFile = () => images.tempPath("upload");

  api.post(
    "/listings/:collection",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const { id, warnings } = await withUpload(req, res, tempFile, async ({ fields, files }) => {
        const input = parseListingFields(collection, parseJsonField(fields.data));
        const captions = parseUploadCaptions(fields.captions, files.length);
        const { id } = await writes.add(
          collection,
          input,
          files.map((f) => f.path),
          captions,
          actorOf(res),
        );
        // The 'Listing check' (docs/behaviour.md §29): warnings, never a refusal.
        return { id, warnings: listingWarnings(collection, { ...input, captions }) };
      });
      logEvent("listing added", actorOf(res)?.email ?? null, { collection, id });
      res.status(201).json({ id, warnings });
    }),
  );

  api.put(
    "/listings/:collection/:id",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const input = parseListingFields(collection, req.body);
      const urls = req.body?.image_urls;
      if (!Array.isArray(urls) || !urls.every((u) => typeof u === "string")) {
        throw new HttpError(400, "The image list is missing.");
      }
      const version = req.body?.version;
      if (!Number.isInteger(version) || version < 1) {
        throw new HttpError(
          400,
          "The version the edit is based on is missing. Reload the page and try again.",
        );
      }
      const captions = parseCaptionMap(req.body?.image_captions, urls);
      await writes.save(
        collection,
        String(req.params.id),
        input,
        urls,
        version,
        captions,
        actorOf(res),
      );
      logEvent("listing saved", actorOf(res)?.email ?? null, {
        collection,
        id: String(req.params.id),
      });
      const checked = { ...input, captions: captions && urls.map((u) => captions[u] ?? "") };
      res.json({ warnings: listingWarnings(collection, checked) });
    }),
  );

  api.patch(
    "/listings/properties/:id/availability",
    guard("listings:availability"),
    route(async (req, res) => {
      const available = req.body?.currently_available;
      if (typeof available !== "boolean") {
        throw new HttpError(400, "currently_available must be true or false.");
      }
      await writes.setAvailability(String(req.params.id), available, actorOf(res));
      logEvent("availability changed", actorOf(res)?.email ?? null, {
        collection: "properties",
        id: String(req.params.id),
        available,
      });
      res.status(204).end();
    }),
  );

  // 'Still available' in the staff table (docs/behaviour.md §30): a confirmation, not a change.
  api.post(
    "/listings/properties/:id/still-available",
    guard("listings:availability"),
    route(async (req, res) => {
      const id = String(req.params.id);
      const result = await confirmAvailability(db, id);
      if (result === "missing") throw new HttpError(404, messages.notFoundOnDelete("Property"));
      if (result === "not-available") {
        throw new HttpError(
          409,
          "This property is marked Not Available: there is no availability to confirm.",
        );
      }
      res.status(204).end();
    }),
  );

  api.put(
    "/listings/:collection/:id/featured",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const featured = req.body?.featured;
      if (typeof featured !== "boolean")
        throw new HttpError(400, "featured must be true or false.");
      await writes.setFeatured(collection, String(req.params.id), featured);
      onSiteChange?.();
      res.json({ featured });
    }),
  );

  api.post(
    "/listings/:collection/:id/images",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const change = await withUpload(req, res, tempFile, ({ files }) =>
        writes.addImages(
          collection,
          String(req.params.id),
          files.map((f) => f.path),
          actorOf(res),
        ),
      );
      res.json(change);
    }),
  );

  api.delete(
    "/listings/:collection/:id/images",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const url = req.body?.url;
      if (typeof url !== "string") throw new HttpError(400, "Which image? The url is missing.");
      res.json(await writes.removeImage(collection, String(req.params.id), url, actorOf(res)));
    }),
  );

  api.delete(
    "/listings/:collection/:id",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      await writes.remove(collection, String(req.params.id), actorOf(res));
      logEvent("listing deleted", actorOf(res)?.email ?? null, {
        collection,
        id: String(req.params.id),
      });
      res.status(204).end();
    }),
  );

  // 'Restore this version' (docs/behaviour.md §21).
  api.post(
    "/listings/:collection/:id/history/:seq/restore",
    guard("listings:write"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const seq = Number(req.params.seq);
      if (!Number.isSafeInteger(seq) || seq < 1) {
        throw new HttpError(404, "That version is not in this listing's history.");
      }
      await writes.restoreVersion(collection, String(req.params.id), seq, actorOf(res));
      logEvent("listing restored", actorOf(res)?.email ?? null, {
        collection,
        id: String(req.params.id),
        version: seq,
      });
      res.status(204).end();
    }),
  );

  // A photo only the history names, for the history page's 'Erase for good' list (staff only,
  // never cached: it is not public).
  api.get(
    "/listings/:collection/:id/history/photo",
    guard("listings:read"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const id = String(req.params.id);
      const url = req.query.url;
      const listing = await getListing(db, collection, id);
      if (!listing) throw new HttpError(404, messages.notFoundOnDelete(KINDS[collection].noun));
      const named = await historyOnlyPhotos(db, collection, id, listing.image_urls);
      if (typeof url !== "string" || !named.some((p) => p.url === url)) {
        throw new HttpError(404, "That photo is not in this listing's history.");
      }
      const small = variantUrl(url, 400, "jpg");
      const photo =
        (await images.openTrashed(small)) ??
        (await images.openTrashed(url)) ??
        (await images.open(url));
      if (!photo) throw new HttpError(404, "That photo is no longer stored.");
      await sendPrivatePhoto(res, photo);
    }),
  );

  // 'Erase for good' on the history page (docs/behaviour.md §21).
  api.delete(
    "/listings/:collection/:id/history/photos",
    guard("listings:erase"),
    route(async (req, res) => {
      const collection = collectionOf(req);
      const id = String(req.params.id);
      const url = req.body?.url;
      if (typeof url !== "string" || url.length === 0 || url.length > 2048) {
        throw new HttpError(400, "Which photo? The url is missing.");
      }
      const actor = actorOf(res);
      await writes.eraseHistoryPhoto(collection, id, url, actor);
      logEvent("photo erased", actor?.email ?? null, { collection, id, url });
      res.status(204).end();
    }),
  );

  // 'Erase for good' on 'Recently deleted' (docs/behaviour.md §22).
  api.delete(
    "/deleted/:entry",
    guard("listings:erase"),
    route(async (req, res) => {
      const entry = deletedEntryOf(req);
      const erased = await eraseDeleted(db, images, entry);
      logEvent("listing erased", actorOf(res)?.email ?? null, { entry, ...erased });
      res.status(204).end();
    }),
  );

  // 'Restore' on 'Recently deleted' (docs/behaviour.md §22).
  api.post(
    "/deleted/:entry/restore",
    guard("listings:write"),
    route(async (req, res) => {
      const entry = deletedEntryOf(req);
      const restored = await writes.restoreDeleted(entry, actorOf(res));
      logEvent("listing restored", actorOf(res)?.email ?? null, { entry });
      res.json(restored);
    }),
  );

  // 'Export CSV' and 'Import CSV' on /admin/listings.
  api.use(csvRoutes({ db, writes, photoAddress, guard }));

  // Errors go on to the app's one error handler (server/error-handler.ts).
  api.use((_req, _res, next) => next(new HttpError(404, "No such endpoint.")));
  return api;
}

/** A trashed photo for staff: never kept by a browser or a proxy. */
async function sendPrivatePhoto(res: Response, photo: StoredPhoto) {
  res.set({
    "Cache-Control": "private, no-store",
    "Content-Type": photo.contentType,
    "Content-Length": String(photo.size),
  });
  await pipeline(photo.body(), res).catch(() => {
    // The visitor went away, or the store broke off: the answer is cut short either way.
  });
}

/** The Recently deleted entry a route names; a number that cannot be one is not found. */
function deletedEntryOf(req: express.Request): number {
  const entry = Number(req.params.entry);
  if (!Number.isSafeInteger(entry) || entry < 1) {
    throw new HttpError(404, "That listing is no longer in Recently deleted.");
  }
  return entry;
}
