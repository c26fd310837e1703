import { type AppLoadContext, data } from "react-router";
import { isPossibleListingId } from "~/domain/listing-id";
import { kindOfPath } from "~/domain/listing-kinds";
import { can, requireStaff } from "~/features/auth/index.server";
import { getListing, historyOnlyPhotos, listHistory } from "~/features/listings/index.server";

/** A listing's history page: admins only, 404 for a missing listing (docs/behaviour.md §21). */
export async function loadHistoryPage(context: AppLoadContext, request: Request, id: string) {
  const viewer = requireStaff(context, "listings:read");
  const { collection } = kindOfPath(new URL(request.url).pathname);
  if (!isPossibleListingId(id)) throw data(null, { status: 404 });
  const listing = await getListing(context.db, collection, id);
  if (!listing) throw data(null, { status: 404 });
  const entries = await listHistory(context.db, collection, id);
  return {
    collection,
    id,
    address: listing.address,
    entries: entries.map(({ after: _after, ...entry }) => entry),
    photos: await historyOnlyPhotos(context.db, collection, id, listing.image_urls),
    // Read only for roles that may not change listings (docs/behaviour.md §6, "Staff roles").
    may: { restore: can(viewer, "listings:write"), erase: can(viewer, "listings:erase") },
  };
}
