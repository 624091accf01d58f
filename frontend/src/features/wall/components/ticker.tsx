import { Activity } from 'lucide-react';
import { useRef } from 'react';

import { activityLine } from '@/lib/activity-text';

import type { WallActivity } from '../api/types';
import { useFlip } from '../hooks/use-flip';

/** The newest community activity of the sport in one line; arrivals push the rest along. */
export function Ticker({ activities }: { activities: WallActivity[] }) {
  const line = useRef<HTMLUListElement>(null);
  useFlip(line, activities.map((activity) => activity.id).join(','));

  return (
    <section
      aria-label="Recent activity"
      className="flex h-[7vh] shrink-0 items-center gap-[1.5vw] overflow-hidden rounded-[1vh] bg-slate-900 px-[1.5vw]"
    >
      <span className="flex shrink-0 items-center gap-[0.6vw] text-[clamp(0.8rem,2.2vh,1.9rem)] font-black tracking-widest text-orange-400 uppercase">
        <Activity className="size-[1.2em]" aria-hidden="true" />
        Live
      </span>
      {activities.length === 0 ? (
        <p className="text-[clamp(0.8rem,2.2vh,1.9rem)] text-slate-400">
          Activity appears here as the community votes and nominates.
        </p>
      ) : (
        <ul ref={line} className="relative flex min-w-0 flex-1 gap-[2.5vw] whitespace-nowrap">
          {activities.map((activity) => (
            <li
              key={activity.id}
              data-flip-key={activity.id}
              className="text-[clamp(0.8rem,2.2vh,1.9rem)] text-slate-200"
            >
              {activityLine(activity)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
