import { TimelineLead, TimelineSource, TimelineSourceProvider } from '../extension-points/timeline-source';

/** Notes, read live so edits and deletions show; dated by `occurredAt` when set. */
@TimelineSourceProvider()
export class NotesTimelineSource implements TimelineSource {
  readonly types = ['note'] as const;

  entries(lead: TimelineLead) {
    return {
      sql: `select 'note', coalesce(n.occurred_at, n.created_at),
                   jsonb_build_object('id', n.id, 'authorId', n.author_id, 'content', n.content,
                                      'isPinned', n.is_pinned, 'createdAt', n.created_at, 'updatedAt', n.updated_at),
                   n.id::text
              from notes n where n.organization_id = ? and n.lead_id = ?`,
      params: [lead.organizationId, lead.leadId],
    };
  }
}
