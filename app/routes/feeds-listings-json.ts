import { serveFeed } from "~/features/feeds/index.server";
import type { Route } from "./+types/feeds-listings-json";

// /feeds/listings.json: every public listing of both kinds as JSON (docs/behaviour.md §28).
export function loader({ context, request }: Route.LoaderArgs) {
  return serveFeed(context, request, "listings-json");
}
