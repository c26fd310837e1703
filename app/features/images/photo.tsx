import { preload } from "react-dom";
import { usePhotoUrl } from "./photo-base";
import { PHOTO_SIZES, srcSet } from "./variants";

interface PhotoProps {
  src: string;
  /** Which layout shows it: decides `sizes`. */
  layout: keyof typeof PHOTO_SIZES;
  alt?: string;
  className?: string;
  /** The page's main photo: preloaded, fetched first, never lazy. */
  priority?: boolean;
  /** Below the fold: the browser fetches it when it nears the viewport. */
  lazy?: boolean;
}

/**
 * A stored photo as WebP variants with the JPEG variants as fallback. Width and height (3:2, the
 * layouts' aspect ratio) reserve its box so nothing shifts when it arrives.
 */
export function Photo({ src: stored, layout, alt = "", className, priority, lazy }: PhotoProps) {
  const src = usePhotoUrl()(stored);
  const sizes = PHOTO_SIZES[layout];
  const webp = srcSet(src, "webp");
  if (priority && webp) {
    preload(src, { as: "image", imageSrcSet: webp, imageSizes: sizes, fetchPriority: "high" });
  }
  const img = (
    <img
      className={className}
      src={src}
      srcSet={srcSet(src, "jpg")}
      sizes={webp ? sizes : undefined}
      alt={alt}
      width={600}
      height={400}
      loading={lazy && !priority ? "lazy" : "eager"}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? "sync" : "async"}
    />
  );
  if (!webp) return img;
  return (
    <picture>
      <source type="image/webp" srcSet={webp} sizes={sizes} />
      {img}
    </picture>
  );
}
