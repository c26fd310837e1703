// A fault in a page's action or loader (docs/decisions/0058-one-error-model.md): its cause is
// logged with the request's id, and the page answers 500 with that id as the reference, which
// the error page shows ('Reference: {id}'), as the admin dialogs do. Thrown as React Router's
// data(): an ordinary Error reaches the page only as "Unexpected Server Error", without it.
import { type AppLoadContext, data } from "react-router";
import { rootLogger } from "./logger.server";

/** What a page's 500 carries to the error page. */
export interface PageFault {
  reference: string | null;
}

export function pageFault(
  error: unknown,
  { request, context }: { request: Request; context: AppLoadContext },
): never {
  const reference = context.requestId ?? null;
  // The process's logger with the id named here: the request's own scope may not reach an action.
  rootLogger().error(
    { err: error, ...(reference ? { reqId: reference } : {}) },
    `${request.method} ${new URL(request.url).pathname} failed`,
  );
  throw data<PageFault>({ reference }, { status: 500 });
}

/** Whether a route error is a fault already logged by pageFault(). */
export function isLoggedPageFault(error: unknown): boolean {
  const e = error as { status?: unknown; data?: unknown } | null;
  return (
    typeof e?.status === "number" &&
    e.status >= 500 &&
    typeof e.data === "object" &&
    e.data !== null &&
    "reference" in e.data
  );
}
