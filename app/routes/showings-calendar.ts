// /showings/calendar.ics?token=…: a staff member's private 'Calendar feed' of booked showings
// (docs/behaviour.md §33), fetched by their calendar app without a session. The token is in the
// query, which the logs redact. An unknown address, or one whose owner is no longer allowed the
// inbox, is the plain 404 of any missing file.
import { downloadNotFound } from "~/features/auth/index.server";
import { serveCalendarFeed } from "~/features/showings/index.server";
import type { Route } from "./+types/showings-calendar";

export const action = downloadNotFound;

export async function loader({ context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return (await serveCalendarFeed(context, token)) ?? downloadNotFound();
}
