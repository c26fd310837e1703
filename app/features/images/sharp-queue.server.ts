// Image work waits its turn: at most one sharp job per core runs at a time, and never so many
// that libuv's thread pool (which also reads the files pages and photos are served from) fills.
import os from "node:os";

const THREAD_POOL = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const SHARP_SLOTS = Math.max(1, Math.min(os.availableParallelism(), THREAD_POOL - 2));

let running = 0;
const waiting: (() => void)[] = [];

/** Runs one sharp job (a metadata read or one encode) when a slot is free, in arrival order. */
export async function sharpJob<T>(job: () => Promise<T>): Promise<T> {
  if (running < SHARP_SLOTS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
