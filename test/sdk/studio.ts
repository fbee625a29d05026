import { createClient, type Client } from '../../sdk/src/index.ts';
import { lastCode, uniqueEmail } from '../support/client.ts';
import { testServer } from '../support/server.ts';

export interface Studio {
  baseUrl: string;
  companyId: string;
  merchant: Client;
  serviceId: string;
}

/**
 * A company set up through the SDK alone: the organisation signup (verifySignup keeps the new key),
 * a staff member working every day, a service of two places, a published post.
 */
export async function sdkStudio(): Promise<Studio> {
  const baseUrl = (await testServer()).url;
  const merchant = createClient({ baseUrl });
  const email = uniqueEmail('sdk-owner');
  const since = Date.now();
  const request = await merchant.organisation.signup({ email, organisationName: 'SDK Studio', industry: 'salon', country: 'DE' });
  const verified = await merchant.organisation.verifySignup({ requestId: request.requestId, code: await lastCode(email, since) });
  if (merchant.getToken() !== verified.apiKey) throw new Error('verifySignup did not keep the API key');
  const staff = await merchant.services.createStaffMember({ name: 'Mia' });
  for (let day = 0; day < 7; day++) await merchant.services.setStaffAvailability({ memberId: staff.id, dayOfWeek: day, startTime: '09:00', endTime: '17:00' });
  const service = await merchant.services.create({ name: 'Cut', durationMinutes: 60, price: '30', capacity: 2, staffIds: [staff.id], minimumNoticeMinutes: 0 });
  const post = await merchant.blog.createPost({ title: 'Opening hours', blocks: [{ type: 'paragraph', data: { text: 'Open daily' } }] });
  await merchant.blog.updatePost({ postId: post.id, status: 'published' });
  return { baseUrl, companyId: verified.companyId, merchant, serviceId: service.id };
}
