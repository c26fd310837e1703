// /showings/calendar/<token>.ics: a staff member's private 'Calendar feed' of booked showings
// (docs/behaviour.md §33), fetched by their calendar app without a session. An unknown address,
// or one whose owner is no longer allowed the inbox, is the plain 404 of any missing file.
import { downloadNotFound } from "~/features/auth/index.server";
import { serveCalendarFeed } from "~/features/showings/index.server";
import type { Route } from "./+types/showings-calendar";

export const action = downloadNotFound;

export async function loader({ context, params }: Route.LoaderArgs) {
  const token = /^(.+)\.ics$/.exec(params.file)?.[1] ?? "";
  return (await serveCalendarFeed(context, token)) ?? downloadNotFound();
}
