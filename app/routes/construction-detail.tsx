import { KINDS } from "~/domain/listing-kinds";
import { AdminFeatures } from "~/features/admin";
import { listingInquiry } from "~/features/leads/lazy";
import { ListingDetailPage, missingListingMeta } from "~/features/listings";
import { loadListingDetail } from "~/features/listings/index.server";
import { withShowings } from "~/features/showings/index.server";
import { companyFrom } from "~/features/site-settings";
import type { Route } from "./+types/construction-detail";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  (data?.listing ? data.meta : null) ??
  missingListingMeta(KINDS.newConstruction, companyFrom(matches).name);

export const loader = async ({ context, params }: Route.LoaderArgs) =>
  withShowings(context, await loadListingDetail(context, "newConstruction", params.id));

export default function ConstructionDetail({ loaderData }: Route.ComponentProps) {
  return (
    <ListingDetailPage
      kind={KINDS.newConstruction}
      data={loaderData}
      AdminBlock={AdminFeatures}
      inquiry={listingInquiry(loaderData)}
    />
  );
}
