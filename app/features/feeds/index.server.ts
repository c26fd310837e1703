// The feeds feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).

export { feedsFeature } from "./feature.server";
export { type BuiltFeed, FEED_MAX_AGE_MS, FeedCache } from "./feed-cache.server";
export type { FeedRow, FeedSnapshot } from "./feed-data.server";
export {
  FEED_NAMES,
  FEEDS,
  type FeedName,
  type FeedOrigins,
  isFeedName,
  siteUrl,
} from "./feed-parts";
export {
  COUNT_SWING_LIMIT,
  countSwing,
  type FeedFetch,
  lastFetches,
  recordFetch,
  swingWarning,
} from "./fetches.server";
export { feedContact } from "./hotpads.server";
export { serveFeed } from "./serve.server";
