// The document worker (docs/decisions/0073): one job per worker thread, started by
// document-jobs.server.ts with memory and time limits, so that parsing an uploaded file (pdf-lib,
// sharp) or building 'Download PDF' never blocks the server's main thread. The production build
// emits it as build/server/document-worker.js (vite.config.ts).
import { parentPort } from "node:worker_threads";
import { buildApplicationFilePdfNow, type FilePdfInput } from "./application-file-pdf-build.server";
import { checkDocumentNow, DocumentRejectedError } from "./document-check.server";

export type DocumentJob =
  | { kind: "check"; bytes: Uint8Array }
  | { kind: "file-pdf"; input: FilePdfInput };

export type DocumentJobResult =
  | { ok: true; data: Uint8Array; type?: string }
  | { ok: false; rejected: string; status: number }
  | { ok: false; error: string };

async function run(job: DocumentJob): Promise<DocumentJobResult> {
  try {
    if (job.kind === "check") {
      const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.length);
      const checked = await checkDocumentNow(bytes);
      return { ok: true, data: checked.data, type: checked.type };
    }
    return { ok: true, data: await buildApplicationFilePdfNow(job.input) };
  } catch (error) {
    if (error instanceof DocumentRejectedError) {
      return { ok: false, rejected: error.message, status: error.status };
    }
    return { ok: false, error: String((error as Error)?.stack ?? error) };
  }
}

parentPort?.once("message", async (job: DocumentJob) => {
  // Copied, not transferred: a small Buffer may live in Node's shared pool, which cannot move.
  parentPort?.postMessage(await run(job));
});
