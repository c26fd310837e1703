// The stale-listings e-mail's public surface on the server (docs/behaviour.md §30; decision 0068).
export { staleDigestFeature } from "./feature.server";
export { runStaleDigest, STALE_DIGEST_EVERY_DAYS, staleDigestJob } from "./stale-digest.server";
