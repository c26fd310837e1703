import { type AppLoadContext, data } from "react-router";
import type { Collection } from "../listings/kinds";
import { getListing } from "../listings/queries.server";
import { requireAdminPage } from "./guard.server";

export async function loadListingForEdit(
  context: AppLoadContext,
  collection: Collection,
  id: string,
) {
  requireAdminPage(context);
  const listing = await getListing(context.db, collection, id);
  if (!listing) throw data(null, { status: 404 });
  return { listing };
}
