// The images feature's public surface for the pages (docs/decisions/0015-layers.md).
export { Photo } from "./photo";
