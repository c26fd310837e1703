import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { precompress } from "./scripts/vite-precompress.ts";

/**
 * The document worker (docs/decisions/0073) as a chunk of the server build with a fixed name,
 * build/server/document-worker.js, beside index.js where document-jobs.server.ts looks for it.
 */
function documentWorker(): Plugin {
  return {
    name: "document-worker",
    buildStart() {
      this.emitFile({
        type: "chunk",
        id: fileURLToPath(
          new URL("./app/features/applications/document-worker.server.ts", import.meta.url),
        ),
        fileName: "document-worker.js",
      });
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is the whole production server (server/main.ts), which includes
  // React Router's server build: one bundle, each module loaded once.
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/main.ts" } }
    : {
        // A feature's modules do nothing when imported but define things (a `lazy()` or a
        // context made at the top is no effect of its own): what a page does not use of a
        // feature's surface (index.ts) stays out of its JavaScript (docs/decisions/0082).
        // The form kit (app/ui) likewise. Style sheets keep their effect.
        rollupOptions: {
          treeshake: {
            moduleSideEffects: [{ test: /\/app\/(features|ui)\/.+\.tsx?$/, sideEffects: false }],
          },
        },
      },
  plugins: [reactRouter(), precompress(), ...(isSsrBuild ? [documentWorker()] : [])],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
}));
