import { vi } from 'vitest';

export type MockResponse = {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
};

export type RecordedRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
};

type Handler = MockResponse | ((request: RecordedRequest) => MockResponse);

/**
 * Replaces fetch with a table of "METHOD /path" handlers (query strings ignored when matching).
 * Unmatched requests answer 404 so a missing handler shows up in the test's failure.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const request: RecordedRequest = {
      method,
      url,
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
    };
    requests.push(request);
    const path = new URL(url, 'http://localhost').pathname;
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
