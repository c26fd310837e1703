// The hidden fields of the public forms that scripts trip over (docs/behaviour.md §27, §31):
// when the page was made, how long it was open as the browser measured it (set on submit), and
// a honeypot people never see. The server's checks are submitInquiry()'s and submitAlert()'s.
import { HONEYPOT_FIELD } from "~/domain/inquiry";

export function SpamGuardFields({ id, started }: { id: string; started: number }) {
  return (
    <>
      <input type="hidden" name="started" value={started} />
      <input type="hidden" name="elapsed" defaultValue="" />
      <div className="hp" aria-hidden="true">
        <label htmlFor={`${id}-hp`}>Leave this empty</label>
        <input
          id={`${id}-hp`}
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
    </>
  );
}

/** The form's onSubmit: how long the page was open, as this browser measured it. */
export function recordElapsed(event: React.FormEvent<HTMLFormElement>) {
  const field = event.currentTarget.elements.namedItem("elapsed") as HTMLInputElement | null;
  if (field) field.value = String(Math.round(performance.now()));
}
