// N browsers' worth of live-update streams, then K admin writes: how long from sending a write
// to each stream receiving its event.
import http from "node:http";
import { percentile } from "./stats";

export interface LiveResult {
  subscribers: number;
  writes: number;
  deliveries: number;
  missed: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export async function liveDelivery(
  base: string,
  cookie: string,
  propertyId: string,
  subscribers = 1000,
  writes = 20,
): Promise<LiveResult> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const received: number[] = new Array(subscribers).fill(0);
  const lastAt: number[] = new Array(subscribers).fill(0);
  const requests: http.ClientRequest[] = [];
  await Promise.all(
    Array.from(
      { length: subscribers },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const req = http.get(`${base}/live?collections=properties`, { agent }, (res) => {
            let buffer = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              buffer += chunk;
              let end = buffer.indexOf("\n\n");
              while (end >= 0) {
                const event = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                if (event.startsWith("data:")) {
                  received[i] = (received[i] ?? 0) + 1;
                  lastAt[i] = performance.now();
                }
                end = buffer.indexOf("\n\n");
              }
            });
            resolve();
          });
          req.on("error", reject);
          requests.push(req);
        }),
    ),
  );
  const delays: number[] = [];
  let missed = 0;
  try {
    for (let w = 1; w <= writes; w++) {
      const sentAt = performance.now();
      const res = await fetch(`${base}/api/listings/properties/${propertyId}/availability`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ currently_available: w % 2 === 0 }),
      });
      if (res.status !== 204) throw new Error(`write answered ${res.status}: ${await res.text()}`);
      const deadline = sentAt + 5_000;
      while (received.some((n) => n < w) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 2));
      }
      for (let i = 0; i < subscribers; i++) {
        if ((received[i] ?? 0) >= w) delays.push((lastAt[i] ?? 0) - sentAt);
        else {
          missed++;
          received[i] = w; // count it once
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    for (const req of requests) req.destroy();
    agent.destroy();
  }
  return {
    subscribers,
    writes,
    deliveries: delays.length,
    missed,
    p50Ms: Math.round(percentile(delays, 50) * 10) / 10,
    p95Ms: Math.round(percentile(delays, 95) * 10) / 10,
    maxMs: Math.round(Math.max(...delays) * 10) / 10,
  };
}
