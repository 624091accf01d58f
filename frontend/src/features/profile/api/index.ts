export { profileKeys } from './keys';
export { profileQueryOptions } from './get-profile';
export type { Profile } from './types';
