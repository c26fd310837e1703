// An application's documents (docs/behaviour.md §32): photo ID and proof of income as JPEG, PNG
// or PDF, checked off the main thread (document-check.server.ts, docs/decisions/0073). What is
// kept is sealed (seal.server.ts) and stored under
// `applications/` of a private backend: DATA_DIR/private on disk (outside the served photo
// folder), the private bucket with S3 (docs/decisions/0052); only an admin route reads it back.
import { randomUUID } from "node:crypto";
import { type BlobBackend, readAll } from "~/features/images/index.server";
import type { DocumentType } from "./document-check.server";
import { runDocumentJob } from "./document-jobs.server";
import { documentContext } from "./names.server";
import { type KeyMaterial, seal, unseal } from "./seal.server";

export {
  DOCUMENT_ERRORS,
  DocumentRejectedError,
  type DocumentType,
} from "./document-check.server";

/**
 * Checks an upload (document-check.server.ts) in a worker thread with limits
 * (document-jobs.server.ts) and returns what is kept: re-encoded image bytes, or the PDF as sent.
 */
export async function checkDocument(bytes: Buffer): Promise<{ data: Buffer; type: DocumentType }> {
  const { data, type } = await runDocumentJob({ kind: "check", bytes });
  return { data, type: type as DocumentType };
}

/** Sealed documents in a private backend; keys `applications/{application id}/{uuid}`. */
export class DocumentVault {
  constructor(
    private readonly backend: BlobBackend,
    private readonly key: KeyMaterial,
  ) {}

  async store(applicationId: number, data: Buffer): Promise<string> {
    const storageKey = `applications/${applicationId}/${randomUUID()}`;
    await this.backend.put(storageKey, seal(this.key, data, documentContext(storageKey)), {
      contentType: "application/octet-stream",
      cacheControl: "private, no-store",
    });
    return storageKey;
  }

  /** The document's bytes, or null when it is gone. */
  async read(storageKey: string): Promise<Buffer | null> {
    const blob = await this.backend.get(storageKey);
    if (!blob) return null;
    return unseal(this.key, await readAll(blob), documentContext(storageKey));
  }

  async remove(storageKeys: readonly string[]): Promise<void> {
    for (const storageKey of storageKeys) await this.backend.delete(storageKey);
  }
}
