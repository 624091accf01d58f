export { feedKeys, followKeys, scoutKeys, type FeedFilters } from './keys';
export { prependActivities } from './get-feed';
export type { Activity } from './types';
