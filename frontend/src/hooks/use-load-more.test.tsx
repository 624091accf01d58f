import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useLoadMore } from './use-load-more';

/** jsdom has no IntersectionObserver: this one records what it watches and lets a test
 * scroll an element into view. */
class ScrollingObserver {
  static live: ScrollingObserver[] = [];
  readonly watched: Element[] = [];
  readonly callback: IntersectionObserverCallback;
  readonly options: IntersectionObserverInit;

  constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = callback;
    this.options = options;
    ScrollingObserver.live.push(this);
  }

  observe(element: Element) {
    this.watched.push(element);
  }

  disconnect() {
    ScrollingObserver.live = ScrollingObserver.live.filter((observer) => observer !== this);
  }

  static scrollIntoView(element: Element) {
    for (const observer of [...ScrollingObserver.live]) {
      if (!observer.watched.includes(element)) continue;
      const entry = { isIntersecting: true, target: element } as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}

type ListProps = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  rootMargin?: string;
};

function List({ rootMargin, ...pager }: ListProps) {
  const marker = useLoadMore(pager, rootMargin);
  return <div ref={marker}>end of list</div>;
}

beforeEach(() => {
  ScrollingObserver.live = [];
  vi.stubGlobal('IntersectionObserver', ScrollingObserver);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useLoadMore', () => {
  it('reads the next page when the end of the list comes into view', () => {
    const fetchNextPage = vi.fn();
    render(<List hasNextPage isFetchingNextPage={false} fetchNextPage={fetchNextPage} />);
    expect(fetchNextPage).not.toHaveBeenCalled();
    act(() => ScrollingObserver.scrollIntoView(screen.getByText('end of list')));
    expect(fetchNextPage).toHaveBeenCalledTimes(1);
    expect(ScrollingObserver.live[0].options.rootMargin).toBe('0px 0px 600px 0px');
  });

  it('watches nothing while a page is read or when no page is left', () => {
    const fetchNextPage = vi.fn();
    const { rerender } = render(
      <List hasNextPage isFetchingNextPage fetchNextPage={fetchNextPage} />,
    );
    expect(ScrollingObserver.live).toHaveLength(0);
    rerender(<List hasNextPage={false} isFetchingNextPage={false} fetchNextPage={fetchNextPage} />);
    expect(ScrollingObserver.live).toHaveLength(0);
    act(() => ScrollingObserver.scrollIntoView(screen.getByText('end of list')));
    expect(fetchNextPage).not.toHaveBeenCalled();
  });

  it('keeps reading after a page while the end stays in view, with the caller’s margin', () => {
    const fetchNextPage = vi.fn();
    const props = { fetchNextPage, rootMargin: '400px 0px', hasNextPage: true };
    const { rerender } = render(<List {...props} isFetchingNextPage={false} />);
    const end = screen.getByText('end of list');
    act(() => ScrollingObserver.scrollIntoView(end));
    rerender(<List {...props} isFetchingNextPage />);
    rerender(<List {...props} isFetchingNextPage={false} />);
    // After the page a new observer watches the end (a browser reports it at once if in view).
    expect(ScrollingObserver.live).toHaveLength(1);
    expect(ScrollingObserver.live[0].options.rootMargin).toBe('400px 0px');
    act(() => ScrollingObserver.scrollIntoView(end));
    expect(fetchNextPage).toHaveBeenCalledTimes(2);
  });
});
