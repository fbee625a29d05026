import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import { findCategory } from '../services/service-categories.ts';
import { resourcesOfService, serviceResourcesPage, serviceStaffPage, staffOfService } from '../services/service-links.ts';
import * as catalog from '../services/services.ts';
import { ResourceNode, ResourcePage, resourceNode } from './resource.types.ts';
import { ServiceCategoryNode } from './service-category.types.ts';
import { NewService, ServiceId, ServiceUpdate } from './service.inputs.ts';
import { ServiceInput, ServiceNode, serviceNode, ServicePage } from './service.types.ts';
import { StaffMemberNode, StaffMemberPage, staffNode } from './staff-member.types.ts';

/** The service catalogue: public browsing, merchant management. */
@Resolver(() => ServiceNode)
export class ServiceResolver {
  @Requires('public', 'booking')
  @Query(() => ServicePage, { description: 'Bookable services (active ones).' })
  async services(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await catalog.listServices(ctx, args, { activeOnly: true });
    return { ...page, items: page.items.map(serviceNode) };
  }

  @Requires('public', 'booking')
  @Query(() => ServiceNode, { description: 'One bookable service.' })
  async service(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The service's id." }) id: string) {
    return serviceNode(await catalog.getService(ctx, parse(ServiceId, id, 'id'), { activeOnly: true }));
  }

  @Requires('public', 'booking')
  @Query(() => StaffMemberPage, { description: 'The staff members who perform a service.' })
  async serviceStaff(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The service's id." }) id: string, @Args(() => ListArgs) args: ListArgs) {
    const page = await serviceStaffPage(ctx, parse(ServiceId, id, 'id'), args);
    return { ...page, items: page.items.map(staffNode) };
  }

  @Requires('public', 'booking')
  @Query(() => ResourcePage, { description: 'The resources (rooms, equipment) a service uses.' })
  async serviceResources(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "The service's id." }) id: string,
    @Args(() => ListArgs) args: ListArgs,
  ) {
    const page = await serviceResourcesPage(ctx, parse(ServiceId, id, 'id'), args);
    return { ...page, items: page.items.map(resourceNode) };
  }

  @Requires('merchant', 'booking')
  @Query(() => ServicePage, { description: "All the company's services, active or not." })
  async merchantServices(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await catalog.listServices(ctx, args, { activeOnly: false });
    return { ...page, items: page.items.map(serviceNode) };
  }

  @Requires('merchant', 'booking')
  @Query(() => ServicePage, { description: 'The services customers can book now (active ones), as the merchant sees them.' })
  async bookableServices(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await catalog.listServices(ctx, args, { activeOnly: true });
    return { ...page, items: page.items.map(serviceNode) };
  }

  @Requires('merchant', 'booking')
  @Query(() => ServiceNode, { description: 'A service with its preparation notes and cancellation policy.' })
  async serviceDetail(@Ctx() ctx: RequestContext, @Arg('serviceId', () => ID, { description: "The service's id (from list_services)." }) serviceId: string) {
    return serviceNode(await catalog.getService(ctx, parse(ServiceId, serviceId, 'serviceId')));
  }

  @Requires('merchant', 'booking')
  @Mutation(() => ServiceNode, { description: 'Defines a bookable service.' })
  async createService(@Ctx() ctx: RequestContext, @Arg('input', () => ServiceInput, { description: 'The service to create.' }) input: ServiceInput) {
    return serviceNode(await catalog.createService(ctx, parse(NewService, input)));
  }

  @Requires('merchant', 'booking')
  @Mutation(() => ServiceNode, { description: 'Changes the given fields of a service.' })
  async updateService(
    @Ctx() ctx: RequestContext,
    @Arg('serviceId', () => ID, { description: "The service's id." }) serviceId: string,
    @Arg('input', () => ServiceInput, { description: 'The fields to change; fields left out keep their value, null clears an optional one.' })
    input: ServiceInput,
  ) {
    return serviceNode(await catalog.updateService(ctx, parse(ServiceId, serviceId, 'serviceId'), parse(ServiceUpdate, input)));
  }

  @FieldResolver(() => ServiceCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    return service.categoryId ? findCategory(ctx, service.categoryId) : null;
  }

  @FieldResolver(() => [StaffMemberNode])
  async staff(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    return (await staffOfService(ctx, service.id)).map(staffNode);
  }

  @FieldResolver(() => [ResourceNode])
  async resources(@Ctx() ctx: RequestContext, @Root() service: ServiceNode) {
    return (await resourcesOfService(ctx, service.id)).map(resourceNode);
  }
}
