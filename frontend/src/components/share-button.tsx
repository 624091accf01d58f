import { Share2 } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { toast } from '@/stores/toast';

type ShareButtonProps = {
  /** The page's path (``/nominations/12``): the canonical address shared is this site's. */
  path: string;
  /** What the share sheet titles the link with. */
  title: string;
  /** Called once the link was shared or copied (not when the share sheet was closed). */
  onShared?: () => void;
};

/** The canonical address of a path: this origin, no query or fragment. */
function canonicalUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}

/**
 * Shares the page: the browser's share sheet where it has one (navigator.share), otherwise
 * copies the address, with a "Link copied" toast. Closing the share sheet is not an error.
 */
export function ShareButton({ path, title, onShared }: ShareButtonProps) {
  async function share() {
    const url = canonicalUrl(path);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        onShared?.();
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: url });
      onShared?.();
    } catch {
      toast({ variant: 'destructive', description: `Could not copy the link: ${url}` });
    }
  }

  return (
    <Button variant="outline" size="sm" onClick={() => void share()}>
      <Share2 className="h-4 w-4" aria-hidden="true" />
      Share
    </Button>
  );
}
