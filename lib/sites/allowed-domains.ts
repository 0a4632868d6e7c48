/**
 * The one reading of `allowedDomains` (CONTRACT "Decided details"): entries are host names, matched
 * without regard to case; an entry that names a port (`localhost:5173`) matches that port only, one
 * that does not matches any. Login and logout redirects (lib/oauth/redirect-url.ts) and CORS origins
 * (lib/http/cors.ts) both ask here, so a frontend allowed for one is allowed for the other.
 * Entries written with a scheme by habit (`https://city.example`) are read as their host and port.
 */
interface AllowedDomain {
  host: string;
  /** The port the entry names, or undefined: any port. */
  port: string | undefined;
}

function parseAllowedDomain(entry: string): AllowedDomain | undefined {
  const trimmed = entry.trim().toLowerCase();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (!url.hostname) return undefined;
    const named = /^[a-z][a-z0-9+.-]*:\/\/[^/]*:(\d+)(?:\/|$)/.exec(withScheme)?.[1];
    return { host: url.hostname, port: named === undefined ? undefined : String(Number(named)) };
  } catch {
    return undefined;
  }
}

/** The port a URL goes to: its own, else its scheme's default. */
const effectivePort = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');

/** Whether a URL (a redirect target, a CORS origin) is one of the site's allowed frontends. */
export function isAllowedFrontend(url: URL, allowedDomains: readonly string[] | undefined): boolean {
  const host = url.hostname.toLowerCase();
  return (allowedDomains ?? []).some((entry) => {
    const allowed = parseAllowedDomain(entry);
    return allowed !== undefined && allowed.host === host && (allowed.port === undefined || allowed.port === effectivePort(url));
  });
}
