// 'Download PDF' (docs/behaviour.md §32): the whole application as one PDF,
// built in a document worker (application-file-pdf-build.server.ts, docs/decisions/0073).
import { runDocumentJob } from "./document-jobs.server";
import type { DocumentVault } from "./documents.server";
import type { ApplicationRecord } from "./staff.server";

/**
 * 'Download PDF', built in a document worker with its limits (docs/decisions/0073): a document's
 * pages are parsed by pdf-lib, which must never run on the main thread. The documents are
 * unsealed here (the key stays in the main thread) and handed over as bytes.
 */
export async function buildApplicationFilePdf(
  record: ApplicationRecord,
  vault: DocumentVault,
  companyName: string,
): Promise<Uint8Array> {
  const documents: Record<string, Uint8Array> = {};
  for (const applicant of record.applicants) {
    for (const d of applicant.documents) {
      const read = d.storageKey ? await vault.read(d.storageKey) : null;
      if (read && d.storageKey) documents[d.storageKey] = read;
    }
  }
  const { data } = await runDocumentJob({
    kind: "file-pdf",
    input: { record, companyName, documents },
  });
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}
