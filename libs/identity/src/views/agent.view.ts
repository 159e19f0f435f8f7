import { ApiProperty } from '@nestjs/swagger';
import type { Agent } from '../domain/agent.entity';

/** A row of the agent roster (spec: Agent); every field always present, legacy spellings included. */
export interface AgentJson {
  id: string;
  clerkUserId: string | null;
  isClerkLinked: boolean;
  firstName: string | null;
  lastName: string | null;
  first_name: string | null;
  last_name: string | null;
  avatarUrl: string | null;
  avatarThumbnailUrl: string | null;
  image_url: string;
  organizationId: string;
  displayEmail: string | null;
  phoneNumber: string | null;
  whatsappNumber: string | null;
  description: string | null;
  title: string | null;
  isActive: boolean;
  shareContactOnNetwork: boolean;
  additionalInfo: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

/** `{data, hasMore, total}`: a page of the roster by last name, first name, id. */
export interface AgentPageJson {
  data: AgentJson[];
  hasMore: boolean;
  total: number;
}

export const agentView = (agent: Agent): AgentJson => ({
  id: agent.id,
  clerkUserId: agent.clerkUserId,
  isClerkLinked: agent.isClerkLinked,
  firstName: agent.firstName,
  lastName: agent.lastName,
  first_name: agent.firstName,
  last_name: agent.lastName,
  avatarUrl: agent.avatarUrl,
  avatarThumbnailUrl: agent.avatarThumbnailUrl,
  image_url: agent.avatarUrl ?? '',
  organizationId: agent.organizationId,
  displayEmail: agent.displayEmail,
  phoneNumber: agent.phoneNumber,
  whatsappNumber: agent.whatsappNumber,
  description: agent.description,
  title: agent.title,
  isActive: agent.isActive,
  shareContactOnNetwork: agent.shareContactOnNetwork,
  additionalInfo: agent.additionalInfo,
  createdAt: agent.createdAt.toISOString(),
  updatedAt: agent.updatedAt.toISOString(),
});

const nullableText = (description: string) => ({ type: String, nullable: true, description });

/** A row of the agent roster (spec: Agent). A listing's `agentId` is its `id`. */
export class AgentView implements AgentJson {
  @ApiProperty({ format: 'uuid', description: 'The only identifier any endpoint accepts for an agent.' })
  id: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The user behind the row; null for a standalone agent.',
  })
  clerkUserId: string | null;
  @ApiProperty({ description: 'True for the row of an account member.' }) isClerkLinked: boolean;
  @ApiProperty(nullableText("For an account member, their account's first name.")) firstName: string | null;
  @ApiProperty(nullableText("For an account member, their account's last name.")) lastName: string | null;
  @ApiProperty(nullableText('Legacy spelling of `firstName`.')) first_name: string | null;
  @ApiProperty(nullableText('Legacy spelling of `lastName`.')) last_name: string | null;
  @ApiProperty({ ...nullableText('Picture URL.'), format: 'uri' }) avatarUrl: string | null;
  @ApiProperty({ ...nullableText('Small picture URL.'), format: 'uri' }) avatarThumbnailUrl: string | null;
  @ApiProperty({ description: 'Legacy spelling of `avatarUrl`; `""` without a picture.' }) image_url: string;
  @ApiProperty({ format: 'uuid', description: 'The agency the row belongs to.' }) organizationId: string;
  @ApiProperty({ ...nullableText('Public email on listings and brochures.'), format: 'email' })
  displayEmail: string | null;
  @ApiProperty(nullableText('Public phone number.')) phoneNumber: string | null;
  @ApiProperty(nullableText('Public WhatsApp number.')) whatsappNumber: string | null;
  @ApiProperty(nullableText('Short biography.')) description: string | null;
  @ApiProperty(nullableText('Job title.')) title: string | null;
  @ApiProperty({ description: 'Inactive agents are hidden from listing pickers (a member who left).' })
  isActive: boolean;
  @ApiProperty({
    description: 'Show email, phone and WhatsApp to other agencies on network listings.',
  })
  shareContactOnNetwork: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Free-form.',
  })
  additionalInfo: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** `{data: Agent[], hasMore, total}`: by last name, first name, id. */
export class AgentPageView implements AgentPageJson {
  @ApiProperty({ type: [AgentView] }) data: AgentView[];
  @ApiProperty({ description: 'True when rows follow this page (send `offset` + `limit`).' })
  hasMore: boolean;
  @ApiProperty({ type: 'integer', description: 'How many rows match, exactly.' }) total: number;
}
