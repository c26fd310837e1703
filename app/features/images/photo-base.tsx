// PHOTO_BASE_URL: pages point their photos at a CDN in front of the bucket instead of the site's
// /images (docs/decisions/0038-object-storage.md). Records keep the /images URLs either way.
import { createContext, type ReactNode, useContext } from "react";

const PhotoBaseContext = createContext<string | null>(null);

export function PhotoBaseProvider({
  base,
  children,
}: {
  base: string | null;
  children: ReactNode;
}) {
  return <PhotoBaseContext.Provider value={base}>{children}</PhotoBaseContext.Provider>;
}

/** `/images/{key}` → `{base}/{key}` (the object's key in the bucket); other URLs unchanged. */
export function photoUrl(src: string, base: string | null): string {
  return base && src.startsWith("/images/") ? `${base}${src.slice("/images".length)}` : src;
}

/** The page's photo URL mapper. */
export function usePhotoUrl(): (src: string) => string {
  const base = useContext(PhotoBaseContext);
  return (src) => photoUrl(src, base);
}
