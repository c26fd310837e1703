import { type AppLoadContext, data } from "react-router";
import type { Listing } from "~/domain/listing";
import { isPossibleListingId } from "~/domain/listing-id";
import { type Collection, KINDS } from "~/domain/listing-kinds";
import { can } from "~/features/auth/index.server";
import { getSiteContent, isFeatured } from "~/features/site-settings/index.server";
import { log } from "~/shared/logger.server";
import type { ListingMetaTags } from "./listing-meta";
import { listingMeta } from "./listing-seo.server";
import { getListing } from "./queries.server";

export type DetailData =
  | {
      listing: Listing;
      problem: null;
      /** The page's head, made here so its code stays on the server (decision 0056). */
      meta: ListingMetaTags;
      /** Admins only: on the home page's list. */
      featured?: boolean;
      /**
       * Staff who may change availability only: what their role allows on the page's 'Admin
       * Features' (docs/behaviour.md §6, "Staff roles"); decided here, so no permission table
       * is sent to the public page.
       */
      staff?: { edit: boolean };
      /** When the page was made (ms), for the message form's time check (docs/behaviour.md §27). */
      renderedAt: number;
      /**
       * Markup another feature made on the server for the contact panel, shown as it is with
       * no script ('Schedule a showing', docs/behaviour.md §33); the routes add it.
       */
      panelHtml?: string | null;
    }
  | { listing: null; problem: "missing" | "failed" };

/** One read of {collection}/{id}; a missing record is a 404 so search engines drop it. */
export async function loadListingDetail(
  context: AppLoadContext,
  collection: Collection,
  id: string,
) {
  if (!isPossibleListingId(id)) {
    return data<DetailData>({ listing: null, problem: "missing" }, { status: 404 });
  }
  try {
    const listing = await getListing(context.db, collection, id);
    if (listing) {
      const { name } = await getSiteContent(context.db);
      const meta = listingMeta(KINDS[collection], listing, context.env.publicUrl, name);
      // Only admins see (and need) whether it is featured: the public page stays the same.
      const renderedAt = Date.now();
      if (!can(context.viewer, "listings:availability")) {
        return data<DetailData>({ listing, problem: null, meta, renderedAt });
      }
      const edit = can(context.viewer, "listings:write");
      const featured = edit ? await isFeatured(context.db, { collection, id }) : undefined;
      const staff = { edit };
      return data<DetailData>({ listing, problem: null, meta, featured, staff, renderedAt });
    }
    return data<DetailData>({ listing: null, problem: "missing" }, { status: 404 });
  } catch (error) {
    log().error({ err: error }, `Failed to load ${collection}/${id}`);
    return data<DetailData>({ listing: null, problem: "failed" }, { status: 503 });
  }
}
