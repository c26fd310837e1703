// Loaded on demand: the lightbox's code and styles reach the browser only when a photo is opened.
import { useMemo } from "react";
import Lightbox from "yet-another-react-lightbox";
import Zoom from "yet-another-react-lightbox/plugins/zoom";
import "yet-another-react-lightbox/styles.css";
import "./photo-lightbox.css";
import { messages } from "~/domain/messages";
import { usePhotoUrl } from "~/features/images";
import { LIGHTBOX, lightboxZoomSettings } from "./lightbox-settings";

interface PhotoLightboxProps {
  urls: string[];
  /** Each photo's alternative text; `captions` are shown under the photo when not empty. */
  alts: string[];
  captions: string[];
  index: number;
  /** The photo shown now: the parent passes it back as `index` (see below). */
  onView: (index: number) => void;
  onClose: () => void;
}

export default function PhotoLightbox({
  urls,
  alts,
  captions,
  index,
  onView,
  onClose,
}: PhotoLightboxProps) {
  const photoUrl = usePhotoUrl();
  // The lightbox goes back to `index` whenever it gets new slides (a new array): the page's data
  // loaded again (an admin's page when a lead arrives, any page after a form is sent) would take
  // the visitor back to the photo they opened. Slides stay the same array while their content
  // does, and `index` follows the photo shown (docs/testing.md, "Known races").
  const content = JSON.stringify([urls, alts, captions]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the same content, the same slides
  const slides = useMemo(
    () => urls.map((src, i) => ({ src: photoUrl(src), alt: alts[i], caption: captions[i] })),
    [content, photoUrl],
  );
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      on={{ view: ({ index: shown }) => onView(shown) }}
      slides={slides}
      plugins={[Zoom]}
      labels={LIGHTBOX.labels}
      carousel={{ finite: false, padding: LIGHTBOX.imagePadding }}
      animation={{
        fade: LIGHTBOX.animationMs,
        swipe: LIGHTBOX.animationMs,
        zoom: LIGHTBOX.animationMs,
      }}
      zoom={lightboxZoomSettings}
      render={{
        iconError: () => <span className="lightbox-error">{messages.imageLoadFailed}</span>,
        // The caption under the photo (docs/behaviour.md §20).
        slideFooter: ({ slide }) => {
          const caption = (slide as { caption?: string }).caption;
          return caption ? <p className="lightbox-caption">{caption}</p> : null;
        },
      }}
    />
  );
}
