import { KINDS } from "~/domain/listing-kinds";
import { EditFetchError, EditListingForm, keepFormOnLiveReload } from "~/features/admin";
import { loadListingForEdit } from "~/features/admin/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/edit-property";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Edit Property", "Admin: edit a listing.", matches),
  { name: "robots", content: "noindex" },
];

// A live reload keeps the form and its dialogs (keep-form-on-live-reload.ts).
export const shouldRevalidate = keepFormOnLiveReload;

export const loader = ({ context, params }: Route.LoaderArgs) =>
  loadListingForEdit(context, "properties", params.id);

export default function EditProperty({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1>Edit Property</h1>
      <EditListingForm
        key={loaderData.listing.id}
        kind={KINDS.properties}
        listing={loaderData.listing}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <EditFetchError kind={KINDS.properties} />;
}
