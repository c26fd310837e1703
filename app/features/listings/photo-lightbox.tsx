// Loaded on demand: the lightbox's code and styles reach the browser only when a photo is opened.
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
  onClose: () => void;
}

export default function PhotoLightbox({
  urls,
  alts,
  captions,
  index,
  onClose,
}: PhotoLightboxProps) {
  const photoUrl = usePhotoUrl();
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={urls.map((src, i) => ({ src: photoUrl(src), alt: alts[i], caption: captions[i] }))}
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
