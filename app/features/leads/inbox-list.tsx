// The inbox's filters and items (docs/behaviour.md §27). Each change is a form posted to the
// page's action, so the list is reloaded from the server after it.
import { Form, Link, useFetcher, useSubmit } from "react-router";
import { firstReplyAt, waitText } from "~/domain/first-reply";
import { describeLocalTime, LEAD_KINDS, LEAD_STATUSES, type LeadStatus } from "~/domain/inquiry";
import { ANSWER_LABELS } from "~/domain/inquiry-answers";
import { listingPath } from "~/domain/listing-kinds";
import { STAFF_NOTES_MAX } from "~/domain/staff-notes";
import { useDialogs } from "~/features/dialogs";
import { formatWhen } from "~/shared/format-when";
import { ActionAnswer, type ShownAnswer, TextField } from "~/ui";
import type { Lead, LeadEvent } from "./leads.server";

type InboxLead = Lead & { events: LeadEvent[] };

export interface InboxListProps {
  filter: { status?: LeadStatus; kind?: keyof typeof LEAD_KINDS; listing?: string };
  page: number;
  pages: number;
  total: number;
  listings: { value: string; address: string }[];
  leads: InboxLead[];
  answer: ShownAnswer | null;
  /** 'Erase this person' (Owner, Manager; docs/behaviour.md §6, "Staff roles"). */
  mayErase: boolean;
  /** The median wait for a person's first reply over the last 30 days (docs/behaviour.md §33). */
  medianReply: { ms: number; count: number } | null;
}

export function InboxList({
  filter,
  page,
  pages,
  total,
  listings,
  leads,
  answer,
  mayErase,
  medianReply,
}: InboxListProps) {
  const query = new URLSearchParams(
    Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string"),
  ).toString();
  return (
    <>
      <p className="inbox-median">
        Median time to a first reply, last 30 days:{" "}
        {medianReply
          ? `${waitText(medianReply.ms)} (${medianReply.count} ${medianReply.count === 1 ? "item" : "items"})`
          : "no replies yet"}
      </p>
      <Form method="get" className="filters inbox-filters">
        <FilterSelect
          name="status"
          label="Status"
          value={filter.status}
          options={Object.entries(LEAD_STATUSES)}
        />
        <FilterSelect
          name="kind"
          label="Kind"
          value={filter.kind}
          options={Object.entries(LEAD_KINDS)}
        />
        <FilterSelect
          name="listing"
          label="Listing"
          value={filter.listing}
          options={listings.map((l) => [l.value, l.address ?? l.value])}
        />
        <button type="submit" className="btn btn-primary">
          Filter
        </button>
        <a className="btn btn-outline" href={`/admin/inbox/export${query ? `?${query}` : ""}`}>
          Export CSV
        </a>
      </Form>
      <ActionAnswer answer={answer} />
      <p>{`${total} item${total === 1 ? "" : "s"}`}</p>
      {leads.length === 0 ? <p>Nothing here yet.</p> : null}
      <ul className="inbox-list">
        {leads.map((lead) => (
          <InboxItem key={lead.id} lead={lead} mayErase={mayErase} />
        ))}
      </ul>
      {pages > 1 ? (
        <nav aria-label="Pages" className="inbox-pages">
          {page > 1 ? <Link to={`?${pageQuery(query, page - 1)}`}>Newer</Link> : null}{" "}
          {page < pages ? <Link to={`?${pageQuery(query, page + 1)}`}>Older</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

/** One of the inbox's filters: 'All' (the default) and its values. */
function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: [string, string][];
}) {
  return (
    <div>
      <label className="form-label" htmlFor={`inbox-${name}`}>
        {label}
      </label>
      <select id={`inbox-${name}`} name={name} className="form-select" defaultValue={value ?? ""}>
        <option value="">All</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function pageQuery(query: string, page: number) {
  const params = new URLSearchParams(query);
  params.set("page", String(page));
  return params.toString();
}

function InboxItem({ lead, mayErase }: { lead: InboxLead; mayErase: boolean }) {
  const dialogs = useDialogs();
  const erase = useFetcher();
  const headingId = `lead-${lead.id}`;
  return (
    <li className="inbox-item" aria-labelledby={headingId}>
      <h2 id={headingId} className="inbox-item-title">
        <span className="inbox-kind">{LEAD_KINDS[lead.kind]}</span>{" "}
        {lead.collection && lead.listingId ? (
          <Link to={listingPath(lead.collection, lead.listingId)}>{lead.listingAddress}</Link>
        ) : (
          "General question"
        )}
      </h2>
      <p className="inbox-meta">
        <time dateTime={lead.createdAt}>{formatWhen(lead.createdAt)}</time> ·{" "}
        <span className="inbox-status">{LEAD_STATUSES[lead.status]}</span>
      </p>
      <FirstReply lead={lead} />
      <dl className="inbox-fields">
        <dt>Name</dt>
        <dd>{lead.name}</dd>
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${lead.email}`}>{lead.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>{lead.phone ? <a href={`tel:${lead.phone}`}>{lead.phone}</a> : "—"}</dd>
        <dt>Message</dt>
        <dd className="inbox-message">{lead.message}</dd>
        {lead.preferredTimes.length > 0 ? (
          <>
            <dt>Proposed times</dt>
            <dd>
              <ul>
                {lead.preferredTimes.map((t) => (
                  <li key={t}>{describeLocalTime(t)}</li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      <Thread lead={lead} />
      {/* Made anew once an answer is recorded, so its fields start empty again. */}
      <Answers key={lead.events.length} lead={lead} />
      <Form method="post" className="inbox-status-form" preventScrollReset>
        <input type="hidden" name="intent" value="status" />
        <input type="hidden" name="id" value={lead.id} />
        <label className="form-label" htmlFor={`${headingId}-status`}>
          Status
        </label>
        <select
          id={`${headingId}-status`}
          name="status"
          className="form-select"
          defaultValue={lead.status}
          key={lead.status}
        >
          {Object.entries(LEAD_STATUSES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-outline">
          Set status
        </button>
      </Form>
      <Form method="post" className="inbox-note-form" preventScrollReset>
        <input type="hidden" name="intent" value="note" />
        <input type="hidden" name="id" value={lead.id} />
        <TextField
          id={`${headingId}-notes`}
          name="notes"
          label="Notes"
          rows={2}
          maxLength={STAFF_NOTES_MAX}
          defaultValue={lead.notes}
          key={lead.notes}
        />
        <button type="submit" className="btn btn-outline">
          Save note
        </button>
      </Form>
      {lead.events.length > 0 ? (
        <details className="inbox-history">
          <summary>Changes</summary>
          <ul>
            {lead.events.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: events never reorder
              <li key={i}>
                {formatWhen(e.at)}
                {e.byEmail ? `, ${e.byEmail}` : ""}: {eventText(e)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {mayErase ? (
        <erase.Form
          method="post"
          onSubmit={async (event) => {
            event.preventDefault();
            const form = event.currentTarget;
            if (await dialogs.confirm()) void erase.submit(form);
          }}
        >
          <input type="hidden" name="intent" value="erase" />
          <input type="hidden" name="email" value={lead.email} />
          <button type="submit" className="btn btn-danger-outline">
            Erase this person
          </button>
        </erase.Form>
      ) : null}
      {dialogs.element}
    </li>
  );
}

/** 'First reply': how long the item waited for a person; the automatic reply apart. */
function FirstReply({ lead }: { lead: InboxLead }) {
  const first = firstReplyAt(lead.events);
  const auto = lead.events.find((e) => e.action === "auto-reply");
  return (
    <p className="inbox-meta inbox-first-reply">
      First reply:{" "}
      {first ? (
        <>
          <time dateTime={first}>{formatWhen(first)}</time>, after{" "}
          {waitText(Date.parse(first) - Date.parse(lead.createdAt))}
        </>
      ) : (
        "not yet"
      )}
      {auto ? (
        <>
          {" "}
          · Automatic reply: <time dateTime={auto.at}>{formatWhen(auto.at)}</time>
        </>
      ) : null}
    </p>
  );
}

/** What was said: the renter's message, then every answer sent from the inbox, oldest first. */
function Thread({ lead }: { lead: InboxLead }) {
  const answers = lead.events.filter((e) => e.action in ANSWER_TITLES);
  if (answers.length === 0) return null;
  return (
    <section className="inbox-thread" aria-label={`${ANSWER_LABELS.thread} with ${lead.name}`}>
      <h3 className="inbox-thread-title">{ANSWER_LABELS.thread}</h3>
      <ol>
        {answers.map((e, i) => {
          const detail = e.detail as { text?: string; time?: string };
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: answers never reorder
            <li key={i} className="inbox-answer">
              <p className="inbox-meta">
                <time dateTime={e.at}>{formatWhen(e.at)}</time>
                {e.byEmail ? `, ${e.byEmail}` : ""}: {answerTitle(e.action, detail.time)}
              </p>
              {detail.text ? <p className="inbox-message">{detail.text}</p> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

const ANSWER_TITLES: Record<string, string> = {
  reply: "Reply sent",
  confirm: "Showing confirmed",
  decline: "Showing declined",
};

function answerTitle(action: string, time: string | undefined): string {
  const title = ANSWER_TITLES[action] ?? action;
  return time ? `${title} for ${describeLocalTime(time)}` : title;
}

/** 'Reply' to any item; 'Confirm showing' and 'Decline' to a showing request. */
function Answers({ lead }: { lead: InboxLead }) {
  const dialogs = useDialogs();
  // A navigation, not a fetcher: what the action answers shows at the top of the page.
  const submit = useSubmit();
  const id = `lead-${lead.id}`;
  return (
    <div className="inbox-answers">
      <Form method="post" className="inbox-reply-form" preventScrollReset>
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="id" value={lead.id} />
        <TextField id={`${id}-reply`} name="text" label={ANSWER_LABELS.replyText} rows={3} />
        <button type="submit" className="btn btn-primary">
          {ANSWER_LABELS.reply}
        </button>
      </Form>
      {lead.kind === "showing" ? (
        <>
          <Form method="post" className="inbox-confirm-form" preventScrollReset>
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="id" value={lead.id} />
            <fieldset>
              <legend className="form-label">{ANSWER_LABELS.showingTime}</legend>
              {lead.preferredTimes.map((t, i) => (
                <label key={t} className="inbox-choice">
                  <input type="radio" name="time" value={t} defaultChecked={i === 0} />{" "}
                  {describeLocalTime(t)}
                </label>
              ))}
              <label className="inbox-choice">
                <input
                  type="radio"
                  name="time"
                  value="other"
                  defaultChecked={lead.preferredTimes.length === 0}
                />{" "}
                {ANSWER_LABELS.anotherTime}
              </label>
              <input
                type="datetime-local"
                name="otherTime"
                className="form-control"
                aria-label={ANSWER_LABELS.anotherTimeInput}
              />
            </fieldset>
            <TextField
              id={`${id}-confirm-note`}
              name="text"
              label={ANSWER_LABELS.confirmNote}
              rows={2}
            />
            <button type="submit" className="btn btn-primary">
              {ANSWER_LABELS.confirm}
            </button>
          </Form>
          <Form
            method="post"
            preventScrollReset
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              if (await dialogs.confirm()) {
                void submit(form, { method: "post", preventScrollReset: true });
              }
            }}
          >
            <input type="hidden" name="intent" value="decline" />
            <input type="hidden" name="id" value={lead.id} />
            <button type="submit" className="btn btn-outline">
              {ANSWER_LABELS.decline}
            </button>
          </Form>
          {dialogs.element}
        </>
      ) : null}
    </div>
  );
}

function eventText(e: LeadEvent): string {
  if (e.action === "received") return "received";
  if (e.action === "auto-reply") return "automatic reply sent";
  if (e.action === "note") return "note saved";
  if (e.action in ANSWER_TITLES) {
    const time = (e.detail as { time?: string }).time;
    return `${(ANSWER_TITLES[e.action] ?? "").toLowerCase()}${time ? ` for ${describeLocalTime(time)}` : ""}`;
  }
  const to = (e.detail as { to?: LeadStatus }).to;
  const from = (e.detail as { from?: LeadStatus }).from;
  return `status ${from ? LEAD_STATUSES[from] : "?"} → ${to ? LEAD_STATUSES[to] : "?"}`;
}
