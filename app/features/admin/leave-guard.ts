// Leaving a form with unsaved changes asks first (docs/behaviour.md §2): in-app navigation through
// React Router's blocker and the confirm dialog, closing or reloading the tab through the browser's
// own beforeunload prompt.
import { useCallback, useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { addedMessages } from "~/domain/messages";

interface Confirmer {
  confirm: (title?: string) => Promise<boolean>;
}

/**
 * Guards the page while `dirty`. Call the returned `allowLeave()` right before the form itself
 * navigates away (after a save or delete), so its own navigation is not asked about.
 */
export function useLeaveGuard(dirty: boolean, dialogs: Confirmer): () => void {
  const leaving = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== "blocked" || asking.current) return;
    asking.current = true;
    void dialogs.confirm(addedMessages.leaveUnsaved).then((yes) => {
      asking.current = false;
      if (yes) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker, dialogs]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);
  return useCallback(() => {
    leaving.current = true;
  }, []);
}
