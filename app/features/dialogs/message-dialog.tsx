import { useEffect, useId, useRef } from "react";
import { errorFooter } from "~/domain/company";
import { useCompany } from "~/features/site-settings";

export interface MessageDialogProps {
  title: string;
  text?: string;
  /** Error dialogs carry the footer of docs/behaviour.md §8; confirm dialogs ask Yes or Cancel. */
  variant: "error" | "success" | "confirm";
  /** `confirmed` is true only when a confirm dialog was answered Yes. */
  onClose: (confirmed: boolean) => void;
  /** Success dialogs close by themselves after this many milliseconds. */
  autoCloseMs?: number;
  /**
   * Error dialogs: the failed request's id (X-Request-Id), on a line of its own after the
   * footer, whose text stays exactly the catalogue's.
   */
  reference?: string;
}

/**
 * A modal on the platform's <dialog>: focus is trapped and Escape closes it without any library.
 * It is rendered open on the server so the message is readable before (or without) JavaScript.
 */
export function MessageDialog({
  title,
  text,
  variant,
  onClose,
  autoCloseMs,
  reference,
}: MessageDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const company = useCompany();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      dialog.returnValue = "";
      dialog.showModal();
    }
    // Re-opening the server-rendered dialog as a modal (close, then showModal) queues a
    // "close" event that arrives after this listener is attached; a real close leaves it shut.
    const handleClose = () => {
      if (dialog.open) return;
      onCloseRef.current(dialog.returnValue === "yes");
    };
    dialog.addEventListener("close", handleClose);
    const timer = autoCloseMs ? setTimeout(() => dialog.close(), autoCloseMs) : undefined;
    return () => {
      clearTimeout(timer);
      dialog.removeEventListener("close", handleClose);
    };
  }, [autoCloseMs]);

  return (
    <dialog
      ref={ref}
      open
      className={`message-dialog ${variant}`}
      aria-labelledby={titleId}
      data-variant={variant}
    >
      <h2 id={titleId}>{title}</h2>
      {text ? <p>{text}</p> : null}
      <form method="dialog" className="dialog-buttons">
        {variant === "confirm" ? (
          <>
            <button type="submit" value="yes" className="btn btn-danger">
              Yes
            </button>
            <button type="submit" value="no" className="btn btn-outline">
              Cancel
            </button>
          </>
        ) : (
          <button type="submit" value="ok" className="btn btn-primary">
            OK
          </button>
        )}
      </form>
      {variant === "error" ? <footer>{errorFooter(company)}</footer> : null}
      {variant === "error" && reference ? (
        <small className="dialog-reference">Reference: {reference}</small>
      ) : null}
    </dialog>
  );
}
