import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ApiNullable, IntegerQuery, IsOmittable } from '@app/platform';
import type { DealListQuery } from '../../application/deals.queries';
import { dateRange } from '../../application/deal-dates';
import { COMMISSION_MODES, type CommissionMode } from '../../domain/commission';
import { DEAL_STAGES, DEAL_STATUSES, type DealStage, type DealStatus } from '../../domain/deal.entity';
import { MAX_PARTICIPANTS, PARTICIPANT_ROLES, type ParticipantRole } from '../../domain/deal-participants';
import { decimalIssue, type DecimalKind } from '../../domain/money';
import { LeadIdField, UuidList } from './lead.dto';

/** A money or percent field: a JSON number or a decimal string (domain/money.ts decides). */
const IsDecimalValue = (kind: DecimalKind) =>
  ValidateBy({
    name: `is-${kind}`,
    validator: {
      validate: (value: unknown) => decimalIssue(value, kind) === null,
      defaultMessage: (args) => `${args?.property} ${decimalIssue(args?.value, kind)}`,
    },
  });

const MONEY_IN = {
  oneOf: [
    { type: 'number', minimum: 0, maximum: 999999999999.99, multipleOf: 0.01 },
    { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,2})?$' },
  ],
  example: '250000.00',
};
const PERCENT_IN = {
  oneOf: [
    { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01 },
    { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,2})?$' },
  ],
  example: '3.50',
};

/** OpenAPI 3.0: `nullable` goes on each branch of a `oneOf`, which has no `type` of its own. */
const nullableBranches = (doc: typeof MONEY_IN) => ({
  ...doc,
  oneOf: doc.oneOf.map((branch) => ({ ...branch, nullable: true })),
});

/** An optional money field that null clears. */
const ClearableMoney = (kind: DecimalKind, description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ ...nullableBranches(kind === 'money' ? MONEY_IN : PERCENT_IN), description }),
    IsOptional(),
    ValidateIf((_, v) => v !== null),
    IsDecimalValue(kind),
  );

const ClearableString = (max: number, description?: string) =>
  applyDecorators(
    ApiNullable(String, { maxLength: max, description }),
    IsOptional(),
    ValidateIf((_, v) => v !== null),
    IsString(),
    MaxLength(max),
  );

const DATE_OR_MOMENT = 'YYYY-MM-DD (midnight UTC) or an ISO 8601 timestamp with offset';
const ClearableMoment = (description = DATE_OR_MOMENT) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, description }),
    IsOptional(),
    ValidateIf((_, v) => v !== null),
    IsString(),
  );

const CURRENCY = /^[A-Z]{3}$/;
const Currency = () =>
  applyDecorators(
    ApiPropertyOptional({
      pattern: '^[A-Z]{3}$',
      example: 'EUR',
      description: "ISO 4217, upper case; default the agency's",
    }),
    IsOmittable(),
    IsString(),
    Matches(CURRENCY, { message: 'currency must be an ISO 4217 code in upper case, like EUR' }),
  );

const stageMessage = { message: `stage must be one of ${DEAL_STAGES.join(', ')}` };

/** `a`, `["a","b"]` or `a,b` (comma-separated or repeated) → string[]. */
const toList = ({ value }: { value: unknown }): unknown =>
  value === undefined
    ? value
    : (Array.isArray(value) ? value : [value]).flatMap((item) =>
        typeof item === 'string'
          ? item
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [item],
      );

const QueryDecimal = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      pattern: '^\\d{1,12}(\\.\\d{1,2})?$',
      description: 'Raw amount, no currency conversion',
    }),
    IsOptional(),
    IsDecimalValue('money'),
  );
const QueryMoment = (description: string) =>
  applyDecorators(ApiPropertyOptional({ type: String, description }), IsOptional(), IsString());

const FROM = `Inclusive; ${DATE_OR_MOMENT.replace(' (midnight UTC)', '')}`;
const TO = 'Inclusive; a plain date YYYY-MM-DD covers its whole UTC day';

export class ListDealsQueryDto {
  @IntegerQuery({ min: 1, max: Number.MAX_SAFE_INTEGER })
  leadId?: number;

  @ApiPropertyOptional({ enum: DEAL_STATUSES })
  @IsOptional()
  @IsIn(DEAL_STATUSES, { message: `status must be one of ${DEAL_STATUSES.join(', ')}` })
  status?: DealStatus;

  @ApiPropertyOptional({ enum: DEAL_STAGES, description: 'Merged with `stages` into one set' })
  @IsOptional()
  @IsIn(DEAL_STAGES, stageMessage)
  stage?: DealStage;

  @ApiPropertyOptional({
    type: [String],
    enum: DEAL_STAGES,
    description: 'Comma-separated or repeated; ignored with `leadId`',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(DEAL_STAGES.length * 2)
  @IsIn(DEAL_STAGES, { each: true, ...stageMessage })
  stages?: DealStage[];

  @ApiPropertyOptional({ maxLength: 200, description: 'Title, lead first, last or full name, lead email' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ type: [String], description: 'Admin only; comma-separated or repeated' })
  @IsOptional()
  @UuidList(100)
  assigneeIds?: string[];

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  propertyListingId?: string;

  @QueryDecimal() amountMin?: string;
  @QueryDecimal() amountMax?: string;
  @QueryMoment(FROM) expectedCloseFrom?: string;
  @QueryMoment(TO) expectedCloseTo?: string;
  @QueryMoment(FROM) createdFrom?: string;
  @QueryMoment(TO) createdTo?: string;
  @QueryMoment(`${FROM}; won deals by wonAt, lost deals by lostAt, never open deals`) closedFrom?: string;
  @QueryMoment(TO) closedTo?: string;

  @ApiPropertyOptional({ enum: ['invoiced_not_collected', 'collected'] })
  @IsOptional()
  @IsIn(['invoiced_not_collected', 'collected'], {
    message: 'collectionState must be one of invoiced_not_collected, collected',
  })
  collectionState?: 'invoiced_not_collected' | 'collected';

  /** The filters, date pairs resolved (400 naming the parameter for a malformed date). */
  filters(): DealListQuery & { stage?: string } {
    return {
      leadId: this.leadId,
      assigneeIds: this.assigneeIds,
      status: this.status,
      stage: this.stage,
      stages: this.stages,
      q: this.q,
      propertyListingId: this.propertyListingId,
      amountMin: this.amountMin,
      amountMax: this.amountMax,
      expectedClose: dateRange('expectedClose', this.expectedCloseFrom, this.expectedCloseTo),
      created: dateRange('created', this.createdFrom, this.createdTo),
      closed: dateRange('closed', this.closedFrom, this.closedTo),
      collectionState: this.collectionState,
    };
  }
}

export class CreateDealDto {
  @ApiProperty() @LeadIdField() leadId: number;
  @ApiProperty({ minLength: 1, maxLength: 255 }) @IsString() @Length(1, 255) title: string;
  @ClearableMoney('money', '≥ 0, at most 2 decimals; never rounded') amount?: number | string | null;
  @Currency() currency?: string;

  @ApiPropertyOptional({ enum: DEAL_STAGES, default: 'qualified' })
  @IsOmittable()
  @IsIn(DEAL_STAGES, stageMessage)
  stage?: DealStage;

  @ClearableMoment() expectedCloseAt?: string | null;

  @ApiNullable(String, { format: 'uuid' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID('all')
  propertyListingId?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'A member may name only themselves' })
  @IsOptional()
  @UuidList(50)
  assigneeIds?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Admin only' })
  @IsOptional()
  @UuidList(50)
  teamIds?: string[];
}

export class DealParticipantDto {
  @ApiProperty({ format: 'uuid', description: 'A member of the organization' })
  @IsUUID('all')
  userId: string;

  @ApiProperty({ enum: PARTICIPANT_ROLES })
  @IsIn(PARTICIPANT_ROLES, { message: `role must be one of ${PARTICIPANT_ROLES.join(', ')}` })
  role: ParticipantRole;

  @ApiProperty({ ...PERCENT_IN, description: 'Decimal 0-100, at most 2 decimals' })
  @IsDecimalValue('percent')
  percent: number | string;
}

/** Any of these; null clears a nullable field. Never the stage or status. */
export class ChangeDealDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOmittable()
  @IsString()
  @Length(1, 255)
  title?: string;
  @ClearableMoney('money', '≥ 0, at most 2 decimals; never rounded') amount?: number | string | null;
  @Currency() currency?: string;

  @ApiNullable(String, { format: 'uuid' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID('all')
  propertyListingId?: string | null;

  @ClearableMoment() expectedCloseAt?: string | null;

  @ApiPropertyOptional({ enum: COMMISSION_MODES })
  @IsOmittable()
  @IsIn(COMMISSION_MODES, { message: 'commissionMode must be one of exact, percentage' })
  commissionMode?: CommissionMode;

  @ClearableMoney('money', 'Kept in `exact` mode; in `percentage` mode it is derived (400 if sent)')
  commissionAmount?: number | string | null;

  @ClearableMoney('percent', '0-100; kept in `percentage` mode; in `exact` mode it is derived (400 if sent)')
  commissionPercent?: number | string | null;

  @ClearableString(255) invoiceNumber?: string | null;
  @ClearableMoment() estimatedCollectionAt?: string | null;
  @ClearableMoment() collectedAt?: string | null;

  @ApiPropertyOptional({
    type: [DealParticipantDto],
    maxItems: MAX_PARTICIPANTS,
    description: 'The full new list; no repeated (userId, role); percents add up to at most 100',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(MAX_PARTICIPANTS)
  @ValidateNested({ each: true })
  @Type(() => DealParticipantDto)
  participants?: DealParticipantDto[];

  @ApiPropertyOptional({ type: [String], description: 'Admin only (the full new list)' })
  @IsOmittable()
  @UuidList(50)
  assigneeIds?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Admin only' })
  @IsOmittable()
  @UuidList(50)
  teamIds?: string[];
}

export class DealStageDto {
  @ApiProperty({ enum: DEAL_STAGES }) @IsIn(DEAL_STAGES, stageMessage) stage: DealStage;
}

export class MarkDealWonDto {
  @ApiPropertyOptional({ description: `${DATE_OR_MOMENT}; default now` })
  @IsOmittable()
  @IsString()
  wonAt?: string;
}

export class MarkDealLostDto {
  @ClearableString(2000) lostReason?: string | null;

  @ApiPropertyOptional({ description: `${DATE_OR_MOMENT}; default now` })
  @IsOmittable()
  @IsString()
  lostAt?: string;
}

export class ReopenDealDto {
  @ApiPropertyOptional({ enum: DEAL_STAGES, description: 'Default: the stage it held when closed' })
  @IsOmittable()
  @IsIn(DEAL_STAGES, stageMessage)
  stage?: DealStage;
}
