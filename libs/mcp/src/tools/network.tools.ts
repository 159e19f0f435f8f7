import { z } from 'zod';
import {
  ListOpenHousesQueryDto,
  ListViewingsQueryDto,
  OpenHousesQueries,
  ViewingsQueries,
} from '@app/network';
import {
  listOpenHousesInput,
  listViewingsInput,
  openHouseListOutput,
  viewingPageOutput,
} from './network.schemas';
import { asDto } from './dto';
import { defineTool } from './tool';

/** Viewings and open houses (reads). */
export const NETWORK_TOOLS = [
  defineTool({
    name: 'list_viewings',
    title: 'List viewings',
    description:
      'An admin sees every viewing of the agency; a member those whose lead they reach or where they are ' +
      'the agent. `from` inclusive, `to` exclusive (on `viewingAt`); `leadId` matches the viewing’s lead or ' +
      'one of its other clients. Latest first, offset paging with the exact `total`; notes cut to 500 ' +
      'characters (`notesTruncated`).',
    route: 'GET /v1/viewings',
    input: z.object(listViewingsInput),
    output: viewingPageOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) => {
      const query = await asDto(ListViewingsQueryDto, 'query', input);
      return get(ViewingsQueries).list(principal, {
        ...query.filters(),
        offset: query.offset,
        limit: query.limit,
      });
    },
  }),
  defineTool({
    name: 'list_open_houses',
    title: 'List open houses',
    description:
      '`scope` `network` (default): other agencies’ scheduled network events ending after `from` (default ' +
      'now), nearest first; `mine`: the agency’s own, any status, latest start first. At most `limit` rows ' +
      '`{data, hasMore}` without paging: narrow the filters when `hasMore`. Never the listing owner’s ' +
      'private commission.',
    route: 'GET /v1/open-houses',
    input: z.object(listOpenHousesInput),
    output: openHouseListOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) =>
      get(OpenHousesQueries).list(
        principal,
        (await asDto(ListOpenHousesQueryDto, 'query', input)).listQuery(),
      ),
  }),
];
