const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An allowed website: scheme, host and optional port; no path, no wildcard; plain http only for
 * localhost. Returns the normalised origin, or null when the value is not one.
 */
export function parseAllowedOrigin(value: string): string | null {
  if (value.includes('*')) return null;
  const match = /^(https?):\/\/([^/?#@\s]+)\/?$/i.exec(value.trim());
  if (!match) return null;
  let url: URL;
  try {
    url = new URL(`${match[1]}://${match[2]}`);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) return null;
  return url.origin;
}
