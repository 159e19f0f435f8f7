import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ApiErrorResponse,
  ApiGoneError,
  ApiNoBodyError,
  HTML_CONTENT_TYPE,
  PUBLIC_PAGE_HEADERS,
  PublicPage,
} from '@app/platform';
import { DocumentPageService } from '../application/document-page.service';

/** The public page of a shared document: people read it, so HTML, not JSON (INTERFACES.md "Public pages"). */
@ApiTags('public pages')
@Controller('d')
export class DocumentPageController {
  constructor(private readonly pages: DocumentPageService) {}

  @Get(':token')
  @PublicPage()
  @ApiOperation({
    summary: 'Read a shared document (HTML page)',
    description:
      'The page behind a document’s `shareUrl`: its escaped title and its Markdown rendered with raw HTML ' +
      'off, then an allow-list (no script, style, iframe, form or event attribute; link schemes http, ' +
      'https and mailto; links `rel="nofollow noopener noreferrer"`). A whiteboard shows its outline, a ' +
      'pdf or file a "file not available" note. Sent with `Content-Security-Policy: default-src ' +
      "'none'; img-src https: data:; style-src 'unsafe-inline'`, `X-Robots-Tag: noindex`, " +
      '`Referrer-Policy: no-referrer`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. ' +
      'Errors are small HTML pages with the same status, or the error envelope when `Accept` prefers ' +
      '`application/json`. 60 calls a minute per IP across the public pages.',
  })
  @ApiParam({ name: 'token', description: 'The share token of the link (`/d/<token>`).' })
  @ApiOkResponse({
    description: 'The page (`text/html; charset=utf-8`).',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiNoBodyError()
  @ApiErrorResponse(
    404,
    'NOT_FOUND: `Page not found.` for a link never issued (or of an agency without an active plan)',
  )
  @ApiGoneError(
    'GONE: the share was revoked, has expired, was replaced by a new share, or the document was deleted',
  )
  async read(@Param('token') token: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const html = await this.pages.page(token);
    for (const [name, value] of Object.entries(PUBLIC_PAGE_HEADERS)) res.setHeader(name, value);
    res.setHeader('Vary', 'Accept');
    res.type(HTML_CONTENT_TYPE);
    return html;
  }
}
