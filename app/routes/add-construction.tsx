import { KINDS } from "~/domain/listing-kinds";
import { AddListingForm } from "~/features/admin/add-listing-form";
import { requireAdminPage } from "~/features/admin/guard.server";
import { pageMeta } from "~/features/layout/page-meta";
import type { Route } from "./+types/add-construction";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Add New Construction", "Admin: add a listing.", matches),
  { name: "robots", content: "noindex" },
];

export function loader({ context }: Route.LoaderArgs) {
  requireAdminPage(context);
  return null;
}

export default function AddConstruction() {
  return (
    <section>
      <h1>Add New Construction</h1>
      <AddListingForm kind={KINDS.newConstruction} />
    </section>
  );
}
