import { serveFeed } from "~/features/feeds/index.server";
import type { Route } from "./+types/feeds-new-listings-xml";

// /feeds/new-listings.xml: the 50 newest listings as Atom (docs/behaviour.md §28).
export function loader({ context, request }: Route.LoaderArgs) {
  return serveFeed(context, request, "new-listings");
}
