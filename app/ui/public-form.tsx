// A public form that sends itself in place and becomes its answer: 'Ask about this listing',
// 'Send us a message', 'Notify me when it's available' and 'E-mail me new matches'
// (docs/behaviour.md §27, §31). A plain form posted to `action`, so it works without
// JavaScript (the page then shows `posted`); with it, the answer replaces the form. The server
// checks everything and writes every message; the browser's own validation is off (noValidate).
import type { ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { FormError, recordElapsed, SpamGuardFields, SubmitButton } from "./form-kit";

/** What such a form's action answers: thanks, or the form again with its messages. */
export type PublicFormAnswer =
  | { ok: true }
  | { ok: false; errors: { form?: string }; started?: number };

export interface PublicFormProps<A extends PublicFormAnswer> {
  /** The form's id prefix (useId), for its heading and fields. */
  id: string;
  className: string;
  heading: string;
  /** The text the form becomes once sent. */
  sent: ReactNode;
  action: string;
  /** Hidden fields: what the form is about. */
  hidden: Record<string, string>;
  /** The page's render time (ms), for the time check when the page's script does not run. */
  renderedAt: number;
  submit: string;
  /** The words of the link to the privacy page. */
  privacy: string;
  /** What the server answered a form posted without JavaScript. */
  posted?: A | null;
  /** The fields, given the refusal being shown (none at first). */
  children: (refused: Extract<A, { ok: false }> | null) => ReactNode;
  intro?: ReactNode;
}

export function PublicForm<A extends PublicFormAnswer>(props: PublicFormProps<A>) {
  const { id, className, heading, sent, action, hidden, renderedAt, posted, children } = props;
  const fetcher = useFetcher<A>();
  const answer = fetcher.data ?? posted ?? null;
  const refused = answer && !answer.ok ? (answer as Extract<A, { ok: false }>) : null;
  return (
    <section className={className} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{heading}</h2>
      {answer?.ok ? (
        <p role="status" className={`${className}-sent`}>
          {sent}
        </p>
      ) : (
        <>
          {props.intro}
          <fetcher.Form method="post" action={action} noValidate onSubmit={recordElapsed}>
            {Object.entries(hidden).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            {/* A refused form sent again keeps its own start. */}
            <SpamGuardFields id={id} started={refused?.started ?? renderedAt} />
            <FormError message={refused?.errors.form} />
            {children(refused)}
            <SubmitButton pending={fetcher.state !== "idle"}>{props.submit}</SubmitButton>
            <p className="form-hint">
              <Link to="/privacy">{props.privacy}</Link>
            </p>
          </fetcher.Form>
        </>
      )}
    </section>
  );
}
