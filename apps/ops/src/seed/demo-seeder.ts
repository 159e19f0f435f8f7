import { randomBytes } from 'node:crypto';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '@mikro-orm/core';
import { LeadFactsService } from '@app/crm';
import { Clock, SessionPrincipal, type Role } from '@app/platform';
import {
  AccountsService,
  ApiKeysService,
  grantableScopes,
  MembersService,
  TagsService,
  TeamsService,
} from '@app/identity';
import { DEMO_NOTES, DEMO_PEOPLE, DEMO_TASKS, DEMO_TOWNS } from './demo-names';

export interface DemoPerson {
  userId: string;
  email: string;
  password: string;
  apiKey: string;
}

export interface DemoAgency {
  organizationId: string;
  admin: DemoPerson;
  members: DemoPerson[];
  teamId: string;
  tagIds: string[];
  leads: number;
  listings: number;
  /** The connected `jsonfeed` feed and the listings it holds. */
  feed: { source: 'jsonfeed'; listings: number };
}

/** How many listings the demo agency gets (issue 16 item 7). */
export const DEMO_LISTINGS = 2_000;
/** How many listings its connected feed holds, and where the feed claims to live. */
export const DEMO_FEED_LISTINGS = 120;
export const DEMO_FEED_URL = 'https://feeds.example.com/casa-demo.jsonl';

/**
 * A realistic demo agency: people and keys through the application services (so every rule
 * holds), leads, notes, tasks and history in set-based SQL (100,000 leads in seconds).
 */
@Injectable()
export class DemoSeeder {
  constructor(
    private readonly orm: MikroORM,
    private readonly accounts: AccountsService,
    private readonly members: MembersService,
    private readonly teams: TeamsService,
    private readonly tags: TagsService,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
    private readonly facts: LeadFactsService,
  ) {}

  /** `progress` gets a line per tenth of the leads inserted. */
  seed(leadCount: number, progress: (line: string) => void = () => undefined): Promise<DemoAgency> {
    return RequestContext.create(this.orm.em, () => this.seedInContext(leadCount, progress));
  }

  private async seedInContext(leadCount: number, progress: (line: string) => void): Promise<DemoAgency> {
    const suffix = randomBytes(4).toString('hex');
    const password = () => `demo-${randomBytes(9).toString('base64url')}`;

    const adminPassword = password();
    const signedUp = await this.accounts.signUp({
      organizationName: `Costa Demo Realty ${suffix}`,
      email: `admin.${suffix}@demo.example`,
      password: adminPassword,
      firstName: 'Carmen',
      lastName: 'Ortega',
    });
    const organizationId = signedUp.organization.id;
    const adminActor = this.actor(signedUp.user.id, organizationId, 'admin');

    const people = [{ ...signedUp.user, password: adminPassword, role: 'admin' as Role }];
    for (const [firstName, lastName] of [
      ['Marco', 'Bianchi'],
      ['Inês', 'Costa'],
    ]) {
      const email = `${firstName
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}.${suffix}@demo.example`;
      const invitation = await this.members.invite(adminActor, email, 'member');
      const memberPassword = password();
      const joined = await this.accounts.acceptInvitation({
        token: invitation.token,
        password: memberPassword,
        firstName,
        lastName,
      });
      people.push({ ...joined.user, password: memberPassword, role: 'member' });
    }

    const team = await this.teams.create(adminActor, {
      name: 'Sales',
      color: '#1E88E5',
      memberIds: people.map((p) => p.id),
    });
    const tagIds: string[] = [];
    for (const [name, color] of [
      ['Hot', '#E53935'],
      ['Investor', '#8E24AA'],
      ['New build', '#43A047'],
      ['Relocation', '#FB8C00'],
    ]) {
      tagIds.push((await this.tags.create(adminActor, { name, color })).id);
    }

    const withKeys: DemoPerson[] = [];
    for (const person of people) {
      const key = await this.keys.create(this.actor(person.id, organizationId, person.role), {
        name: 'Demo key',
        scopes: grantableScopes(person.role),
      });
      withKeys.push({ userId: person.id, email: person.email, password: person.password, apiKey: key.key });
    }

    await this.insertLeads(
      organizationId,
      people.map((p) => p.id),
      tagIds,
      leadCount,
      progress,
    );
    return {
      organizationId,
      admin: withKeys[0],
      members: withKeys.slice(1),
      teamId: team.id,
      tagIds,
      leads: leadCount,
      listings: await this.insertListings(organizationId, people),
      feed: { source: 'jsonfeed', listings: await this.insertFeed(organizationId) },
    };
  }

  /**
   * A connected `jsonfeed` feed as if its first import had just run: the feed row (refreshed weekly)
   * and its listings (`source` `jsonfeed`, external ids `demo-<n>`, no roster agent). The URL is a
   * placeholder: the next import a week later fails, which keeps the listings (a failed import
   * changes none) and shows the feed's error state on the dashboard.
   */
  private async insertFeed(organizationId: string): Promise<number> {
    const now = this.clock.now();
    const em = this.orm.em;
    await em.execute(
      `insert into property_feeds (id, organization_id, source, url, refresh_minutes, last_imported_at,
                                   last_status, listing_count, next_import_at, created_at, updated_at)
       values (gen_random_uuid(), ?, 'jsonfeed', ?, 10080, ?, 'ok', ?, ?::timestamptz + interval '7 days', ?, ?)`,
      [organizationId, DEMO_FEED_URL, now, DEMO_FEED_LISTINGS, now, now, now],
    );
    await em.execute(
      `insert into listings (id, organization_id, source, external_id, title, operation, property_type, status,
                             price, currency, country_code, region, city, lat, lon, show_exact_location,
                             bedrooms, bathrooms, area_unit, living_area, features, images, version,
                             created_at, updated_at)
       select gen_random_uuid(), ?::uuid, 'jsonfeed', 'demo-' || g.i,
              'Feed ' || (array['apartment','house','villa','townhouse'])[1 + g.i % 4] || ' ' || g.i,
              'sale', (array['apartment','house','villa','townhouse'])[1 + g.i % 4], 'ACTIVE',
              150000 + (g.i * 7349) % 900000, 'EUR', 'ES', 'Andalucía',
              (array['Marbella','Estepona','Nerja','Mijas'])[1 + g.i % 4],
              36.5 + (g.i % 40) * 0.004, -4.9 + (g.i % 50) * 0.01, true,
              1 + g.i % 5, 1 + g.i % 3, 'sqm', 60 + (g.i * 11) % 300,
              case when g.i % 2 = 0 then array['pool','sea_view'] else array['garden'] end,
              jsonb_build_array(jsonb_build_object('mediaId', null, 'extension', null, 'caption', null,
                'url', 'https://picsum.photos/seed/feed-demo-' || g.i || '/1200/800')),
              1, ?, ?
         from generate_series(1, ?::int) as g(i)`,
      [organizationId, now, now, DEMO_FEED_LISTINGS],
    );
    return DEMO_FEED_LISTINGS;
  }

  /**
   * The agency's listings (one statement, deterministic): an agent row per person (made with the
   * membership when the roster does it), then 2,000 listings spread over towns of Spain, Italy
   * and Portugal, with varied types, prices, rooms, areas, features and coordinates near each town.
   */
  private async insertListings(
    organizationId: string,
    people: { id: string; firstName: string | null; lastName: string | null; email: string }[],
  ): Promise<number> {
    const now = this.clock.now();
    const em = this.orm.em;
    for (const person of people) {
      await em.execute(
        `insert into agents (id, organization_id, clerk_user_id, first_name, last_name, display_email,
                             is_active, share_contact_on_network, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, true, false, ?, ?)
         on conflict (organization_id, clerk_user_id) where clerk_user_id is not null do nothing`,
        [organizationId, person.id, person.firstName, person.lastName, person.email, now, now],
      );
    }
    const agents = await em.execute<{ id: string }[]>(
      'select id from agents where organization_id = ? and is_active order by created_at, id',
      [organizationId],
    );
    const list = (values: (string | number)[]) => `{${values.map((v) => `"${v}"`).join(',')}}`;
    await em.execute(
      `insert into listings (id, organization_id, source, reference, title, description, operation, property_type,
                             status, price, currency, rent_period, country_code, region, city, lat, lon,
                             show_exact_location, bedrooms, bathrooms, area_unit, living_area, plot_area,
                             year_built, parking_spaces, condition, energy_rating, features, commission,
                             shared_commission, network_visible, auto_renew_enabled, expires_at, agent_id,
                             version, created_at, updated_at)
       select gen_random_uuid(), ?::uuid, 'internal', 'DEMO-' || lpad(g.i::text, 5, '0'),
              initcap(x.type) || ' in ' || t.city, 'A demo listing in ' || t.city || '.',
              case when g.i % 5 = 0 then 'rent' else 'sale' end, x.type,
              (array['ACTIVE','ACTIVE','ACTIVE','ACTIVE','ACTIVE','ACTIVE','RESERVED','SOLD','DRAFT','WITHDRAWN'])[1 + g.i % 10],
              case when g.i % 5 = 0 then 600 + (g.i * 37) % 4000
                   else 90000 + ((g.i * 7919) % 1200) * 1000 + x.rank * 25000 end,
              'EUR', case when g.i % 5 = 0 then 'month' end,
              t.country, t.region, t.city,
              round((t.lat + (((g.i * 31) % 200) - 100) * 0.0005)::numeric, 6),
              round((t.lon + (((g.i * 17) % 200) - 100) * 0.0005)::numeric, 6),
              g.i % 3 = 0, x.bedrooms, 1 + (g.i % 4) * 0.5, 'sqm', 40 + (g.i * 13) % 360,
              case when x.type in ('house', 'villa', 'land') then 200 + (g.i * 29) % 2000 end,
              1960 + g.i % 65, g.i % 4,
              (array['new','excellent','good','needs_renovation','good'])[1 + g.i % 5],
              (array['A','B','C','D','E','F','G','in_progress'])[1 + g.i % 8],
              case g.i % 4 when 0 then array['pool','garden','terrace'] when 1 then array['elevator','air_conditioning','balcony']
                           when 2 then array['sea_view','terrace','parking'] else array['garden','fireplace','storage_room'] end,
              3.00, 1.50, g.i % 7 <> 0, g.i % 4 = 0,
              ?::timestamptz + ((g.i % 120) + 1) * interval '1 day',
              (?::uuid[])[1 + g.i % ?],
              1, ?::timestamptz - g.i * interval '37 minutes', ?::timestamptz - g.i * interval '11 minutes'
         from generate_series(1, ?::int) as g(i)
         cross join lateral (
           select (array['apartment','apartment','house','villa','townhouse','penthouse','studio','duplex','land','commercial','office','garage'])[1 + g.i % 12] as type,
                  g.i % 12 as rank, case when g.i % 12 in (8, 9, 10, 11) then null else g.i % 6 end as bedrooms
         ) x
         cross join lateral (
           select (?::text[])[1 + g.i % ?] as city, (?::text[])[1 + g.i % ?] as region,
                  (?::text[])[1 + g.i % ?] as country,
                  (?::float8[])[1 + g.i % ?] as lat, (?::float8[])[1 + g.i % ?] as lon
         ) t`,
      [
        organizationId,
        now,
        `{${agents.map((a) => a.id).join(',')}}`,
        agents.length,
        now,
        now,
        DEMO_LISTINGS,
        ...[
          list(DEMO_TOWNS.map((t) => t.city)),
          list(DEMO_TOWNS.map((t) => t.region)),
          list(DEMO_TOWNS.map((t) => t.country)),
          `{${DEMO_TOWNS.map((t) => t.lat).join(',')}}`,
          `{${DEMO_TOWNS.map((t) => t.lon).join(',')}}`,
        ].flatMap((values) => [values, DEMO_TOWNS.length]),
      ],
    );
    await em.execute('analyze listings');
    return DEMO_LISTINGS;
  }

  /** Set-based inserts: leads, then notes, tasks and history for a share of them. */
  private async insertLeads(
    organizationId: string,
    userIds: string[],
    tagIds: string[],
    count: number,
    progress: (line: string) => void,
  ): Promise<void> {
    if (count <= 0) return;
    const step = Math.ceil(count / 10);
    const firsts = DEMO_PEOPLE.map((p) => `{${p.first.map((n) => `"${n}"`).join(',')}}`);
    const lasts = DEMO_PEOPLE.map((p) => `{${p.last.map((n) => `"${n}"`).join(',')}}`);
    const languages = DEMO_PEOPLE.map((p) => p.language);
    const now = this.clock.now();
    await this.orm.em.transactional(async (em: EntityManager) => {
      // ten slices of the same series, so the operator sees a line per 10 %
      for (let from = 1; from <= count; from += step) {
        const to = Math.min(count, from + step - 1);
        await em.execute(
          `insert into leads (organization_id, first_name, last_name, email, phone_number, language, crm_status,
                            assignee_ids, tag_ids, source, lead_type, purchased_at, created_at, updated_at)
         select ?::uuid, f.first_name, l.last_name,
                lower(translate(f.first_name || '.' || replace(l.last_name, ' ', '') || g.i, 'áéíóúàèìòùâêôãõçñäöüÁÉÍÓÚ', 'aeiouaeiouaeoaocnaouAEIOU')) || '@mail.example',
                '+34 6' || lpad((g.i * 7919 % 100000000)::text, 8, '0'),
                (?::text[])[g.lang + 1],
                (array['lead','lead','lead','potential','potential','bad_timing','client','unqualified'])[1 + g.i % 8],
                case when g.i % 10 = 0 then '{}'::uuid[] else array[(?::uuid[])[1 + g.i % ?]] end,
                case when g.i % 4 = 0 then array[(?::uuid[])[1 + g.i % ?]] else '{}'::uuid[] end,
                (array['website','portal','referral','walk-in','api'])[1 + g.i % 5],
                (array['buyer','buyer','seller','renter'])[1 + g.i % 4],
                g.at, g.at, g.at
           from (select i, i % ? as lang, ?::timestamptz - (i * interval '313 seconds') as at
                   from generate_series(?::int, ?::int) as i) g
           cross join lateral (select (?::text[])[g.lang + 1] as first_names) fl
           cross join lateral (select ((fl.first_names)::text[])[1 + g.i % 10] as first_name) f
           cross join lateral (select ((?::text[])[g.lang + 1])::text[] as last_names) ll
           cross join lateral (select ll.last_names[1 + (g.i / 10) % 10] as last_name) l`,
          [
            organizationId,
            `{${languages.join(',')}}`,
            `{${userIds.join(',')}}`,
            userIds.length,
            `{${tagIds.join(',')}}`,
            tagIds.length,
            DEMO_PEOPLE.length,
            now,
            from,
            to,
            `{${firsts.map((f) => `"${f.replace(/"/g, '\\"')}"`).join(',')}}`,
            `{${lasts.map((l) => `"${l.replace(/"/g, '\\"')}"`).join(',')}}`,
          ],
        );
        progress(`seed:demo: ${Math.round((to / count) * 100)}% (${to} of ${count} leads)`);
      }
      await em.execute(
        `insert into lead_history (id, organization_id, lead_id, type, payload, source, actor_id, occurred_at)
         select gen_random_uuid(), organization_id, id, 'lead-created',
                jsonb_build_object('source', source, 'leadGroupName', null, 'crmStatus', crm_status), 'user', null, created_at
           from leads where organization_id = ?`,
        [organizationId],
      );
      await em.execute(
        `insert into notes (id, organization_id, lead_id, author_id, content, is_pinned, created_at, updated_at)
         select gen_random_uuid(), organization_id, id, coalesce(assignee_ids[1], ?::uuid),
                (?::text[])[1 + id % ?], id % 17 = 0, created_at + interval '1 day', created_at + interval '1 day'
           from leads where organization_id = ? and id % 3 = 0`,
        [userIds[0], `{${DEMO_NOTES.map((n) => `"${n}"`).join(',')}}`, DEMO_NOTES.length, organizationId],
      );
      await em.execute(
        `insert into tasks (id, organization_id, lead_id, assignee_ids, created_by, title, due_date, status, completed_at, created_at, updated_at)
         select gen_random_uuid(), organization_id, id, assignee_ids, coalesce(assignee_ids[1], ?::uuid),
                (?::text[])[1 + id % ?], ?::timestamptz + ((id % 30) - 10) * interval '1 day',
                case when id % 5 = 0 then 'completed' else 'pending' end,
                case when id % 5 = 0 then created_at + interval '2 days' end,
                created_at, created_at
           from leads where organization_id = ? and id % 3 = 1`,
        [
          userIds[0],
          `{${DEMO_TASKS.map((t) => `"${t}"`).join(',')}}`,
          DEMO_TASKS.length,
          now,
          organizationId,
        ],
      );
      await this.insertDeals(em, organizationId, userIds, now);
      await this.insertConnectorRecords(em, organizationId);
    });
    await this.facts.rebuild(organizationId);
    await this.orm.em.execute(
      'analyze leads; analyze tasks; analyze notes; analyze deals; analyze calls; analyze chat_messages; analyze emails',
    );
  }

  /**
   * A deal on every fourth lead, cycling through every status and stage (every pairing within 25
   * deals), with a 3 % commission, one or two participants, and invoices on won deals (half of
   * them collected); a history row for each deal's opening stage.
   */
  private async insertDeals(em: EntityManager, organizationId: string, userIds: string[], now: Date) {
    await em.execute(
      `insert into deals (id, organization_id, lead_id, assignee_ids, created_by, title, status, stage, amount,
                          currency, expected_close_at, won_at, lost_at, lost_reason, stage_changed_at,
                          commission_mode, commission_amount, commission_percent, invoice_number,
                          estimated_collection_at, collected_at, created_at, updated_at)
       select gen_random_uuid(), ?::uuid, d.lead_id, d.assignees, d.assignees[1], d.title, d.status, d.stage, d.amount,
              'EUR', date_trunc('day', ?::timestamptz) + ((d.n % 60) - 10) * interval '1 day',
              case when d.status = 'won' then d.closed end, case when d.status = 'lost' then d.closed end,
              case when d.status = 'lost' then 'Bought elsewhere' end, d.created_at,
              'percentage', round(d.amount * 3 / 100, 2), 3.00,
              case when d.status = 'won' and d.n % 2 = 0 then 'INV-2026-' || lpad(d.n::text, 5, '0') end,
              case when d.status = 'won' then d.closed + interval '30 days' end,
              case when d.status = 'won' and d.n % 4 = 0 then d.closed + interval '20 days' end,
              d.created_at, coalesce(d.closed, d.created_at)
         from (select l.id as lead_id, l.created_at + interval '2 days' as created_at,
                      case when cardinality(l.assignee_ids) = 0 then array[?::uuid] else l.assignee_ids end as assignees,
                      x.n, (array['open', 'open', 'open', 'won', 'lost'])[1 + x.n % 5] as status,
                      (array['qualified', 'viewing', 'offer', 'reserved', 'under_contract'])[1 + (x.n / 5) % 5] as stage,
                      (80000 + (x.n * 7919 % 900) * 1000 + (x.n % 3) * 0.5)::numeric(14, 2) as amount,
                      'Sale: ' || l.first_name || ' ' || l.last_name as title,
                      case when x.n % 5 >= 3 then l.created_at + interval '20 days' end as closed
                 from leads l
                cross join lateral (select l.id / 4 as n) x
                where l.organization_id = ? and l.id % 4 = 2) d`,
      [organizationId, now, userIds[0], organizationId],
    );
    await em.execute(
      `insert into deal_participants (id, deal_id, user_id, role, percent, position)
       select gen_random_uuid(), d.id, d.assignee_ids[1], 'listing', case when d.lead_id % 8 = 2 then 50 else 100 end, 0
         from deals d where d.organization_id = ?
       union all
       select gen_random_uuid(), d.id, ?::uuid, 'selling', 50, 1
         from deals d where d.organization_id = ? and d.lead_id % 8 = 2`,
      [organizationId, userIds[userIds.length - 1], organizationId],
    );
    await em.execute(
      `insert into lead_history (id, organization_id, lead_id, type, payload, source, actor_id, occurred_at)
       select gen_random_uuid(), organization_id, lead_id, 'deal',
              jsonb_build_object('dealId', id, 'action', 'created', 'stage', stage, 'assigneeIds', assignee_ids),
              'api', created_by, created_at
         from deals where organization_id = ?`,
      [organizationId],
    );
  }

  /**
   * What a connector would have pushed: one to three calls on every second lead (each status,
   * both directions; completed first calls with a transcript, every fourth lead's with an analysis),
   * four chat messages on every third lead (the four channels, both directions) and on every fifth
   * lead an email of each source (captured inbound, automated, manual). The lead facts follow.
   */
  private async insertConnectorRecords(em: EntityManager, organizationId: string) {
    await em.execute(
      `insert into calls (id, organization_id, lead_id, connector, external_id, owner_id, direction, status, outcome,
                          ended_reason, duration_seconds, has_recording, started_at, ended_at, transcript,
                          detected_language, transcript_at, analysis, analysis_at, actor, created_at, updated_at)
       select gen_random_uuid(), c.organization_id, c.lead_id, 'demo-phone', 'demo-' || c.lead_id || '-' || c.k,
              c.owner_id, c.direction, c.status, case when c.done then 'interested' end,
              case when c.done then 'hangup' else c.status end, c.duration, c.done, c.started_at,
              c.started_at + c.duration * interval '1 second',
              case when c.done and c.k = 1 then
                'Agent: Good morning, this is ' || coalesce(c.agent, 'the agency') || '. Customer: Hi, I saw the flat on the portal. ' ||
                'Agent: Shall we visit it this week. Customer: Yes, Thursday afternoon works.' end,
              case when c.done and c.k = 1 then coalesce(c.language, 'en') end,
              case when c.done and c.k = 1 then c.started_at + interval '5 minutes' end,
              case when c.done and c.k = 1 and c.lead_id % 4 = 0 then jsonb_build_object(
                'summary', 'The customer wants to visit on Thursday afternoon.',
                'sentiment', jsonb_build_object('overall', 'positive', 'score', 0.7),
                'objections', jsonb_build_array(jsonb_build_object('topic', 'price', 'quote', null, 'handled', true)),
                'nextSteps', jsonb_build_array(jsonb_build_object('text', 'Book the viewing', 'owner', 'agent', 'dueAt', null)),
                'coachingTips', jsonb_build_array(jsonb_build_object('tip', 'Confirm the budget early', 'category', 'discovery')),
                'signals', jsonb_build_array('call.viewing_requested'),
                'model', 'demo', 'analyzedAt', to_char(c.started_at + interval '6 minutes', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) end,
              case when c.done and c.k = 1 and c.lead_id % 4 = 0 then c.started_at + interval '6 minutes' end,
              'integration:demo', c.started_at, c.started_at
         from (select l.organization_id, l.id as lead_id, k, l.assignee_ids[1] as owner_id, l.language,
                      (select u.first_name from users u where u.id = l.assignee_ids[1]) as agent,
                      case when (l.id + k) % 3 = 0 then 'inbound' else 'outbound' end as direction,
                      st.status, st.status = 'completed' as done,
                      case when st.status = 'completed' then 30 + (l.id * k) % 600 else 0 end as duration,
                      l.created_at + k * interval '1 day' + (l.id % 8) * interval '1 hour' as started_at
                 from leads l
                cross join generate_series(1, 1 + (l.id % 3)::int) as k
                cross join lateral (select (array['completed', 'completed', 'no-answer', 'busy', 'failed', 'canceled'])[1 + (l.id + k) % 6] as status) st
                where l.organization_id = ? and l.id % 2 = 0) c`,
      [organizationId],
    );
    await em.execute(
      `insert into chat_messages (id, organization_id, lead_id, connector, external_id, channel, kind, direction, status,
                                  at, body, files, sent_by, actor, created_at, updated_at)
       select gen_random_uuid(), l.organization_id, l.id, 'demo-chat', 'demo-' || l.id || '-' || k,
              (array['whatsapp', 'linkedin', 'instagram', 'telegram'])[1 + (l.id + k) % 4],
              case when k = 4 then 'file' else 'text' end,
              case when k % 2 = 1 then 'inbound' else 'outbound' end,
              case when k % 2 = 1 then 'received' else 'read' end,
              l.created_at + k * interval '3 hours',
              (array['Hello, I would like to know if the apartment is still available.', 'Yes it is! Happy to show it to you.',
                     'Could we see it on Saturday morning, please.', 'Here is the floor plan.'])[k],
              case when k = 4 then '[{"name": "floor-plan.pdf"}]'::jsonb else '[]'::jsonb end,
              case when k % 2 = 0 then l.assignee_ids[1] end,
              'integration:demo', l.created_at + k * interval '3 hours', l.created_at + k * interval '3 hours'
         from leads l cross join generate_series(1, 4) as k
        where l.organization_id = ? and l.id % 3 = 0`,
      [organizationId],
    );
    await em.execute(
      `insert into emails (id, organization_id, lead_id, connector, external_id, source, capture_direction, subject,
                           status, from_address, recipient_email, body_text, sent_at, message_at, captured_at, actor,
                           created_at, updated_at)
       select gen_random_uuid(), l.organization_id, l.id, 'demo-mail', 'demo-' || l.id || '-' || s.source,
              s.source, case when s.source = 'captured' then 'inbound' end,
              case s.source when 'captured' then 'Question about the listing'
                            when 'automated' then 'New homes matching your search'
                            else 'Viewing confirmation' end,
              case s.source when 'captured' then 'received' when 'automated' then 'delivered' else 'opened' end,
              case when s.source = 'captured' then l.email else 'agent@demo.example' end,
              case when s.source = 'captured' then 'agent@demo.example' else l.email end,
              case s.source when 'captured' then 'Hello, I would like to know whether the price includes the parking space.'
                            when 'automated' then 'Three new homes match your saved search.'
                            else 'See you on Thursday at 17:00 at the property.' end,
              case when s.source <> 'captured' then l.created_at + s.n * interval '1 day' end,
              l.created_at + s.n * interval '1 day',
              case when s.source = 'captured' then l.created_at + s.n * interval '1 day' + interval '1 minute' end,
              'integration:demo', l.created_at + s.n * interval '1 day', l.created_at + s.n * interval '1 day'
         from leads l
        cross join (values ('captured', 1), ('automated', 2), ('manual', 3)) as s(source, n)
        where l.organization_id = ? and l.id % 5 = 0 and l.email <> ''`,
      [organizationId],
    );
  }

  private actor(userId: string, organizationId: string, role: Role): SessionPrincipal {
    return {
      kind: 'session',
      sessionId: 'ops',
      userId,
      organizationId,
      role,
      planActive: true,
      expiresAt: this.clock.now(),
    };
  }
}
