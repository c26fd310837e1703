// docs/behaviour.md §9 lightbox constants, mapped onto yet-another-react-lightbox settings where it has one.
//
// Three of the constants of docs/behaviour.md §9 have no setting in the library and keep its built-in behaviour:
// - key repeat limit 180 ms: arrow keys are throttled to half the swipe animation (150 ms);
// - swipe threshold 200 px or a quarter of the width: a drag past 30% of the width, or a quick
//   flick, changes the photo;
// - horizontal wheel thresholds 200/100 with a 500 ms lock: a wheel swipe follows the same
//   drag rule.
// Maximum zoom is given to the library as a ratio to the photo's own pixels (maxZoomPixelRatio),
// so level 300 (×8.1) is measured against the stored photo, not the size it is shown at.
export const LIGHTBOX = {
  minZoomLevel: 0,
  maxZoomLevel: 300,
  zoomStep: 100,
  /** Zoom factor at a level is 1.007 ** level (so 100 ≈ ×2.0, 300 ≈ ×8.1). */
  wheelMultiplierBase: 1.007,
  imagePadding: 10,
  animationMs: 300,
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
