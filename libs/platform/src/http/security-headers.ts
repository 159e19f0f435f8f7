import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * The answer headers of every request, set once here with helmet before anything else runs (so a
 * 413, a shed 503 or an unknown route carries them too); docs/security/headers-and-input.md.
 * Three Content-Security-Policies, none allowing an inline script or a frame around the page.
 */

/** A JSON answer, or anything else the API serves: nothing may run, load or frame it. */
const API_CSP = {
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/** A public page (`/b/*`, `/d/*`): images from anywhere secure, its own inline `<style>`, nothing else. */
const PUBLIC_PAGE_CSP = {
  'default-src': ["'none'"],
  'img-src': ['https:', 'data:'],
  'style-src': ["'unsafe-inline'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

/**
 * Swagger UI (`/docs`): its scripts are files of this origin (the init script included); its
 * inline `<style>` blocks need 'unsafe-inline' for styles only; it reads the document from here.
 */
const DOCS_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

/** A policy as helmet writes it (`;` between directives, no space). */
const policyText = (directives: Record<string, string[]>): string =>
  Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');

/** The public pages' CSP as header text, for `PUBLIC_PAGE_HEADERS` (the same text helmet sends). */
export const PUBLIC_PAGE_CSP_TEXT = policyText(PUBLIC_PAGE_CSP);

const withPolicy = (directives: Record<string, string[]>) =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    // media files are embedded by portals and other sites; no answer rides on a cookie, so a
    // cross-origin read of anything else carries no credential anyway
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  });

const forApi = withPolicy(API_CSP);
const forPublicPages = withPolicy(PUBLIC_PAGE_CSP);
const forDocs = withPolicy(DOCS_CSP);

const isDocsPath = (path: string): boolean => path === '/docs' || path.startsWith('/docs/');
const isPublicPagePath = (path: string): boolean => path.startsWith('/b/') || path.startsWith('/d/');

/**
 * helmet's headers with the policy of the path's kind, and `Cache-Control: no-store` on every
 * answer: a route whose answer may be kept says so itself (media files; Swagger UI's static files).
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  const headers = isDocsPath(req.path) ? forDocs : isPublicPagePath(req.path) ? forPublicPages : forApi;
  headers(req, res, next);
}
