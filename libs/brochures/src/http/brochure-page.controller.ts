import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiErrorResponse,
  ApiGoneError,
  ApiNoBodyError,
  HTML_CONTENT_TYPE,
  PUBLIC_PAGE_HEADERS,
  PublicPage,
} from '@app/platform';
import { BrochurePageService, countsAsView } from '../application/brochure-page.service';

/** The public page of a brochure: people read it, so HTML, not JSON (INTERFACES.md "Public pages"). */
@ApiTags('public pages')
@Controller('b')
export class BrochurePageController {
  constructor(private readonly pages: BrochurePageService) {}

  @Get(':slug')
  @PublicPage()
  @ApiOperation({
    summary: 'Read a brochure (HTML page)',
    description:
      'The page behind a brochure’s `publicUrl`: its theme and accent colour (a valid ' +
      '`accentColorOverride` wins), the escaped title, recipient name and note, the agent card, then ' +
      'the listings in order, each with its edited title and without its hidden fields; city, address ' +
      'and map link only with `showLocations`. Only https images load. Each GET whose User-Agent ' +
      'contains none of bot, crawler, spider or preview adds one to the brochure’s `viewCount` and sets ' +
      '`lastViewedAt` (written within a second, one `brochure.viewed` event per brochure per ' +
      'second for the views it gathered); HEAD answers the same without counting. Sent with `Content-Security-Policy: ' +
      "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'`, `X-Robots-Tag: noindex`, " +
      '`Referrer-Policy: no-referrer`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. ' +
      'Errors are small HTML pages with the same status, or the error envelope when `Accept` prefers ' +
      '`application/json`. 60 calls a minute per IP across the public pages. No plan needed.',
  })
  @ApiParam({ name: 'slug', description: 'The brochure’s slug (`/b/<slug>`).' })
  @ApiOkResponse({
    description: 'The page (`text/html; charset=utf-8`).',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiNoBodyError()
  @ApiErrorResponse(
    404,
    'NOT_FOUND: `Page not found.` for a slug never issued, a deleted brochure, or one of a disabled agency',
  )
  @ApiGoneError('GONE: the brochure was revoked or has expired (renewing it brings the same link back)')
  async read(
    @Param('slug') slug: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const html = await this.pages.page(slug, { counted: countsAsView(req.method, req.get('user-agent')) });
    for (const [name, value] of Object.entries(PUBLIC_PAGE_HEADERS)) res.setHeader(name, value);
    res.setHeader('Vary', 'Accept');
    res.type(HTML_CONTENT_TYPE);
    return html;
  }
}
