// /alerts/unsubscribe?token=…: every alert e-mail's link and its List-Unsubscribe URL
// (docs/behaviour.md §31). The page asks first; a POST (the button, or a mail client's one-click
// `List-Unsubscribe=One-Click`, RFC 8058) deletes the address from every alert at once.
import { ALERT_LABELS } from "~/domain/listing-alerts";
import { AlertLinkForm } from "~/features/alerts";
import { linkToken, unsubscribe } from "~/features/alerts/index.server";
import { pageMeta } from "~/features/layout";
import { refused, succeeded } from "~/shared/action-result.server";
import type { Route } from "./+types/alerts-unsubscribe";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(ALERT_LABELS.unsubscribeHeading, "Stop e-mail alerts.", matches),
  { name: "robots", content: "noindex" },
];

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function action({ context, request }: Route.ActionArgs) {
  const token = await linkToken(request);
  // A well-formed link whose alerts are gone (already unsubscribed, or its alert has ended)
  // leaves the address on no alert found by it: that is what was asked for.
  if (!token || !TOKEN.test(token)) return refused(context, 404, ALERT_LABELS.invalidLink);
  await unsubscribe(context.db, token);
  return succeeded(ALERT_LABELS.unsubscribed);
}

export default function AlertsUnsubscribe({ actionData }: Route.ComponentProps) {
  return (
    <section className="alerts-page">
      <h1>{ALERT_LABELS.unsubscribeHeading}</h1>
      {actionData ? (
        <p role="status">{actionData.ok ? actionData.message : actionData.errors.form}</p>
      ) : (
        <>
          <p>{ALERT_LABELS.unsubscribeIntro}</p>
          <AlertLinkForm>
            <button type="submit" className="btn btn-primary">
              {ALERT_LABELS.unsubscribeButton}
            </button>
          </AlertLinkForm>
        </>
      )}
    </section>
  );
}
