// Unicode text in generated PDFs. pdf-lib's standard fonts know Windows-1252 only ("Łódź"
// throws), so text is drawn in embedded, subset Noto fonts: Noto Sans for Latin, Greek and
// Cyrillic, and Noto Sans JP for what it lacks (kana, kanji and most hanzi). Each character is
// drawn in the first font that has it. The font files (0.6 MB and 4.5 MB) are read from
// node_modules only while a PDF is generated, and are not kept in memory afterwards.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Color, PDFDocument, PDFFont, PDFPage } from "pdf-lib";

export interface TextOptions {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  color?: Color;
}

export type DrawText = (text: string, options: TextOptions) => Promise<void>;

export interface TextFonts {
  /** Draws one line, switching font where the first one lacks a character. */
  draw(page: PDFPage, text: string, options: TextOptions): Promise<void>;
}

const require = createRequire(import.meta.url);

/** A font file of a package that exports only its index module (dist/), beside it in fonts/. */
function fontFile(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(pkg)), "..", "fonts", file);
}

const FILES = {
  regular: [
    () => fontFile("@embedpdf/fonts-latin", "NotoSans-Regular.ttf"),
    () => fontFile("@embedpdf/fonts-jp", "NotoSansJP-Regular.otf"),
  ],
  bold: [
    () => fontFile("@embedpdf/fonts-latin", "NotoSans-Bold.ttf"),
    () => fontFile("@embedpdf/fonts-jp", "NotoSansJP-Bold.otf"),
  ],
} as const;

interface Face {
  /** Whether the font has a glyph for a code point (read from the file's cmap). */
  has(code: number): boolean;
  /** The font in this PDF, embedded on first use: a font embedded but never drawn with would
   * be an empty subset, which fontkit cannot write. */
  embedded(): Promise<PDFFont>;
}

export async function embedTextFonts(pdf: PDFDocument): Promise<TextFonts> {
  const { default: fontkit } = await import("@pdf-lib/fontkit");
  pdf.registerFontkit(fontkit);
  const faces = (files: readonly (() => string)[]) =>
    Promise.all(
      files.map(async (file): Promise<Face> => {
        const bytes = await readFile(file());
        const parsed = fontkit.create(bytes);
        let font: Promise<PDFFont> | undefined;
        return {
          has: (code) => parsed.hasGlyphForCodePoint(code),
          embedded: () => {
            font ??= pdf.embedFont(bytes, { subset: true });
            return font;
          },
        };
      }),
    );
  const [regular, bold] = await Promise.all([faces(FILES.regular), faces(FILES.bold)]);
  return {
    async draw(page, text, { bold: isBold, x, y, size, color }) {
      let left = x;
      for (const run of runs(text, isBold ? bold : regular)) {
        const font = await run.face.embedded();
        page.drawText(run.text, { x: left, y, size, font, color });
        left += font.widthOfTextAtSize(run.text, size);
      }
    },
  };
}

/** The text cut where the font changes; a character no font has goes to the first (a box). */
function runs(text: string, faces: readonly Face[]): { text: string; face: Face }[] {
  const first = faces[0];
  if (!first) throw new Error("No font to draw text with");
  const out: { text: string; face: Face }[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const face = faces.find((f) => f.has(code)) ?? first;
    const last = out.at(-1);
    if (last && last.face === face) last.text += char;
    else out.push({ text: char, face });
  }
  return out;
}
