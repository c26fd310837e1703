// The outbox's worker (docs/decisions/0062-outbox-for-outgoing-mail.md): on every instance, it
// takes due messages (woken by NOTIFY outbox, and every few seconds for retries), sends each
// and records the outcome. A message is taken by one worker at a time (a lease), so several
// instances send each message once; one that fails is retried with a growing wait.
import type { Db } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import type { Mailer } from "./mailer.server";
import { leaseDue, markAttemptFailed, markSent } from "./outbox.server";

const BATCH = 10;

export interface OutboxWorker {
  /** Sends what is due now; resolves with how many were sent (tests, and the worker's loop). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export async function startOutboxWorker(
  db: Db,
  mailer: Mailer,
  { everyMs = 5000 }: { everyMs?: number } = {},
): Promise<OutboxWorker> {
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  const drain = async (): Promise<number> => {
    let sent = 0;
    for (;;) {
      const batch = await leaseDue(db, BATCH);
      for (const message of batch) {
        try {
          await mailer.send(message);
          await markSent(db, message.id);
          sent++;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          const state = await markAttemptFailed(db, message, reason);
          log().warn(
            { outboxId: message.id, attempts: message.attempts, state },
            `Sending mail ${message.id} failed: ${reason}`,
          );
        }
      }
      if (batch.length < BATCH || stopped) return sent;
    }
  };
  const runOnce = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((error) => {
        log().warn({ err: error }, "The outbox could not be read");
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void runOnce();
        }
      });
    return running;
  };

  const unlisten = await db.listen(
    "outbox",
    () => void runOnce(),
    () => void runOnce(),
  );
  const timer = setInterval(() => void runOnce(), everyMs);
  timer.unref();
  void runOnce();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten();
      await running;
      mailer.close();
    },
  };
}
