// The admin feature's public surface (docs/decisions/0032-layers-and-feature-surfaces.md). Its code is loaded only
// for admins, on demand.
import { lazy } from "react";

/** The detail page's 'Admin Features' block. */
export const AdminFeatures = lazy(() => import("./admin-features"));
