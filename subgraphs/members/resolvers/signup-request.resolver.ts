import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import { requestSignup, verifySignup } from '../services/signup-requests.ts';
import { NewSignupInput, SignupVerificationInput } from './signup-request.inputs.ts';
import { OrganisationSignup, OrganisationSignupInput, OrganisationSignupRequest, OrganisationVerifyInput } from './signup-request.types.ts';

/** Organisation signup, which needs no tenant: a request emails a code, its verification creates the company. */
@Resolver()
export class OrganisationSignupResolver {
  @Requires('none', 'account')
  @Mutation(() => OrganisationSignupRequest, { description: 'Starts an organisation signup: emails a 6-digit code.' })
  async registerOrganisationRequest(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => OrganisationSignupInput, { description: 'The organisation to create and the email that receives the code.' })
    input: OrganisationSignupInput,
  ) {
    return requestSignup(ctx, parse(NewSignupInput, input));
  }

  @Requires('none', 'account')
  @Mutation(() => OrganisationSignup, { description: 'Completes a signup: returns the first API key, the company id and a dashboard link.' })
  async registerOrganisationVerify(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => OrganisationVerifyInput, { description: 'The request id and the emailed code.' }) input: OrganisationVerifyInput,
  ) {
    return verifySignup(ctx, parse(SignupVerificationInput, input));
  }
}
