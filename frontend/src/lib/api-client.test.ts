import { afterEach, describe, expect, it } from 'vitest';

import { mockFetch } from '@/testing/fetch-mock';

import {
  api,
  ApiError,
  cursorOf,
  errorMessage,
  getPage,
  nextLink,
  serializeQuery,
  unwrap,
} from './api-client';

afterEach(() => {
  document.cookie = 'csrftoken=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

const nominationBody = { name: 'A', position: 'FW', nationality: 'NL', club: 'Ajax' };

describe('api client', () => {
  it('sends credentials, Accept and no content type or token on a read', async () => {
    const { requests } = mockFetch({
      'GET /api/stats': { body: { nominations: 1, nominationsNeedingVotes: 0, votes: 3 } },
    });
    await expect(
      unwrap(api.GET('/api/stats', { params: { query: { sport: 'hockey' } } })),
    ).resolves.toEqual({ nominations: 1, nominationsNeedingVotes: 0, votes: 3 });
    expect(requests).toHaveLength(1);
    expect(requests[0].url).toBe('/api/stats?sport=hockey');
    expect(requests[0].credentials).toBe('include');
    expect(requests[0].headers['accept']).toBe('application/json');
    expect(requests[0].headers['content-type']).toBeUndefined();
    expect(requests[0].headers['x-csrftoken']).toBeUndefined();
  });

  it('leaves undefined, null and blank query values out, and fills path parameters', async () => {
    const { requests } = mockFetch({
      'GET /api/nominations': { body: [] },
      'GET /api/users/7/nominations': { body: [] },
    });
    await unwrap(
      api.GET('/api/nominations', {
        params: { query: { q: '', sport: null, status: undefined, limit: 5 } },
      }),
    );
    await unwrap(
      api.GET('/api/users/{user_id}/nominations', {
        params: { path: { user_id: 7 }, query: { limit: 2 } },
      }),
    );
    expect(requests.map((r) => r.url)).toEqual([
      '/api/nominations?limit=5',
      '/api/users/7/nominations?limit=2',
    ]);
  });

  it('serialises a query as the server reads it', () => {
    expect(serializeQuery({ a: 'x y', b: 0, c: false, d: '', e: null, f: undefined })).toBe(
      'a=x+y&b=0&c=false',
    );
    expect(serializeQuery({ ids: [1, 2], tag: ['a&b'] })).toBe('ids=1&ids=2&tag=a%26b');
    expect(serializeQuery({})).toBe('');
  });

  it('sends the CSRF cookie on unsafe methods and JSON only with a body', async () => {
    document.cookie = 'csrftoken=abc123; path=/';
    const { requests } = mockFetch({
      'POST /api/votes': { status: 201, body: { nominationId: 7, voteCount: 1, hasVoted: true } },
      'DELETE /api/settings/account': { status: 204 },
      'PUT /api/profile': { body: {} },
    });
    await unwrap(api.POST('/api/votes', { body: { nominationId: 7 } }));
    await expect(unwrap(api.DELETE('/api/settings/account'))).resolves.toBeUndefined();
    await unwrap(api.PUT('/api/profile', { body: { name: 'A' } }));

    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/votes',
      'DELETE /api/settings/account',
      'PUT /api/profile',
    ]);
    expect(requests[0].headers).toMatchObject({
      'x-csrftoken': 'abc123',
      'content-type': 'application/json',
    });
    expect(requests[0].body).toEqual({ nominationId: 7 });
    expect(requests[1].headers['x-csrftoken']).toBe('abc123');
    expect(requests[1].headers['content-type']).toBeUndefined();
    expect(requests[1].body).toBeUndefined();
    expect(requests[2].headers['x-csrftoken']).toBe('abc123');
    expect(requests.every((r) => r.credentials === 'include')).toBe(true);
  });

  it('asks for a CSRF cookie once when it is missing, even for concurrent calls', async () => {
    const { requests } = mockFetch({
      'GET /api/auth/csrf': () => {
        document.cookie = 'csrftoken=fresh; path=/';
        return { body: { csrfToken: 'fresh' } };
      },
      'POST /api/auth/logout': { status: 204 },
    });
    await Promise.all([unwrap(api.POST('/api/auth/logout')), unwrap(api.POST('/api/auth/logout'))]);
    await unwrap(api.POST('/api/auth/logout'));

    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/auth/csrf',
      'POST /api/auth/logout',
      'POST /api/auth/logout',
      'POST /api/auth/logout',
    ]);
    expect(requests[0].headers['x-csrftoken']).toBeUndefined();
    expect(requests.slice(1).every((r) => r.headers['x-csrftoken'] === 'fresh')).toBe(true);
  });

  it('falls back to the token in the CSRF body when no cookie is readable', async () => {
    const { requests } = mockFetch({
      'GET /api/auth/csrf': { body: { csrfToken: 'from-body' } },
      'PUT /api/profile': { body: {} },
    });
    await unwrap(api.PUT('/api/profile', { body: { name: 'A' } }));
    expect(requests[1].headers['x-csrftoken']).toBe('from-body');
  });

  it('fails the unsafe call with an ApiError when the CSRF call fails', async () => {
    const { requests } = mockFetch({ 'GET /api/auth/csrf': { status: 503, body: 'down' } });
    const error = await unwrap(api.POST('/api/auth/logout')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, message: '503: down' });
    expect(requests.map((r) => r.url)).toEqual(['/api/auth/csrf']);
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
    const error = await unwrap(
      api.POST('/api/auth/register', {
        body: {
          username: 'a',
          password: 'b',
          name: 'c',
          email: 'd',
          favoriteSport: 'soccer',
          birthYear: 1990,
          timeZone: '',
          referralCode: '',
        },
      }),
    ).catch((e: unknown) => e);
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
    const error = await unwrap(
      api.POST('/api/nominations', {
        body: { ...nominationBody, skills: 'fast', sport: 'soccer' },
      }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: 'duplicate_nomination', fields: undefined });
    expect((error as ApiError).body).toMatchObject({ nominationId: 41 });
  });

  it('uses "{status}: {body}" for any other error body', async () => {
    mockFetch({
      'GET /api/stats': { status: 502, body: 'Bad gateway from proxy' },
      'GET /api/health': { status: 500 },
      'GET /api/settings': { status: 404, body: { detail: 'Not found' } },
    });
    const a = await unwrap(api.GET('/api/stats')).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(ApiError);
    expect(a).toMatchObject({
      status: 502,
      message: '502: Bad gateway from proxy',
      code: undefined,
    });
    const b = await unwrap(api.GET('/api/health')).catch((e: unknown) => e);
    expect((b as ApiError).message).toMatch(/^500: /);
    const c = await unwrap(api.GET('/api/settings')).catch((e: unknown) => e);
    expect((c as ApiError).message).toBe('404: {"detail":"Not found"}');
    expect(errorMessage(a, 'Could not load')).toBe('Could not load');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Could not load')).toBe('Could not load');
  });

  it('reads a 204 and an empty 200 as undefined', async () => {
    document.cookie = 'csrftoken=t; path=/';
    mockFetch({
      'DELETE /api/admin/users/3': { status: 204 },
      'POST /api/auth/logout': { status: 200 },
    });
    await expect(
      unwrap(api.DELETE('/api/admin/users/{user_id}', { params: { path: { user_id: 3 } } })),
    ).resolves.toBeUndefined();
    await expect(unwrap(api.POST('/api/auth/logout'))).resolves.toBeUndefined();
  });

  it('passes the abort signal on to fetch', async () => {
    const { fetchMock } = mockFetch({ 'GET /api/stats': { body: {} } });
    const controller = new AbortController();
    const call = unwrap(api.GET('/api/stats', { signal: controller.signal }));
    await call;
    const sent = fetchMock.mock.calls[0][0] as Request;
    expect(sent.signal.aborted).toBe(false);
    controller.abort();
    expect(sent.signal.aborted).toBe(true);
  });

  it('reads pages through the Link header, the next one with its cursor', async () => {
    const { requests } = mockFetch({
      'GET /api/feed': (request) =>
        request.url.includes('cursor=')
          ? { body: [{ id: 3 }] }
          : {
              body: [{ id: 1 }, { id: 2 }],
              headers: { Link: '</api/feed?sport=soccer&limit=2&cursor=xy%3Dz>; rel="next"' },
            },
    });
    const first = await getPage('/api/feed', { query: { sport: 'soccer', limit: 2 } }, null);
    expect(first).toEqual({
      items: [{ id: 1 }, { id: 2 }],
      nextUrl: '/api/feed?sport=soccer&limit=2&cursor=xy%3Dz',
    });
    const second = await getPage(
      '/api/feed',
      { query: { sport: 'soccer', limit: 2 } },
      first.nextUrl,
    );
    expect(second).toEqual({ items: [{ id: 3 }], nextUrl: null });
    expect(requests.map((r) => r.url)).toEqual([
      '/api/feed?sport=soccer&limit=2',
      '/api/feed?sport=soccer&limit=2&cursor=xy%3Dz',
    ]);
  });

  it('pages a list with a path parameter', async () => {
    const { requests } = mockFetch({ 'GET /api/users/4/nominations': { body: [] } });
    await getPage('/api/users/{user_id}/nominations', { path: { user_id: 4 } }, '/x?cursor=c1');
    expect(requests[0].url).toBe('/api/users/4/nominations?cursor=c1');
  });
});

describe('cursorOf', () => {
  it('reads the cursor of a next address and refuses one without', () => {
    expect(cursorOf('/api/feed?sport=soccer&cursor=a%2Bb')).toBe('a+b');
    expect(() => cursorOf('/api/feed?sport=soccer')).toThrow(/No cursor/);
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
