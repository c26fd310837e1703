// The outbox's worker (docs/decisions/0062-outbox-for-outgoing-mail.md): on every instance, it
// takes due messages one at a time (woken by NOTIFY outbox; retries by the scheduler's
// `mail.outbox` job every few seconds, its `job`),
// sends each and records the outcome. A message is leased by one worker at a time, so several
// instances send each message once; one that fails is retried with a growing wait.
import type { Db } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import type { PeriodicJob } from "~/shared/scheduler.server";
import type { Mailer } from "./mailer.server";
import {
  failAbandoned,
  leaseNext,
  markAttemptFailed,
  markSent,
  type OutboxMessage,
  withLinks,
} from "./outbox.server";

/** Opens a message's sealed private links (docs/decisions/0074); throws when it cannot. */
export type OpenLinks = (sealed: Buffer, ref: string | null) => string[];

/** The message as it goes out: its private links put in, from the sealed copy. */
function readyToSend(message: OutboxMessage, openLinks: OpenLinks | undefined): OutboxMessage {
  if (!message.sealedLinks) return message;
  if (!openLinks) throw new Error("its private links cannot be opened: no data key");
  const links = openLinks(Buffer.from(message.sealedLinks), message.ref ?? null);
  return { ...message, body: withLinks(message.body, links), sealedLinks: null };
}

export interface OutboxWorker {
  /**
   * Sends what is due, in a run that starts after any run under way (runs never overlap); resolves
   * with how many that run sent. Calls made while a run waits to start share it.
   */
  runOnce(): Promise<number>;
  /** What is due for a retry, sent by one instance every few seconds (the scheduler's job). */
  job: PeriodicJob;
  /** Finishes the message being sent, then stops (closing the mailer). */
  stop(): Promise<void>;
}

export async function startOutboxWorker(
  db: Db,
  mailer: Mailer,
  { openLinks }: { openLinks?: OpenLinks } = {},
): Promise<OutboxWorker> {
  let stopped = false;
  let last: Promise<number> = Promise.resolve(0);
  let queued: Promise<number> | null = null;

  const drain = async (): Promise<number> => {
    await failAbandoned(db);
    let sent = 0;
    while (!stopped) {
      const message = await leaseNext(db);
      if (!message) break;
      log().debug({ outboxId: message.id, attempts: message.attempts }, "Mail leased");
      try {
        await mailer.send(readyToSend(message, openLinks));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const state = await markAttemptFailed(db, message, reason);
        log().warn(
          { outboxId: message.id, attempts: message.attempts, state },
          `Sending mail ${message.id} failed: ${reason}`,
        );
        continue;
      }
      // Sent: a failure to record it must not count as a failed send (which would send it
      // again); the lease runs out and the run stops here.
      await markSent(db, message);
      log().debug({ outboxId: message.id, kind: message.kind }, "Mail sent");
      sent++;
    }
    return sent;
  };

  const runOnce = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    if (queued) return queued;
    const run = last.then(() => {
      queued = null;
      return stopped
        ? 0
        : drain().catch((error) => {
            log().warn({ err: error }, "The outbox could not be read or updated");
            return 0;
          });
    });
    queued = run;
    last = run;
    return run;
  };

  const unlisten = await db.listen(
    "outbox",
    () => void runOnce(),
    () => void runOnce(),
  );
  void runOnce();
  return {
    runOnce,
    job: {
      name: "mail.outbox",
      everySeconds: 5,
      run: async () => {
        const sent = await runOnce();
        return sent > 0 ? `Sent ${sent} e-mails that were due.` : undefined;
      },
    },
    async stop() {
      stopped = true;
      await unlisten();
      await last;
      mailer.close();
    },
  };
}
