// The live feature's public surface for the pages (docs/decisions/0015-layers.md).
export { useLiveRevalidation } from "./use-live-revalidation";
