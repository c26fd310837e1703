// Spec §9 lightbox constants, mapped onto yet-another-react-lightbox settings where it has one.
export const LIGHTBOX = {
  minZoomLevel: 0,
  maxZoomLevel: 300,
  zoomStep: 100,
  /** Zoom factor at a level is 1.007 ** level (so 100 ≈ ×2.0, 300 ≈ ×8.1). */
  wheelMultiplierBase: 1.007,
  imagePadding: 10,
  animationMs: 300,
  keyRepeatLimitMs: 180,
  swipeThresholdPx: 200,
  labels: {
    Close: "Close lightbox",
    Next: "Next image",
    Previous: "Previous image",
    "Zoom in": "Zoom in",
    "Zoom out": "Zoom out",
  },
} as const;

/** The scale factor for a zoom level (0–300). */
export function zoomFactor(level: number): number {
  const clamped = Math.min(LIGHTBOX.maxZoomLevel, Math.max(LIGHTBOX.minZoomLevel, level));
  return LIGHTBOX.wheelMultiplierBase ** clamped;
}

/** Library settings derived from the constants above. */
export const lightboxZoomSettings = {
  zoomInMultiplier: zoomFactor(LIGHTBOX.zoomStep),
  doubleClickMaxStops: (LIGHTBOX.maxZoomLevel - LIGHTBOX.minZoomLevel) / LIGHTBOX.zoomStep,
  maxZoomPixelRatio: zoomFactor(LIGHTBOX.maxZoomLevel),
  scrollToZoom: true,
};
