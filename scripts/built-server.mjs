// The bundled production server (build/server/index.js), built first when it is missing or
// older than its sources. Plain JavaScript: `npm start` and `npm run admin` need no TypeScript
// loader at run time.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const bundle = path.join(root, "build/server/index.js");
const sources = [
  "app",
  "server",
  "public",
  "package.json",
  "vite.config.ts",
  "react-router.config.ts",
];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) {
    if (/\.test\.tsx?$/.test(child)) continue; // tests are not part of the build
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** Imports the bundle, building it first when needed (progress on stderr). */
export async function loadBuiltServer() {
  const built = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
  if (built < Math.max(...sources.map(newestMtime))) {
    console.error("Building the site…");
    // Always a production build, whatever NODE_ENV this process runs with (Vite would
    // otherwise build a development flavour for NODE_ENV=development or test).
    const result = spawnSync("npx", ["react-router", "build"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", process.stderr, "inherit"],
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  return import(pathToFileURL(bundle).href);
}
