// A refusal by design: a 5xx the server gives on purpose, whose reason it logged once at start
// (e.g. `/auth/login` answering 503 while sign-in is not configured). Its access line is then an
// ordinary one (server/request-log.ts), not an error on every request (docs/operations.md, Logs):
// an error in the log always means something failed.
const byDesign = new WeakSet<object>();

/** Marks this response's 5xx as a refusal by design. */
export function refuseByDesign(res: object): void {
  byDesign.add(res);
}

export function isRefusalByDesign(res: object): boolean {
  return byDesign.has(res);
}
