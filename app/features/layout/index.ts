// The layout feature's public surface (docs/decisions/0015-layers.md).
export { NotFoundPage } from "./not-found-page";
export { useViewer } from "./use-viewer";
