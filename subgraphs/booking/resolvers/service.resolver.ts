import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs, pageRequest, toPage } from '../../kernel/pagination.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import * as catalog from '../services/services.ts';
import { ResourceNode, ResourcePage, resourceNode } from './resource.types.ts';
import { ServiceCategoryNode } from './service-category.types.ts';
import { ServiceInput, ServiceNode, serviceNode, ServicePage } from './service.types.ts';
import { StaffMemberNode, StaffMemberPage, staffNode } from './staff-member.types.ts';

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
  async service(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The service's id." }) id: string) {
    return serviceNode(await catalog.getService(ctx, id, 'id', { activeOnly: true }));
  }

  @Requires('public')
  @Query(() => StaffMemberPage, { description: 'The staff members who perform a service.' })
  async serviceStaff(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The service's id." }) id: string, @Args(() => ListArgs) args: ListArgs) {
    const service = await catalog.getService(ctx, id, 'id', { activeOnly: true });
    const [staff] = await catalog.staffOfServices(ctx, [service.id]);
    // A service's staff (and resources) are a short list, loaded whole: a page is a slice of it.
    const req = pageRequest(args);
    return toPage(staff.map(staffNode).slice(req.offset, req.offset + req.limit), staff.length, req);
  }

  @Requires('public')
  @Query(() => ResourcePage, { description: 'The resources (rooms, equipment) a service uses.' })
  async serviceResources(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The service's id." }) id: string, @Args(() => ListArgs) args: ListArgs) {
    const service = await catalog.getService(ctx, id, 'id', { activeOnly: true });
    const [resources] = await catalog.resourcesOfServices(ctx, [service.id]);
    const req = pageRequest(args);
    return toPage(resources.map(resourceNode).slice(req.offset, req.offset + req.limit), resources.length, req);
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
  async serviceDetail(@Ctx() ctx: RequestContext, @Arg('serviceId', () => ID, { description: "The service's id (from list_services)." }) serviceId: string) {
    return serviceNode(await catalog.getService(ctx, serviceId, 'serviceId'));
  }

  @Requires('merchant')
  @Mutation(() => ServiceNode, { description: 'Defines a bookable service.' })
  async createService(@Ctx() ctx: RequestContext, @Arg('input', () => ServiceInput, { description: 'The service to create.' }) input: ServiceInput) {
    const { currency } = await tenantSettings(ctx);
    return serviceNode(await catalog.createService(ctx, input, currency));
  }

  @Requires('merchant')
  @Mutation(() => ServiceNode, { description: 'Changes the given fields of a service.' })
  async updateService(@Ctx() ctx: RequestContext, @Arg('serviceId', () => ID, { description: "The service's id." }) serviceId: string, @Arg('input', () => ServiceInput, { description: 'The fields to change; fields left out keep their value, null clears an optional one.' }) input: ServiceInput) {
    return serviceNode(await catalog.updateService(ctx, serviceId, input));
  }

  @FieldResolver(() => ServiceCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    if (!service.categoryId) return null;
    return ctx.find('booking.service_category', service.categoryId);
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
