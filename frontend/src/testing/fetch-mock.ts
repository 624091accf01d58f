import { vi } from 'vitest';

export type MockResponse = {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
};

export type RecordedRequest = {
  method: string;
  /** The path and query, e.g. "/api/feed?sport=soccer" (the origin when it is another one). */
  url: string;
  /** Header names in lower case, as a Request keeps them ("x-csrftoken", "content-type"). */
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
};

type Handler = MockResponse | ((request: RecordedRequest) => MockResponse);

/** The path and query of a URL on this origin; another origin's URL whole. */
export function pathOf(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return parsed.origin === window.location.origin ? `${parsed.pathname}${parsed.search}` : url;
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Replaces fetch with a table of "METHOD /path" handlers (query strings ignored when matching).
 * Unmatched requests answer 404 so a missing handler shows up in the test's failure.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // The API client (openapi-fetch) sends one Request; anything else may send a URL and init.
    const sent = input instanceof Request ? input : new Request(pathOfInput(input), init);
    const method = sent.method.toUpperCase();
    const request: RecordedRequest = {
      method,
      url: pathOf(sent.url),
      headers: Object.fromEntries(sent.headers),
      body: parseBody(await sent.text()),
      credentials: sent.credentials,
    };
    requests.push(request);
    const path = new URL(sent.url).pathname;
    const handler = routes[`${method} ${path}`];
    const {
      status = 200,
      body,
      headers = {},
    } = typeof handler === 'function' ? handler(request) : (handler ?? { status: 404 });
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, {
      status,
      headers: {
        ...(typeof body === 'object' ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, requests };
}

function pathOfInput(input: RequestInfo | URL): string {
  return new URL(String(input), window.location.origin).href;
}
