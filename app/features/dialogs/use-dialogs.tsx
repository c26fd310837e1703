import { useCallback, useMemo, useState } from "react";
import { messages } from "~/domain/messages";
import { MessageDialog, type MessageDialogProps } from "./message-dialog";

type Pending = Omit<MessageDialogProps, "onClose"> & { resolve: (confirmed: boolean) => void };

/**
 * One dialog at a time for a screen: `await dialogs.error(text)`, `await dialogs.success(title, ms)`,
 * `if (await dialogs.confirm()) …`. Render `dialogs.element` once.
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
      /** `reference`: the failed request's id, shown below the footer for staff to quote. */
      error: (text: string, title: string = messages.errorTitle, reference?: string) =>
        open({ variant: "error", title, text, reference }),
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
