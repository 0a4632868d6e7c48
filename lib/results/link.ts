/** The `Link: <...>; rel="next"` header of a paged export (RFC 8288; a path relative to the API's origin). */
export const nextLink = (path: string, nextQuery: string | null): Record<string, string> | undefined =>
  nextQuery === null ? undefined : { link: `<${path}?${nextQuery}>; rel="next"` };
