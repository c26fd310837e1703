// The layout feature's public surface (docs/decisions/0032-layers-and-feature-surfaces.md).
export { Navbar } from "./navbar";
export { NotFoundPage } from "./not-found-page";
export { pageMeta } from "./page-meta";
export { PendingIndicator } from "./pending-indicator";
export { SiteFooter } from "./site-footer";
export { useViewer } from "./use-viewer";
export { SignInLink } from "./user-nav";
