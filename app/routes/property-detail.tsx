import { KINDS } from "~/domain/listing-kinds";
import { AdminFeatures } from "~/features/admin";
import { AlertFormOnDemand } from "~/features/alerts";
import { listingInquiry } from "~/features/leads/lazy";
import { ListingDetailPage, missingListingMeta } from "~/features/listings";
import { loadListingDetail } from "~/features/listings/index.server";
import { withShowings } from "~/features/showings/index.server";
import { companyFrom } from "~/features/site-settings";
import type { Route } from "./+types/property-detail";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  (data?.listing ? data.meta : null) ??
  missingListingMeta(KINDS.properties, companyFrom(matches).name);

export const loader = async ({ context, params }: Route.LoaderArgs) =>
  withShowings(context, await loadListingDetail(context, "properties", params.id));

export default function PropertyDetail({ loaderData }: Route.ComponentProps) {
  return (
    <ListingDetailPage
      AlertForm={AlertFormOnDemand}
      kind={KINDS.properties}
      data={loaderData}
      AdminBlock={AdminFeatures}
      inquiry={listingInquiry(loaderData)}
    />
  );
}
