import { applyDecorators } from '@nestjs/common';
import { RequireScopes, RequiresPlan } from '@app/platform';

/** Spec (Plan and role gates): CRM reads need crm:read and no plan. */
export const CrmRead = () => RequireScopes('crm:read');

/** Spec (Plan and role gates): CRM writes need crm:write and an active plan. */
export const CrmWrite = () => applyDecorators(RequireScopes('crm:write'), RequiresPlan());
