// The images feature's public surface for the pages (docs/decisions/0032-layers-and-feature-surfaces.md).
export { Photo } from "./photo";
export { PhotoBaseProvider, photoUrl, usePhotoUrl } from "./photo-base";
