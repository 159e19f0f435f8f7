import { EventActor, EventDraft, viewChanges } from '@app/platform';
import type { Brochure } from '../domain/brochure.entity';
import type { BrochureView } from '../views/brochure.view';

/**
 * A brochure's event (issue 19: `brochure.viewed`, `brochure.expired`, `brochure.revoked`): the
 * object is the brochure as `GET /v1/brochures/{id}` answers it, `before` the same view before
 * the change (for `changedFields` and `previous`). The subject's lead is the brochure's first
 * lead, if it names any.
 */
export function brochureEvent(input: {
  brochure: Brochure;
  type: 'brochure.viewed' | 'brochure.expired' | 'brochure.revoked';
  object: BrochureView;
  before: BrochureView;
  version: number;
  actor: EventActor;
  now: Date;
}): EventDraft {
  const { changedFields, previous } = viewChanges(input.before, input.object);
  const leadId = input.brochure.leadIds[0];
  return {
    organizationId: input.brochure.organizationId,
    type: input.type,
    occurredAt: input.now,
    subject: {
      type: 'brochure',
      id: input.brochure.id,
      leadId: leadId === undefined ? null : Number(leadId),
    },
    recordVersion: input.version,
    actor: input.actor,
    data: { object: input.object, previous },
    changedFields,
  };
}

/** A statement bumping the brochure's version (its writes go through the entity, which does not map it). */
export const bumpBrochureVersion = (brochureId: string) => ({
  sql: 'update brochures set version = version + 1 where id = ? returning version',
  params: [brochureId],
});
