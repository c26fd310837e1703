// The images feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).
export { parseMultipart, type UploadedFile } from "./multipart.server";
export { ImageRejectedError, type ProcessedImage, processImage } from "./process.server";
export { IMAGE_URL_PREFIX, ImageStore } from "./storage.server";
