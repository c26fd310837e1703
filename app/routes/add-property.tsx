import { KINDS } from "~/domain/listing-kinds";
import { AddListingForm } from "~/features/admin";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/add-property";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Add Property", "Admin: add a listing.", matches),
  { name: "robots", content: "noindex" },
];

export function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "listings:write");
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
