import { useCallback, useMemo, useState } from "react";
import { messages } from "~/domain/messages";
import { errorDialogOf } from "./error-dialog";
import { MessageDialog, type MessageDialogProps } from "./message-dialog";

type Pending = Omit<MessageDialogProps, "onClose"> & { resolve: (confirmed: boolean) => void };

/**
 * One dialog at a time for a screen: `await dialogs.failed(error, describe)` for a failed step,
 * `await dialogs.success(title, ms)`, `if (await dialogs.confirm()) …`. Render `dialogs.element`
 * once.
 */
export function useDialogs() {
  const [pending, setPending] = useState<Pending | null>(null);
  const open = useCallback(
    (props: Omit<Pending, "resolve">) =>
      new Promise<boolean>((resolve) => setPending({ ...props, resolve })),
    [],
  );
  const api = useMemo(
    () => ({
      /**
       * The error dialog for a failed step, the only one admin screens use: the catalogue's text
       * made from the error's message by `describe`, and 'Reference: {id}' below the footer
       * whenever the server answered the failed request (docs/decisions/0034-…, 0058-…).
       */
      failed: (
        error: unknown,
        describe?: (message: string) => string,
        title: string = messages.errorTitle,
      ) => open({ variant: "error", title, ...errorDialogOf(error, describe) }),
      success: (title: string, autoCloseMs?: number) =>
        open({ variant: "success", title, autoCloseMs }),
      confirm: (title: string = messages.confirm) => open({ variant: "confirm", title }),
    }),
    [open],
  );
  const element = pending ? (
    <MessageDialog
      key={`${pending.variant}:${pending.title}:${pending.text ?? ""}`}
      title={pending.title}
      text={pending.text}
      variant={pending.variant}
      autoCloseMs={pending.autoCloseMs}
      reference={pending.reference}
      onClose={(confirmed) => {
        setPending(null);
        pending.resolve(confirmed);
      }}
    />
  ) : null;
  return { ...api, element };
}
