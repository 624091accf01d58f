import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { DocumentTitle } from '@/components/ui/document-title';
import { WallScreen } from '@/features/wall/components/wall-screen';
import { BOARD_KINDS, parseBoard } from '@/lib/boards';
import { isSport, sportOption, useSport } from '@/stores/sport';

/** How long each board stays on the wall when they rotate (`?rotate=` overrides). */
const ROTATE_SECONDS = 20;

/**
 * The full-screen live leaderboard for a TV: no header, no footer, nothing to click. `?sport=`
 * picks the sport; it becomes the selected one, which the live socket follows. The players'
 * boards rotate every `?rotate=` seconds (20 by default), or `?board=all|trending|weekly` keeps
 * one.
 */
export default function WallPage() {
  const [searchParams] = useSearchParams();
  const requested = searchParams.get('sport');
  const fixed = parseBoard(searchParams.get('board'));
  const rotate = Number(searchParams.get('rotate'));
  const rotateSeconds = Number.isFinite(rotate) && rotate >= 1 ? rotate : ROTATE_SECONDS;
  const { sport, setSport } = useSport();

  useEffect(() => {
    if (isSport(requested)) setSport(requested);
  }, [requested, setSport]);

  const shown = isSport(requested) ? requested : sport;
  return (
    <>
      <DocumentTitle title={`${sportOption(shown).label} Live Wall`} />
      <WallScreen
        sport={shown}
        boards={fixed ? [fixed] : BOARD_KINDS}
        rotateSeconds={rotateSeconds}
      />
    </>
  );
}
