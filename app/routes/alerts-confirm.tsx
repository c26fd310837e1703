// /alerts/confirm?token=…: the link of the confirmation e-mail (docs/behaviour.md §31). Opening
// it confirms nothing (mail scanners open links); the 'Confirm' button does, with a POST. The
// token is read by the browser and the action only, so this page is the same for every link.
import { ALERT_LABELS } from "~/domain/listing-alerts";
import { AlertLinkForm } from "~/features/alerts";
import { confirmAlert, linkToken } from "~/features/alerts/index.server";
import { pageMeta } from "~/features/layout";
import { refused, succeeded } from "~/shared/action-result.server";
import type { Route } from "./+types/alerts-confirm";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(ALERT_LABELS.confirmHeading, "Confirm your e-mail alert.", matches),
  { name: "robots", content: "noindex" },
];

export async function action({ context, request }: Route.ActionArgs) {
  const token = await linkToken(request);
  return (await confirmAlert(context.db, token))
    ? succeeded(ALERT_LABELS.confirmed)
    : refused(context, 404, ALERT_LABELS.invalidLink);
}

export default function AlertsConfirm({ actionData }: Route.ComponentProps) {
  return (
    <section className="alerts-page">
      <h1>{ALERT_LABELS.confirmHeading}</h1>
      {actionData ? (
        <p role="status">{actionData.ok ? actionData.message : actionData.errors.form}</p>
      ) : (
        <AlertLinkForm>
          <button type="submit" className="btn btn-primary">
            {ALERT_LABELS.confirmButton}
          </button>
        </AlertLinkForm>
      )}
    </section>
  );
}
