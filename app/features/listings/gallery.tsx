import { lazy, Suspense, useState } from "react";
import { photoAlt } from "~/domain/listing";
import { Photo } from "~/features/images";

const PhotoLightbox = lazy(() => import("./photo-lightbox"));

interface GalleryProps {
  urls: string[];
  address: string;
  /** Captions by URL: each photo's alternative text (docs/behaviour.md §20). */
  captions?: Record<string, string>;
}

/** Photos in 3 columns at ≥ 900 px, else 2 (CSS); a click opens the lightbox at that photo. */
export function Gallery({ urls, address, captions }: GalleryProps) {
  const alts = urls.map((url, i) => photoAlt({ address, image_captions: captions }, url, i));
  const [openAt, setOpenAt] = useState<number | null>(null);
  if (urls.length === 0) return <p className="empty gallery-empty">No images available</p>;
  return (
    <>
      <div className="gallery" data-testid="gallery">
        {urls.map((url, i) => (
          <button
            key={url}
            type="button"
            onClick={() => setOpenAt(i)}
            aria-label={`Open photo ${i + 1} of ${urls.length} of ${address}`}
          >
            <Photo src={url} alt={alts[i]} layout="gallery" priority={i === 0} lazy={i > 0} />
          </button>
        ))}
      </div>
      {openAt !== null ? (
        <Suspense fallback={null}>
          <PhotoLightbox
            urls={urls}
            alts={alts}
            captions={urls.map((url) => captions?.[url]?.trim() ?? "")}
            index={openAt}
            onView={setOpenAt}
            onClose={() => setOpenAt(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
