import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { contentConstraints } from './constraints.ts';
import { ContentCategory } from './entities/category.ts';
import { ContactInquiry } from './entities/contact-inquiry.ts';
import { CustomerProjection } from './entities/customer-projection.ts';
import { Event, EventRegistration } from './entities/event.ts';
import { Menu } from './entities/menu.ts';
import { Page } from './entities/page.ts';
import { Post } from './entities/post.ts';
import { PostType, PostTypeField } from './entities/post-type.ts';
import { Survey, SurveyInvitation, SurveyResponse } from './entities/survey.ts';
import { content0001 } from './migrations/0001_content.ts';
import { content0002 } from './migrations/0002_customer_projection.ts';
import { contentReferences } from './references.ts';
// Resolvers register their root fields as their modules load: this order is the order of the
// Query and Mutation fields in the printed SDL (schema/content.graphql).
import { PostResolver } from './resolvers/post.resolver.ts';
import { PageResolver } from './resolvers/page.resolver.ts';
import { ContentCategoryResolver } from './resolvers/category.resolver.ts';
import { MenuResolver } from './resolvers/menu.resolver.ts';
import { PostTypeResolver } from './resolvers/post-type.resolver.ts';
import { EventRegistrationResolver, EventResolver } from './resolvers/event.resolver.ts';
import { SurveyResolver } from './resolvers/survey.resolver.ts';
import { ContactInquiryResolver } from './resolvers/contact-inquiry.resolver.ts';
import { customers } from './services/customers.ts';
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
  buildSchema: () =>
    buildFederatedSchema({
      name: 'content',
      resolvers: [
        PostResolver,
        PageResolver,
        ContentCategoryResolver,
        MenuResolver,
        PostTypeResolver,
        EventResolver,
        EventRegistrationResolver,
        SurveyResolver,
        ContactInquiryResolver,
      ],
      references: contentReferences,
    }),
  subscriptions: contentSubscriptions,
  constraints: contentConstraints,
  async onStart(runtime) {
    await customers.backfill(runtime);
  },
};
