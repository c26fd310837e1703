import { type Collection, isCollection } from "~/domain/listing-kinds";
import type { Db } from "~/shared/db.server";

export const LISTINGS_CHANNEL = "listings_changed";
/** Site settings changed (migration 0005's trigger; docs/behaviour.md §18). */
export const SITE_CHANNEL = "site_changed";
/** A lead arrived or changed (migration 0012's trigger; docs/behaviour.md §27): staff only. */
export const LEADS_CHANNEL = "leads_changed";

export interface ListingChange {
  collection: Collection;
  id: string;
  op: "insert" | "update" | "delete";
}

type Subscriber = (change: ListingChange) => void;
/** Ends one open stream, telling its client to reconnect after `retryMs`. */
type StreamEnd = (retryMs: number) => void;
interface SubscriberOptions {
  /** Lets endStreams() close the subscriber's stream (an event stream passes one). */
  end?: StreamEnd;
  /** Changes may have been missed (LISTEN was lost for a while): reload everything. */
  resync?: () => void;
}

/**
 * One LISTEN per server process, fanned out to every open event stream. The trigger in
 * migration 0001 announces each write, so writes from other instances or the CLI arrive too.
 */
export class LiveHub {
  private subscribers = new Map<Subscriber, SubscriberOptions>();
  /** Server-side listeners (caches): told first, and not counted as open streams. */
  private observers = new Map<Subscriber, (() => void) | undefined>();
  private siteObservers = new Set<() => void>();
  private leadSubscribers = new Set<() => void>();
  private stops: (() => Promise<void>)[] = [];

  static async start(db: Db): Promise<LiveHub> {
    const hub = new LiveHub();
    hub.stops.push(
      await db.listen(
        LISTINGS_CHANNEL,
        (payload) => hub.dispatch(payload),
        () => hub.resync(),
      ),
    );
    // The site channel resumes after an outage too; settings saved meanwhile were not
    // announced, so its observers are told once it is back (docs/behaviour.md §18).
    const siteChanged = () => {
      for (const fn of hub.siteObservers) fn();
    };
    hub.stops.push(await db.listen(SITE_CHANNEL, siteChanged, siteChanged));
    const leadsChanged = () => {
      for (const fn of hub.leadSubscribers) fn();
    };
    hub.stops.push(await db.listen(LEADS_CHANNEL, leadsChanged, leadsChanged));
    return hub;
  }

  /** An admin's stream: told of every change of the leads (never their content). */
  subscribeLeads(fn: () => void): () => void {
    this.leadSubscribers.add(fn);
    return () => this.leadSubscribers.delete(fn);
  }

  /** Server-side state that depends on the site settings (kept pages): told of every change. */
  observeSite(fn: () => void): () => void {
    this.siteObservers.add(fn);
    return () => this.siteObservers.delete(fn);
  }

  get size() {
    return this.subscribers.size;
  }

  subscribe(fn: Subscriber, options: SubscriberOptions = {}): () => void {
    this.subscribers.set(fn, options);
    return () => this.subscribers.delete(fn);
  }

  /**
   * Shutdown: ends every open stream with a reconnect hint, so browsers come back (to another
   * instance, or to this one restarted) instead of holding the server open.
   */
  endStreams(retryMs: number) {
    const ends = [...this.subscribers.values()].map((o) => o.end);
    this.subscribers.clear();
    for (const end of ends) end?.(retryMs);
  }

  /** For server-side state that must be stale no longer than the pages told of a change. */
  observe(fn: Subscriber, resync?: () => void): () => void {
    this.observers.set(fn, resync);
    return () => this.observers.delete(fn);
  }

  /**
   * LISTEN is back after the database connection was lost: whatever changed in between was
   * not announced, so caches drop everything and every open page reloads its data once.
   */
  resync() {
    for (const resync of this.observers.values()) resync?.();
    for (const { resync } of this.subscribers.values()) resync?.();
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
    for (const fn of this.observers.keys()) fn(change);
    for (const fn of this.subscribers.keys()) fn(change);
  }

  async close() {
    this.subscribers.clear();
    this.observers.clear();
    this.siteObservers.clear();
    this.leadSubscribers.clear();
    for (const stop of this.stops) await stop();
  }
}
