import { useEffect, useState } from 'react';

type Pager = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/**
 * A ref for an element at the end of a list: when it comes within `rootMargin` of the viewport
 * the next page is read. The observer is made again after each page, so an end marker still in
 * view (a short or filtered page) keeps reading until the list ends. The caller also shows a
 * button for the same action, for keyboards and browsers without the observer.
 */
export function useLoadMore(
  { hasNextPage, isFetchingNextPage, fetchNextPage }: Pager,
  rootMargin = '0px 0px 600px 0px',
) {
  const [marker, setMarker] = useState<Element | null>(null);
  useEffect(() => {
    if (!marker || !hasNextPage || isFetchingNextPage) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin },
    );
    observer.observe(marker);
    return () => observer.disconnect();
  }, [marker, hasNextPage, isFetchingNextPage, fetchNextPage, rootMargin]);
  return setMarker;
}
