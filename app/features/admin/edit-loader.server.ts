import { type AppLoadContext, data } from "react-router";
import { isPossibleListingId } from "~/domain/listing-id";
import { kindOfPath } from "~/domain/listing-kinds";
import { requireStaff } from "~/features/auth/index.server";
import { getListingForEdit } from "~/features/listings/index.server";
import { log } from "~/shared/logger.server";

export async function loadListingForEdit(context: AppLoadContext, request: Request, id: string) {
  requireStaff(context, "listings:write");
  const { collection } = kindOfPath(new URL(request.url).pathname);
  if (!isPossibleListingId(id)) throw data(null, { status: 404 });
  let listing: Awaited<ReturnType<typeof getListingForEdit>>;
  try {
    // With its version: the form sends it back on save, so a stale save can be refused.
    listing = await getListingForEdit(context.db, collection, id);
  } catch (error) {
    // Details go to the log; the form's error boundary shows docs/behaviour.md §8 'Failed to fetch …'.
    log().error({ err: error }, `Failed to load ${collection}/${id} for editing`);
    throw data({ message: "The listing could not be read from the database." }, { status: 503 });
  }
  if (!listing) throw data(null, { status: 404 });
  return { collection, listing };
}
