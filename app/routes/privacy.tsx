// /privacy: what the site keeps about people who write to the company, why, for how long and
// who reads it (docs/behaviour.md §27). Linked from the message forms and the footer.
import { ALERT_CONFIRM_DAYS } from "~/domain/listing-alerts";
import { DRAFT_RETENTION_DAYS } from "~/domain/rental-application";
import { pageMeta } from "~/features/layout";
import { useCompany } from "~/features/site-settings";
import type { Route } from "./+types/privacy";

export function loader({ context }: Route.LoaderArgs) {
  return {
    retentionDays: context.env.leads.retentionDays,
    mailDays: context.env.mail.retentionDays,
    applications: context.env.applications,
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta("Privacy", "What we keep when you send us a message, and for how long.", matches);

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const company = useCompany();
  const { retentionDays, mailDays, applications } = loaderData;
  return (
    <article className="prose">
      <h1>Privacy</h1>
      <p>
        When you send us a message or ask to see a listing, {company.name} keeps what you wrote:
        your name, e-mail address, phone number (if you gave one), your message, the listing it is
        about and the times you proposed. We use it only to answer you and to arrange a showing.
      </p>
      <h2>Who reads it</h2>
      <p>
        Only our staff, signed in to the site's admin area. We e-mail you a copy when we receive
        your message, and our answers. We never sell or share your details, and we use no
        advertising or tracking services.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Until we have closed your inquiry, and then {retentionDays} days more, after which it is
        deleted, with the e-mails we sent about it. Backups of the site hold copies for as long as
        each backup is kept.
      </p>
      <h2>E-mail alerts</h2>
      <p>
        When you ask us to tell you when a property is available, or to send you new listings that
        match a search, we keep your e-mail address and what you asked for. We send nothing but a
        confirmation until you confirm it; an unconfirmed request is deleted after{" "}
        {ALERT_CONFIRM_DAYS} days. A property's alert is deleted once we have told you; every e-mail
        has a link that deletes your address from all alerts at once.
      </p>
      <h2>E-mails we send</h2>
      <p>
        We keep a copy of each e-mail we send you for {mailDays} days after it was sent, and then
        delete it; sooner when what it was about is deleted.
      </p>
      <h2>Rental applications</h2>
      <p>
        When you apply online we keep your answers and documents, sealed, and only our staff read
        them. An application you have not submitted is deleted {DRAFT_RETENTION_DAYS} days after
        your last change; a submitted one {applications.retentionDays} days after our decision or
        your withdrawal, or {applications.undecidedDays} days after its last change if it was never
        decided. Withdrawing deletes it at once. We keep only a record of what happened to it and
        when, without your details.
      </p>
      <h2>Your choice</h2>
      <p>
        Ask us to delete everything we keep from your e-mail address at any time: write to{" "}
        <a href={`mailto:${company.office.email}`}>{company.office.email}</a> or call{" "}
        <a href={`tel:${company.office.phone}`}>{company.office.phone}</a>, and we will erase it.
      </p>
    </article>
  );
}
