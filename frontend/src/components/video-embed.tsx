import { Play } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';

export type Video = {
  host: 'youtube' | 'vimeo' | 'hudl';
  url: string;
  embedUrl: string;
};

const HOST_NAMES: Record<Video['host'], string> = {
  youtube: 'YouTube',
  vimeo: 'Vimeo',
  hudl: 'Hudl',
};

/**
 * A video from YouTube, Vimeo or Hudl, loaded only when the reader asks: until the click the
 * page makes no request to the video's host (no thumbnail, no script, no iframe), then the
 * privacy-enhanced embed the server chose (youtube-nocookie.com, Vimeo with dnt=1, Hudl's
 * embed) takes the placeholder's place.
 */
export function VideoEmbed({ video, title }: { video: Video; title: string }) {
  const [playing, setPlaying] = useState(false);
  const host = HOST_NAMES[video.host];
  if (playing) {
    return (
      <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
        <iframe
          src={video.embedUrl}
          title={`${title} (video on ${host})`}
          className="h-full w-full"
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }
  return (
    <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-lg border border-border bg-muted p-4 text-center">
      <Button type="button" aria-label={`Play video: ${title}`} onClick={() => setPlaying(true)}>
        <Play aria-hidden="true" />
        Play video
      </Button>
      <p className="text-xs text-muted-foreground">
        Loads the video from {host}, which may set its own cookies.
      </p>
    </div>
  );
}
