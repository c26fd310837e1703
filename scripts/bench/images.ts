// Photo bytes a phone downloads on a detail page (Chromium at Lighthouse's mobile size, the page
// scrolled to the end so lazy photos load too) against the stored originals they come from.
import fs from "node:fs/promises";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS } from "../shared/chromium";

export interface ImageBytes {
  page: string;
  photos: number;
  deliveredBytes: number;
  originalBytes: number;
  ratio: number;
}

export async function imageBytes(base: string, page: string, dataDir: string): Promise<ImageBytes> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
    });
    const tab = await context.newPage();
    const delivered = new Map<string, number>();
    tab.on("response", async (res) => {
      const url = new URL(res.url());
      if (!url.pathname.startsWith("/images/")) return;
      const body = await res.body().catch(() => Buffer.alloc(0));
      delivered.set(url.pathname, body.length);
    });
    await tab.goto(base + page, { waitUntil: "load" });
    await tab.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    await tab.waitForLoadState("networkidle");
    let originalBytes = 0;
    const originals = new Set(
      [...delivered.keys()].map((p) => p.replace(/\.w\d+\.(webp|jpg)$/, ".jpg")),
    );
    for (const url of originals) {
      const [, , collection, id, file] = url.split("/");
      const stored = path.join(
        dataDir,
        "images",
        collection as string,
        decodeURIComponent(id as string),
        file as string,
      );
      originalBytes += (await fs.stat(stored)).size;
    }
    const deliveredBytes = [...delivered.values()].reduce((a, b) => a + b, 0);
    return {
      page,
      photos: originals.size,
      deliveredBytes,
      originalBytes,
      ratio: originalBytes ? deliveredBytes / originalBytes : Number.NaN,
    };
  } finally {
    await browser.close();
  }
}
