import { applyDecorators, Catch, UseFilters } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/access.decorators';
import type { ErrorBody } from '../errors/error-codes';
import { ErrorEnvelopeView } from '../errors/error-envelope.view';
import { routeTemplate } from '../metrics/metrics-http';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { PublicPageRateLimit } from './rate-limit/public-page-rate-limit';
import { PUBLIC_PAGE_CSP_TEXT } from './security-headers';

/**
 * The headers of every public page answer, errors included: nothing runs, frames it, is indexed,
 * cached or leaks a referrer (docs/security/headers-and-input.md). The rest of helmet's set
 * comes from `securityHeaders`, as on every answer.
 */
export const PUBLIC_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PUBLIC_PAGE_CSP_TEXT,
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** Text as HTML text or attribute value: `& < > " '` escaped. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A whole small page: `title` is escaped here, `bodyHtml` must already be safe. */
export const htmlPage = (title: string, bodyHtml: string): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}pre{overflow:auto;background:#f6f6f6;padding:.5rem}img{max-width:100%}</style>
</head>
<body>
${bodyHtml}
</body>
</html>
`;

const ERROR_TITLES: Partial<Record<number, string>> = {
  404: 'Page not found',
  410: 'This link is no longer available',
  429: 'Too many requests',
};

/** Whether the caller's `Accept` prefers JSON over HTML (no `Accept`, or a tie: HTML). */
export const prefersJson = (req: Request): boolean =>
  req.accepts(['text/html', 'application/json']) === 'application/json';

/**
 * A public page's errors (INTERFACES.md "Public pages"): a small `text/html` page with the same
 * status, or the envelope when `Accept` prefers JSON. Logged as every other error, but by the
 * route template, never the token.
 */
@Catch()
export class PublicPageErrorFilter extends ErrorEnvelopeFilter {
  /** A share token in a path is a working link: the log names the route template instead. */
  protected override loggedPath(req: Request): string {
    return routeTemplate(req);
  }

  protected override send(req: Request, res: Response, body: ErrorBody, requestId: unknown): void {
    for (const [name, value] of Object.entries(PUBLIC_PAGE_HEADERS)) res.setHeader(name, value);
    res.setHeader('Vary', 'Accept');
    if (prefersJson(req)) {
      super.send(req, res, body, requestId);
      return;
    }
    const title = ERROR_TITLES[body.status] ?? 'Something went wrong';
    res
      .status(body.status)
      .type(HTML_CONTENT_TYPE)
      .send(htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(body.message)}</p>`));
  }
}

/**
 * A page people read (`GET /d/{token}`, `GET /b/{slug}`): no credential (`@Public()`), 60 calls a
 * minute per client IP (`@PublicPageRateLimit()`), errors as HTML pages unless `Accept` prefers
 * JSON. The handler answers `text/html; charset=utf-8` with `PUBLIC_PAGE_HEADERS`.
 */
export const PublicPage = () =>
  applyDecorators(
    Public(),
    PublicPageRateLimit(),
    UseFilters(PublicPageErrorFilter),
    ApiProduces('text/html', 'application/json'),
    ApiResponse({
      status: 429,
      description:
        'RATE_LIMITED: over 60 calls a minute from one IP (`Retry-After`); an HTML page unless `Accept` prefers JSON',
      type: ErrorEnvelopeView,
    }),
  );
