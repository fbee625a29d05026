/** Types of smoke.js (plain JavaScript, so browsers and the edge runtime load it as it is). */
export function smoke(
  sdk: typeof import('../../sdk/src/index.ts'),
  options: { baseUrl: string; companyId: string; email: string; date: string; readCode: (email: string) => Promise<string> },
): Promise<{
  customerId: string;
  serviceCount: number;
  bookingId: string;
  bookingStatus: string;
  mine: string[];
  postTitles: string[];
  refused?: { name: string; code: string; status: number; isApiError: boolean };
}>;
