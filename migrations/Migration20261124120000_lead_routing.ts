import { Migration } from '@mikro-orm/migrations';

/**
 * Lead routing (issue 14): the routes, their fairness state, the organization's routing row,
 * away periods and the decision log.
 * - `routing_settings`: one row per organization, Smart routing's switch and team, and the
 *   counters the `smart` strategy reads across routes (today's assignments per person, each
 *   person's last assignment). Every decision and every route write locks this row first
 *   (an upsert), so one agency's decisions run one at a time: no turn skipped or repeated.
 * - `route_state`: one row per route (made with it): round robin's last assignee, the weighted
 *   counters since the pool last changed, today's counts for `dailyCap` (`today_day` in the
 *   schedule's zone, else UTC).
 * - `routing_decisions`: every real assignment, with the reassignment due (`reassign_state`
 *   `pending` until handled, `dropped` when its route goes) and the chain's earlier assignees.
 */
export class Migration20261124120000_lead_routing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table lead_routes (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        name text null,
        conditions jsonb null,
        strategy text not null check (strategy in ('round_robin', 'weighted', 'smart')),
        paused boolean not null default false,
        user_ids uuid[] not null default '{}',
        team_ids uuid[] not null default '{}',
        weights jsonb null,
        schedule jsonb null,
        daily_cap integer null check (daily_cap between 1 and 1000),
        reassign_after_minutes integer null check (reassign_after_minutes between 5 and 10080),
        position integer not null check (position >= 0),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index lead_routes_org_position_idx on lead_routes (organization_id, position);

      create table route_state (
        rule_id uuid primary key references lead_routes (id) on delete cascade deferrable initially deferred,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        last_assignee_id uuid null,
        received jsonb not null default '{}',
        today_day text null,
        today_counts jsonb not null default '{}'
      );

      create table routing_settings (
        organization_id uuid primary key references organizations (id) on delete cascade deferrable initially deferred,
        smart_enabled boolean not null default false,
        smart_user_ids uuid[] null,
        smart_team_ids uuid[] null,
        today_day text null,
        today_counts jsonb not null default '{}',
        last_assigned jsonb not null default '{}',
        updated_at timestamptz not null
      );

      create table routing_away (
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        user_id uuid not null,
        until timestamptz not null,
        primary key (organization_id, user_id)
      );

      create table routing_decisions (
        id uuid primary key,
        organization_id uuid not null references organizations (id) on delete cascade deferrable initially deferred,
        lead_id bigint not null references leads (id) on delete cascade deferrable initially deferred,
        at timestamptz not null,
        trigger text not null check (trigger in ('intake', 'route_unassigned', 'reassign')),
        rule_id uuid null,
        route_name text null,
        strategy text null,
        smart_routing boolean not null,
        user_id uuid not null,
        previous_user_ids uuid[] not null default '{}',
        why text not null,
        steps jsonb not null,
        reassign_due_at timestamptz null,
        reassign_state text null check (reassign_state in ('pending', 'done', 'dropped')),
        chain_user_ids uuid[] not null default '{}'
      );
      -- a lead's decisions, newest first
      create index routing_decisions_lead_idx on routing_decisions (lead_id, at desc, id desc);
      -- leadsLast30Days per route
      create index routing_decisions_rule_at_idx on routing_decisions (organization_id, rule_id, at);
      -- the reassignment sweep and a route's pending reassignments
      create index routing_decisions_due_idx on routing_decisions (reassign_due_at) where reassign_state = 'pending';
      create index routing_decisions_rule_pending_idx on routing_decisions (rule_id) where reassign_state = 'pending';

      -- route-unassigned: the oldest unassigned leads of an organization
      create index leads_org_unassigned_oldest_idx on leads (organization_id, created_at, id) where cardinality(assignee_ids) = 0;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index if exists leads_org_unassigned_oldest_idx;
      drop table if exists routing_decisions;
      drop table if exists routing_away;
      drop table if exists routing_settings;
      drop table if exists route_state;
      drop table if exists lead_routes;
    `);
  }
}
