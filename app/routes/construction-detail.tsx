import { KINDS } from "~/domain/listing-kinds";
import { companyFrom } from "~/features/content";
import { originFrom } from "~/features/layout/page-meta";
import { loadListingDetail } from "~/features/listings/detail-loader.server";
import { ListingDetailPage } from "~/features/listings/listing-detail-page";
import { listingMeta } from "~/features/listings/listing-seo";
import type { Route } from "./+types/construction-detail";

export const meta: Route.MetaFunction = ({ data, matches }) =>
  listingMeta(KINDS.newConstruction, data?.listing, originFrom(matches), companyFrom(matches).name);

export const loader = ({ context, params }: Route.LoaderArgs) =>
  loadListingDetail(context, "newConstruction", params.id);

export default function ConstructionDetail({ loaderData }: Route.ComponentProps) {
  return <ListingDetailPage kind={KINDS.newConstruction} data={loaderData} />;
}
