export { mailFeature } from "./feature.server";
export { type Mailer, smtpMailer } from "./mailer.server";
export {
  DEFAULT_UNCONFIRMED_CAPS,
  enqueueMail,
  eraseMailOf,
  eraseMailTo,
  linkPlaceholder,
  listOutbox,
  type OutboxMessage,
  type OutgoingMail,
  outboxCounts,
  purgeOldMail,
  recipientHash,
  stateLabel,
  type UnconfirmedMailCaps,
} from "./outbox.server";
export { type OpenLinks, type OutboxWorker, startOutboxWorker } from "./outbox-worker.server";
