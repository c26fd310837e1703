import { type Collection, isCollection } from "~/domain/listing-kinds";
import type { Db } from "~/shared/db.server";

export const LISTINGS_CHANNEL = "listings_changed";
/** Site settings changed (migration 0005's trigger; docs/behaviour.md §18). */
export const SITE_CHANNEL = "site_changed";

export interface ListingChange {
  collection: Collection;
  id: string;
  op: "insert" | "update" | "delete";
}

type Subscriber = (change: ListingChange) => void;

/**
 * One LISTEN per server process, fanned out to every open event stream. The trigger in
 * migration 0001 announces each write, so writes from other instances or the CLI arrive too.
 */
export class LiveHub {
  private subscribers = new Set<Subscriber>();
  /** Server-side listeners (caches): told first, and not counted as open streams. */
  private observers = new Set<Subscriber>();
  private siteObservers = new Set<() => void>();
  private stops: (() => Promise<void>)[] = [];

  static async start(db: Db): Promise<LiveHub> {
    const hub = new LiveHub();
    hub.stops.push(await db.listen(LISTINGS_CHANNEL, (payload) => hub.dispatch(payload)));
    hub.stops.push(
      await db.listen(SITE_CHANNEL, () => {
        for (const fn of hub.siteObservers) fn();
      }),
    );
    return hub;
  }

  /** Server-side state that depends on the site settings (kept pages): told of every change. */
  observeSite(fn: () => void): () => void {
    this.siteObservers.add(fn);
    return () => this.siteObservers.delete(fn);
  }

  get size() {
    return this.subscribers.size;
  }

  subscribe(fn: Subscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /** For server-side state that must be stale no longer than the pages told of a change. */
  observe(fn: Subscriber): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }

  private dispatch(payload: string) {
    let change: ListingChange;
    try {
      const parsed = JSON.parse(payload) as Partial<ListingChange>;
      if (!isCollection(parsed.collection) || typeof parsed.id !== "string") return;
      change = parsed as ListingChange;
    } catch {
      return;
    }
    for (const fn of this.observers) fn(change);
    for (const fn of this.subscribers) fn(change);
  }

  async close() {
    this.subscribers.clear();
    this.observers.clear();
    this.siteObservers.clear();
    for (const stop of this.stops) await stop();
  }
}
