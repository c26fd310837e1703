import { useLocation } from "react-router";
import { kindOfPath } from "~/domain/listing-kinds";
import { ListingForm } from "~/features/admin";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/add-listing";

// /addproperty and /addnewconstruction: one page for both kinds.
export const meta: Route.MetaFunction = ({ location, matches }) => [
  ...pageMeta(kindOfPath(location.pathname).addTitle, "Admin: add a listing.", matches),
  { name: "robots", content: "noindex" },
];

export function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "listings:write");
  return null;
}

export default function AddListing() {
  const kind = kindOfPath(useLocation().pathname);
  return (
    <section>
      <h1>{kind.addTitle}</h1>
      <ListingForm kind={kind} />
    </section>
  );
}
