import type { LiveEvent, LiveEventType } from './protocol';

type Handler<T extends LiveEventType> = (event: LiveEvent<T>) => void;

const handlers = new Map<LiveEventType, Set<Handler<LiveEventType>>>();

/**
 * Calls `handler` with every live event of `type`, after the query cache has taken it in.
 * Returns the function that stops it. For screens that react to events beyond the cache: a
 * bell, the admin queue, the wall's animations.
 */
export function subscribeLiveEvents<T extends LiveEventType>(
  type: T,
  handler: Handler<T>,
): () => void {
  let forType = handlers.get(type);
  if (!forType) {
    forType = new Set();
    handlers.set(type, forType);
  }
  const stored = handler as unknown as Handler<LiveEventType>;
  forType.add(stored);
  return () => {
    forType.delete(stored);
  };
}

export function publishLiveEvent(event: LiveEvent) {
  for (const handler of handlers.get(event.type) ?? []) {
    try {
      handler(event);
    } catch (error) {
      // One screen's failing handler must not keep the event from the others.
      console.error(`A ${event.type} handler failed`, error);
    }
  }
}
