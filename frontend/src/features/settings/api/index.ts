export { settingsKeys } from './keys';
export { settingsQueryOptions } from './get-settings';
export type { Settings } from './types';
