// Runs the document worker from its TypeScript source (development and tests): tsx compiles it.
// The production build runs build/server/document-worker.js instead (docs/decisions/0073).
import { workerData } from "node:worker_threads";

const { register } = await import("tsx/esm/api");
register();
await import(workerData.source);
