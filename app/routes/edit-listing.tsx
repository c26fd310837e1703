import { useLocation } from "react-router";
import { KINDS, kindOfPath } from "~/domain/listing-kinds";
import { EditFetchError, keepFormOnLiveReload, ListingForm } from "~/features/admin";
import { loadListingForEdit } from "~/features/admin/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/edit-listing";

// /editproperties/{id} and /edit-construction/{id}: one page for both kinds.
export const meta: Route.MetaFunction = ({ location, matches }) => [
  ...pageMeta(`Edit ${kindOfPath(location.pathname).noun}`, "Admin: edit a listing.", matches),
  { name: "robots", content: "noindex" },
];

// A live reload keeps the form and its dialogs (keep-form-on-live-reload.ts).
export const shouldRevalidate = keepFormOnLiveReload;

export const loader = ({ context, params, request }: Route.LoaderArgs) =>
  loadListingForEdit(context, request, params.id);

export default function EditListing({ loaderData }: Route.ComponentProps) {
  const kind = KINDS[loaderData.collection];
  return (
    <section>
      <h1>{`Edit ${kind.noun}`}</h1>
      <ListingForm key={loaderData.listing.id} kind={kind} listing={loaderData.listing} />
    </section>
  );
}

export function ErrorBoundary() {
  return <EditFetchError kind={kindOfPath(useLocation().pathname)} />;
}
