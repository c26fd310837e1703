// The names applications' data goes by: what each sealed value is bound to (seal.server.ts: a
// value copied onto another record does not open), and the outbox's reference to their e-mails.

/** An applicant's sealed answers. */
export const answersContext = (applicationId: number, position: number) =>
  `application:${applicationId}:applicant:${position}:answers`;

/** A document's sealed file name. */
export const documentNameContext = (storageKey: string) => `document-name:${storageKey}`;

/** A document's sealed bytes. */
export const documentContext = (storageKey: string) => `document:${storageKey}`;

/** Staff notes on an application. */
export const notesContext = (applicationId: number) => `application:${applicationId}:notes`;

/** The private links of one e-mail in the outbox, by its ref ('application:17'). */
export const outboxLinksContext = (ref: string) => `outbox:${ref}:links`;

/** The outbox's reference to an application's e-mails (erased with it). */
export const applicationRef = (id: number) => `application:${id}`;
