// The live feature's public surface for the pages (docs/decisions/0032-layers-and-feature-surfaces.md).
export { isLiveReload, useLiveRevalidation } from "./use-live-revalidation";
