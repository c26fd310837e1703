import { data } from "react-router";
import { isForm, readForm } from "~/shared/read-form.server";

// The token of an alert link (docs/behaviour.md §31): the form's field, else the URL's (a form
// posted without JavaScript, or a mail client's one-click unsubscribe, RFC 8058). The form is
// read with the page forms' limit; a larger body is refused (docs/decisions/0072-…).
export async function linkToken(request: Request): Promise<string | null> {
  const form = await readForm(request);
  if (!isForm(form) && form.status === 413) {
    throw data({ message: form.message }, { status: 413 });
  }
  const field = isForm(form) ? form.get("token") : null;
  if (typeof field === "string" && field !== "") return field;
  return new URL(request.url).searchParams.get("token");
}
