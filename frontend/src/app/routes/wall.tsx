import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { DocumentTitle } from '@/components/ui/document-title';
import { WallScreen } from '@/features/wall/components/wall-screen';
import { isSport, sportOption, useSport } from '@/stores/sport';

/**
 * The full-screen live leaderboard for a TV: no header, no footer, nothing to click. `?sport=`
 * picks the sport; it becomes the selected one, which the live socket follows.
 */
export default function WallPage() {
  const requested = useSearchParams()[0].get('sport');
  const { sport, setSport } = useSport();

  useEffect(() => {
    if (isSport(requested)) setSport(requested);
  }, [requested, setSport]);

  const shown = isSport(requested) ? requested : sport;
  return (
    <>
      <DocumentTitle title={`${sportOption(shown).label} Live Wall`} />
      <WallScreen sport={shown} />
    </>
  );
}
