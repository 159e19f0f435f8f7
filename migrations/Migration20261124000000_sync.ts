import { Migration } from '@mikro-orm/migrations';

/**
 * Sync by cursor on leads, tasks and notes (INTERFACES.md "Reads and sync").
 *
 * - `changed_at`: when the database recorded a row's last change, stamped by a trigger on every
 *   insert and update with the start of the writing transaction (`now()`), whatever statement wrote
 *   it. It is the sync's order and its `updatedAt`. `updated_at` stays the application's clock at
 *   the write (what the other answers show): the application takes that reading before its
 *   transaction begins, on its own clock, so it can fall behind a reader's position. A reader that
 *   only returns rows stamped before every transaction still in progress (the horizon) can never
 *   be overtaken by a row committed later with an earlier stamp.
 * - What a person stops seeing leaves a row of its own, in the same transaction as the write:
 *   `lead_reach_losses` (taken off a lead's assignees), `task_removals` (taken off a task, or the
 *   task deleted) and `note_deletions`. A loss is forgotten when the person is put back on, so
 *   each table holds at most one row per person and record, and a record is either reached or lost.
 * - Keyset indexes: `(scope, changed_at, id)` on each list.
 */
export class Migration20261124000000_sync extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table leads add column changed_at timestamptz;
      alter table tasks add column changed_at timestamptz;
      alter table notes add column changed_at timestamptz;
      update leads set changed_at = updated_at;
      update tasks set changed_at = updated_at;
      update notes set changed_at = updated_at;
      alter table leads alter column changed_at set not null, alter column changed_at set default now();
      alter table tasks alter column changed_at set not null, alter column changed_at set default now();
      alter table notes alter column changed_at set not null, alter column changed_at set default now();

      create function stamp_changed_at() returns trigger language plpgsql as $$
      begin
        new.changed_at := now(); -- the writing transaction's start (the horizon counts on it)
        return new;
      end $$;

      create trigger leads_stamp_changed_at before insert or update on leads
        for each row execute function stamp_changed_at();
      create trigger tasks_stamp_changed_at before insert or update on tasks
        for each row execute function stamp_changed_at();
      create trigger notes_stamp_changed_at before insert or update on notes
        for each row execute function stamp_changed_at();

      create index leads_org_sync_idx on leads (organization_id, changed_at, id);
      create index tasks_org_sync_idx on tasks (organization_id, changed_at, id);
      create index notes_lead_sync_idx on notes (lead_id, changed_at, id);

      create table lead_reach_losses (
        organization_id uuid not null,
        user_id uuid not null,
        lead_id bigint not null,
        lost_at timestamptz not null,
        primary key (organization_id, user_id, lead_id)
      );
      create index lead_reach_losses_sync_idx on lead_reach_losses (organization_id, user_id, lost_at, lead_id);

      -- people taken off a lead lose it (at the lead's new changed_at); people put (back) on reach it again
      create function leads_track_reach() returns trigger language plpgsql as $$
      begin
        insert into lead_reach_losses as x (organization_id, user_id, lead_id, lost_at)
        select distinct new.organization_id, gone.user_id, new.id, new.changed_at
          from unnest(old.assignee_ids) as gone(user_id)
         where not gone.user_id = any(new.assignee_ids)
        on conflict (organization_id, user_id, lead_id) do update set lost_at = excluded.lost_at;
        delete from lead_reach_losses
         where organization_id = new.organization_id and lead_id = new.id and user_id = any(new.assignee_ids);
        return null;
      end $$;

      create trigger leads_track_reach after update of assignee_ids on leads
        for each row when (old.assignee_ids is distinct from new.assignee_ids)
        execute function leads_track_reach();

      create table task_removals (
        organization_id uuid not null,
        user_id uuid not null,
        task_id uuid not null,
        removed_at timestamptz not null,
        primary key (organization_id, user_id, task_id)
      );
      create index task_removals_sync_idx on task_removals (organization_id, user_id, removed_at, task_id);

      -- a task is seen by its creator and the people on it: one taken off it (not its creator) or a
      -- deleted task leaves a removal per person who saw it; one put (back) on it sees it again
      create function tasks_track_viewers() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          insert into task_removals (organization_id, user_id, task_id, removed_at)
          select distinct old.organization_id, seen.user_id, old.id, now()
            from unnest(array_append(old.assignee_ids, old.created_by)) as seen(user_id)
          on conflict (organization_id, user_id, task_id) do update set removed_at = excluded.removed_at;
          return null;
        end if;
        insert into task_removals (organization_id, user_id, task_id, removed_at)
        select distinct new.organization_id, gone.user_id, new.id, new.changed_at
          from unnest(old.assignee_ids) as gone(user_id)
         where gone.user_id <> new.created_by and not gone.user_id = any(new.assignee_ids)
        on conflict (organization_id, user_id, task_id) do update set removed_at = excluded.removed_at;
        delete from task_removals
         where organization_id = new.organization_id and task_id = new.id and user_id = any(new.assignee_ids);
        return null;
      end $$;

      create trigger tasks_track_assignees after update of assignee_ids on tasks
        for each row when (old.assignee_ids is distinct from new.assignee_ids)
        execute function tasks_track_viewers();
      create trigger tasks_track_deletion after delete on tasks
        for each row execute function tasks_track_viewers();

      create table note_deletions (
        note_id uuid primary key,
        organization_id uuid not null,
        lead_id bigint not null,
        deleted_at timestamptz not null
      );
      create index note_deletions_sync_idx on note_deletions (lead_id, deleted_at, note_id);

      create function notes_track_deletion() returns trigger language plpgsql as $$
      begin
        insert into note_deletions (note_id, organization_id, lead_id, deleted_at)
        values (old.id, old.organization_id, old.lead_id, now())
        on conflict (note_id) do update set deleted_at = excluded.deleted_at;
        return null;
      end $$;

      create trigger notes_track_deletion after delete on notes
        for each row execute function notes_track_deletion();
    `);
  }
}
