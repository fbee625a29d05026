import type { Table } from '../kernel/tables.ts';
import type { ContentCategory } from './entities/category.ts';
import type { ContactInquiry } from './entities/contact-inquiry.ts';
import type { CustomerProjection } from './entities/customer-projection.ts';
import type { Event, EventRegistration } from './entities/event.ts';
import type { Menu } from './entities/menu.ts';
import type { Page } from './entities/page.ts';
import type { PostType, PostTypeField } from './entities/post-type.ts';
import type { Post } from './entities/post.ts';
import type { Survey, SurveyInvitation, SurveyResponse } from './entities/survey.ts';

/** The content subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'content.category': Table<typeof ContentCategory>;
    'content.contact_inquiry': Table<typeof ContactInquiry>;
    'content.customer_projection': Table<typeof CustomerProjection>;
    'content.event': Table<typeof Event>;
    'content.event_registration': Table<typeof EventRegistration>;
    'content.menu': Table<typeof Menu>;
    'content.page': Table<typeof Page>;
    'content.post_type': Table<typeof PostType>;
    'content.post_type_field': Table<typeof PostTypeField>;
    'content.post': Table<typeof Post>;
    'content.survey': Table<typeof Survey>;
    'content.survey_invitation': Table<typeof SurveyInvitation>;
    'content.survey_response': Table<typeof SurveyResponse>;
  }
}
