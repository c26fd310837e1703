// A page action's answer above its page (app/shared/action-result.ts): the success message as
// a status, the form's error as an alert. Fields' errors are the fields' own (TextField).
import type { FormErrors } from "~/shared/action-result";

export interface ShownAnswer {
  ok: boolean;
  message?: string;
  errors?: FormErrors;
}

export function ActionAnswer({ answer }: { answer: ShownAnswer | null | undefined }) {
  if (!answer) return null;
  if (answer.ok) return answer.message ? <p role="status">{answer.message}</p> : null;
  return answer.errors?.form ? (
    <p role="alert" className="alert-error">
      {answer.errors.form}
    </p>
  ) : null;
}
