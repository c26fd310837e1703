import os from "node:os";

/** This machine's first non-loopback IPv4 address, or undefined when it has none. */
export function networkAddress(): string | undefined {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.family === "IPv4" && !a.internal) return a.address;
    }
  }
  return undefined;
}
