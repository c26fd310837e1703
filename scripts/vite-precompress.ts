// Vite plugin: writes .br (max quality) and .gz beside every text asset of the client build, so
// the server sends them as they are instead of compressing each response on the fly.
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|webmanifest)$/;
const MIN_BYTES = 512;

export function precompress(): Plugin {
  let outDir = "";
  let isSsr = false;
  return {
    name: "leasing:precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
      isSsr = Boolean(config.build.ssr);
    },
    async writeBundle() {
      if (isSsr) return;
      const entries = await fs.readdir(outDir, { recursive: true, withFileTypes: true });
      await Promise.all(
        entries
          .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
          .map(async (e) => {
            const file = path.join(e.parentPath, e.name);
            const data = await fs.readFile(file);
            if (data.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzip(data, { level: 9 }),
            ]);
            await fs.writeFile(`${file}.br`, br);
            await fs.writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
}
