import { KINDS } from "~/domain/listing-kinds";
import { AddListingForm } from "~/features/admin/add-listing-form";
import { requireAdminPage } from "~/features/admin/guard.server";
import { pageMeta } from "~/features/layout/page-meta";
import type { Route } from "./+types/add-property";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Add Property", "Admin: add a listing.", matches),
  { name: "robots", content: "noindex" },
];

export function loader({ context }: Route.LoaderArgs) {
  requireAdminPage(context);
  return null;
}

export default function AddProperty() {
  return (
    <section>
      <h1>Add Property</h1>
      <AddListingForm kind={KINDS.properties} />
    </section>
  );
}
