import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { contentConstraints } from './constraints.ts';
import { ContentCategory, Menu, Page, Post, PostType, PostTypeField } from './entities/cms.ts';
import { CustomerProjection } from './entities/customer-projection.ts';
import { ContactInquiry, Event, EventRegistration, Survey, SurveyInvitation, SurveyResponse } from './entities/engagement.ts';
import { content0001 } from './migrations/0001_content.ts';
import { content0002 } from './migrations/0002_customer_projection.ts';
import { CmsResolver, PostTypeResolver } from './resolvers/cms.resolver.ts';
import { EventRegistrationResolver, EventResolver, SurveyResolver } from './resolvers/engagement.resolver.ts';
import { backfillCustomers } from './services/customers.ts';
import { contentSubscriptions } from './subscriptions.ts';

/** Pages, posts and blocks, post types and fields, categories, menus, events, surveys, contact. */
export const content: SubgraphModule = {
  name: 'content',
  schema: 'content',
  entities: [
    ContentCategory,
    PostType,
    PostTypeField,
    Post,
    Page,
    Menu,
    Event,
    EventRegistration,
    Survey,
    SurveyInvitation,
    SurveyResponse,
    ContactInquiry,
    CustomerProjection,
  ],
  migrations: [content0001, content0002],
  buildSchema: () => buildFederatedSchema({ resolvers: [CmsResolver, PostTypeResolver, EventResolver, EventRegistrationResolver, SurveyResolver] }),
  subscriptions: contentSubscriptions,
  constraints: contentConstraints,
  async onStart(runtime) {
    await backfillCustomers(runtime);
  },
};
