// The form of an alert link's page, 'Confirm' or 'Unsubscribe' (docs/behaviour.md §31). The
// server renders one page for every link, without its token. So the form has no action: without
// JavaScript the browser posts it to the page's own address, token included; with JavaScript it
// goes through the router to that same address, the token also in its field.
import type { ReactNode } from "react";
import { useSubmit } from "react-router";
import { useLinkToken } from "./alert-link";

export function AlertLinkForm({ children }: { children: ReactNode }) {
  const token = useLinkToken();
  const submit = useSubmit();
  return (
    <form
      method="post"
      onSubmit={(event) => {
        event.preventDefault();
        const { pathname, search } = window.location;
        void submit(event.currentTarget, { method: "post", action: pathname + search });
      }}
    >
      <input type="hidden" name="token" value={token} />
      {children}
    </form>
  );
}
