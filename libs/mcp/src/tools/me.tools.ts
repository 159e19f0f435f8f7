import { z } from 'zod';
import { PeopleQueries } from '@app/identity';
import { RESERVED_SCOPE, ROLES, SCOPES_GRANTABLE } from '@app/platform';
import { defineTool } from './tool';
import { ISO_TIME, UUID } from './schemas';

/** `get_me`: who the MCP key acts as (`GET /v1/me`; `key` is the MCP key). */
export const ME_TOOLS = [
  defineTool({
    name: 'get_me',
    title: 'Who am I',
    description:
      "The key's person (id, name, email), agency, role, whether the plan is active (`entitled`) and the key " +
      'itself (id, name, prefix, scopes, expiry).',
    route: 'GET /v1/me',
    input: z.object({}),
    output: z.object({
      user: z.object({ id: UUID, name: z.string(), email: z.string() }),
      organization: z.object({ id: UUID, name: z.string() }),
      role: z.enum(ROLES),
      entitled: z.boolean(),
      key: z.object({
        id: UUID,
        name: z.string(),
        prefixHint: z.string().nullable(),
        scopes: z.array(z.enum([...SCOPES_GRANTABLE, RESERVED_SCOPE])),
        expiresAt: ISO_TIME.nullable(),
      }),
    }),
    annotations: { readOnlyHint: true },
    run: ({ principal, get }) => get(PeopleQueries).me(principal),
  }),
];
