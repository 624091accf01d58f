/**
 * Proof that the API client is checked against the server's OpenAPI types. Nothing imports this
 * file, so it is never bundled; `npm run typecheck` (tsconfig.app.json includes src) compiles
 * it. Each `@ts-expect-error` marks a call that drifts from `paths`: should the client stop
 * being typed (a `createClient<any>`, a hand-picked response type), the error would go away and
 * the unused directive would fail the typecheck instead.
 */
import { api, getPage, unwrap } from '@/lib/api-client';

const SEVEN = 'seven';

export async function driftCheck(signal: AbortSignal) {
  // The same calls as they should be: these compile.
  const nomination = await unwrap(
    api.GET('/api/nominations/{nomination_id}', { params: { path: { nomination_id: 7 } } }),
  );
  const vote = await unwrap(api.POST('/api/votes', { body: { nominationId: nomination.id } }));
  const page = await getPage('/api/feed', { query: { sport: 'soccer', limit: 5 } }, null, signal);

  // A path the server does not have.
  // @ts-expect-error -- no such path
  await api.GET('/api/nominationz');
  // A method the path does not take.
  // @ts-expect-error -- no PUT on /api/votes
  await api.PUT('/api/votes', { body: { nominationId: 1 } });

  // A path parameter of the wrong type, and one missing.
  // @ts-expect-error -- nomination_id is a number
  await api.GET('/api/nominations/{nomination_id}', { params: { path: { nomination_id: SEVEN } } });
  // @ts-expect-error -- the path needs nomination_id
  await api.GET('/api/nominations/{nomination_id}', { params: { path: {} } });

  // A query parameter the server does not take, and one of the wrong type.
  // @ts-expect-error -- the parameter is `sport`
  await api.GET('/api/stats', { params: { query: { sports: 'soccer' } } });
  // @ts-expect-error -- limit is a number
  await api.GET('/api/feed', { params: { query: { limit: 'all' } } });

  // A body field the server does not take, one missing, one of the wrong type.
  // @ts-expect-error -- VoteIn has no `stars`
  await api.POST('/api/votes', { body: { nominationId: 1, stars: 5 } });
  // @ts-expect-error -- VoteIn needs nominationId
  await api.POST('/api/votes', { body: {} });
  await api.PUT('/api/admin/players/{player_id}/verified', {
    params: { path: { player_id: 1 } },
    // @ts-expect-error -- verified is a boolean
    body: { verified: 'yes' },
  });

  // A response field the server does not send, and one of another type.
  // @ts-expect-error -- VoteOut has voteCount, not votes
  void vote.votes;
  // @ts-expect-error -- voteCount is a number
  const count: string = vote.voteCount;

  // The paged lists: a path that is not one, a parameter it does not take, an item's field.
  // @ts-expect-error -- /api/stats is not a paged list
  await getPage('/api/stats', {}, null);
  // @ts-expect-error -- the feed has no `page` parameter
  await getPage('/api/feed', { query: { page: 2 } }, null);
  // @ts-expect-error -- the cursor comes from the next page's address, not from the caller
  await getPage('/api/feed', { query: { cursor: 'abc' } }, null);
  // @ts-expect-error -- an activity has activityType, not kind
  void page.items[0].kind;

  return { nomination, vote, page, count };
}
