// What an error dialog shows for a failed step (docs/decisions/0058-one-error-model.md): the
// catalogue's text made from the error's message, and the failed request's id when the server
// answered (decision 0034: 'Reference: {id}' below the footer).

export interface ErrorDialogContent {
  text: string;
  /** The answer's X-Request-Id; undefined when no answer came (the server was not reached). */
  reference?: string;
}

/** The error's message: the server's own for a refused or failed request. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The content of the dialog for `error`. `describe` makes the catalogue's text from the message
 * (docs/behaviour.md §8), e.g. `(m) => messages.saveFailed(noun, m)`; by default the message.
 * The reference is the error's `requestId` (ApiError carries its answer's X-Request-Id).
 */
export function errorDialogOf(
  error: unknown,
  describe: (message: string) => string = (message) => message,
): ErrorDialogContent {
  const { requestId } = (error ?? {}) as { requestId?: unknown };
  return {
    text: describe(messageOf(error)),
    reference: typeof requestId === "string" && requestId ? requestId : undefined,
  };
}
