/**
 * The SDK's core: credentials, one request function every generated method goes through, the
 * typed ApiError and pagination. Only `fetch` and Web APIs: it runs in Node 24, edge runtimes and
 * browsers. Hand-written; the namespaces (namespaces/*.ts) and schema.ts are generated.
 */

export interface ClientOptions {
  /** Where the API is, e.g. `https://api.example.com` (no trailing `/v6`). */
  baseUrl: string;
  /** The tenant (X-Company-Id). Not needed behind one of the company's storefront domains, nor with an API key. */
  companyId?: string;
  /** An API key (`svc_mcp_…`) or a session token (customer or merchant JWT); `setToken` changes it later. */
  token?: string;
  /** A `fetch` of your own (a proxy, instrumentation); the global one by default. */
  fetch?: typeof fetch;
  /** Retries of a request that did not reach the server or met 502/503/504, with the same Idempotency-Key (default 2). */
  maxRetries?: number;
}

export interface RequestOptions {
  /** The Idempotency-Key of a POST; a new one is made for each call when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** What a generated method calls: the route and where each input field goes. */
export interface Operation {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under the base URL, with `{name}` segments. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** Whether the fields that are neither path nor query go as a flat JSON body. */
  readonly body: boolean;
  /** Sends X-Company-Id (routes that act for a tenant). */
  readonly tenant: boolean;
  /** What a success does to the client's credential: keep `data.token` or `data.apiKey`, or forget it. */
  readonly credential?: 'token' | 'apiKey' | 'clear';
}

export type Method<I, O> = ((input: I, options?: RequestOptions) => Promise<O>) & { readonly operation: Operation };
export type OptionalMethod<I, O> = ((input?: I, options?: RequestOptions) => Promise<O>) & { readonly operation: Operation };

/** An answer `{ success: false, error }`, or no answer the API would give. */
export class ApiError extends Error {
  /** The catalogue code (`BAD_USER_INPUT`, `NOT_FOUND`, `SLOT_TAKEN`, …), `NETWORK_ERROR` or `UNEXPECTED_RESPONSE`. */
  readonly code: string;
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** What the code needs said: `field`, `reason`, `cancellationPolicy`, … */
  readonly details: Record<string, unknown>;
  /** The request's id, for support. */
  readonly requestId: string | undefined;

  constructor(init: { code: string; status: number; message: string; details?: Record<string, unknown>; requestId?: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    this.requestId = init.requestId;
  }
}

/** What an answer's body may be: the envelope `{ success, data }` or `{ success: false, error }`, or whatever else came. */
interface Envelope {
  success?: unknown;
  data?: unknown;
  error?: { code?: unknown; message?: unknown; details?: Record<string, unknown>; requestId?: string };
}

export interface Core {
  readonly baseUrl: string;
  readonly companyId: string | undefined;
  /** An API key (`svc_mcp_…`) or a JWT; `null` signs out. */
  setToken(token: string | null): void;
  getToken(): string | null;
  request<T>(operation: Operation, input: Record<string, unknown> | undefined, options?: RequestOptions): Promise<T>;
}

const RETRY_STATUSES = new Set([502, 503, 504]);

export function createCore(options: ClientOptions): Core {
  if (!options?.baseUrl) throw new TypeError('createClient: baseUrl is required');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const maxRetries = options.maxRetries ?? 2;
  let token: string | null = options.token ?? null;

  async function request<T>(operation: Operation, input: Record<string, unknown> = {}, requestOptions: RequestOptions = {}): Promise<T> {
    const rest: Record<string, unknown> = { ...input };
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = rest[name];
      delete rest[name];
      if (value === undefined || value === null || value === '') throw new TypeError(`${name} is required`);
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    for (const name of operation.queryParams) {
      const value = rest[name];
      delete rest[name];
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...requestOptions.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    if (operation.tenant && options.companyId) headers['x-company-id'] = options.companyId;
    if (operation.method === 'POST') headers['idempotency-key'] = requestOptions.idempotencyKey ?? newKey();
    let body: string | undefined;
    if (operation.body && Object.keys(rest).length) {
      body = JSON.stringify(rest);
      headers['content-type'] = 'application/json';
    }
    const url = `${baseUrl}${path}${[...query].length ? `?${query}` : ''}`;

    let response: Response | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await doFetch(url, { method: operation.method, headers, body, signal: requestOptions.signal });
        if (!RETRY_STATUSES.has(response.status) || attempt >= maxRetries) break;
      } catch (error) {
        if (requestOptions.signal?.aborted) throw error;
        if (attempt >= maxRetries) throw new ApiError({ code: 'NETWORK_ERROR', status: 0, message: `No answer from ${baseUrl}: ${(error as Error).message}` });
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const text = await response.text();
    let envelope: Envelope | undefined;
    try {
      envelope = text ? JSON.parse(text) : undefined;
    } catch {
      envelope = undefined;
    }
    if (!response.ok || envelope?.success !== true) {
      const error = envelope?.error;
      throw new ApiError({
        code: typeof error?.code === 'string' ? error.code : 'UNEXPECTED_RESPONSE',
        status: response.status,
        message: typeof error?.message === 'string' ? error.message : `${operation.method} ${path} answered ${response.status}`,
        details: error?.details,
        requestId: error?.requestId ?? requestId,
      });
    }
    const data = envelope.data as Record<string, unknown> | null | undefined;
    if (operation.credential === 'clear') token = null;
    else if (operation.credential && typeof data?.[operation.credential] === 'string') token = data[operation.credential] as string;
    return data as T;
  }

  return {
    baseUrl,
    companyId: options.companyId,
    setToken: (value) => {
      token = value;
    },
    getToken: () => token,
    request,
  };
}

/** A generated method: the operation it calls, and the call. */
export function bind<I, O>(core: Core, operation: Operation): Method<I, O> {
  return Object.assign((input: I, options?: RequestOptions) => core.request<O>(operation, input as Record<string, unknown>, options), { operation });
}

/** A v4 UUID; `crypto.randomUUID` needs a secure context in browsers, `getRandomValues` does not. */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface Page<T> {
  items: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasNextPage: boolean };
}

/**
 * Every item of a list, page after page: `for await (const booking of paginate(client.bookings.list, { status: 'CONFIRMED' }))`.
 * Lists that take `page` are read by page, the others by `offset`.
 */
export async function* paginate<I, T>(
  list: ((input: I, options?: RequestOptions) => Promise<Page<T>>) & { readonly operation: Operation },
  input?: Omit<I, 'page' | 'offset'>,
  options?: RequestOptions,
): AsyncGenerator<T> {
  const byPage = list.operation.queryParams.includes('page');
  if (!byPage && !list.operation.queryParams.includes('offset')) throw new TypeError(`${list.operation.path} is not paginated`);
  let page = 1;
  let offset = 0;
  for (;;) {
    const result = await list({ ...(input as object), ...(byPage ? { page } : { offset }) } as I, options);
    yield* result.items;
    if (!result.pagination.hasNextPage || result.items.length === 0) return;
    page++;
    offset += result.items.length;
  }
}
