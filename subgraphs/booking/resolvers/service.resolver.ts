import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs, toPage, pageRequest } from '../../kernel/pagination.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { ServiceCategory } from '../entities/catalog.ts';
import * as catalog from '../services/catalog.ts';
import { resourceNode, serviceNode, staffNode } from './mappers.ts';
import { ResourceNode, ResourcePage, ServiceCategoryNode, ServiceInput, ServiceNode, ServicePage, StaffMemberNode, StaffMemberPage } from './types.ts';
import { InputType, Field } from 'type-graphql';

@InputType()
export class CreateServiceCategoryInput {
  @Field(() => String) name!: string;
}

/** The service catalogue: public browsing, merchant management. */
@Resolver(() => ServiceNode)
export class ServiceResolver {
  @Requires('public')
  @Query(() => ServicePage, { description: 'Bookable services (active ones).' })
  async services(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await catalog.listServices(ctx, args, { activeOnly: true });
    return { ...page, items: page.items.map(serviceNode) };
  }

  @Requires('public')
  @Query(() => ServiceNode, { description: 'One bookable service.' })
  async service(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string) {
    return serviceNode(await catalog.getService(ctx, id, 'id', { activeOnly: true }));
  }

  @Requires('public')
  @Query(() => StaffMemberPage, { description: 'The staff members who perform a service.' })
  async serviceStaff(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string, @Args(() => ListArgs) args: ListArgs) {
    const service = await catalog.getService(ctx, id, 'id', { activeOnly: true });
    const [staff] = await catalog.staffOfServices(ctx, [service.id]);
    return slice(staff.map(staffNode), args);
  }

  @Requires('public')
  @Query(() => ResourcePage, { description: 'The resources (rooms, equipment) a service uses.' })
  async serviceResources(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string, @Args(() => ListArgs) args: ListArgs) {
    const service = await catalog.getService(ctx, id, 'id', { activeOnly: true });
    const [resources] = await catalog.resourcesOfServices(ctx, [service.id]);
    return slice(resources.map(resourceNode), args);
  }

  @Requires('merchant')
  @Query(() => ServicePage, { description: "All the company's services, active or not." })
  async merchantServices(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await catalog.listServices(ctx, args, { activeOnly: false });
    return { ...page, items: page.items.map(serviceNode) };
  }

  @Requires('merchant')
  @Query(() => ServicePage, { description: 'The services customers can book now (active ones), as the merchant sees them.' })
  async bookableServices(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await catalog.listServices(ctx, args, { activeOnly: true });
    return { ...page, items: page.items.map(serviceNode) };
  }

  @Requires('merchant')
  @Query(() => ServiceNode, { description: 'A service with its preparation notes and cancellation policy.' })
  async serviceDetail(@Ctx() ctx: RequestContext, @Arg('serviceId', () => ID) serviceId: string) {
    return serviceNode(await catalog.getService(ctx, serviceId, 'serviceId'));
  }

  @Requires('merchant')
  @Query(() => [ServiceCategoryNode])
  async serviceCategories(@Ctx() ctx: RequestContext) {
    return catalog.listCategories(ctx);
  }

  @Requires('merchant')
  @Mutation(() => ServiceCategoryNode, { description: 'Creates a group for services.' })
  async createServiceCategory(@Ctx() ctx: RequestContext, @Arg('input', () => CreateServiceCategoryInput) input: CreateServiceCategoryInput) {
    return catalog.createCategory(ctx, input.name);
  }

  @Requires('merchant')
  @Mutation(() => ServiceNode, { description: 'Defines a bookable service.' })
  async createService(@Ctx() ctx: RequestContext, @Arg('input', () => ServiceInput) input: ServiceInput) {
    const { currency } = await tenantSettings(ctx);
    return serviceNode(await catalog.createService(ctx, input, currency));
  }

  @Requires('merchant')
  @Mutation(() => ServiceNode, { description: 'Changes the given fields of a service.' })
  async updateService(@Ctx() ctx: RequestContext, @Arg('serviceId', () => ID) serviceId: string, @Arg('input', () => ServiceInput) input: ServiceInput) {
    return serviceNode(await catalog.updateService(ctx, serviceId, input));
  }

  @FieldResolver(() => ServiceCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    if (!service.categoryId) return null;
    return ctx.byId(ServiceCategory, service.categoryId);
  }

  @FieldResolver(() => [StaffMemberNode])
  async staff(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    const staff = await ctx.loader('booking.serviceStaff', (ids: readonly string[]) => catalog.staffOfServices(ctx, ids)).load(service.id);
    return staff.map(staffNode);
  }

  @FieldResolver(() => [ResourceNode])
  async resources(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    const resources = await ctx.loader('booking.serviceResources', (ids: readonly string[]) => catalog.resourcesOfServices(ctx, ids)).load(service.id);
    return resources.map(resourceNode);
  }
}

/** A page of an already loaded short list (a service's staff or resources). */
function slice<T>(items: T[], args: ListArgs) {
  const req = pageRequest(args);
  return toPage(items.slice(req.offset, req.offset + req.limit), items.length, req);
}
