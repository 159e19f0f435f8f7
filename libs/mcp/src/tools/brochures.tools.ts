import { z } from 'zod';
import { BrochuresQueries, ListBrochuresQueryDto } from '@app/brochures';
import { brochurePageOutput, listBrochuresInput } from './brochures.schemas';
import { asDto } from './dto';
import { defineTool } from './tool';

/** Brochures (the list). */
export const BROCHURE_TOOLS = [
  defineTool({
    name: 'list_brochures',
    title: 'List brochures',
    description:
      'Newest first, `{data, hasMore, total}` with an exact total. A member sees only the brochures they ' +
      'created; an admin every brochure of the agency and may filter by `createdById` (a member: ' +
      'ORG_ADMIN_REQUIRED). `status` `expired`: an active brochure whose `expiresAt` has passed.',
    route: 'GET /v1/brochures',
    input: z.object(listBrochuresInput),
    output: brochurePageOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) =>
      get(BrochuresQueries).list(principal, (await asDto(ListBrochuresQueryDto, 'query', input)).listQuery()),
  }),
];
