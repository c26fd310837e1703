// `npm start`: builds the site when the build is missing or stale, then serves it.
import { loadBuiltServer } from "./built-server.mjs";

process.env.NODE_ENV ??= "production";
const { startServer } = await loadBuiltServer();
await startServer(process.env);
