import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as surveys from '../services/surveys.ts';
import { InvitationToken, NewSurvey, Recipients, SurveyAnswers, SurveyId, SurveyKey, SurveyUpdate } from './survey.inputs.ts';
import {
  InvitedSurveyNode,
  SurveyInput,
  SurveyInvitationNode,
  SurveyNode,
  SurveyResponseInput,
  SurveyResponseNode,
  SurveyResultsNode,
} from './survey.types.ts';

/** Surveys, their magic invitations and responses. */
@Resolver(() => SurveyNode)
export class SurveyResolver {
  @Requires('optionalCustomer', 'surveys')
  @Query(() => SurveyNode, { description: 'A published survey by slug.' })
  async survey(@Ctx() ctx: RequestContext, @Arg('slug', () => String, { description: "The survey's slug." }) slug: string) {
    return surveys.getSurvey(ctx, parse(SurveyKey, slug, 'slug'), true);
  }

  @Requires('magic', 'surveys')
  @Query(() => InvitedSurveyNode, { description: 'The survey of a magic invitation token, and whom it is for.' })
  async invitedSurvey(@Ctx() ctx: RequestContext, @Arg('token', () => String, { description: 'The token from the invitation link.' }) token: string) {
    const { invitation, survey } = await surveys.invitationByToken(ctx, parse(InvitationToken, token, 'token'));
    return { survey, invitationId: invitation.id, customerId: invitation.customerId, email: invitation.email, answered: !!invitation.respondedAt };
  }

  @Requires('optionalCustomer', 'surveys')
  @Mutation(() => SurveyResponseNode, { description: 'Answers a published survey (by id or slug).' })
  async respondToSurvey(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => String, { description: "The survey's id." }) id: string,
    @Arg('input', () => SurveyResponseInput, { description: 'The answers.' }) input: SurveyResponseInput,
  ) {
    return surveys.respondToSurvey(ctx, parse(SurveyKey, id, 'id'), parse(SurveyAnswers, input));
  }

  @Requires('magic', 'surveys')
  @Mutation(() => SurveyResponseNode, { description: 'Answers through a magic invitation link; one response per token.' })
  async respondToInvitation(
    @Ctx() ctx: RequestContext,
    @Arg('token', () => String, { description: 'The token from the invitation link.' }) token: string,
    @Arg('input', () => SurveyResponseInput, { description: 'The answers.' }) input: SurveyResponseInput,
  ) {
    return surveys.respondToInvitation(ctx, parse(InvitationToken, token, 'token'), parse(SurveyAnswers, input));
  }

  @Requires('merchant', 'surveys')
  @Mutation(() => SurveyNode, { description: 'Creates a survey (a draft unless status says published).' })
  async createSurvey(@Ctx() ctx: RequestContext, @Arg('input', () => SurveyInput, { description: 'The survey to create.' }) input: SurveyInput) {
    return surveys.createSurvey(ctx, parse(NewSurvey, input));
  }

  @Requires('merchant', 'surveys')
  @Mutation(() => SurveyNode)
  async updateSurvey(
    @Ctx() ctx: RequestContext,
    @Arg('surveyId', () => ID, { description: "The survey's id." }) surveyId: string,
    @Arg('input', () => SurveyInput, { description: 'The fields to change; fields left out keep their value.' }) input: SurveyInput,
  ) {
    return surveys.updateSurvey(ctx, parse(SurveyKey, surveyId, 'surveyId'), parse(SurveyUpdate, input));
  }

  @Requires('merchant', 'surveys')
  @Mutation(() => [SurveyInvitationNode], { description: 'One magic link per recipient (customer ids or emails); emails get theirs by message.' })
  async createSurveyInvitations(
    @Ctx() ctx: RequestContext,
    @Arg('surveyId', () => ID, { description: "The survey's id." }) surveyId: string,
    @Arg('recipients', () => [String], { description: 'Email addresses to invite; each gets a personal link.' }) recipients: string[],
  ) {
    return surveys.createInvitations(ctx, parse(SurveyId, surveyId, 'surveyId'), parse(Recipients, recipients, 'recipients'));
  }

  @Requires('merchant', 'surveys')
  @Query(() => SurveyResultsNode, { description: 'Responses with per-question aggregates.' })
  async surveyResponses(
    @Ctx() ctx: RequestContext,
    @Arg('surveyId', () => ID, { description: "The survey's id." }) surveyId: string,
    @Args(() => ListArgs) args: ListArgs,
  ) {
    return surveys.responsesOf(ctx, parse(SurveyKey, surveyId, 'surveyId'), args);
  }
}
