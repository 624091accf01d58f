import { describe, expect, it } from 'vitest';

import { createQueryClient } from './query-client';

describe('query client defaults', () => {
  it('never goes stale, never refetches on its own and never retries', () => {
    const options = createQueryClient().getDefaultOptions();
    expect(options.queries).toMatchObject({
      staleTime: Infinity,
      gcTime: 300_000,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    });
    expect(options.mutations).toMatchObject({ retry: false });
  });
});
