import sharp from "sharp";

/** A small deterministic PRNG so demo photos look the same on every machine. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 10_000) / 10_000;
  };
}

export type SceneKind = "house" | "office" | "beach" | "site";

/**
 * Draws a photo-like street scene (sky, light, ground, a building, trees) and adds film grain,
 * so demo listings show believable photos without shipping any.
 */
export async function demoPhoto(kind: SceneKind, seed: number, width = 1600, height = 1067) {
  const r = random(seed * 7919 + 17);
  const hue = Math.floor(190 + r() * 30);
  const dusk = r() < 0.3;
  const skyTop = dusk ? `hsl(${hue + 20},45%,35%)` : `hsl(${hue},70%,${55 + r() * 10}%)`;
  const skyBottom = dusk ? "hsl(25,80%,70%)" : `hsl(${hue - 10},60%,88%)`;
  const horizon = height * (0.55 + r() * 0.1);
  const ground =
    kind === "beach" ? "hsl(42,55%,75%)" : kind === "site" ? "hsl(30,30%,45%)" : "hsl(105,35%,38%)";
  const bodyHue = Math.floor(r() * 360);
  const bx = width * (0.22 + r() * 0.15);
  const bw = width * (0.42 + r() * 0.12);
  const bh = kind === "office" ? height * 0.55 : height * (0.28 + r() * 0.08);
  const by = horizon - bh + height * 0.05;
  const parts: string[] = [];
  parts.push(`<defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient>
    <linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${ground}"/><stop offset="1" stop-color="hsl(100,20%,20%)"/></linearGradient>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="hsl(${bodyHue},25%,78%)"/><stop offset="1" stop-color="hsl(${bodyHue},20%,58%)"/></linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fffbe6"/><stop offset="1" stop-color="#fffbe6" stop-opacity="0"/></radialGradient>
  </defs>`);
  parts.push(`<rect width="${width}" height="${height}" fill="url(#sky)"/>`);
  parts.push(
    `<circle cx="${width * (0.1 + r() * 0.8)}" cy="${height * 0.18}" r="${height * 0.25}" fill="url(#sun)"/>`,
  );
  for (let i = 0; i < 4; i++) {
    const cx = width * r();
    const cy = height * (0.08 + r() * 0.25);
    parts.push(
      `<ellipse cx="${cx}" cy="${cy}" rx="${80 + r() * 160}" ry="${20 + r() * 30}" fill="#fff" opacity="${0.35 + r() * 0.4}"/>`,
    );
  }
  if (kind === "beach") {
    parts.push(
      `<rect y="${horizon - height * 0.08}" width="${width}" height="${height * 0.1}" fill="hsl(200,60%,45%)"/>`,
    );
  }
  parts.push(
    `<rect y="${horizon}" width="${width}" height="${height - horizon}" fill="url(#ground)"/>`,
  );
  // Building body, roof, windows and door.
  parts.push(`<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" fill="url(#wall)"/>`);
  if (kind !== "office") {
    const roof = kind === "site" ? "hsl(30,10%,55%)" : `hsl(${(bodyHue + 180) % 360},20%,28%)`;
    parts.push(
      `<polygon points="${bx - 30},${by} ${bx + bw / 2},${by - bh * 0.55} ${bx + bw + 30},${by}" fill="${roof}"/>`,
    );
  }
  const cols = kind === "office" ? 6 : 4;
  const rows = kind === "office" ? 5 : 2;
  for (let c = 0; c < cols; c++) {
    for (let w = 0; w < rows; w++) {
      const wx = bx + bw * (0.08 + (c * 0.84) / cols);
      const wy = by + bh * (0.12 + (w * 0.7) / rows);
      const lit = dusk && r() < 0.5 ? "hsl(45,90%,70%)" : "hsl(205,35%,30%)";
      parts.push(
        `<rect x="${wx}" y="${wy}" width="${(bw * 0.6) / cols}" height="${(bh * 0.45) / rows}" fill="${lit}" stroke="#f4f4f4" stroke-width="5"/>`,
      );
    }
  }
  if (kind !== "office") {
    parts.push(
      `<rect x="${bx + bw * 0.45}" y="${by + bh * 0.6}" width="${bw * 0.1}" height="${bh * 0.4}" fill="hsl(${bodyHue},40%,22%)"/>`,
    );
  }
  if (kind === "site") {
    parts.push(
      `<rect x="${bx + bw + 60}" y="${by - bh}" width="18" height="${bh * 2}" fill="hsl(45,90%,50%)"/>`,
      `<rect x="${bx - 120}" y="${by - bh}" width="${bw + 260}" height="14" fill="hsl(45,90%,50%)"/>`,
    );
  }
  for (let t = 0; t < 5; t++) {
    const tx = width * r();
    const ty = horizon + height * (0.02 + r() * 0.08);
    const tr = 50 + r() * 90;
    parts.push(
      `<rect x="${tx - 8}" y="${ty - 10}" width="16" height="${tr}" fill="hsl(25,35%,25%)"/>`,
      `<circle cx="${tx}" cy="${ty - tr * 0.5}" r="${tr * 0.75}" fill="hsl(${100 + r() * 40},40%,${25 + r() * 15}%)"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join("")}</svg>`;
  const base = await sharp(Buffer.from(svg)).blur(1.2).raw().toBuffer({ resolveWithObject: true });
  // Film grain: real photos are never perfectly flat, and flat images compress unrealistically.
  const pixels = base.data;
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] = Math.max(0, Math.min(255, (pixels[i] ?? 0) + Math.round((r() - 0.5) * 18)));
  }
  return sharp(pixels, { raw: base.info }).jpeg({ quality: 90 }).toBuffer();
}
