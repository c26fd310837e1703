export { type Mailer, smtpMailer } from "./mailer.server";
export {
  enqueueMail,
  eraseMailOf,
  eraseMailTo,
  listOutbox,
  type OutboxMessage,
  type OutgoingMail,
  purgeOldMail,
  stateLabel,
} from "./outbox.server";
export { type OutboxWorker, startOutboxWorker } from "./outbox-worker.server";
