/** An error whose message is safe and meant for the person who made the request. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A stable name for clients that must tell one refusal from another (e.g. "stale"). */
    readonly code?: string,
  ) {
    super(message);
  }
}
