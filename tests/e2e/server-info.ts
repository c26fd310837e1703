// Where this worker's test server runs. global-setup.ts starts one per worker and puts their
// addresses in the environment (E2E_BASE_URL_0, ...), which Playwright's worker processes inherit;
// a worker reads those of its TEST_PARALLEL_INDEX (0 to workers - 1, set by Playwright).

/** An admin grant the test server makes at start; nobody signs in with it. */
export const STANDING_ADMIN = "e2e-standing-admin@example.com";

export interface ServerInfo {
  /** The site, e.g. http://localhost:41234. */
  baseURL: string;
  /** The control port of test-server.ts. */
  controlURL: string;
  /** The server's DATA_DIR (its photos are under images/). */
  dataDir: string;
}

export function serverInfo(): ServerInfo {
  const index = process.env.TEST_PARALLEL_INDEX ?? "0";
  const E2E_BASE_URL = process.env[`E2E_BASE_URL_${index}`];
  const E2E_CONTROL_URL = process.env[`E2E_CONTROL_URL_${index}`];
  const E2E_DATA_DIR = process.env[`E2E_DATA_DIR_${index}`];
  if (!E2E_BASE_URL || !E2E_CONTROL_URL || !E2E_DATA_DIR) {
    throw new Error("No test server: run the browser tests with `npx playwright test`.");
  }
  return { baseURL: E2E_BASE_URL, controlURL: E2E_CONTROL_URL, dataDir: E2E_DATA_DIR };
}

/** An absolute URL on the test server. */
export const siteURL = (path: string) => new URL(path, serverInfo().baseURL);
