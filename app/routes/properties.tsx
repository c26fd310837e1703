import { KINDS } from "~/domain/listing-kinds";
import { LazyAlertForm } from "~/features/alerts/lazy";
import { pageMeta } from "~/features/layout";
import { ListingListPage } from "~/features/listings";
import { loadListPage } from "~/features/listings/index.server";
import type { Route } from "./+types/properties";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    "Rental Properties",
    "Residential, commercial and vacation rentals available to lease now.",
    matches,
  );

export const loader = ({ context, request }: Route.LoaderArgs) =>
  loadListPage(context, "properties", request);

export default function Properties({ loaderData }: Route.ComponentProps) {
  return <ListingListPage kind={KINDS.properties} data={loaderData} AlertForm={LazyAlertForm} />;
}
