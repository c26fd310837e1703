// /rental-application/continue?token=…, an applicant's private link (docs/behaviour.md §32): the
// steps where they stopped, then the application's status, 'Withdraw and delete my application'.
// Never kept or cached anywhere, and never sent on as a referrer: the token opens the answers.
import { ApplicationPage, type ApplyView } from "~/features/applications";
import { continueAction, continueLoader } from "~/features/applications/index.server";
import { pageMeta } from "~/features/layout";
import type { Route } from "./+types/application-link";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Your rental application", "Your rental application.", matches),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
});

export function loader({ context, request }: Route.LoaderArgs) {
  return continueLoader(context, new URL(request.url));
}

export function action({ context, request }: Route.ActionArgs) {
  return continueAction(context, request);
}

export default function ApplicationLink({ loaderData, actionData }: Route.ComponentProps) {
  return <ApplicationPage view={loaderData as ApplyView} answer={actionData ?? null} />;
}
