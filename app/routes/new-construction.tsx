import { KINDS } from "~/domain/listing-kinds";
import { LazyAlertForm } from "~/features/alerts/lazy";
import { pageMeta } from "~/features/layout";
import { ListingListPage } from "~/features/listings";
import { loadListPage } from "~/features/listings/index.server";
import type { Route } from "./+types/new-construction";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    "New Construction",
    "New homes and buildings under construction, soon available to lease.",
    matches,
  );

export const loader = ({ context, request }: Route.LoaderArgs) =>
  loadListPage(context, "newConstruction", request);

export default function NewConstruction({ loaderData }: Route.ComponentProps) {
  return (
    <ListingListPage kind={KINDS.newConstruction} data={loaderData} AlertForm={LazyAlertForm} />
  );
}
