import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiJsonBodyErrors,
  ApiNotFoundError,
  CurrentPrincipal,
  Principal,
  RequireScopes,
  SharedRateLimit,
} from '@app/platform';
import { SearchService } from '../application/search.service';
import { SearchAnswerView } from '../views/search.view';
import { SearchDto } from './dto/search.dto';

/** Spec (Search): crm:read, no plan, the shared `search` limit. */
@ApiTags('v1: search')
@Controller('v1/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Search the CRM history',
    description:
      'Leads whose notes, call transcripts, call analyses, messages, emails or tasks match the query, best ' +
      'first, each with up to three passages as evidence. Matching ignores case and accents, knows word ' +
      'forms per language, a multilingual real-estate thesaurus (flat = piso = appartamento) and small ' +
      'typos; a rerank weighs term frequency, proximity, exact phrases, the kind of source and recency. A ' +
      'member searches the leads assigned to them and those a collaborating agency shared with them; an ' +
      'admin the whole agency. Anything written is searchable once its write returns; anything deleted is ' +
      'gone. Counts against the shared search limit (30 a minute per key and per organization).',
  })
  @RequireScopes('crm:read')
  @SharedRateLimit('search')
  @ApiOkResponse({ type: SearchAnswerView })
  @ApiJsonBodyErrors(
    'VALIDATION_FAILED: `query` empty or over 500 characters after trimming, `leadId` not an integer, ' +
      '`maxResults` outside 1-30, a bad date, or `occurredFrom` after `occurredTo`.',
  )
  @ApiNotFoundError(
    'Lead',
    'when `leadId` is out of the caller’s reach (another agency’s, or not assigned to a member)',
  )
  run(@CurrentPrincipal() actor: Principal, @Body() body: SearchDto) {
    return this.search.search(actor, body);
  }
}
