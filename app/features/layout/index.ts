// The layout feature's public surface (docs/decisions/0032-layers-and-feature-surfaces.md).
export { NotFoundPage } from "./not-found-page";
export { useViewer } from "./use-viewer";
