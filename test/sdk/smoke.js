// The SDK's storefront smoke, the same script in Node, an edge runtime and Chromium (plain
// JavaScript so each runtime loads it as it is): sign in with a one-time code (read from the dev
// outbox by `readCode`), list services, book a slot, see it among the customer's bookings, list posts.
export async function smoke(sdk, { baseUrl, companyId, email, date, readCode }) {
  const client = sdk.createClient({ baseUrl, companyId });
  await client.auth.requestOtp({ email });
  const session = await client.auth.verifyOtp({ email, code: await readCode(email) });
  if (client.getToken() !== session.token) throw new Error('verifyOtp did not keep the token');

  const services = await client.services.browse({ limit: 10 });
  const service = services.items[0];
  const slots = await client.services.listSlots({ id: service.id, date });
  const slot = slots.items[0];
  const booking = await client.bookings.createGuestBooking({
    serviceId: service.id,
    occurrenceStart: slot.start,
    occurrenceEnd: slot.end,
    customerName: 'Smoke Test',
    customerPhone: '+4915112345678',
    customerEmail: email,
  });
  const mine = await client.bookings.listMine();
  const posts = await client.blog.browsePosts({ limit: 5 });

  let refused;
  try {
    await client.services.get({ id: '00000000-0000-4000-8000-000000000000' });
  } catch (error) {
    refused = { name: error.name, code: error.code, status: error.status, isApiError: error instanceof sdk.ApiError };
  }
  return {
    customerId: session.customer.id,
    serviceCount: services.items.length,
    bookingId: booking.id,
    bookingStatus: booking.status,
    mine: mine.items.map((b) => b.id),
    postTitles: posts.items.map((p) => p.title),
    refused,
  };
}
