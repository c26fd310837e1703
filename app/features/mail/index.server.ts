export { type Mailer, smtpMailer } from "./mailer.server";
export {
  enqueueMail,
  eraseMailOf,
  listOutbox,
  type OutboxMessage,
  type OutgoingMail,
  stateLabel,
} from "./outbox.server";
export { type OutboxWorker, startOutboxWorker } from "./outbox-worker.server";
