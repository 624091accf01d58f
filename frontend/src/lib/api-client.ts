/**
 * The one HTTP client of the SPA. Every call carries the session cookie; unsafe methods carry
 * Django's CSRF token. Every non-OK response becomes an `ApiError`.
 */

export type FieldErrors = Record<string, string>;

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

type RequestOptions = {
  params?: QueryParams;
  body?: unknown;
  signal?: AbortSignal;
};

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
const CSRF_PATH = '/api/auth/csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

let pendingCsrf: Promise<string> | null = null;

/** The CSRF token from its cookie, asking the server to set the cookie first when it is missing. */
async function csrfToken(): Promise<string> {
  const fromCookie = readCookie(CSRF_COOKIE);
  if (fromCookie) return fromCookie;
  pendingCsrf ??= (async () => {
    try {
      const response = await fetch(CSRF_PATH, {
        credentials: 'include',
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) throw await toApiError(response);
      const body = (await response.json()) as { csrfToken?: string };
      return readCookie(CSRF_COOKIE) ?? body.csrfToken ?? '';
    } finally {
      pendingCsrf = null;
    }
  })();
  return pendingCsrf;
}

function buildUrl(path: string, params?: QueryParams): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const query = search.toString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
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

async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const hasBody = options.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (!SAFE_METHODS.has(method)) headers[CSRF_HEADER] = await csrfToken();

  const response = await fetch(buildUrl(path, options.params), {
    method,
    headers,
    body: hasBody ? JSON.stringify(options.body) : undefined,
    credentials: 'include',
    signal: options.signal,
  });
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function parseBody<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
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

async function request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
  return parseBody<T>(await send(method, path, options));
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T = void>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('DELETE', path, { ...options, body }),
  /**
   * One page of a list. Pass the list path for the first page and the returned `nextUrl` (with no
   * params) for the following ones; `nextUrl` is null on the last page.
   */
  getPage: async <T>(
    pathOrNextUrl: string,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<Page<T>> => {
    const response = await send('GET', pathOrNextUrl, options);
    return {
      items: await parseBody<T[]>(response),
      nextUrl: nextLink(response.headers.get('Link')),
    };
  },
};
