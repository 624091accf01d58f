/**
 * The one HTTP client of the SPA: openapi-fetch over the `paths` that `npm run gen:types`
 * generates from the server's OpenAPI document, so a path, a parameter, a body or a response
 * that drifts from the server fails `npm run typecheck`. Every call carries the session cookie;
 * unsafe methods carry Django's CSRF token. Every non-OK response becomes an `ApiError`.
 *
 *     const stats = await unwrap(api.GET('/api/stats', { params: { query: { sport } }, signal }));
 *     const page = await getPage('/api/feed', { sport, limit: 20 }, nextUrl, signal);
 */
import createClient, {
  type FetchOptions,
  type FetchResponse,
  type Middleware,
} from 'openapi-fetch';

import type { paths } from '@/lib/api/schema';

export type FieldErrors = Record<string, string>;

export type Page<T> = { items: T[]; nextUrl: string | null };

export class ApiError extends Error {
  readonly status: number;
  /** The server's error code; undefined when the body was not the server's JSON error body. */
  readonly code: string | undefined;
  readonly fields: FieldErrors | undefined;
  /** The server's whole JSON error body, for the extra keys some errors carry (a 409's id). */
  readonly body: Record<string, unknown> | undefined;

  constructor(
    message: string,
    {
      status,
      code,
      fields,
      body,
    }: { status: number; code?: string; fields?: FieldErrors; body?: Record<string, unknown> },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.body = body;
  }
}

/**
 * The message to show for a failed call: the server's own message when it sent its JSON error
 * body, otherwise the screen's fallback text.
 */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.code !== undefined ? error.message : fallback;
}

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The server's error body; some errors carry more keys (a duplicate's nominationId). */
type ErrorBody = { message: string; code: string; fields?: FieldErrors | null } & Record<
  string,
  unknown
>;

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.message === 'string' && typeof body.code === 'string';
}

async function toApiError(response: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // A body that cannot be read leaves the status text as the message.
  }
  try {
    const body: unknown = JSON.parse(text);
    if (isErrorBody(body)) {
      return new ApiError(body.message, {
        status: response.status,
        code: body.code,
        fields: body.fields ?? undefined,
        body,
      });
    }
  } catch {
    // Not JSON: fall through to the plain "{status}: {text}" message.
  }
  return new ApiError(`${response.status}: ${text || response.statusText}`, {
    status: response.status,
  });
}

/**
 * The query string as the server reads it: plain values, an array as repeated keys, and
 * undefined, null and '' left out.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== '') search.append(key, String(item));
    }
  }
  return search.toString();
}

const client = createClient<paths>({
  // Absolute on this origin: a Request needs an absolute URL outside the browser (Vitest).
  baseUrl: typeof location === 'undefined' ? '' : location.origin,
  credentials: 'include',
  headers: { Accept: 'application/json' },
  querySerializer: serializeQuery,
  // Looked up on each call rather than captured once, so a test's stubbed fetch is the one used.
  fetch: (request) => globalThis.fetch(request),
});

type Method = 'get' | 'put' | 'post' | 'delete';
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];
type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type InitOf<Operation> = FetchOptions<Operation>;
/** The options argument, optional when the operation needs neither parameters nor a body. */
type InitArgs<Operation> =
  object extends InitOf<Operation> ? [init?: InitOf<Operation>] : [init: InitOf<Operation>];
type TypedMethod<M extends Method> = <P extends PathsWith<M>>(
  path: P,
  ...init: InitArgs<OperationOf<P, M>>
) => Promise<FetchResponse<OperationOf<P, M>, object, `${string}/${string}`>>;

/**
 * The client's methods, each checked against `paths`. openapi-fetch's own signatures infer the
 * options as a type parameter and so let any extra key through (a misspelt optional body field,
 * openapi-ts/openapi-typescript#1769); here the options are typed from the path alone, so an
 * object literal gets TypeScript's excess-property check, at any depth.
 */
export type ApiClient = {
  GET: TypedMethod<'get'>;
  POST: TypedMethod<'post'>;
  PUT: TypedMethod<'put'>;
  DELETE: TypedMethod<'delete'>;
};

/** The openapi-fetch client itself, seen through the stricter signatures above. */
export const api = client as unknown as ApiClient;

let pendingCsrf: Promise<string> | null = null;

/** The CSRF token from its cookie, asking the server to set the cookie first when it is missing. */
async function csrfToken(): Promise<string> {
  const fromCookie = readCookie(CSRF_COOKIE);
  if (fromCookie) return fromCookie;
  pendingCsrf ??= (async () => {
    try {
      // A GET: the middleware adds no token to it, and turns a failure into an ApiError.
      const body = await unwrap(api.GET('/api/auth/csrf'));
      return readCookie(CSRF_COOKIE) ?? body.csrfToken ?? '';
    } finally {
      pendingCsrf = null;
    }
  })();
  return pendingCsrf;
}

/** Adds the CSRF token to unsafe methods; turns every non-OK response into an `ApiError`. */
const sessionMiddleware: Middleware = {
  async onRequest({ request }) {
    if (SAFE_METHODS.has(request.method)) return undefined;
    request.headers.set(CSRF_HEADER, await csrfToken());
    return request;
  },
  async onResponse({ response }) {
    if (!response.ok) throw await toApiError(response);
    return undefined;
  },
};

client.use(sessionMiddleware);

/**
 * The body of a successful call. The middleware has already thrown an `ApiError` for any other,
 * so `data` is there unless the answer had no body (204), which gives undefined.
 */
export async function unwrap<Data>(
  call: Promise<{ data?: Data; error?: unknown; response: Response }>,
): Promise<Data> {
  const { data, response } = await call;
  if (!response.ok)
    throw new ApiError(`${response.status}: ${response.statusText}`, { status: response.status });
  return data as Data;
}

/** The `rel="next"` target of a Link header, if any. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (match && /\brel\s*=\s*"?next"?/.test(match[2])) return match[1];
  }
  return null;
}

type GetOperation<P extends keyof paths> = NonNullable<paths[P]['get']>;
type QueryOf<P extends keyof paths> =
  GetOperation<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParamsOf<P extends keyof paths> =
  GetOperation<P> extends {
    parameters: { path: infer Path };
  }
    ? Path
    : never;
type ListOf<P extends keyof paths> =
  GetOperation<P> extends {
    responses: { 200: { content: { 'application/json': (infer Item)[] } } };
  }
    ? Item
    : never;

/** The lists paged by a cursor and the Link header: a GET that takes `cursor` and answers an array. */
export type PagedPath = {
  [P in keyof paths]: 'cursor' extends keyof QueryOf<P>
    ? [ListOf<P>] extends [never]
      ? never
      : P
    : never;
}[keyof paths];

/**
 * A paged list's parameters as openapi-fetch takes them (`path` when the path has any, `query`),
 * without the cursor, which comes from the previous page's next address.
 */
export type PageParams<P extends PagedPath> = { query?: Omit<QueryOf<P>, 'cursor'> } & ([
  PathParamsOf<P>,
] extends [never]
  ? { path?: never }
  : { path: PathParamsOf<P> });
export type PageItem<P extends PagedPath> = ListOf<P>;

/** The `cursor` of a next page's address; an error when it has none (it would read page one again). */
export function cursorOf(nextUrl: string): string {
  const cursor = new URL(nextUrl, 'http://localhost').searchParams.get('cursor');
  if (!cursor) throw new Error(`No cursor in the next page's address: ${nextUrl}`);
  return cursor;
}

/**
 * One page of a list: the first from `path` with `params` (nextUrl null), each following one from
 * the same path and params with the cursor of the previous page's `nextUrl`. The server's next
 * address is the request's own query plus that cursor, so this reads the page it names;
 * `nextUrl` is null on the last page.
 */
export async function getPage<P extends PagedPath>(
  path: P,
  params: PageParams<P>,
  nextUrl: string | null,
  signal?: AbortSignal,
): Promise<Page<PageItem<P>>> {
  const cursor = nextUrl === null ? undefined : cursorOf(nextUrl);
  // The one place the client is called untyped: TypeScript cannot pick the GET overload for a
  // generic path. The signature above is what checks each caller against `paths`.
  const get = client.GET as unknown as (
    path: string,
    init: { params: Record<string, unknown>; signal?: AbortSignal },
  ) => Promise<{ data?: unknown; response: Response }>;
  const { data, response } = await get(path, {
    params: { ...params, query: { ...params.query, cursor } },
    signal,
  });
  return {
    items: (data ?? []) as PageItem<P>[],
    nextUrl: nextLink(response.headers.get('Link')),
  };
}
