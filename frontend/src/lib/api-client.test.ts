import { afterEach, describe, expect, it } from 'vitest';

import { mockFetch } from '@/testing/fetch-mock';

import { api, ApiError, errorMessage, nextLink } from './api-client';

afterEach(() => {
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('api client', () => {
  it('sends credentials and no content type on a read', async () => {
    const { requests } = mockFetch({ 'GET /api/stats': { body: { votes: 3 } } });
    await expect(
      api.get('/api/stats', { params: { sport: 'hockey', empty: '' } }),
    ).resolves.toEqual({
      votes: 3,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0].url).toBe('/api/stats?sport=hockey');
    expect(requests[0].credentials).toBe('include');
    expect(requests[0].headers['Content-Type']).toBeUndefined();
    expect(requests[0].headers['X-CSRFToken']).toBeUndefined();
  });

  it('sends the CSRF cookie on unsafe methods and JSON only with a body', async () => {
    document.cookie = 'csrftoken=abc123; path=/';
    const { requests } = mockFetch({
      'POST /api/votes': { status: 201, body: { id: 1 } },
      'DELETE /api/votes/7': { status: 204 },
    });
    await api.post('/api/votes', { nominationId: 7 });
    await expect(api.delete('/api/votes/7')).resolves.toBeUndefined();

    expect(requests.map((r) => r.url)).toEqual(['/api/votes', '/api/votes/7']);
    expect(requests[0].headers).toMatchObject({
      'X-CSRFToken': 'abc123',
      'Content-Type': 'application/json',
    });
    expect(requests[0].body).toEqual({ nominationId: 7 });
    expect(requests[1].headers['X-CSRFToken']).toBe('abc123');
    expect(requests[1].headers['Content-Type']).toBeUndefined();
    expect(requests[1].body).toBeUndefined();
    expect(requests.every((r) => r.credentials === 'include')).toBe(true);
  });

  it('asks for a CSRF cookie once when it is missing', async () => {
    const { requests } = mockFetch({
      'GET /api/auth/csrf': () => {
        document.cookie = 'csrftoken=fresh; path=/';
        return { body: { csrfToken: 'fresh' } };
      },
      'POST /api/auth/logout': { status: 204 },
    });
    await Promise.all([api.post('/api/auth/logout'), api.post('/api/auth/logout')]);
    await api.post('/api/auth/logout');

    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/auth/csrf',
      'POST /api/auth/logout',
      'POST /api/auth/logout',
      'POST /api/auth/logout',
    ]);
    expect(requests.slice(1).every((r) => r.headers['X-CSRFToken'] === 'fresh')).toBe(true);
  });

  it('falls back to the token in the CSRF body when no cookie is readable', async () => {
    const { requests } = mockFetch({
      'GET /api/auth/csrf': { body: { csrfToken: 'from-body' } },
      'PUT /api/profile': { body: {} },
    });
    await api.put('/api/profile', { name: 'A' });
    expect(requests[1].headers['X-CSRFToken']).toBe('from-body');
  });

  it("turns the server's error body into an ApiError", async () => {
    mockFetch({
      'POST /api/auth/register': {
        status: 400,
        body: {
          message: 'Invalid input',
          code: 'validation_error',
          fields: { username: 'Username is taken' },
        },
      },
    });
    document.cookie = 'csrftoken=t; path=/';
    const error = await api.post('/api/auth/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid input',
      code: 'validation_error',
      fields: { username: 'Username is taken' },
    });
    expect(errorMessage(error, 'fallback')).toBe('Invalid input');
  });

  it('keeps the extra keys of an error body', async () => {
    mockFetch({
      'POST /api/nominations': {
        status: 409,
        body: { message: 'Already nominated', code: 'duplicate_nomination', nominationId: 41 },
      },
    });
    document.cookie = 'csrftoken=t; path=/';
    const error = await api.post('/api/nominations', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: 'duplicate_nomination', fields: undefined });
    expect((error as ApiError).body).toMatchObject({ nominationId: 41 });
  });

  it('uses "{status}: {body}" for any other error body', async () => {
    mockFetch({
      'GET /api/a': { status: 502, body: 'Bad gateway from proxy' },
      'GET /api/b': { status: 500 },
      'GET /api/c': { status: 404, body: { detail: 'Not found' } },
    });
    const a = await api.get('/api/a').catch((e: unknown) => e);
    expect(a).toMatchObject({
      status: 502,
      message: '502: Bad gateway from proxy',
      code: undefined,
    });
    const b = await api.get('/api/b').catch((e: unknown) => e);
    expect((b as ApiError).message).toMatch(/^500: /);
    const c = await api.get('/api/c').catch((e: unknown) => e);
    expect((c as ApiError).message).toBe('404: {"detail":"Not found"}');
    expect(errorMessage(a, 'Could not load')).toBe('Could not load');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Could not load')).toBe('Could not load');
  });

  it('reads pages through the Link header', async () => {
    const { requests } = mockFetch({
      'GET /api/nominations': (request) =>
        request.url.includes('cursor=')
          ? { body: [{ id: 3 }] }
          : {
              body: [{ id: 1 }, { id: 2 }],
              headers: { Link: '</api/nominations?sport=soccer&cursor=xyz>; rel="next"' },
            },
    });
    const first = await api.getPage<{ id: number }>('/api/nominations', {
      params: { sport: 'soccer' },
    });
    expect(first).toEqual({
      items: [{ id: 1 }, { id: 2 }],
      nextUrl: '/api/nominations?sport=soccer&cursor=xyz',
    });
    const second = await api.getPage<{ id: number }>(first.nextUrl!);
    expect(second).toEqual({ items: [{ id: 3 }], nextUrl: null });
    expect(requests[1].url).toBe('/api/nominations?sport=soccer&cursor=xyz');
  });
});

describe('nextLink', () => {
  it.each([
    [null, null],
    ['', null],
    ['</a?c=1>; rel="prev"', null],
    ['</a?c=0>; rel="prev", </a?c=2>; rel="next"', '/a?c=2'],
    ['<https://x.example/a?c=2>; rel=next', 'https://x.example/a?c=2'],
  ])('%j -> %j', (header, expected) => {
    expect(nextLink(header)).toBe(expected);
  });
});
