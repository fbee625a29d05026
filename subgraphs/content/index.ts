import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { ContentCategory, Menu, Page, Post, PostType, PostTypeField } from './entities/cms.ts';
import { ContactInquiry, Event, EventRegistration, Survey, SurveyInvitation, SurveyResponse } from './entities/engagement.ts';
import { content0001 } from './migrations/0001_content.ts';
import { CmsResolver, PostTypeResolver } from './resolvers/cms.resolver.ts';
import { EventRegistrationResolver, EventResolver, SurveyResolver } from './resolvers/engagement.resolver.ts';

/** Pages, posts and blocks, post types and fields, categories, menus, events, surveys, contact. */
export const content: SubgraphModule = {
  name: 'content',
  schema: 'content',
  entities: [ContentCategory, PostType, PostTypeField, Post, Page, Menu, Event, EventRegistration, Survey, SurveyInvitation, SurveyResponse, ContactInquiry],
  migrations: [content0001],
  buildSchema: () => buildFederatedSchema({ resolvers: [CmsResolver, PostTypeResolver, EventResolver, EventRegistrationResolver, SurveyResolver] }),
};
