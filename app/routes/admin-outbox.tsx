// /admin/outbox, 'Outbox': every e-mail the site wrote, newest first, with its state ('Sent',
// 'Waiting', 'Failed: {reason}'). Without SMTP_URL nothing is sent, and this is where staff read
// the messages (docs/decisions/0062-outbox-for-outgoing-mail.md).

import { Link } from "react-router";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { listOutbox, stateLabel } from "~/features/mail/index.server";
import { formatWhen } from "~/shared/format-when";
import type { Route } from "./+types/admin-outbox";

const PAGE_SIZE = 50;

/**
 * Application mail is listed without its text: it is about an applicant's answers and carries
 * their private links (docs/decisions/0074), which no one but the applicant may open. So is a
 * sign-in code: with it, whoever reads this page could sign in as that staff member.
 */
const isPrivate = (kind: string) => kind.startsWith("application") || kind === "sign-in-code";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Outbox", "Admin: the e-mail the site sent or will send.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireStaff(context, "outbox");
  const asked = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isSafeInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1;
  const { messages, total } = await listOutbox(context.db, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  return {
    sending: context.env.mail.smtpUrl !== null,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    messages: messages.map((m) => ({
      id: m.id,
      createdAt: new Date(m.createdAt).toISOString(),
      to: m.to.join(", "),
      subject: m.subject,
      body: isPrivate(m.kind) ? null : m.body,
      invitation: m.calendar !== null,
      state: stateLabel(m),
    })),
  };
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { messages, sending, page, pages } = loaderData;
  return (
    <section>
      <h1>Outbox</h1>
      <p>
        {sending
          ? "Every e-mail the site writes is kept here and sent by the mail server; one that the server refuses is tried again, with a longer wait each time."
          : "No mail server is set up (SMTP_URL), so nothing is sent: the messages wait here for you to read."}
      </p>
      {messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <ul className="outbox-list">
          {messages.map((m) => (
            <li key={m.id} className="outbox-item">
              <details>
                <summary>
                  <strong>{m.subject}</strong> · to {m.to} ·{" "}
                  <time dateTime={m.createdAt}>{formatWhen(m.createdAt)}</time> ·{" "}
                  <span className="outbox-state">{m.state}</span>
                </summary>
                {m.body === null ? (
                  <p>Not shown: an application's e-mail, for the applicant only.</p>
                ) : (
                  <pre className="outbox-body">{m.body}</pre>
                )}
                {m.invitation ? <p>With a calendar invitation (.ics).</p> : null}
              </details>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="outbox-pages">
          {page > 1 ? <Link to={`?page=${page - 1}`}>Newer</Link> : null}{" "}
          {page < pages ? <Link to={`?page=${page + 1}`}>Older</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
