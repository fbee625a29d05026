import { ArgsType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, JSONObject } from '../../kernel/scalars.ts';

export enum AuditInterface {
  graphql = 'graphql',
  rest = 'rest',
  mcp = 'mcp',
}
registerEnumType(AuditInterface, { name: 'AuditInterface', description: 'Which face of the API a write came through.' });

@ObjectType('AuditEntry', { description: 'One merchant or agent write: who, through what, with which arguments (secrets redacted), and how it ended.' })
export class AuditEntryNode {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: '`api_key` or `session`.' }) actorType!: string;
  @Field(() => String, { description: 'The API key id or merchant session id that made the write.' }) actorId!: string;
  @Field(() => AuditInterface) interface!: AuditInterface;
  @Field(() => String, { nullable: true, description: 'The MCP tool or REST route, when the write came through one.' }) via?: string | null;
  @Field(() => String, { description: 'The GraphQL mutation that ran, such as createService.' }) operation!: string;
  @Field(() => JSONObject, { description: 'Its arguments, with codes, tokens and keys redacted.' }) arguments!: Record<string, unknown>;
  @Field(() => String, { description: '`ok`, or the error code it failed with.' }) outcome!: string;
  @Field(() => String, { nullable: true, description: 'The id of what it created or changed.' }) targetId?: string | null;
  @Field(() => DateTime) createdAt!: Date;
}

export const AuditEntryPage = PageOf(AuditEntryNode, 'AuditEntryPage');

@ArgsType()
export class AuditLogArgs {
  @Field(() => DateTime, { nullable: true, description: 'Entries at or after this instant.' }) from?: Date;
  @Field(() => DateTime, { nullable: true, description: 'Entries before this instant.' }) to?: Date;
  @Field(() => String, { nullable: true, description: 'Only this actor (API key id or session id).' }) actor?: string;
  @Field(() => String, { nullable: true, description: 'Only this operation (GraphQL mutation name, such as createService).' }) operation?: string;
  @Field(() => Int, { nullable: true, description: 'Entries per page, between 1 and 100 (default 20).' }) limit?: number;
  @Field(() => Int, { nullable: true, description: 'Entries to skip, newest first; at least 0 (default 0).' }) offset?: number;
}
