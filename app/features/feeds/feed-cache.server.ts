// The feeds, built once per change of the data and kept in memory (docs/decisions/0066): one
// query reads everything (feed-data.server.ts), each feed is written from it when first asked
// for, and every answer carries the feed's ETag, so a reader that has it gets a 304. The server
// clears the kept copy when a listing or the site settings change (PostgreSQL NOTIFY, as for
// the page cache, so writes on any instance count); a copy older than MAX_AGE_MS is built
// again all the same, so a change shows within that time even if its notification was lost.
import { createHash } from "node:crypto";
import type { Queryable } from "~/shared/db.server";
import { type FeedSnapshot, loadFeedSnapshot } from "./feed-data.server";
import { FEEDS, type FeedName, type FeedOrigins } from "./feed-parts";
import { buildHotpads } from "./hotpads.server";
import { buildListingsJson } from "./listings-json.server";
import { buildNewListingsAtom } from "./new-listings-atom.server";

/** The longest a kept feed is served without being built again (a change shows within it). */
export const FEED_MAX_AGE_MS = 10_000;

export interface BuiltFeed {
  name: FeedName;
  body: string;
  /** A strong validator made from the body: the same data gives the same ETag on every instance. */
  etag: string;
  contentType: string;
  /** The listings in it. */
  count: number;
}

const BUILDERS: Record<FeedName, typeof buildHotpads> = {
  hotpads: buildHotpads,
  "listings-json": buildListingsJson,
  "new-listings": buildNewListingsAtom,
};

interface Kept {
  generation: number;
  at: number;
  snapshot: Promise<FeedSnapshot>;
  feeds: Map<FeedName, Promise<BuiltFeed>>;
}

export class FeedCache {
  private kept: Kept | undefined;
  private generation = 0;

  constructor(
    private readonly db: Queryable,
    private readonly origins: FeedOrigins,
    private readonly maxAgeMs = FEED_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The data the feeds are built from (one query per change, shared by every feed). */
  snapshot(): Promise<FeedSnapshot> {
    return this.current().snapshot;
  }

  feed(name: FeedName): Promise<BuiltFeed> {
    const kept = this.current();
    let feed = kept.feeds.get(name);
    if (!feed) {
      feed = kept.snapshot.then((snapshot) => {
        const { body, count } = BUILDERS[name](snapshot, this.origins);
        const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
        return { name, body, etag, contentType: FEEDS[name].contentType, count };
      });
      kept.feeds.set(name, feed);
      feed.catch(() => this.forget(kept));
    }
    return feed;
  }

  /** A listing or the site settings changed: the next request builds afresh. */
  clear() {
    this.generation++;
    this.kept = undefined;
  }

  private current(): Kept {
    const kept = this.kept;
    if (kept && kept.generation === this.generation && this.now() - kept.at <= this.maxAgeMs) {
      return kept;
    }
    const fresh: Kept = {
      generation: this.generation,
      at: this.now(),
      snapshot: loadFeedSnapshot(this.db),
      feeds: new Map(),
    };
    // A failed read (the database is down) is not kept: the next request tries again.
    fresh.snapshot.catch(() => this.forget(fresh));
    this.kept = fresh;
    return fresh;
  }

  private forget(kept: Kept) {
    if (this.kept === kept) this.kept = undefined;
  }
}
