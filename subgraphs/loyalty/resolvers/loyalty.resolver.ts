import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import type { RowOf } from '../../kernel/tables.ts';
import type { MembershipTier } from '../entities/tier.ts';
import * as accounts from '../services/accounts.ts';
import * as rules from '../services/rules.ts';
import * as tiers from '../services/tiers.ts';
import { CustomerId, NewTier, PointsAdjustmentInput, RulesUpdate, TierId, TierUpdate } from './loyalty.inputs.ts';
import {
  CustomerLoyaltyNode,
  CustomerRef,
  LedgerEntryNode,
  LoyaltyNode,
  LoyaltyRulesInput,
  LoyaltyRulesNode,
  MembershipTierInput,
  MembershipTierNode,
  MembershipTierPage,
} from './loyalty.types.ts';

export const tierNode = (t: MembershipTier | null): MembershipTierNode | null =>
  t && {
    id: t.id,
    name: t.name,
    threshold: t.threshold,
    benefits: t.benefits,
    sortOrder: t.sortOrder,
    color: t.color ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };

export const entryNode = (e: Omit<RowOf<'loyalty.ledger_entry'>, 'companyId'>): LedgerEntryNode => ({
  id: e.id,
  customerId: e.customerId,
  type: e.type,
  points: e.points,
  balanceAfter: e.balanceAfter,
  reason: e.reason,
  sourceType: e.sourceType,
  sourceId: e.sourceId ?? null,
  remaining: e.remaining ?? null,
  expiresAt: e.expiresAt ?? null,
  createdAt: e.createdAt,
});

const loyaltyNode = (s: accounts.Standing): LoyaltyNode => ({
  balance: s.balance,
  lifetimeEarned: s.lifetimeEarned,
  tier: tierNode(s.tier),
  expiringSoon: s.expiringSoon,
  nextExpiry: s.nextExpiry,
});

/** Earn rules, tiers and customers' points. */
@Resolver()
export class LoyaltyResolver {
  @Requires('public', 'loyalty')
  @Query(() => MembershipTierPage, { description: "The company's membership tiers, lowest threshold first." })
  async membershipTiers(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await tiers.tiersPage(ctx, args);
    return { ...page, items: page.items.map((t) => tierNode(t)!) };
  }

  @Requires('merchant', 'loyalty')
  @Query(() => LoyaltyRulesNode, { description: 'How customers earn points (the defaults until set_loyalty_rules).' })
  async loyaltyRules(@Ctx() ctx: RequestContext) {
    return rules.rulesOf(ctx);
  }

  @Requires('merchant', 'loyalty')
  @Query(() => CustomerLoyaltyNode, { description: "A customer's points, tier and ledger." })
  async customerLoyalty(
    @Ctx() ctx: RequestContext,
    @Arg('customerId', () => ID, { description: 'The customer (from list_customers).' }) customerId: string,
    @Arg('page', () => Int, { nullable: true, description: 'Ledger page number, at least 1 (default 1).' }) page?: number,
    @Arg('limit', () => Int, { nullable: true, description: 'Ledger entries per page, between 1 and 100 (default 20).' }) limit?: number,
  ): Promise<CustomerLoyaltyNode> {
    const { standing, ledger } = await accounts.customerLoyalty(ctx, parse(CustomerId, customerId, 'customerId'), { page, limit });
    return { customerId: standing.customerId, ...loyaltyNode(standing), ledger: { ...ledger, items: ledger.items.map(entryNode) } };
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => LoyaltyRulesNode, { description: 'Sets how customers earn points; fields left out keep their value.' })
  async setLoyaltyRules(@Ctx() ctx: RequestContext, @Arg('input', () => LoyaltyRulesInput, { description: 'The rules to change.' }) input: LoyaltyRulesInput) {
    return rules.setRules(ctx, parse(RulesUpdate, input));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => MembershipTierNode, { description: 'Creates a membership tier (409 CONFLICT naming name or threshold when the company has one).' })
  async createMembershipTier(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => MembershipTierInput, { description: 'The tier to create.' }) input: MembershipTierInput,
  ) {
    return tierNode(await tiers.createTier(ctx, parse(NewTier, input)));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => MembershipTierNode, { description: "Changes a membership tier; customers' tiers follow at once (they come from lifetime points)." })
  async updateMembershipTier(
    @Ctx() ctx: RequestContext,
    @Arg('tierId', () => ID, { description: 'The tier to change.' }) tierId: string,
    @Arg('input', () => MembershipTierInput, { description: 'The fields to change.' }) input: MembershipTierInput,
  ) {
    return tierNode(await tiers.updateTier(ctx, parse(TierId, tierId, 'tierId'), parse(TierUpdate, input)));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => LedgerEntryNode, {
    description:
      "Adds or takes points by hand (the entry's balanceAfter is the new balance); a balance never goes below zero (409 CONFLICT, reason INSUFFICIENT_POINTS).",
  })
  async adjustPoints(
    @Ctx() ctx: RequestContext,
    @Arg('customerId', () => ID, { description: 'The customer.' }) customerId: string,
    @Arg('points', () => Int, { description: 'Points to add (positive) or take (negative), not 0. Between -10000000 and 10000000.' }) points: number,
    @Arg('reason', () => String, { description: 'Why, kept in the ledger (e.g. "Birthday gift").' }) reason: string,
  ) {
    return entryNode(await accounts.adjustPoints(ctx, parse(PointsAdjustmentInput, { customerId, points, reason })));
  }
}

/** members' Customer gains its points here; the router joins the two subgraphs. */
@Resolver(() => CustomerRef)
export class CustomerLoyaltyResolver {
  @FieldResolver(() => LoyaltyNode, { description: "The customer's points and tier (merchants, or the customer themself)." })
  async loyalty(@Ctx() ctx: RequestContext, @Root() customer: CustomerRef) {
    return loyaltyNode(await accounts.standingOf(ctx, customer.id));
  }
}
