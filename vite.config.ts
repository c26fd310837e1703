import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { precompress } from "./scripts/vite-precompress.ts";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is the whole production server (server/main.ts), which includes
  // React Router's server build: one bundle, each module loaded once.
  build: isSsrBuild ? { rollupOptions: { input: "./server/main.ts" } } : {},
  plugins: [reactRouter(), precompress()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
}));
