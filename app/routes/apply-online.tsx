// /rental-application/apply, 'Apply online' (docs/behaviour.md §32): the application's first
// step. 'Next' starts the application and moves on to its private link; the spec's 'How to
// Apply' page and its PDF stay as they are.
import { ApplicationPage } from "~/features/applications";
import { applyAction, applyLoader } from "~/features/applications/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/apply-online";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta("Apply online", "Apply online for a rental: your application, step by step.", matches);

export function loader({ context, request }: Route.LoaderArgs) {
  return applyLoader(context, new URL(request.url));
}

export function action({ context, request }: Route.ActionArgs) {
  return applyAction(context, request);
}

export default function ApplyOnline({ loaderData, actionData }: Route.ComponentProps) {
  return <ApplicationPage view={loaderData} answer={actionData ?? null} />;
}
