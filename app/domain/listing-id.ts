/**
 * Whether `id` could name a stored record at all. PostgreSQL text holds neither NUL nor
 * unpaired surrogates, so no record has such an id; asking the database anyway makes the query
 * fail, which would read as a server fault instead of the ordinary "not found".
 */
export function isPossibleListingId(id: string): boolean {
  return id.length > 0 && !id.includes("\0") && !/\p{Cs}/u.test(id);
}
