// Sending one message over SMTP with nodemailer (docs/decisions/0062-outbox-for-outgoing-mail.md).
// SMTP_URL as nodemailer reads it: smtp://user:pass@host:587 (STARTTLS when offered),
// smtps://user:pass@host:465 (TLS from the start).
import nodemailer from "nodemailer";
import type { OutgoingMail } from "./outbox.server";

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(
    {
      url: smtpUrl,
      // A mail server that does not answer is a failed attempt, well within the outbox's lease
      // (LEASE_SECONDS), not a stuck worker.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    },
    { from },
  );
  return {
    async send(mail) {
      await transport.sendMail({
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        text: mail.body,
        ...(mail.calendar
          ? { icalEvent: { method: "REQUEST", filename: "invitation.ics", content: mail.calendar } }
          : {}),
        ...(mail.unsubscribeUrl
          ? {
              headers: {
                "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
              },
            }
          : {}),
      });
    },
    close() {
      transport.close();
    },
  };
}
