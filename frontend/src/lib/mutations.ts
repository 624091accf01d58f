import type { QueryClient } from '@tanstack/react-query';

/**
 * Whether a mutation under `mutationKey` whose variables `match` is on its way: the mutation
 * cache knows at once, before any screen has rendered its button held, so a second click of
 * the same action can be ignored.
 */
export function isMutationInFlight<Variables>(
  queryClient: QueryClient,
  mutationKey: readonly unknown[],
  match: (variables: Variables) => boolean,
): boolean {
  return (
    queryClient.isMutating({
      mutationKey,
      predicate: (mutation) => {
        const variables = mutation.state.variables as Variables | undefined;
        return variables !== undefined && match(variables);
      },
    }) > 0
  );
}
