import { randomBytes } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  conflict,
  forbidden,
  isAdmin,
  preparedRows,
  Principal,
  validationFailed,
} from '@app/platform';
import {
  Invitation,
  OPEN_HOUSE_MAX_DURATION_MS,
  OpenHouse,
  OpenHouseFields,
  OpenHouseVisibility,
  randomBase32,
  RsvpStatus,
} from '../domain/open-house.entity';
import { OpenHouseRepository } from '../domain/open-house.repository';
import type { OpenHouseJson } from '../views/open-house.view';
import { openHouseNotFound, OpenHousesQueries } from './open-houses.queries';
import {
  goingOthersStatement,
  lockVisibleStatement,
  memberStatement,
  ownListingStatement,
  rsvpUpsertStatement,
} from './open-houses.sql';

export interface OpenHouseInput {
  propertyListingId?: string;
  startsAt?: string;
  endsAt?: string;
  timezone?: string;
  visibility?: OpenHouseVisibility;
  hostUserId?: string;
  commissionNotes?: string | null;
  contactName?: string | null;
  contactPhone?: string | null;
  invitation?: { message?: string | null; capacity?: number | null; rsvpDeadline?: string | null };
}

const SLUG_LENGTH = 16;
const ONLY_AGENT_OR_ADMIN = "Only the listing's agent or an admin can manage its open houses.";

/** ISO 8601 with `Z` or an offset (a time without one names no instant). */
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function instant(value: string, path: string): Date {
  const date = new Date(value);
  if (!ZONED.test(value) || Number.isNaN(date.getTime()))
    throw validationFailed([{ path, message: `${path} must be an ISO 8601 date-time with Z or an offset` }]);
  return date;
}

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Open houses (session routes, INTERFACES.md "Open houses"): the listing's agent or an admin
 * creates, changes and cancels them; anyone who sees one answers its RSVP. Each write is one
 * transaction and answers the detail as `/v1` shows it to the caller.
 */
@Injectable()
export class OpenHousesService {
  constructor(
    private readonly em: EntityManager,
    private readonly openHouses: OpenHouseRepository,
    private readonly queries: OpenHousesQueries,
    private readonly clock: Clock,
  ) {}

  async create(actor: Principal, input: OpenHouseInput): Promise<OpenHouseJson> {
    const id = await this.em.transactional(async (em) => {
      const fields = await this.checked(actor, {
        propertyListingId: input.propertyListingId!,
        startsAt: input.startsAt!,
        endsAt: input.endsAt!,
        timezone: input.timezone!,
        visibility: input.visibility ?? 'network',
        hostUserId: input.hostUserId ?? actor.userId,
        commissionNotes: input.commissionNotes ?? null,
        contactName: input.contactName ?? null,
        contactPhone: input.contactPhone ?? null,
        invitation: input.invitation ?? {},
      });
      const slug = randomBase32(SLUG_LENGTH, randomBytes(SLUG_LENGTH));
      const openHouse = new OpenHouse(actor.organizationId, actor.userId, slug, fields, this.clock.now());
      await em.persist(openHouse).flush();
      return openHouse.id;
    });
    return this.queries.get(actor, id);
  }

  /** Any create field; a cancelled or ended one no longer changes (409). */
  async change(actor: Principal, id: string, input: OpenHouseInput): Promise<OpenHouseJson> {
    await this.em.transactional(async (em) => {
      const openHouse = await this.manageable(actor, id);
      if (openHouse.statusAt(this.clock.now()) !== 'scheduled')
        throw conflict(`The open house is ${openHouse.statusAt(this.clock.now())}; it no longer changes.`);
      const current = openHouse.invitation;
      const fields = await this.checked(actor, {
        propertyListingId: input.propertyListingId ?? openHouse.propertyListingId,
        startsAt: input.startsAt ?? openHouse.startsAt.toISOString(),
        endsAt: input.endsAt ?? openHouse.endsAt.toISOString(),
        timezone: input.timezone ?? openHouse.timezone,
        visibility: input.visibility ?? openHouse.visibility,
        hostUserId: input.hostUserId ?? openHouse.hostUserId,
        commissionNotes:
          input.commissionNotes === undefined ? openHouse.commissionNotes : input.commissionNotes,
        contactName: input.contactName === undefined ? openHouse.contactName : input.contactName,
        contactPhone: input.contactPhone === undefined ? openHouse.contactPhone : input.contactPhone,
        invitation: input.invitation === undefined ? current : input.invitation,
      });
      openHouse.change(fields, this.clock.now());
      await em.flush();
    });
    return this.queries.get(actor, id);
  }

  /** `cancelled` (again: unchanged); an ended one → 409. */
  async cancel(actor: Principal, id: string): Promise<OpenHouseJson> {
    await this.em.transactional(async (em) => {
      const openHouse = await this.manageable(actor, id);
      const status = openHouse.statusAt(this.clock.now());
      if (status === 'ended') throw conflict('The open house has ended.');
      if (status === 'scheduled') {
        openHouse.cancel(this.clock.now());
        await em.flush();
      }
    });
    return this.queries.get(actor, id);
  }

  /** The caller's answer; cancelled, ended, past the deadline or (for `going`) full → 409. */
  async rsvp(actor: Principal, id: string, status: RsvpStatus): Promise<OpenHouseJson> {
    await this.queries.get(actor, id); // 404 unless the caller sees it
    await this.em.transactional(async (em) => {
      const [row] = await preparedRows<{
        status: string;
        ends_at: Date | string;
        invitation: Partial<Invitation>;
      }>(em, lockVisibleStatement(actor.organizationId, id));
      if (!row) throw openHouseNotFound();
      const now = this.clock.now();
      if (row.status === 'cancelled') throw conflict('The open house is cancelled.');
      if (new Date(row.ends_at).getTime() <= now.getTime()) throw conflict('The open house has ended.');
      const deadline = row.invitation.rsvpDeadline;
      if (deadline && new Date(deadline).getTime() < now.getTime())
        throw conflict('The RSVP deadline has passed.');
      const capacity = row.invitation.capacity;
      if (status === 'going' && capacity != null) {
        const [going] = await preparedRows<{ n: string }>(em, goingOthersStatement(id, actor.userId));
        if (Number(going?.n ?? 0) >= capacity) throw conflict('The open house is full.');
      }
      await preparedRows(em, rsvpUpsertStatement(id, actor.userId, actor.organizationId, status, now));
    });
    return this.queries.get(actor, id);
  }

  /** An open house of the caller's agency they may manage (the listing's agent or an admin). */
  private async manageable(actor: Principal, id: string): Promise<OpenHouse> {
    const openHouse = await this.openHouses.findInOrg(actor.organizationId, { id });
    if (!openHouse) throw openHouseNotFound();
    if (!isAdmin(actor)) {
      const [listing] = await preparedRows<{ agent_user_id: string | null }>(
        this.em,
        ownListingStatement(actor.organizationId, openHouse.propertyListingId),
      );
      if (listing?.agent_user_id !== actor.userId) throw forbidden(ONLY_AGENT_OR_ADMIN);
    }
    return openHouse;
  }

  /** The fields checked: the listing (own ACTIVE, 400; its agent or an admin, 403), times, zone, host. */
  private async checked(
    actor: Principal,
    input: Omit<OpenHouseFields, 'startsAt' | 'endsAt' | 'invitation'> & {
      startsAt: string;
      endsAt: string;
      invitation: OpenHouseInput['invitation'];
    },
  ): Promise<OpenHouseFields> {
    const [listing] = await preparedRows<{ status: string; agent_user_id: string | null }>(
      this.em,
      ownListingStatement(actor.organizationId, input.propertyListingId.toLowerCase()),
    );
    if (!listing || listing.status !== 'ACTIVE')
      throw validationFailed([
        {
          path: 'propertyListingId',
          message: 'propertyListingId must name an ACTIVE listing of your agency',
        },
      ]);
    if (!isAdmin(actor) && listing.agent_user_id !== actor.userId) throw forbidden(ONLY_AGENT_OR_ADMIN);
    const startsAt = instant(input.startsAt, 'startsAt');
    const endsAt = instant(input.endsAt, 'endsAt');
    if (endsAt.getTime() <= startsAt.getTime())
      throw validationFailed([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
    if (endsAt.getTime() - startsAt.getTime() > OPEN_HOUSE_MAX_DURATION_MS)
      throw validationFailed([{ path: 'endsAt', message: 'endsAt must be at most 12 hours after startsAt' }]);
    if (!knownZone(input.timezone))
      throw validationFailed([{ path: 'timezone', message: 'timezone must be a known IANA time zone' }]);
    const [member] = await preparedRows(
      this.em,
      memberStatement(actor.organizationId, input.hostUserId.toLowerCase()),
    );
    if (!member)
      throw validationFailed([{ path: 'hostUserId', message: 'hostUserId must be a member of your agency' }]);
    const invitation = input.invitation ?? {};
    const rsvpDeadline =
      invitation.rsvpDeadline == null
        ? null
        : instant(invitation.rsvpDeadline, 'invitation.rsvpDeadline').toISOString();
    return {
      ...input,
      propertyListingId: input.propertyListingId.toLowerCase(),
      hostUserId: input.hostUserId.toLowerCase(),
      startsAt,
      endsAt,
      invitation: {
        message: invitation.message ?? null,
        capacity: invitation.capacity ?? null,
        rsvpDeadline,
      },
    };
  }
}
