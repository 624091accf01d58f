import { useEffect, useState } from 'react';

type Pager = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/**
 * A ref for an element at the end of a list: when it comes near the viewport the next page is
 * read. The observer is made again after each page, so an end marker still in view (a short or
 * filtered page) keeps reading until the list ends.
 */
export function useLoadMore({ hasNextPage, isFetchingNextPage, fetchNextPage }: Pager) {
  const [marker, setMarker] = useState<Element | null>(null);
  useEffect(() => {
    if (!marker || !hasNextPage || isFetchingNextPage) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(marker);
    return () => observer.disconnect();
  }, [marker, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return setMarker;
}
