import { KINDS } from "~/domain/listing-kinds";
import { HistoryList } from "~/features/admin";
import { loadHistoryPage } from "~/features/admin/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/listing-history";

// /properties/{id}/history and /new-construction/{id}/history: one page for both kinds.
export const meta: Route.MetaFunction = ({ data, matches }) => [
  ...pageMeta(
    `History of ${data?.address?.trim() ?? "a listing"}`,
    "Admin: changes of a listing.",
    matches,
  ),
  { name: "robots", content: "noindex" },
];

export const loader = ({ context, params, request }: Route.LoaderArgs) =>
  loadHistoryPage(context, request, params.id);

export default function ListingHistory({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1>History</h1>
      <HistoryList
        kind={KINDS[loaderData.collection]}
        id={loaderData.id}
        address={loaderData.address}
        entries={loaderData.entries}
        photos={loaderData.photos}
        may={loaderData.may}
      />
    </section>
  );
}
