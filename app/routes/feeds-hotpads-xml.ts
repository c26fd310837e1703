import { serveFeed } from "~/features/feeds/index.server";
import type { Route } from "./+types/feeds-hotpads-xml";

// /feeds/hotpads.xml: the HotPads (Zillow rental network) feed of available properties
// (docs/behaviour.md §28).
export function loader({ context, request }: Route.LoaderArgs) {
  return serveFeed(context, request, "hotpads");
}
