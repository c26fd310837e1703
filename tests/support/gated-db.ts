// A database wrapper that holds chosen statements back, so a test can force the interleaving
// of two concurrent writes that would otherwise depend on timing.
import type { Db, Queryable } from "~/shared/db.server";

export interface Gate {
  /** The statement to hold (tested against its SQL text), once. */
  match: RegExp;
  /**
   * Released when this resolves, or after `maxWaitMs` (code that locks rows may keep the
   * awaited statement from ever running: then the held one goes on after the wait).
   */
  until: Promise<unknown>;
  maxWaitMs: number;
}

export interface GatedDb extends Db {
  /** Holds the next statement matching `gate.match`. */
  hold(gate: Gate): void;
  /** Resolves when a statement matching `pattern` has run to completion (the next not yet awaited). */
  ran(pattern: RegExp): Promise<void>;
  /** Resolves when a statement matching `pattern` has been issued (the next not yet awaited). */
  issued(pattern: RegExp): Promise<void>;
}

export function gatedDb(db: Db): GatedDb {
  const gates: Gate[] = [];
  const watchers: { pattern: RegExp; stage: "issued" | "ran"; resolve: () => void }[] = [];
  // Each statement resolves the oldest matching watcher only: two watchers on one pattern
  // are the first and the second such statement.
  const notify = (sql: string, stage: "issued" | "ran") => {
    const w = watchers.find((x) => x.stage === stage && x.pattern.test(sql));
    if (!w) return;
    watchers.splice(watchers.indexOf(w), 1);
    w.resolve();
  };
  const wrap = (target: Queryable): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      notify(sql, "issued");
      const gate = gates.find((g) => g.match.test(sql));
      if (gate) {
        gates.splice(gates.indexOf(gate), 1);
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          gate.until,
          new Promise((r) => {
            timer = setTimeout(r, gate.maxWaitMs);
          }),
        ]);
        clearTimeout(timer);
      }
      const rows = await target.query<T>(sql, params);
      notify(sql, "ran");
      return rows;
    },
    exec: (sql) => target.exec(sql),
  });
  const outer = wrap(db);
  const watch = (pattern: RegExp, stage: "issued" | "ran") =>
    new Promise<void>((resolve) => watchers.push({ pattern, stage, resolve }));
  return {
    kind: db.kind,
    query: outer.query,
    exec: outer.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    withAdvisoryLock: (key, fn) => db.withAdvisoryLock(key, fn),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
    hold: (gate) => gates.push(gate),
    ran: (pattern) => watch(pattern, "ran"),
    issued: (pattern) => watch(pattern, "issued"),
  };
}
