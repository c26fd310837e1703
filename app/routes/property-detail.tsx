import { loadListingDetail } from "~/features/listings/detail-loader.server";
import { KINDS } from "~/features/listings/kinds";
import { ListingDetailPage } from "~/features/listings/listing-detail-page";
import { listingMeta } from "~/features/listings/listing-seo";
import { originFrom } from "~/shared/meta";
import type { Route } from "./+types/property-detail";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  listingMeta(KINDS.properties, data?.listing, originFrom(matches));

export const loader = ({ context, params }: Route.LoaderArgs) =>
  loadListingDetail(context, "properties", params.id);

export default function PropertyDetail({ loaderData }: Route.ComponentProps) {
  return <ListingDetailPage kind={KINDS.properties} data={loaderData} />;
}
