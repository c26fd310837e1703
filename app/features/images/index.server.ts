// The images feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).
export { type BlobBackend, readAll } from "./blob-backend.server";
export { DiskBackend } from "./disk-backend.server";
export type { RepairReport } from "./disk-repair.server";
export {
  tooLargeInTotal,
  UPLOAD_LIMITS,
  type Upload,
  type UploadedFile,
  withUpload,
} from "./multipart.server";
export {
  IMAGE_LIMITS,
  ImageRejectedError,
  type ProcessedImage,
  processImage,
  processLogo,
} from "./process.server";
export { S3Backend } from "./s3-backend.server";
export { sharpJob } from "./sharp-queue.server";
export {
  createImageStore,
  DiskImageStore,
  IMAGE_URL_PREFIX,
  type ImageStore,
  S3ImageStore,
  type SiteFileKind,
  type StagedRemoval,
  type StoredPhoto,
} from "./storage.server";
export { variantUrl } from "./variants";
