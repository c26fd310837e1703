// Time for the server to accept, check, re-encode and store a 12-megapixel phone-like JPEG.
import sharp from "sharp";
import { median } from "./stats";

export async function photoLikeJpeg(width = 4000, height = 3000): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const noise = Math.random() * 40;
      raw[i] = ((x / width) * 180 + noise) | 0;
      raw[i + 1] = ((y / height) * 160 + noise) | 0;
      raw[i + 2] = (((x + y) % 500) / 3 + noise) | 0;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 92 })
    .toBuffer();
}

export async function uploadTime(base: string, cookie: string, propertyId: string, runs = 3) {
  const photo = await photoLikeJpeg();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const form = new FormData();
    form.append("images", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "phone.jpg");
    const start = performance.now();
    const res = await fetch(`${base}/api/listings/properties/${propertyId}/images`, {
      method: "POST",
      headers: { cookie },
      body: form,
    });
    const elapsed = performance.now() - start;
    if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    times.push(elapsed);
  }
  return {
    megapixels: 12,
    inputBytes: photo.length,
    runs,
    medianMs: Math.round(median(times)),
    timesMs: times.map(Math.round),
  };
}
