import { type ReactNode, useRef } from "react";
import { Form, useSubmit } from "react-router";
import { useDialogs } from "./use-dialogs";

/**
 * A form that posts only after the spec's 'Are you sure?' (docs/behaviour.md §6): 'Remove' of a
 * staff member or a passkey. Without JavaScript it posts at once.
 */
export function ConfirmedForm({ children }: { children: ReactNode }) {
  const dialogs = useDialogs();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  return (
    <Form
      method="post"
      ref={form}
      onSubmit={async (event) => {
        event.preventDefault();
        if (await dialogs.confirm()) void submit(form.current);
      }}
    >
      {children}
      {dialogs.element}
    </Form>
  );
}
