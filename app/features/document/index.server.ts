export { deferHydration } from "./defer-hydration.server";
export { inlineScriptHashes } from "./script-hashes.server";
export { securityHeaders } from "./security-headers.server";
