import { buildRobots } from "~/features/listings";
import type { Route } from "./+types/robots-txt";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(buildRobots(context.env.publicUrl), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
