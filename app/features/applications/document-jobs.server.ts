// Runs document jobs (checking an upload, building 'Download PDF') in worker threads with limits
// (docs/decisions/0073): a fresh worker per job, so that whatever a hostile file made it allocate
// goes when it ends; a heap limit, a time limit after which it is terminated, and a bound on how
// many run at once with a small queue. A job over a limit is refused with a message, never a 5xx.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { DOCUMENT_ERRORS, DocumentRejectedError } from "./document-check.server";
import type { DocumentJob, DocumentJobResult } from "./document-worker.server";

export const DOCUMENT_JOB_LIMITS = {
  /** Jobs running at once (the machine keeps a core for the pages). */
  running: 1,
  /** Jobs waiting for a turn; one more is refused at once ('busy'). */
  waiting: 8,
  /** A check's time, from its start (a worker's own start included). */
  checkMs: 15_000,
  /** 'Download PDF' of a whole household with its documents. */
  filePdfMs: 60_000,
  /** V8 heap of one worker; inflated buffers live outside it and are bounded by the check. */
  heapMb: 256,
} as const;

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * Where the worker is: beside the bundle in a production build (build/server/document-worker.js,
 * emitted by vite.config.ts), else its TypeScript source through a small tsx loader.
 */
function workerEntry(): { file: string; workerData?: { source: string } } {
  if (!import.meta.url.endsWith(".ts")) {
    // (In a chunk under build/server/assets/ should the bundler ever move this module there.)
    for (const built of [
      path.join(here, "document-worker.js"),
      path.join(here, "..", "document-worker.js"),
    ]) {
      if (existsSync(built)) return { file: built };
    }
  }
  return {
    file: path.join(here, "document-worker-dev.mjs"),
    workerData: { source: new URL("./document-worker.server.ts", import.meta.url).href },
  };
}

let running = 0;
const queue: (() => void)[] = [];

async function turn(): Promise<void> {
  if (running < DOCUMENT_JOB_LIMITS.running) {
    running++;
    return;
  }
  if (queue.length >= DOCUMENT_JOB_LIMITS.waiting) {
    throw new DocumentRejectedError(DOCUMENT_ERRORS.busy, 429);
  }
  await new Promise<void>((resolve) => queue.push(resolve)); // the slot is handed over
}

function release() {
  const next = queue.shift();
  if (next) next();
  else running--;
}

/** Test hook: what is running and waiting now. */
export const documentJobsNow = () => ({ running, waiting: queue.length });

/**
 * The process's own flags, less those that say how its entry was given (`node --input-type=module
 * -e …`, as a server started by a script is): a worker given them refuses to start.
 */
export function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (flag === "-e" || flag === "--eval" || flag === "-p" || flag === "--print") i++;
    else if (flag.startsWith("--input-type") || flag.startsWith("--eval=")) continue;
    else if (flag.startsWith("--print=")) continue;
    else kept.push(flag);
  }
  return kept;
}

function runInWorker(job: DocumentJob, timeoutMs: number): Promise<DocumentJobResult> {
  const entry = workerEntry();
  return new Promise((resolve) => {
    const worker = new Worker(entry.file, {
      workerData: entry.workerData,
      execArgv: workerExecArgv(),
      resourceLimits: {
        maxOldGenerationSizeMb: DOCUMENT_JOB_LIMITS.heapMb,
        maxYoungGenerationSizeMb: 32,
        stackSizeMb: 4,
      },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (result: DocumentJobResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, rejected: DOCUMENT_ERRORS.tooComplex, status: 422 }),
      timeoutMs,
    );
    worker.once("message", (result: DocumentJobResult) => finish(result));
    worker.once("error", (error: Error & { code?: string }) =>
      finish(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { ok: false, rejected: DOCUMENT_ERRORS.tooComplex, status: 422 }
          : { ok: false, error: String(error.stack ?? error) },
      ),
    );
    worker.once("exit", () =>
      finish({ ok: false, error: "document worker ended without an answer" }),
    );
    worker.postMessage(job);
  });
}

/** Runs one job when its turn comes; a refusal throws DocumentRejectedError. */
export async function runDocumentJob(job: DocumentJob): Promise<{ data: Buffer; type?: string }> {
  await turn();
  let result: DocumentJobResult;
  try {
    result = await runInWorker(
      job,
      job.kind === "check" ? DOCUMENT_JOB_LIMITS.checkMs : DOCUMENT_JOB_LIMITS.filePdfMs,
    );
  } finally {
    release();
  }
  if (result.ok) {
    return {
      data: Buffer.from(result.data.buffer, result.data.byteOffset, result.data.length),
      ...(result.type ? { type: result.type } : {}),
    };
  }
  if ("rejected" in result) throw new DocumentRejectedError(result.rejected, result.status);
  throw new Error(`Document job failed: ${result.error}`);
}
